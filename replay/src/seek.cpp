// Seek: load the nearest valid snapshot, fold forward, repair the cache.

#include "warlog/replay/seek.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "snapshot_fold.hpp"
#include "warlog/store/store.hpp"

namespace warlog::replay {

namespace {

enum class Verdict { Valid, Stale, Foreign };

struct Loaded {
  core::GameState state;
  core::Seq seq = 0;
};

}  // namespace

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
  s.recorded_ = s.ruleset_->hash == summary->ruleset_hash && s.catalog_->hash() == summary->catalog_hash;
  return s;
}

Expected<SeekResult> Seeker::seek(core::Seq seq) const {
  store::Store& st = archive_->store();
  const bool repairing = repair_ && recorded_ && ruleset_digest_ && !st.read_only();
  const core::Context ctx{*catalog_, *ruleset_};
  SeekResult out;
  std::vector<core::Seq> stale;             // discarded snapshots to write back
  std::vector<store::StoredSnapshot> fresh;  // what repair writes
  {
    auto reader = st.reader();
    if (!reader) return tl::unexpected(reader.error());
    auto meta = reader->game(game_);
    if (!meta) return tl::unexpected(meta.error());
    if (meta->event_count == 0) return make_error(ErrorCode::NotFound, fmt::format("game {} has no events", game_));
    const core::Seq target = std::min(seq, meta->event_count - 1);

    // The snapshot to start from: after event target - 1 at the latest, since
    // the moment needs the state before the event at target.
    auto judge = [&](const store::StoredSnapshot& stored, Loaded& into) -> Expected<Verdict> {
      auto snap = events::decode_snapshot(stored.bytes);
      if (!snap) return Verdict::Stale;
      const events::SnapshotHeader& h = snap->header;
      if (h.engine_version != core::kEngineVersion || h.game != game_ || h.seq != stored.seq ||
          h.ruleset_hash != ruleset_->hash || snap->state.next_seq != stored.seq + 1) {
        return Verdict::Stale;
      }
      // Made under another catalog: under the recorded one that is a wrong
      // snapshot; under an override it is simply not ours, nor is any other
      // snapshot under this ruleset.
      if (h.catalog_hash != catalog_->hash()) return recorded_ ? Verdict::Stale : Verdict::Foreign;
      auto chain = detail::chain_through(*reader, game_, stored.seq);
      if (!chain) return tl::unexpected(chain.error());
      if (*chain != h.chain_hash) return Verdict::Stale;  // the events changed under it
      into.state = std::move(snap->state);
      into.seq = stored.seq;
      return Verdict::Valid;
    };

    core::GameState state;
    core::Seq from = 0;
    if (target > 0 && ruleset_digest_) {
      for (core::Seq probe = target - 1;;) {
        auto near = reader->nearest_snapshot(game_, probe, *ruleset_digest_, core::kEngineVersion);
        if (!near) return tl::unexpected(near.error());
        if (!*near) break;
        Loaded loaded;
        auto verdict = judge(**near, loaded);
        if (!verdict) return tl::unexpected(verdict.error());
        if (*verdict == Verdict::Valid) {
          state = std::move(loaded.state);
          from = loaded.seq + 1;
          out.snapshot_seq = loaded.seq;
          break;
        }
        ++out.discarded;
        if (*verdict == Verdict::Foreign) break;
        stale.push_back((*near)->seq);
        if ((*near)->seq == 0) break;
        probe = (*near)->seq - 1;
      }
    }

    // Fold forward. Repair snapshots the discarded seqs and, on a long fold,
    // the grid points it passes (none of them holds a valid snapshot, or the
    // search above would have stopped there).
    const bool lay = repairing && target - from > every_;
    std::sort(stale.begin(), stale.end());
    std::vector<core::Finding> scratch;
    Expected<void> failed;
    auto n = reader->scan_raw(game_, from, target + 1, [&](core::Seq at, std::string_view bytes) {
      auto ev = detail::decode_stored(game_, at, bytes);
      if (!ev) {
        failed = tl::unexpected(ev.error());
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
        auto bytes_out = detail::snapshot_of(*reader, state, game_, at, *catalog_, *ruleset_);
        if (bytes_out && bytes_out->size() <= events::kMaxSnapshotBytes) {
          fresh.push_back(store::StoredSnapshot{at, std::move(*bytes_out)});
        }
      }
      return true;
    });
    if (!n) return tl::unexpected(n.error());
    if (!failed) return tl::unexpected(failed.error());
    if (*n != target + 1 - from) {
      return make_error(ErrorCode::DataLoss, fmt::format("game {}: the stream ended at seq {} before seq {}; run verify",
                                                         game_, from + *n, target));
    }
    out.moment.seq = target;
    out.moment.state = std::move(state);
  }  // the Reader ends here: a write may need to grow the map

  if (repairing && (!fresh.empty() || !stale.empty())) {
    // A stale snapshot that could not be rebuilt (too large) is removed.
    for (core::Seq s : stale) {
      const bool rebuilt = std::any_of(fresh.begin(), fresh.end(), [s](const auto& f) { return f.seq == s; });
      if (rebuilt) continue;
      if (auto d = st.delete_snapshot(game_, s, *ruleset_digest_, core::kEngineVersion); !d) out.repair_error = d.error();
    }
    if (!fresh.empty()) {
      if (auto w = st.put_snapshots(game_, *ruleset_digest_, core::kEngineVersion, fresh); w) {
        out.written = fresh.size();
      } else {
        out.repair_error = w.error();
      }
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
