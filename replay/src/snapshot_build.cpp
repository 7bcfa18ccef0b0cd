// Laying snapshots: one fold of a game, a snapshot every N events, written in
// bounded batches.

#include <fmt/format.h>

#include <utility>
#include <vector>

#include "snapshot_fold.hpp"
#include "warlog/replay/seek.hpp"
#include "warlog/store/store.hpp"

namespace warlog::replay {

namespace {

// Snapshots held before a batch is written: bounds memory for small N over
// long games (N = 1 over a million events would otherwise hold gigabytes).
constexpr std::size_t kBatchBytes = std::size_t{8} << 20;

}  // namespace

Expected<SnapshotBuild> build_snapshots(const Archive& archive, core::GameId game, core::Seq every) {
  if (every == 0) return make_error(ErrorCode::InvalidArgument, "snapshots every 0 events: give N >= 1");
  store::Store& st = archive.store();
  if (st.read_only()) {
    return make_error(ErrorCode::InvalidArgument, fmt::format("store {} is open read-only", st.path().string()));
  }
  auto summary = archive.game(game);
  if (!summary) return tl::unexpected(summary.error());
  auto catalog = archive.catalog_by_hash(summary->catalog_hash);
  if (!catalog) return tl::unexpected(Error{catalog.error().code, fmt::format("game {}: {}", game, catalog.error().message)});
  auto ruleset = archive.ruleset_by_hash(summary->ruleset_hash);
  if (!ruleset) return tl::unexpected(Error{ruleset.error().code, fmt::format("game {}: {}", game, ruleset.error().message)});
  const auto digest = core::digest_from_hex((*ruleset)->hash);
  if (!digest) {
    return make_error(ErrorCode::DataLoss, fmt::format("game {}: the recorded ruleset has no content hash", game));
  }
  const core::Context ctx{**catalog, **ruleset};

  SnapshotBuild out;
  out.game = game;
  core::GameState state;
  std::vector<core::Finding> scratch;
  bool first = true;
  for (;;) {
    std::vector<store::StoredSnapshot> batch;
    std::size_t batch_bytes = 0;
    core::Seq count = 0;
    {
      // One Reader per batch, closed before the batch is written: a write may
      // need to grow the map, which cannot happen while a Reader is open.
      auto reader = st.reader();
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
        scratch.clear();
        core::apply(ctx, state, *ev, scratch);
        if ((at + 1) % every != 0) return true;
        auto snap = detail::snapshot_of(*reader, state, game, at, **catalog, **ruleset);
        if (!snap) {
          failed = tl::unexpected(snap.error());
          return false;
        }
        if (snap->size() > events::kMaxSnapshotBytes) {
          ++out.too_large;
          return true;
        }
        batch_bytes += snap->size();
        out.largest = std::max(out.largest, snap->size());
        batch.push_back(store::StoredSnapshot{at, std::move(*snap)});
        return batch_bytes < kBatchBytes;
      });
      if (!n) return tl::unexpected(n.error());
      if (!failed) return tl::unexpected(failed.error());
      out.events += *n;
    }
    if (first || !batch.empty()) {
      if (auto w = st.put_snapshots(game, *digest, core::kEngineVersion, batch, first); !w) return tl::unexpected(w.error());
    }
    first = false;
    out.snapshots += batch.size();
    out.bytes += batch_bytes;
    if (out.events >= count) break;
  }
  return out;
}

Expected<std::size_t> drop_snapshots(const Archive& archive, core::GameId game) {
  return archive.store().drop_snapshots(game);
}

}  // namespace warlog::replay
