#pragma once
// Internal to replay: what seek, build_snapshots and check_snapshots share.
// They fold stored bytes (scan_raw) and bind each snapshot to the chain value
// through its event (Reader::chain_through) in the user's snapshot cache.

#include <fmt/format.h>

#include <optional>
#include <string>
#include <string_view>

#include "warlog/core/fold.hpp"
#include "warlog/core/hash.hpp"
#include "warlog/events/codec.hpp"
#include "warlog/events/snapshot.hpp"
#include "warlog/store/reader.hpp"
#include "warlog/store/snapshot_cache.hpp"

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

// What a game's snapshots under one ruleset and catalog are bound to, but
// the seq and chain value of each.
struct CacheScope {
  core::GameId game = 0;  // local: written in the header, never checked (the key holds the identity)
  core::Digest identity{};
  core::Digest ruleset{};
  core::Digest catalog{};
  const core::Catalog* catalog_value = nullptr;
  const core::Ruleset* ruleset_value = nullptr;

  [[nodiscard]] store::SnapshotBinding at(core::Seq seq, const core::Digest& chain) const noexcept {
    return store::SnapshotBinding{identity, seq, chain, ruleset, catalog, core::kEngineVersion};
  }
};

// A snapshot of `state` after event seq, whose chain value is `chain`.
[[nodiscard]] inline std::string snapshot_of(const core::GameState& state, const CacheScope& scope, core::Seq seq,
                                             const core::Digest& chain) {
  events::SnapshotHeader h;
  h.engine_version = core::kEngineVersion;
  h.ruleset_hash = scope.ruleset_value->hash;
  h.catalog_hash = scope.catalog_value->hash();
  h.game = scope.game;
  h.seq = seq;
  h.chain_hash = chain;
  return events::encode_snapshot(state, h);
}

// The state in authentic cached bytes if they decode and their header
// agrees with the key they were found under; nullopt otherwise (a bug, a
// foreign engine, a forger holding the user's key).
[[nodiscard]] inline std::optional<core::GameState> usable_state(std::string_view bytes, const CacheScope& scope,
                                                                 core::Seq seq, const core::Digest& chain) {
  auto snap = events::decode_snapshot(bytes);
  if (!snap) return std::nullopt;
  const events::SnapshotHeader& h = snap->header;
  if (h.engine_version != core::kEngineVersion || h.seq != seq || h.chain_hash != chain ||
      h.ruleset_hash != scope.ruleset_value->hash || h.catalog_hash != scope.catalog_value->hash() ||
      snap->state.next_seq != seq + 1) {
    return std::nullopt;
  }
  return std::move(snap->state);
}

}  // namespace warlog::replay::detail
