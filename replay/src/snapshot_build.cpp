// Building, probing, dropping and checking a game's cached snapshots: one
// fold of the game each, snapshots written in bounded batches.

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "snapshot_fold.hpp"
#include "stream.hpp"
#include "warlog/core/corrections.hpp"
#include "warlog/replay/seek.hpp"
#include "warlog/store/snapshot_cache.hpp"
#include "warlog/store/store.hpp"

namespace warlog::replay {

namespace {

// Snapshots held before a batch is written: bounds memory for small N over
// long games (N = 1 over a million events would otherwise hold gigabytes).
constexpr std::size_t kBatchBytes = std::size_t{8} << 20;
// Events between progress calls.
constexpr core::Seq kProgressEvery = 4096;

// A game under its recorded ruleset and catalog, with the cache.
struct Recorded {
  std::shared_ptr<const core::Catalog> catalog;
  std::shared_ptr<const core::Ruleset> ruleset;
  std::shared_ptr<store::SnapshotCache> cache;
  detail::CacheScope scope;
};

[[nodiscard]] Expected<Recorded> recorded(const Archive& archive, core::GameId game) {
  auto summary = archive.game(game);
  if (!summary) return tl::unexpected(summary.error());
  Recorded r;
  auto catalog = archive.catalog_by_hash(summary->catalog_hash);
  if (!catalog) return make_error(catalog.error().code, fmt::format("game {}: {}", game, catalog.error().message));
  auto ruleset = archive.ruleset_by_hash(summary->ruleset_hash);
  if (!ruleset) return make_error(ruleset.error().code, fmt::format("game {}: {}", game, ruleset.error().message));
  r.catalog = std::move(*catalog);
  r.ruleset = std::move(*ruleset);
  const auto rs = core::digest_from_hex(r.ruleset->hash);
  const auto cat = core::digest_from_hex(r.catalog->hash());
  if (!rs || !cat) {
    return make_error(ErrorCode::DataLoss, fmt::format("game {}: the recorded ruleset or catalog has no content hash", game));
  }
  auto reader = archive.store().reader();
  if (!reader) return tl::unexpected(reader.error());
  auto meta = reader->game(game);
  if (!meta) return tl::unexpected(meta.error());
  auto cache = archive.snapshot_cache();
  if (!cache) return tl::unexpected(cache.error());
  r.cache = std::move(*cache);
  r.scope = detail::CacheScope{game, meta->identity, *rs, *cat, r.catalog.get(), r.ruleset.get()};
  return r;
}

}  // namespace

Expected<SnapshotBuild> build_snapshots(const Archive& archive, core::GameId game, core::Seq every,
                                        const BuildProgress& progress) {
  if (every == 0) return make_error(ErrorCode::InvalidArgument, "snapshots every 0 events: give N >= 1");
  auto rec = recorded(archive, game);
  if (!rec) return tl::unexpected(rec.error());
  const detail::CacheScope& scope = rec->scope;
  const core::Context ctx{*rec->catalog, *rec->ruleset};

  // Replace this ruleset and catalog's snapshots, and every one no seek of
  // this warlog can use (another engine version, a failed MAC, undecodable).
  auto dropped = rec->cache->drop(scope.identity, [&](const store::CacheEntry& e) {
    if (e.state != store::CacheEntry::State::Authentic) return true;
    auto h = events::decode_snapshot_header(e.bytes);
    return !h || h->engine_version != core::kEngineVersion ||
           (h->ruleset_hash == rec->ruleset->hash && h->catalog_hash == rec->catalog->hash());
  });
  if (!dropped) return tl::unexpected(dropped.error());

  SnapshotBuild out;
  out.game = game;
  core::GameState state;
  std::vector<core::Finding> scratch;
  bool corrected = false;
  for (;;) {
    std::vector<store::CachedSnapshot> batch;
    std::size_t batch_bytes = 0;
    core::Seq count = 0;
    {
      // One Reader per batch: a long-held one would keep the store's map
      // from growing for a writer in this process (the viewer's record bar).
      auto reader = archive.store().reader();
      if (!reader) return tl::unexpected(reader.error());
      auto meta = reader->game(game);
      if (!meta) return tl::unexpected(meta.error());
      count = meta->event_count;
      Expected<void> failed;
      auto n = reader->scan_raw(game, out.events, count, [&](core::Seq at, std::string_view bytes) {
        auto ev = detail::decode_stored(game, at, bytes);
        if (!ev) {
          failed = tl::unexpected(ev.error());
          return false;
        }
        if (core::is_correction(ev->payload)) {
          // A snapshot past a correction could not be folded on from by
          // seek (a correction needs the stream before it): none is laid.
          corrected = true;
          return false;
        }
        scratch.clear();
        core::apply(ctx, state, *ev, scratch);
        if (progress && (at + 1) % kProgressEvery == 0 && !progress(at + 1, count)) {
          out.cancelled = true;
          return false;
        }
        if ((at + 1) % every != 0) return true;
        auto chain = reader->chain_through(game, at);
        if (!chain) {
          failed = tl::unexpected(chain.error());
          return false;
        }
        std::string snap = detail::snapshot_of(state, scope, at, *chain);
        if (snap.size() > events::kMaxSnapshotBytes) {
          ++out.too_large;
          return true;
        }
        batch_bytes += snap.size();
        out.largest = std::max(out.largest, snap.size());
        batch.push_back({scope.at(at, *chain), std::move(snap)});
        return batch_bytes < kBatchBytes;
      });
      if (!n) return tl::unexpected(n.error());
      if (!failed) return tl::unexpected(failed.error());
      out.events += *n;
    }
    if (!batch.empty()) {
      if (auto w = rec->cache->put(batch); !w) return tl::unexpected(w.error());
    }
    out.snapshots += batch.size();
    out.bytes += batch_bytes;
    if (out.cancelled || corrected || out.events >= count) break;
  }
  if (progress && !out.cancelled) (void)progress(out.events, out.events);
  return out;
}

Expected<bool> needs_snapshots(const Archive& archive, core::GameId game, core::Seq every) {
  if (every == 0) return make_error(ErrorCode::InvalidArgument, "snapshots every 0 events: give N >= 1");
  auto rec = recorded(archive, game);
  if (!rec) return tl::unexpected(rec.error());
  auto reader = archive.store().reader();
  if (!reader) return tl::unexpected(reader.error());
  auto meta = reader->game(game);
  if (!meta) return tl::unexpected(meta.error());
  if (meta->event_count <= every) return false;
  const core::Seq last = (meta->event_count / every) * every - 1;
  auto chain = reader->chain_through(game, last);
  if (!chain) return tl::unexpected(chain.error());
  auto found = rec->cache->get(rec->scope.at(last, *chain));
  if (!found) return tl::unexpected(found.error());
  return !found->bytes || !detail::usable_state(*found->bytes, rec->scope, last, *chain);
}

Expected<std::size_t> drop_snapshots(const Archive& archive, core::GameId game) {
  auto cache = archive.snapshot_cache();
  if (!cache) return tl::unexpected(cache.error());
  auto reader = archive.store().reader();
  if (!reader) return tl::unexpected(reader.error());
  auto meta = reader->game(game);
  if (!meta) return tl::unexpected(meta.error());
  return (*cache)->drop(meta->identity);
}

std::size_t SnapshotReport::count(SnapshotCheck::Status s) const noexcept {
  return static_cast<std::size_t>(
      std::count_if(checks.begin(), checks.end(), [s](const SnapshotCheck& c) { return c.status == s; }));
}

Expected<SnapshotReport> check_snapshots(const Archive& archive, core::GameId game, bool remove) {
  using Status = SnapshotCheck::Status;
  auto rec = recorded(archive, game);
  if (!rec) return tl::unexpected(rec.error());
  const detail::CacheScope& scope = rec->scope;
  auto entries = rec->cache->entries(scope.identity);
  if (!entries) return tl::unexpected(entries.error());
  SnapshotReport out;
  out.game = game;
  // Every entry gets a status; Authentic ones of this ruleset and catalog
  // wait for the fold to reach their seq (entries come by seq).
  struct Pending {
    std::size_t check;
    const store::CacheEntry* entry;
    events::Snapshot snap;
  };
  std::vector<Pending> pending;
  std::vector<core::Digest> remove_keys;
  for (const store::CacheEntry& e : *entries) {
    SnapshotCheck c;
    c.seq = e.seq;
    if (e.state == store::CacheEntry::State::Missing) continue;  // a hint with nothing behind it
    if (e.state == store::CacheEntry::State::BadMac) {
      c.status = Status::Unusable;
      c.detail = "its MAC fails (forged, damaged, or made under another local key): never used";
    } else if (auto snap = events::decode_snapshot(e.bytes); !snap) {
      c.status = Status::Unusable;
      c.detail = "authentic but does not decode: " + snap.error().message;
    } else if (snap->header.ruleset_hash != rec->ruleset->hash || snap->header.catalog_hash != rec->catalog->hash()) {
      c.status = Status::Foreign;
      c.detail = "made under another ruleset or catalog: not checked";
    } else if (snap->header.engine_version != core::kEngineVersion) {
      c.status = Status::Stale;
      c.detail = fmt::format("made by engine version {} (this is {}): never used", snap->header.engine_version,
                             core::kEngineVersion);
    } else {
      pending.push_back({out.checks.size(), &e, std::move(*snap)});
    }
    if (c.status == Status::Unusable) remove_keys.push_back(e.key);
    out.checks.push_back(std::move(c));
  }

  const core::Context ctx{*rec->catalog, *rec->ruleset};
  auto reader = archive.store().reader();
  if (!reader) return tl::unexpected(reader.error());
  auto meta = reader->game(game);
  if (!meta) return tl::unexpected(meta.error());
  core::GameState state;
  std::vector<core::Finding> scratch;
  std::size_t next = 0;
  bool corrected = false;
  Expected<void> failed;
  auto judge = [&](Pending& p, const core::GameState* folded) -> Expected<void> {
    SnapshotCheck& c = out.checks[p.check];
    if (folded == nullptr) {
      c.status = Status::Stale;
      c.detail = fmt::format("past the game's last event ({} events): never used", meta->event_count);
      return {};
    }
    auto chain = reader->chain_through(game, p.entry->seq);
    if (!chain) return tl::unexpected(chain.error());
    if (store::cache_key(scope.at(p.entry->seq, *chain)) != p.entry->key) {
      c.status = Status::Stale;
      c.detail = "folded from events that have changed since: never used";
    } else if (!detail::usable_state(p.entry->bytes, scope, p.entry->seq, *chain)) {
      c.status = Status::Mismatch;
      c.detail = "its header disagrees with its key: a seek discards it";
      remove_keys.push_back(p.entry->key);
    } else if (!(p.snap.state == *folded)) {
      c.status = Status::Mismatch;
      c.detail = "DIFFERS from the fold: a seek would show this state (someone wrote it with your local key)";
      remove_keys.push_back(p.entry->key);
    } else {
      c.status = Status::Agrees;
      c.detail = "agrees with the fold";
    }
    return {};
  };
  auto n = reader->scan_raw(game, 0, store::kEndSeq, [&](core::Seq at, std::string_view bytes) {
    if (next == pending.size()) return false;
    auto ev = detail::decode_stored(game, at, bytes);
    if (!ev) {
      failed = tl::unexpected(ev.error());
      return false;
    }
    if (core::is_correction(ev->payload)) {
      corrected = true;  // judged below against the fold through corrections
      return false;
    }
    scratch.clear();
    core::apply(ctx, state, *ev, scratch);
    for (; next < pending.size() && pending[next].entry->seq == at; ++next) {
      if (auto j = judge(pending[next], &state); !j) {
        failed = j;
        return false;
      }
    }
    return true;
  });
  if (!n) return tl::unexpected(n.error());
  if (!failed) return tl::unexpected(failed.error());
  if (corrected && next < pending.size()) {
    auto events = detail::read_stream(*reader, game, store::kEndSeq);
    if (!events) return tl::unexpected(events.error());
    core::CorrectedFold f(ctx, *events);
    while (!f.done() && next < pending.size()) {
      const core::Seq at = (*events)[f.position()].seq;
      scratch.clear();
      f.step(scratch);
      for (; next < pending.size() && pending[next].entry->seq == at; ++next) {
        if (auto j = judge(pending[next], &f.state()); !j) return tl::unexpected(j.error());
      }
    }
  }
  for (; next < pending.size(); ++next) (void)judge(pending[next], nullptr);

  if (remove && !remove_keys.empty()) {
    std::sort(remove_keys.begin(), remove_keys.end());
    auto removed = rec->cache->drop(scope.identity, [&](const store::CacheEntry& e) {
      return std::binary_search(remove_keys.begin(), remove_keys.end(), e.key);
    });
    if (!removed) return tl::unexpected(removed.error());
    out.removed = *removed;
  }
  return out;
}

}  // namespace warlog::replay
