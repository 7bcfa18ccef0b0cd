#pragma once
// Seek: the state at any event of a stored game without refolding it from
// the start. Snapshots of folded state are laid every N events (import,
// `warlog snapshot`); a seek loads the nearest valid one at or before the
// event and folds forward from it.
//
// A snapshot is a cache and is never trusted. One is used only if its bytes
// decode and its header names this engine version, this game, its own seq,
// the ruleset and catalog the seek folds under, and the hash chain through
// its seq as the stored events give it now (so a snapshot outlives nothing
// it was folded from). Anything else is discarded: the seek falls back to an
// earlier snapshot or to the start, and on a writable store, folding under
// the game's recorded ruleset and catalog, writes the snapshot back correct.
//
// Snapshots are keyed by the ruleset's content hash (store/keys.hpp), so the
// recorded ruleset gets them; a seek under an override ruleset or catalog
// uses a snapshot only if one matching it exists, else folds from the start,
// and never writes.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

#include "warlog/core/error.hpp"
#include "warlog/core/hash.hpp"
#include "warlog/replay/replay.hpp"

namespace warlog::replay {

// Snapshots every this many events unless told otherwise. A seek decodes
// one snapshot (~9 us) and folds at most N - 1 events past it (~0.5 us each,
// decode included), so N bounds the worst case. Measured in a 1,000,000-event
// game (2 cores shared with other builds, RelWithDebInfo), p99 of random
// seeks over five runs: 0.19-0.30 ms at N = 250, 0.33-0.54 ms at 500,
// 0.53-0.99 ms at 1000, 1.7 ms at 2000; a full refold 314 ms at the median.
// A snapshot is ~1.5 KB, so N = 500 costs 2.9 MiB per million events (under
// 2% of the events' own size) and keeps the 1 ms p99 target with a margin
// that N = 1000 does not have on a busy machine. docs/architecture.md › Seek.
inline constexpr core::Seq kDefaultSnapshotEvery = 500;

struct SeekOptions {
  AuditOptions overrides;  // fold under these instead of the recorded ruleset / catalog
  // On a writable store, under the recorded ruleset and catalog: write back
  // the stale snapshots a seek discarded, and lay one every `every` events
  // along a fold longer than `every` (after an engine upgrade, say).
  bool repair = true;
  core::Seq every = kDefaultSnapshotEvery;
};

// A moment of a game, with what the viewer needs to show what changed.
struct SeekResult {
  Moment moment;           // the state after `moment.seq`, that event, its findings
  core::GameState before;  // the state before that event
  // Where the fold started: the snapshot's seq, or nullopt for the start.
  std::optional<core::Seq> snapshot_seq;
  core::Seq folded = 0;        // events applied, the one at moment.seq included
  std::size_t discarded = 0;   // snapshots passed over (stale or foreign)
  std::size_t written = 0;     // snapshots written back by repair
  std::optional<Error> repair_error;  // the seek stands; writing the cache failed
};

// Seeks in one game under one ruleset and catalog. A value over shared,
// immutable parts: cheap to copy; the Archive must outlive it. Each seek is
// one read transaction, so it sees events appended since the last.
class Seeker {
 public:
  // Errors: NotFound for an unknown game; DataLoss when the recorded catalog
  // or ruleset is missing from the store.
  [[nodiscard]] static Expected<Seeker> open(const Archive& archive, core::GameId game, SeekOptions options = {});

  // The moment at `seq`, clamped to the last event. Errors: NotFound (game
  // gone, or no events), DataLoss for an event that is missing or does not
  // decode (run verify).
  [[nodiscard]] Expected<SeekResult> seek(core::Seq seq) const;

  [[nodiscard]] core::GameId game() const noexcept { return game_; }
  [[nodiscard]] const core::Catalog& catalog() const noexcept { return *catalog_; }
  [[nodiscard]] const core::Ruleset& ruleset() const noexcept { return *ruleset_; }
  // Folding under the game's recorded ruleset and catalog (snapshots may be written).
  [[nodiscard]] bool recorded() const noexcept { return recorded_; }

 private:
  Seeker() = default;
  const Archive* archive_ = nullptr;
  core::GameId game_ = 0;
  std::shared_ptr<const core::Catalog> catalog_;
  std::shared_ptr<const core::Ruleset> ruleset_;
  std::optional<core::Digest> ruleset_digest_;  // none: the ruleset has no content hash, no snapshots
  bool recorded_ = false;
  bool repair_ = true;
  core::Seq every_ = kDefaultSnapshotEvery;
};

// One seek without keeping a Seeker.
[[nodiscard]] Expected<SeekResult> seek(const Archive& archive, core::GameId game, core::Seq seq,
                                        const SeekOptions& options = {});

// --- Building snapshots ---------------------------------------------------------

struct SnapshotBuild {
  core::GameId game = 0;
  core::Seq events = 0;         // events folded
  std::size_t snapshots = 0;    // snapshots written
  std::size_t bytes = 0;        // their total size
  std::size_t largest = 0;      // the largest one
  std::size_t too_large = 0;    // states over events::kMaxSnapshotBytes, not written
};

// Folds the game once under its recorded ruleset and catalog and stores a
// snapshot after every `every`-th event (seq every-1, 2*every-1, ...),
// replacing the game's snapshots under that ruleset and any made by another
// engine version. Memory stays bounded: snapshots are written in batches.
// Errors: InvalidArgument for every == 0 or a read-only store; NotFound;
// DataLoss as seek.
[[nodiscard]] Expected<SnapshotBuild> build_snapshots(const Archive& archive, core::GameId game,
                                                      core::Seq every = kDefaultSnapshotEvery);

// Removes every snapshot of the game; returns how many.
[[nodiscard]] Expected<std::size_t> drop_snapshots(const Archive& archive, core::GameId game);

}  // namespace warlog::replay
