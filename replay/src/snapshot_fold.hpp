#pragma once
// Internal to replay: what seek and build_snapshots share. Both fold stored
// bytes (scan_raw), which the reader has checked against the block chain; a
// snapshot records the chain head through its event (Reader::head_at).

#include <fmt/format.h>

#include <string>
#include <string_view>

#include "warlog/core/fold.hpp"
#include "warlog/core/hash.hpp"
#include "warlog/events/codec.hpp"
#include "warlog/events/snapshot.hpp"
#include "warlog/store/reader.hpp"

namespace warlog::replay::detail {

// Decodes a stored event and checks its header against its key, as
// Reader::scan does. Errors: DataLoss "game G, seq S: ...", Unsupported.
[[nodiscard]] inline Expected<core::Event> decode_stored(core::GameId game, core::Seq seq, std::string_view bytes) {
  auto ev = events::decode_event(bytes);
  if (!ev) return make_error(ev.error().code, fmt::format("game {}, seq {}: {}", game, seq, ev.error().message));
  if (ev->seq != seq) {
    return make_error(ErrorCode::DataLoss,
                      fmt::format("game {}, seq {}: the stored header says seq {}; run verify", game, seq, ev->seq));
  }
  ev->game = game;
  return ev;
}

// The event chain head through a stored event (the head of the game's first
// seq + 1 events): what a snapshot after it is bound to.
[[nodiscard]] inline Expected<core::Digest> chain_through(const store::Reader& reader, core::GameId game,
                                                          core::Seq seq) {
  return reader.head_at(game, seq + 1);
}

// A snapshot of `state` after the stored event at seq, folded under ctx.
[[nodiscard]] inline Expected<std::string> snapshot_of(const store::Reader& reader, const core::GameState& state,
                                                       core::GameId game, core::Seq seq,
                                                       const core::Catalog& catalog, const core::Ruleset& ruleset) {
  auto chain = chain_through(reader, game, seq);
  if (!chain) return tl::unexpected(chain.error());
  events::SnapshotHeader h;
  h.engine_version = core::kEngineVersion;
  h.ruleset_hash = ruleset.hash;
  h.catalog_hash = catalog.hash();
  h.game = game;
  h.seq = seq;
  h.chain_hash = *chain;
  return events::encode_snapshot(state, h);
}

}  // namespace warlog::replay::detail
