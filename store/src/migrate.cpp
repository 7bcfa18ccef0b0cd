// warlog migrate: a format-1 store, checked with format 1's rules, converted
// to format 2 beside it and swapped in (docs/architecture.md › "Store format 2" › 7).

#include <fmt/format.h>

#include <map>
#include <string>
#include <utility>

#include "format1/format1.hpp"
#include "shared.hpp"
#include "warlog/store/game_meta.hpp"
#include "warlog/store/keys.hpp"
#include "warlog/store/owner_lock.hpp"
#include "warlog/store/store.hpp"
#include "write_txn.hpp"

namespace warlog::store {

namespace fs = std::filesystem;

Expected<std::vector<MigratedGame>> Store::migrate_format1(const fs::path& path, std::int64_t migrated_at_ms) {
  auto old = format1::Reader1::open(path);
  if (!old) return tl::unexpected(old.error());
  // A running server owns the store: migrating it under the server would
  // rename its files away (owner_lock.hpp).
  auto owner = OwnerLock::share(path);
  if (!owner) return tl::unexpected(owner.error());
  const fs::path fresh = fs::path(path.string() + ".migrating");
  const fs::path kept = fs::path(path.string() + ".format-1");
  std::error_code ec;
  for (const auto& p : {fresh, kept}) {
    if (fs::exists(p, ec)) {
      return make_error(ErrorCode::InvalidArgument,
                        fmt::format("{} exists: move it away first (nothing was migrated)", p.string()));
    }
  }

  // Every game is read and checked before anything is written.
  auto ids = old->game_ids();
  if (!ids) return tl::unexpected(ids.error());
  std::vector<format1::Game> games;
  std::string refused;
  for (core::GameId id : *ids) {
    auto g = old->game(id);
    if (!g) {
      refused += (refused.empty() ? "" : "; ") + g.error().message;
      continue;
    }
    games.push_back(std::move(*g));
  }
  if (!refused.empty()) {
    return make_error(ErrorCode::DataLoss,
                      fmt::format("store {}: refusing to migrate, format-1 checks fail: {} (nothing was written)",
                                  path.string(), refused));
  }
  auto blobs = old->blobs();
  if (!blobs) return tl::unexpected(blobs.error());

  std::vector<MigratedGame> out;
  {
    auto opened = Store::open(fresh);
    if (!opened) return tl::unexpected(opened.error());
    Store& st = *opened;
    auto abandon = [&](Error e) {
      return make_error(e.code, fmt::format("{} ({} is left half written: remove it before trying again)", e.message,
                                            fresh.string()));
    };
    for (const auto& b : *blobs) {
      if (auto h = st.put_blob(b.kind, b.bytes); !h) return abandon(h.error());
    }
    for (const auto& g : games) {
      const std::span<const core::Event> one(g.events);
      auto r = st.import_games(std::span(&one, 1), Durability::Relaxed);
      if (!r) return abandon(r.error());
      if (!r->front()) return abandon(r->front().error());
      if (r->front()->id != g.id || r->front()->already_stored) {
        return abandon(Error{ErrorCode::InvalidArgument,
                             fmt::format("game {} would become game {}: format-1 ids are not dense", g.id,
                                         r->front()->id)});
      }
      // Disputes and rulings, in key order. Signatures are not carried (they
      // signed format 1's head): the Migrated record names the valid ones.
      // Format 1 numbered every annotation at an event (n); format 2 numbers a
      // dispute by the disputes before it at its event (dense ids, G:S:N).
      std::map<std::pair<core::Seq, std::uint32_t>, std::uint32_t> renumbered;  // (seq, old n) -> N
      std::map<core::Seq, std::uint32_t> disputes_at;
      for (const auto& a : g.annotations) {
        if (std::holds_alternative<core::GameSigned>(a.value)) continue;
        core::Annotation value = a.value;
        if (auto* ruled = std::get_if<core::DisputeRuled>(&value)) {
          const auto it = renumbered.find({a.seq, ruled->dispute});
          if (it == renumbered.end()) {
            return abandon(Error{ErrorCode::DataLoss, fmt::format("game {}: the ruling {}:{}:{} names no dispute",
                                                                  g.id, g.id, a.seq, a.n)});
          }
          ruled->dispute = it->second;
        }
        auto n = st.append_annotation(g.id, a.seq, value);
        if (!n) return abandon(n.error());
        if (std::holds_alternative<core::DisputeRaised>(value)) renumbered[{a.seq, a.n}] = disputes_at[a.seq]++;
      }
      core::Migrated m;
      m.format1_head = g.head;
      m.event_count = g.events.size();
      for (const auto& s : g.valid_signatures) {
        m.signer_keys.push_back(s.public_key);
        m.signers.push_back(s.signer);
      }
      m.migrated_at = migrated_at_ms;
      if (auto n = st.append_annotation(g.id, g.events.size() - 1, m); !n) return abandon(n.error());
      auto flagged = detail::with_write_txn<bool>(*st.shared_, Durability::Relaxed, [&](detail::WriteTxn& w) -> Expected<bool> {
        const auto key = game_key(g.id);
        auto raw = w.get(w.s.dbi.games, view(key), "reading the game record");
        if (!raw) return tl::unexpected(raw.error());
        if (!*raw) return make_error(ErrorCode::Internal, fmt::format("game {} vanished", g.id));
        auto rec = decode_game_meta(**raw);
        if (!rec) return tl::unexpected(rec.error());
        rec->flags |= kGameMigrated;
        auto put = w.put(w.s.dbi.games, view(key), encode_game_meta(*rec), 0, "writing the game record");
        if (!put) return tl::unexpected(put.error());
        return true;
      });
      if (!flagged) return abandon(flagged.error());
      out.push_back(MigratedGame{g.id, g.title, g.events.size(), g.head, g.valid_signatures});
    }
    if (auto s = st.sync(); !s) return abandon(s.error());
  }
  // Both stores closed: S -> S.format-1, the new one -> S.
  old = make_error(ErrorCode::Internal, "closed");  // closes the format-1 environment
  fs::rename(path, kept, ec);
  if (ec) {
    return make_error(ErrorCode::IoError, fmt::format("cannot rename {} to {}: {} (the migrated store is {})",
                                                      path.string(), kept.string(), ec.message(), fresh.string()));
  }
  fs::rename(fresh, path, ec);
  if (ec) {
    return make_error(ErrorCode::IoError, fmt::format("cannot rename {} to {}: {} (format 1 is kept at {})",
                                                      fresh.string(), path.string(), ec.message(), kept.string()));
  }
  return out;
}

}  // namespace warlog::store
