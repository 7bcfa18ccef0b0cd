#pragma once
// A stored game written out for other tools (`warlog export --format ...`).
//
//   json          JSON Lines: one event_json() object per line (event_json.hpp)
//   capnp         the stored canonical messages in Cap'n Proto's packed
//                 framing, concatenated: `capnp convert packed:text
//                 events/schema/warlog.capnp Event` reads the stream (capnp
//                 0.9.2 reads message after message until the end of its
//                 input); unpacked, each one's segment is the canonical bytes
//                 the store chained (store format 2 chains canonical bytes)
//   capnp-binary  the same messages in the standard unpacked framing (a
//                 segment table, then the canonical bytes as stored), for
//                 `capnp convert binary:text` and readers without packing

#include <cstdint>
#include <optional>
#include <ostream>
#include <span>
#include <string>

#include "warlog/core/error.hpp"
#include "warlog/core/event.hpp"
#include "warlog/replay/replay.hpp"

namespace warlog::replay {

enum class ExportFormat : std::uint8_t { JsonLines, CapnpPacked, CapnpBinary };

struct ExportStats {
  core::Seq events = 0;
  std::uint64_t bytes_written = 0;
  std::uint64_t stored_bytes = 0;  // the events' canonical bytes as stored, block framing excluded
};

// Streams game `id` to out, one event at a time. Errors: NotFound; DataLoss
// for a stored event that does not decode (what was written before stays).
[[nodiscard]] Expected<ExportStats> export_game(const Archive& archive, core::GameId id, ExportFormat format,
                                                std::ostream& out);

// --- The notation, checked -----------------------------------------------------------
// export_notation(events) read back as import reads it (against the game's
// catalog and ruleset hash) must give the very events stored, byte for byte
// in their canonical encoding, so that a re-import is the same game with the
// same chain head (issue 16, docs/rulings.md R-080). What it does not carry,
// or nullopt: "seq 14 (GameEnded): stored at turn 2 attrition, read back at
// turn 3 muster".
[[nodiscard]] std::optional<std::string> notation_difference(std::span<const core::Event> events,
                                                             const std::string& text, const core::Catalog& catalog,
                                                             const std::string& ruleset_hash);

struct NotationExport {
  std::string text;                    // export_notation of the stored events
  std::optional<std::string> differs;  // notation_difference: what a re-import would change
  std::optional<Error> unchecked;      // why it could not be read back (its catalog or ruleset)
};
// Errors: as Archive::events.
[[nodiscard]] Expected<NotationExport> export_notation_checked(const Archive& archive, core::GameId id);

}  // namespace warlog::replay
