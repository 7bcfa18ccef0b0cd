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
#include <ostream>

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

}  // namespace warlog::replay
