#pragma once
// Internal to replay: what seek and build_snapshots share. Both fold stored
// bytes (scan_raw) rather than decoded events, because a snapshot records the
// hash chain through its event, which needs the bytes.

#include <fmt/format.h>

#include <string>
#include <string_view>

#include "warlog/core/fold.hpp"
#include "warlog/core/hash.hpp"
#include "warlog/events/codec.hpp"
#include "warlog/events/snapshot.hpp"

namespace warlog::replay::detail {

// Decodes a stored event and checks its header against its key, as
// Reader::scan does. Errors: DataLoss "game G, seq S: ...", Unsupported.
[[nodiscard]] inline Expected<core::Event> decode_stored(core::GameId game, core::Seq seq, std::string_view bytes) {
  auto ev = events::decode_event(bytes);
  if (!ev) return make_error(ev.error().code, fmt::format("game {}, seq {}: {}", game, seq, ev.error().message));
  if (ev->game != game || ev->seq != seq) {
    return make_error(ErrorCode::DataLoss, fmt::format("game {}, seq {}: the stored header says game {}, seq {}; "
                                                       "run verify",
                                                       game, seq, ev->game, ev->seq));
  }
  return ev;
}

// The hash chain through a stored event: BLAKE2b(its prev_hash ‖ its bytes),
// what the next event's prev_hash (or the game's head) holds.
[[nodiscard]] inline Expected<core::Digest> chain_through(std::string_view bytes) {
  auto h = events::decode_header(bytes);
  if (!h) return tl::unexpected(h.error());
  return core::chain_hash(h->prev_hash, bytes);
}

// A snapshot of `state` after the stored event (seq, bytes), folded under ctx.
[[nodiscard]] inline Expected<std::string> snapshot_of(const core::GameState& state, core::GameId game,
                                                       core::Seq seq, std::string_view bytes,
                                                       const core::Catalog& catalog, const core::Ruleset& ruleset) {
  auto chain = chain_through(bytes);
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
