#pragma once
// The catalog and ruleset one game is folded under: the options' overrides,
// else the ones the game recorded (from the archive's cache).

#include <memory>
#include <span>
#include <vector>

#include "warlog/replay/replay.hpp"
#include "warlog/store/game_meta.hpp"

namespace warlog::replay {

struct ResolvedContext {
  const core::Catalog* catalog = nullptr;
  const core::Ruleset* ruleset = nullptr;
  std::shared_ptr<const core::Catalog> keep_catalog;  // keeps a cached one alive
  std::shared_ptr<const core::Ruleset> keep_ruleset;
};

// Errors: DataLoss "game N: ..." when a recorded blob is missing. Reads the
// blobs with readers of its own: call it holding no reader, so that a reader
// that finds the map grown by another process can wait for the others and
// adopt it (a thread holding one cannot: store/README.md, "Write path").
[[nodiscard]] Expected<ResolvedContext> resolve_context(const Archive& archive, const store::GameMeta& meta,
                                                        const AuditOptions& options);

// The game's stored metadata, read with a reader of its own (ended on return).
[[nodiscard]] Expected<store::GameMeta> read_meta(const Archive& archive, core::GameId id);

// The summary a game's stored metadata gives (no I/O).
[[nodiscard]] GameSummary summary_of(const store::GameMeta& m);

// Moves `found`, the findings of applying `ev`, onto the end of `out`, each
// with the event's turn, phase and seat and its rule's citation (empty for a
// rule id the registry does not know). Leaves `found` with moved-from items.
void locate_findings(std::vector<core::Finding>& found, const core::Event& ev, std::vector<LocatedFinding>& out);

// The same for findings of many events (a corrected fold's, in seq order):
// each located at the event of its seq in `events`.
void locate_all(const std::vector<core::Finding>& found, std::span<const core::Event> events,
                std::vector<LocatedFinding>& out);

}  // namespace warlog::replay
