// The `annotations` database (layout and rationale: annotations.hpp): an
// append-only side table; the event stream is never touched here.

#include "warlog/store/annotations.hpp"

#include <variant>

#include "shared.hpp"
#include "warlog/events/annotation_codec.hpp"
#include "warlog/store/game_meta.hpp"
#include "warlog/store/reader.hpp"
#include "warlog/store/store.hpp"
#include "write_txn.hpp"

namespace warlog::store {

namespace {

using detail::Shared;

std::string where(core::GameId game, core::Seq seq, std::uint32_t n) {
  return fmt::format("annotation {}:{}:{}", game, seq, n);
}

// Walks the annotations whose key starts with `prefix` (8 bytes: a game; 16:
// an event; empty: all) in key order; fn(record) for each.
template <class Fn>
Expected<void> walk(const Shared& s, MDB_txn* txn, std::string_view prefix, Fn&& fn) {
  auto cursor = lmdb::Cursor::open(txn, s.dbi.annotations);
  if (!cursor) return detail::fail(s, "opening an annotations cursor", cursor.error());
  auto e = prefix.empty() ? cursor->get(MDB_FIRST) : cursor->get(MDB_SET_RANGE, prefix);
  for (;; e = cursor->get(MDB_NEXT)) {
    if (!e) return detail::fail(s, "reading annotations", e.error());
    if (!*e) break;
    const std::string_view key = cursor->key();
    if (key.substr(0, prefix.size()) != prefix) break;
    const auto parts = parse_annotation_key(key);
    if (!parts) {
      return make_error(ErrorCode::DataLoss,
                        fmt::format("store {}: an annotations key is {} bytes, not 20",
                                    s.path.string(), key.size()));
    }
    auto value = events::decode_annotation(cursor->value());
    if (!value) {
      return make_error(value.error().code, fmt::format("{}: {}", where(parts->game, parts->seq, parts->n),
                                                        value.error().message));
    }
    fn(AnnotationRecord{parts->game, parts->seq, parts->n, std::move(*value)});
  }
  return {};
}

std::string_view prefix_of(const EventKey& k) { return view(k); }

}  // namespace

// --- Writing ----------------------------------------------------------------------
Expected<std::uint32_t> Store::append_annotation(core::GameId game, core::Seq seq,
                                                 const core::Annotation& a,
                                                 std::optional<std::uint32_t> expected_next_n) {
  if (const auto* signed_ = std::get_if<core::GameSigned>(&a);
      signed_ != nullptr && signed_->event_count != seq + 1) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("game {}: a signature over {} events is kept at the seq of the "
                                  "last event it covers, not at seq {}",
                                  game, signed_->event_count, seq));
  }
  const std::string bytes = events::encode_annotation(a);
  if (bytes.size() > events::kMaxAnnotationBytes) {
    return make_error(ErrorCode::ResourceExhausted,
                      fmt::format("game {}, seq {}: the annotation encodes to {} bytes, over the "
                                  "limit of {}; nothing was written",
                                  game, seq, bytes.size(), events::kMaxAnnotationBytes));
  }
  return detail::with_write_txn<std::uint32_t>(
      *shared_, Durability::Sync, [&](detail::WriteTxn& w) -> Expected<std::uint32_t> {
        const auto gkey = game_key(game);
        auto raw = w.get(w.s.dbi.games, view(gkey), "reading game metadata");
        if (!raw) return tl::unexpected(raw.error());
        if (!*raw) return make_error(ErrorCode::NotFound, fmt::format("game {} does not exist", game));
        auto meta = decode_game_meta(**raw);
        if (!meta) {
          return make_error(meta.error().code, fmt::format("game {}: {}", game, meta.error().message));
        }
        if (seq >= meta->event_count) {
          return make_error(ErrorCode::NotFound, fmt::format("game {} has no event {} (it has {} events)",
                                                             game, seq, meta->event_count));
        }
        // The records already at this event: their count is the next n.
        std::vector<AnnotationRecord> here;
        const auto prefix = event_key(game, seq);
        if (auto r = walk(w.s, w.txn.handle(), prefix_of(prefix),
                          [&](AnnotationRecord rec) { here.push_back(std::move(rec)); });
            !r) {
          return tl::unexpected(r.error());
        }
        const auto next = static_cast<std::uint32_t>(here.size());
        if (!here.empty() && here.back().n != next - 1) {
          return make_error(ErrorCode::DataLoss,
                            fmt::format("game {}, seq {}: annotation numbers are not 0..{}; an "
                                        "annotation was removed",
                                        game, seq, next - 1));
        }
        if (expected_next_n && *expected_next_n != next) {
          return make_error(ErrorCode::Conflict,
                            fmt::format("game {}, seq {} has {} annotations; the writer expected {} "
                                        "(another writer got there first); nothing written",
                                        game, seq, next, *expected_next_n));
        }
        if (const auto* ruled = std::get_if<core::DisputeRuled>(&a)) {
          const bool found = ruled->dispute < here.size() &&
                             std::holds_alternative<core::DisputeRaised>(here[ruled->dispute].value);
          if (!found) {
            return make_error(ErrorCode::NotFound,
                              fmt::format("there is no dispute {}:{}:{}", game, seq, ruled->dispute));
          }
        }
        const auto key = annotation_key(game, seq, next);
        auto put = w.put(w.s.dbi.annotations, view(key), bytes, MDB_NOOVERWRITE, "writing an annotation");
        if (!put) return tl::unexpected(put.error());
        if (!*put) {
          return make_error(ErrorCode::Internal, fmt::format("{} already exists", where(game, seq, next)));
        }
        return next;
      });
}

// --- Reading ----------------------------------------------------------------------
Expected<std::vector<AnnotationRecord>> Reader::annotations(std::optional<core::GameId> game) const {
  std::vector<AnnotationRecord> out;
  const auto gkey = game_key(game.value_or(0));
  const std::string_view prefix = game ? view(gkey) : std::string_view{};
  if (auto r = walk(*shared_, txn_, prefix, [&](AnnotationRecord rec) { out.push_back(std::move(rec)); }); !r) {
    return tl::unexpected(r.error());
  }
  return out;
}

Expected<std::vector<AnnotationRecord>> Reader::annotations_at(core::GameId game, core::Seq seq) const {
  std::vector<AnnotationRecord> out;
  const auto prefix = event_key(game, seq);
  if (auto r = walk(*shared_, txn_, prefix_of(prefix),
                    [&](AnnotationRecord rec) { out.push_back(std::move(rec)); });
      !r) {
    return tl::unexpected(r.error());
  }
  return out;
}

}  // namespace warlog::store
