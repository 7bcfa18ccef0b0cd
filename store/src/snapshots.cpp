// Snapshots: a cache of folded state beside the streams (keys.hpp › Snapshots).
// The store keeps bytes under keys; it neither decodes nor trusts them.

#include <lmdb.h>

#include <string>

#include "shared.hpp"
#include "warlog/events/snapshot.hpp"
#include "warlog/store/game_meta.hpp"
#include "warlog/store/keys.hpp"
#include "warlog/store/reader.hpp"
#include "warlog/store/store.hpp"
#include "write_txn.hpp"

namespace warlog::store {

namespace {

using detail::Shared;
using detail::WriteTxn;

[[nodiscard]] bool same_game(std::string_view key, core::GameId game) noexcept {
  return key.size() >= 8 && get_be64(key.data()) == game;
}

// Deletes the entry under the cursor; the next MDB_NEXT reaches the entry
// after it (LMDB keeps the position of a deleted entry).
[[nodiscard]] Expected<void> delete_current(WriteTxn& w, lmdb::Cursor& cursor) {
  if (const int rc = mdb_cursor_del(cursor.handle(), 0); rc != MDB_SUCCESS) {
    if (rc == MDB_MAP_FULL) w.map_full = true;  // a delete copies pages too
    return detail::fail(w.s, "deleting a snapshot", rc);
  }
  return {};
}

// Deletes the game's snapshots for which drop(parts) holds; returns how many.
template <class Drop>
[[nodiscard]] Expected<std::size_t> delete_where(WriteTxn& w, core::GameId game, Drop&& drop) {
  auto cursor = lmdb::Cursor::open(w.txn.handle(), w.s.dbi.snapshots);
  if (!cursor) return detail::fail(w.s, "opening a snapshots cursor", cursor.error());
  const auto prefix = game_key(game);
  std::size_t dropped = 0;
  for (auto e = cursor->get(MDB_SET_RANGE, view(prefix));; e = cursor->get(MDB_NEXT)) {
    if (!e) return detail::fail(w.s, "reading snapshots", e.error());
    if (!*e || !same_game(cursor->key(), game)) break;
    const auto parts = parse_snapshot_key(cursor->key());
    // A key of the wrong size under this game is no snapshot anyone can use.
    if (!parts || drop(*parts)) {
      if (auto d = delete_current(w, *cursor); !d) return tl::unexpected(d.error());
      ++dropped;
    }
  }
  return dropped;
}

// The game's event count; NotFound for an unknown game.
[[nodiscard]] Expected<core::Seq> event_count(WriteTxn& w, core::GameId game) {
  const auto gkey = game_key(game);
  auto raw = w.get(w.s.dbi.games, view(gkey), "reading game metadata");
  if (!raw) return tl::unexpected(raw.error());
  if (!*raw) return make_error(ErrorCode::NotFound, fmt::format("game {} does not exist", game));
  auto meta = decode_game_meta(**raw);
  if (!meta) return make_error(meta.error().code, fmt::format("game {}: {}", game, meta.error().message));
  return meta->event_count;
}

}  // namespace

// --- Reading --------------------------------------------------------------------
Expected<std::optional<StoredSnapshot>> Reader::nearest_snapshot(core::GameId game, core::Seq seq,
                                                                 const core::Digest& ruleset_digest,
                                                                 std::uint32_t engine_version) const {
  const Shared& s = *shared_;
  auto cursor = lmdb::Cursor::open(txn_, s.dbi.snapshots);
  if (!cursor) return detail::fail(s, "opening a snapshots cursor", cursor.error());
  const auto wanted = snapshot_key(game, seq, ruleset_digest, engine_version);
  auto e = cursor->get(MDB_SET_RANGE, view(wanted));
  if (!e) return detail::fail(s, "reading snapshots", e.error());
  if (*e && cursor->key() == view(wanted)) return StoredSnapshot{seq, std::string(cursor->value())};
  // Step back from the first key after the wanted one (or from the end):
  // keys of the same game with a smaller seq, or the same seq and a smaller
  // ruleset digest, come first; skip those of other rulesets and versions.
  for (e = *e ? cursor->get(MDB_PREV) : cursor->get(MDB_LAST);; e = cursor->get(MDB_PREV)) {
    if (!e) return detail::fail(s, "reading snapshots", e.error());
    if (!*e || !same_game(cursor->key(), game)) return std::nullopt;
    const auto parts = parse_snapshot_key(cursor->key());
    if (parts && parts->ruleset == ruleset_digest && parts->engine_version == engine_version) {
      return StoredSnapshot{parts->seq, std::string(cursor->value())};
    }
  }
}

Expected<std::vector<SnapshotKeyParts>> Reader::snapshot_keys(core::GameId game) const {
  const Shared& s = *shared_;
  auto cursor = lmdb::Cursor::open(txn_, s.dbi.snapshots);
  if (!cursor) return detail::fail(s, "opening a snapshots cursor", cursor.error());
  const auto prefix = game_key(game);
  std::vector<SnapshotKeyParts> out;
  for (auto e = cursor->get(MDB_SET_RANGE, view(prefix));; e = cursor->get(MDB_NEXT)) {
    if (!e) return detail::fail(s, "reading snapshots", e.error());
    if (!*e || !same_game(cursor->key(), game)) break;
    if (auto parts = parse_snapshot_key(cursor->key())) out.push_back(*parts);
  }
  return out;
}

// --- Writing --------------------------------------------------------------------
Expected<void> Store::put_snapshots(core::GameId game, const core::Digest& ruleset_digest,
                                    std::uint32_t engine_version, std::span<const StoredSnapshot> records,
                                    bool replace, Durability durability) {
  return detail::with_write_txn<void>(*shared_, durability, [&](WriteTxn& w) -> Expected<void> {
    auto count = event_count(w, game);
    if (!count) return tl::unexpected(count.error());
    for (const StoredSnapshot& r : records) {
      if (r.seq >= *count) {
        return make_error(ErrorCode::InvalidArgument,
                          fmt::format("game {}: no snapshot at seq {}, the game has {} events", game, r.seq, *count));
      }
      if (r.bytes.size() > events::kMaxSnapshotBytes) {
        return make_error(ErrorCode::InvalidArgument,
                          fmt::format("game {}, seq {}: a snapshot of {} bytes is over the limit of {}", game, r.seq,
                                      r.bytes.size(), events::kMaxSnapshotBytes));
      }
    }
    if (replace) {
      auto dropped = delete_where(w, game, [&](const SnapshotKeyParts& p) {
        return p.ruleset == ruleset_digest || p.engine_version != engine_version;
      });
      if (!dropped) return tl::unexpected(dropped.error());
    }
    for (const StoredSnapshot& r : records) {
      const auto key = snapshot_key(game, r.seq, ruleset_digest, engine_version);
      auto put = w.put(w.s.dbi.snapshots, view(key), r.bytes, 0, "writing a snapshot");
      if (!put) return tl::unexpected(put.error());
    }
    return {};
  });
}

Expected<void> Store::put_snapshot(core::GameId game, core::Seq seq, const core::Digest& ruleset_digest,
                                   std::uint32_t engine_version, std::string_view bytes, Durability durability) {
  const StoredSnapshot one{seq, std::string(bytes)};
  return put_snapshots(game, ruleset_digest, engine_version, std::span(&one, 1), false, durability);
}

Expected<bool> Store::delete_snapshot(core::GameId game, core::Seq seq, const core::Digest& ruleset_digest,
                                      std::uint32_t engine_version) {
  return detail::with_write_txn<bool>(*shared_, Durability::Relaxed, [&](WriteTxn& w) -> Expected<bool> {
    const auto key = snapshot_key(game, seq, ruleset_digest, engine_version);
    auto r = lmdb::del(w.txn.handle(), w.s.dbi.snapshots, view(key));
    if (!r) {
      if (r.error() == MDB_MAP_FULL) w.map_full = true;
      return detail::fail(w.s, "deleting a snapshot", r.error());
    }
    return *r;
  });
}

Expected<std::size_t> Store::drop_snapshots(core::GameId game) {
  return detail::with_write_txn<std::size_t>(*shared_, Durability::Relaxed, [&](WriteTxn& w) {
    return delete_where(w, game, [](const SnapshotKeyParts&) { return true; });
  });
}

}  // namespace warlog::store
