#pragma once
// A stored game written out for other tools (`warlog export --format ...`).
//
//   json          JSON Lines: one event_json() object per line (event_json.hpp)
//                 plus "prev_hash", the stored header's chain link (hex)
//   capnp         the stored packed Cap'n Proto messages, byte for byte,
//                 concatenated: each one hashes exactly as the store chained
//                 it, and `capnp convert packed:text events/schema/warlog.capnp
//                 Event` reads the stream (capnp 0.9.2 reads message after
//                 message until the end of its input)
//   capnp-binary  the same messages in the standard unpacked framing, for
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
  std::uint64_t stored_bytes = 0;  // the events' values in the store (packed), keys excluded
};

// Streams game `id` to out, one event at a time. Errors: NotFound; DataLoss
// for a stored event that does not decode (what was written before stays).
[[nodiscard]] Expected<ExportStats> export_game(const Archive& archive, core::GameId id, ExportFormat format,
                                                std::ostream& out);

}  // namespace warlog::replay
