// Reader::chain_through: the chain value a snapshot of the state after an
// event is bound to (reader.hpp; the snapshot cache, snapshot_cache.hpp).
// Format 2: the event chain head of the game's first seq + 1 events
// (Reader::head_at), read from the block holding seq and checked as it is
// read, so a snapshot cannot outlive an edit of the events before it.

#include <fmt/format.h>

#include "warlog/store/reader.hpp"

namespace warlog::store {

Expected<core::Digest> Reader::chain_through(core::GameId game, core::Seq seq) const {
  auto meta = this->game(game);
  if (!meta) return tl::unexpected(meta.error());
  if (seq >= meta->event_count) {
    return make_error(ErrorCode::NotFound,
                      fmt::format("game {} has no event {} ({} events)", game, seq, meta->event_count));
  }
  return head_at(game, seq + 1);
}

}  // namespace warlog::store
