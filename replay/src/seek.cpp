// Seek: find the nearest valid snapshot in the user's cache, fold forward,
// repair the cache.

#include "warlog/replay/seek.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "snapshot_fold.hpp"
#include "stream.hpp"
#include "warlog/core/corrections.hpp"
#include "warlog/store/snapshot_cache.hpp"
#include "warlog/store/store.hpp"

namespace warlog::replay {

Expected<Seeker> Seeker::open(const Archive& archive, core::GameId game, SeekOptions options) {
  auto summary = archive.game(game);
  if (!summary) return tl::unexpected(summary.error());
  Seeker s;
  s.archive_ = &archive;
  s.game_ = game;
  s.repair_ = options.repair;
  s.every_ = std::max<core::Seq>(options.every, 1);
  if (options.overrides.catalog) {
    s.catalog_ = std::make_shared<const core::Catalog>(std::move(*options.overrides.catalog));
  } else {
    auto c = archive.catalog_by_hash(summary->catalog_hash);
    if (!c) return tl::unexpected(Error{c.error().code, fmt::format("game {}: {}", game, c.error().message)});
    s.catalog_ = std::move(*c);
  }
  if (options.overrides.ruleset) {
    s.ruleset_ = std::make_shared<const core::Ruleset>(std::move(*options.overrides.ruleset));
  } else {
    auto r = archive.ruleset_by_hash(summary->ruleset_hash);
    if (!r) return tl::unexpected(Error{r.error().code, fmt::format("game {}: {}", game, r.error().message)});
    s.ruleset_ = std::move(*r);
  }
  s.ruleset_digest_ = core::digest_from_hex(s.ruleset_->hash);
  s.catalog_digest_ = core::digest_from_hex(s.catalog_->hash());
  s.recorded_ = s.ruleset_->hash == summary->ruleset_hash && s.catalog_->hash() == summary->catalog_hash;
  {
    auto reader = archive.store().reader();
    if (!reader) return tl::unexpected(reader.error());
    auto meta = reader->game(game);
    if (!meta) return tl::unexpected(meta.error());
    s.identity_ = meta->identity;
  }
  if (auto cache = archive.snapshot_cache()) {
    s.cache_ = std::move(*cache);
  } else {
    s.cache_error_ = cache.error();
  }
  return s;
}

Expected<SeekResult> Seeker::seek(core::Seq seq) const {
  const bool cached = cache_ && ruleset_digest_ && catalog_digest_;
  const bool repairing = cached && repair_ && recorded_;
  const detail::CacheScope scope{game_, identity_, cached ? *ruleset_digest_ : core::Digest{},
                                 cached ? *catalog_digest_ : core::Digest{}, catalog_.get(), ruleset_.get()};
  const core::Context ctx{*catalog_, *ruleset_};
  SeekResult out;
  out.cache_error = cache_error_;
  std::vector<core::Seq> stale;                // discarded snapshots to write back
  std::vector<store::CachedSnapshot> fresh;    // what repair writes
  auto reader = archive_->store().reader();
  if (!reader) return tl::unexpected(reader.error());
  auto meta = reader->game(game_);
  if (!meta) return tl::unexpected(meta.error());
  if (meta->event_count == 0) return make_error(ErrorCode::NotFound, fmt::format("game {} has no events", game_));
  const core::Seq target = std::min(seq, meta->event_count - 1);

  // The snapshot to start from: after event target - 1 at the latest, since
  // the moment needs the state before the event at target. The cache's hints
  // name seqs that may hold one; only the key computed here finds it.
  core::GameState state;
  core::Seq from = 0;
  if (cached && target > 0) {
    for (core::Seq probe = target - 1;;) {
      auto near = cache_->nearest_seq(identity_, probe);
      if (!near) {
        out.cache_error = near.error();
        break;
      }
      if (!*near) break;
      const core::Seq at = **near;
      auto chain = reader->chain_through(game_, at);
      if (!chain) return tl::unexpected(chain.error());
      auto found = cache_->get(scope.at(at, *chain));
      if (!found) {
        out.cache_error = found.error();
        break;
      }
      if (found->bytes) {
        if (auto loaded = detail::usable_state(*found->bytes, scope, at, *chain)) {
          state = std::move(*loaded);
          from = at + 1;
          out.snapshot_seq = at;
          break;
        }
      }
      // Under the key of this fold but unusable: discard and rebuild. No
      // value at all: the hint is of another ruleset, catalog or chain.
      if (found->bytes || found->bad_mac) {
        ++out.discarded;
        stale.push_back(at);
      }
      if (at == 0) break;
      probe = at - 1;
    }
  }

  // Fold forward. Repair snapshots the discarded seqs and, on a long fold,
  // the grid points it passes (none of them holds a valid snapshot, or the
  // search above would have stopped there).
  const bool lay = repairing && target - from > every_;
  std::sort(stale.begin(), stale.end());
  std::vector<core::Finding> scratch;
  Expected<void> failed;
  bool corrected = false;
  auto n = reader->scan_raw(game_, from, target + 1, [&](core::Seq at, std::string_view bytes) {
    auto ev = detail::decode_stored(game_, at, bytes);
    if (!ev) {
      failed = tl::unexpected(ev.error());
      return false;
    }
    if (core::is_correction(ev->payload)) {
      corrected = true;  // folded again below, from the start
      return false;
    }
    if (at == target) {
      out.before = state;
      core::apply(ctx, state, *ev, out.moment.findings);
      out.moment.event = std::move(*ev);
    } else {
      scratch.clear();
      core::apply(ctx, state, *ev, scratch);
    }
    ++out.folded;
    const bool due = std::binary_search(stale.begin(), stale.end(), at) || (lay && (at + 1) % every_ == 0);
    if (repairing && at < target && due) {
      auto chain = reader->chain_through(game_, at);
      if (!chain) {
        failed = tl::unexpected(chain.error());
        return false;
      }
      std::string snap = detail::snapshot_of(state, scope, at, *chain);
      if (snap.size() <= events::kMaxSnapshotBytes) fresh.push_back({scope.at(at, *chain), std::move(snap)});
    }
    return true;
  });
  if (!n) return tl::unexpected(n.error());
  if (!failed) return tl::unexpected(failed.error());
  if (corrected) {
    // A correction needs the stream before it, which no snapshot holds
    // (none is laid past a game's first correction): fold from the start.
    auto events = detail::read_stream(*reader, game_, target + 1);
    if (!events) return tl::unexpected(events.error());
    if (events->size() != target + 1) {
      return make_error(ErrorCode::DataLoss, fmt::format("game {}: the stream ended at seq {} before seq {}; run verify",
                                                         game_, events->size(), target));
    }
    core::CorrectedFold f(ctx, *events);
    std::vector<core::Finding> found;
    while (f.position() < target) {
      found.clear();
      f.step(found);
    }
    out.before = f.state();
    out.moment.findings.clear();
    f.step(out.moment.findings);
    out.moment.event = (*events)[target];
    out.moment.seq = target;
    out.moment.state = f.state();
    out.snapshot_seq.reset();
    out.folded = target + 1;
    return out;
  }
  if (*n != target + 1 - from) {
    return make_error(ErrorCode::DataLoss, fmt::format("game {}: the stream ended at seq {} before seq {}; run verify",
                                                       game_, from + *n, target));
  }
  out.moment.seq = target;
  out.moment.state = std::move(state);

  // A stale snapshot too large to rebuild stays: its MAC or header fails
  // every time, and a build replaces it.
  if (repairing && !fresh.empty()) {
    if (auto w = cache_->put(fresh); w) {
      out.written = fresh.size();
    } else {
      out.cache_error = w.error();
    }
  }
  return out;
}

Expected<SeekResult> seek(const Archive& archive, core::GameId game, core::Seq seq, const SeekOptions& options) {
  auto seeker = Seeker::open(archive, game, options);
  if (!seeker) return tl::unexpected(seeker.error());
  return seeker->seek(seq);
}

}  // namespace warlog::replay
