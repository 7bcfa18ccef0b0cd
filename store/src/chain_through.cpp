// Reader::chain_through: the chain value a snapshot of the state after an
// event is bound to (reader.hpp; the snapshot cache, snapshot_cache.hpp).
// Format 1 reads it from the stored chain rather than hashing the events
// again: the next event's prev_hash, or the game's head.

#include <fmt/format.h>

#include "shared.hpp"
#include "warlog/events/codec.hpp"
#include "warlog/store/keys.hpp"
#include "warlog/store/reader.hpp"

namespace warlog::store {

Expected<core::Digest> Reader::chain_through(core::GameId game, core::Seq seq) const {
  auto meta = this->game(game);
  if (!meta) return tl::unexpected(meta.error());
  if (seq >= meta->event_count) {
    return make_error(ErrorCode::NotFound,
                      fmt::format("game {} has no event {} ({} events)", game, seq, meta->event_count));
  }
  if (seq + 1 == meta->event_count) return meta->head;
  const auto key = event_key(game, seq + 1);
  auto raw = lmdb::get(txn_, shared_->dbi.events, view(key));
  if (!raw) return detail::fail(*shared_, "reading an event", raw.error());
  if (!*raw) {
    return make_error(ErrorCode::DataLoss, fmt::format("game {}, seq {}: the event is missing; run verify", game, seq + 1));
  }
  auto header = events::decode_header(**raw);
  if (!header) {
    return make_error(ErrorCode::DataLoss, fmt::format("game {}, seq {}: {}", game, seq + 1, header.error().message));
  }
  return header->prev_hash;
}

}  // namespace warlog::store
