// verify: walks one game's stream and names the first broken link.

#include <optional>

#include "shared.hpp"
#include "warlog/events/codec.hpp"
#include "warlog/store/keys.hpp"
#include "warlog/store/reader.hpp"

namespace warlog::store {

using Kind = BrokenLink::Kind;

Expected<VerifyReport> Reader::verify(core::GameId game) const {
  const detail::Shared& s = *shared_;
  VerifyReport report;
  report.game = game;
  auto broken = [&](core::Seq seq, Kind kind, std::string what) -> Expected<VerifyReport> {
    report.broken = BrokenLink{game, seq, kind, std::move(what), {}};
    return report;
  };

  auto meta = this->game(game);
  if (!meta && meta.error().code == ErrorCode::NotFound) return tl::unexpected(meta.error());
  if (!meta) return broken(0, Kind::BadMetadata, meta.error().message);

  const std::string_view id_key(reinterpret_cast<const char*>(meta->identity.data()),
                                meta->identity.size());
  auto indexed = lmdb::get(txn_, s.dbi.identity, id_key);
  if (!indexed) return detail::fail(s, "reading the identity index", indexed.error());
  if (!*indexed || (*indexed)->size() != 8 || get_be64((*indexed)->data()) != game) {
    return broken(0, Kind::IdentityMismatch,
                  "the identity index does not point back at this game (metadata altered?)");
  }

  auto cursor = lmdb::Cursor::open(txn_, s.dbi.events);
  if (!cursor) return detail::fail(s, "opening an events cursor", cursor.error());
  const auto start = event_key(game, 0);
  core::Digest running{};
  core::Seq expected = 0;
  for (auto e = cursor->get(MDB_SET_RANGE, view(start));; e = cursor->get(MDB_NEXT)) {
    if (!e) return detail::fail(s, "reading events", e.error());
    if (!*e) break;
    const std::string_view key = cursor->key();
    const std::string_view bytes = cursor->value();
    if (key.size() < 8 || get_be64(key.data()) != game) break;  // past this game's keys
    const auto parts = parse_event_key(key);
    if (!parts) {
      return broken(expected, Kind::BadKey,
                    fmt::format("a key of {} bytes (not 16) after seq {}", key.size(), expected));
    }
    const core::Seq seq = parts->seq;
    if (seq != expected) {
      return broken(
          expected, Kind::Gap,
          fmt::format("event {} is missing: the next stored event is seq {}", expected, seq));
    }
    auto header = events::decode_header(bytes);
    if (!header) {
      return broken(
          seq, Kind::Undecodable,
          fmt::format("{} stored bytes do not decode: {}", bytes.size(), header.error().message));
    }
    if (header->game != game || header->seq != seq) {
      return broken(seq, Kind::HeaderMismatch,
                    fmt::format("the header says game {}, seq {} (moved or reordered)",
                                header->game, header->seq));
    }
    if (header->prev_hash != running) {
      return broken(seq, Kind::ChainMismatch,
                    seq == 0
                        ? std::string("prev_hash of the first event is not zero")
                        : fmt::format("prev_hash does not match the hash of event {}: event {} "
                                      "or this header was altered",
                                      seq - 1, seq - 1));
    }
    auto ev = events::decode_event(bytes);
    if (!ev && ev.error().code == ErrorCode::Unsupported) {
      ++report.unknown_payloads;  // written by a newer warlog; its link still checks
    } else if (!ev) {
      return broken(seq, Kind::Undecodable,
                    fmt::format("the payload does not decode: {}", ev.error().message));
    }
    running = core::chain_hash(running, bytes);
    ++expected;
    report.events_checked = expected;
  }

  if (expected != meta->event_count) {
    return broken(
        expected, Kind::CountMismatch,
        expected < meta->event_count
            ? fmt::format("event {} is missing: the stream ends there, the metadata counts {}",
                          expected, meta->event_count)
            : fmt::format("{} events are stored, the metadata counts {}", expected,
                          meta->event_count));
  }
  if (running != meta->head) {
    const core::Seq last = expected == 0 ? 0 : expected - 1;
    return broken(last, Kind::HeadMismatch,
                  fmt::format("event {} does not hash to the head in the game's metadata: "
                              "event {} or the metadata was altered",
                              last, last));
  }
  // The annotation chain (annotations.cpp).
  auto annotations = verify_annotations(*meta, report.annotations_checked);
  if (!annotations) return tl::unexpected(annotations.error());
  report.broken = std::move(*annotations);
  return report;
}

}  // namespace warlog::store
