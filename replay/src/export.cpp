// Streaming a stored game out as JSON Lines or Cap'n Proto (export.hpp).

#include "warlog/replay/export.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "warlog/core/hash.hpp"
#include "warlog/core/notation.hpp"
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

namespace {

std::string place_of(const core::Event& ev) {
  return ev.turn == 0 ? std::string(core::to_string(ev.phase))
                      : fmt::format("turn {} {}", ev.turn, core::to_string(ev.phase));
}

// What differs between two events of one seq, in a judge's words.
std::string event_difference(const core::Event& stored, const core::Event& back) {
  std::string out = fmt::format("seq {} ({}): ", stored.seq, core::payload_name(stored.payload));
  if (stored.turn != back.turn || stored.phase != back.phase) {
    return out + fmt::format("stored at {}, read back at {}", place_of(stored), place_of(back));
  }
  if (stored.seat != back.seat) return out + "read back with another acting seat";
  if (stored.recorded_at_ms != back.recorded_at_ms) {
    return out + fmt::format("recorded at {} ms, read back at {} ms", stored.recorded_at_ms, back.recorded_at_ms);
  }
  if (stored.payload.index() != back.payload.index()) {
    return out + fmt::format("read back as {}", core::payload_name(back.payload));
  }
  return out + "read back with other content";
}

}  // namespace

std::optional<std::string> notation_difference(std::span<const core::Event> events, const std::string& text,
                                               const core::Catalog& catalog, const std::string& ruleset_hash) {
  const core::DeckLoader no_decks = [](const std::string&) -> Expected<std::string> {
    return make_error(ErrorCode::NotFound, "an exported game lists its decks inline");
  };
  const core::ParseResult back = core::parse_notation(text, "export", catalog, ruleset_hash, no_decks);
  if (!back.ok()) return fmt::format("it does not read back: {}", back.errors.front().to_string());
  const std::size_t n = std::min(events.size(), back.game.events.size());
  for (std::size_t i = 0; i < n; ++i) {
    core::Event stored = events[i];
    stored.game = 0;
    // The chain covers the canonical bytes: compare those, not only the values.
    if (events::encode_event(stored) != events::encode_event(back.game.events[i])) {
      return event_difference(stored, back.game.events[i]);
    }
  }
  if (events.size() != back.game.events.size()) {
    return fmt::format("{} events stored, {} read back", events.size(), back.game.events.size());
  }
  return std::nullopt;
}

Expected<NotationExport> export_notation_checked(const Archive& archive, core::GameId id) {
  auto events = archive.events(id);
  if (!events) return tl::unexpected(events.error());
  NotationExport out;
  out.text = core::export_notation(*events);
  // The notation stands without them; its check does not.
  auto catalog = archive.catalog_of(id);
  if (!catalog) {
    out.unchecked = catalog.error();
    return out;
  }
  auto ruleset = archive.ruleset_of(id);
  if (!ruleset) {
    out.unchecked = ruleset.error();
    return out;
  }
  out.differs = notation_difference(*events, out.text, *catalog, ruleset->hash);
  return out;
}

}  // namespace warlog::replay
