// Streaming a stored game out as JSON Lines or Cap'n Proto (export.hpp).

#include "warlog/replay/export.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "warlog/core/hash.hpp"
#include "warlog/events/codec.hpp"
#include "warlog/events/framing.hpp"
#include "warlog/replay/event_json.hpp"
#include "warlog/store/reader.hpp"
#include "warlog/store/store.hpp"

namespace warlog::replay {

Expected<ExportStats> export_game(const Archive& archive, core::GameId id, ExportFormat format, std::ostream& out) {
  auto reader = archive.store().reader();
  if (!reader) return tl::unexpected(reader.error());
  ExportStats stats;
  std::optional<Error> failed;
  auto fail = [&](core::Seq seq, const Error& e) {
    failed = Error{e.code, fmt::format("game {}, seq {}: {}", id, seq, e.message)};
    return false;
  };
  auto n = reader->scan_raw(id, 0, store::kEndSeq, [&](core::Seq seq, std::string_view bytes) {
    stats.stored_bytes += bytes.size();
    std::string line;
    switch (format) {
      case ExportFormat::CapnpPacked:
        line = events::packed(bytes);
        break;
      case ExportFormat::CapnpBinary:
        line = events::framed(bytes);
        break;
      case ExportFormat::JsonLines: {
        auto ev = events::decode_event(bytes);
        if (!ev) return fail(seq, ev.error());
        ev->game = id;
        nlohmann::json j = event_json(*ev);
        // Invalid UTF-8 in a stored string must not abort the export.
        line = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
        break;
      }
    }
    out.write(line.data(), static_cast<std::streamsize>(line.size()));
    stats.bytes_written += line.size();
    return true;
  });
  if (!n) return tl::unexpected(n.error());
  if (failed) return tl::unexpected(*failed);
  stats.events = *n;
  if (!out) return make_error(ErrorCode::IoError, "writing the export failed");
  return stats;
}

}  // namespace warlog::replay
