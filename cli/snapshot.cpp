// warlog snapshot: lay (or drop) the snapshots that seeking folds forward
// from (replay/seek.hpp), in the user's own cache, never in the store: the
// store is only read. Seeks lay them too as they fold; this verb builds a
// store's at once, with another interval, or after an engine upgrade.

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "common.hpp"
#include "isolated.hpp"
#include "verbs.hpp"
#include "warlog/replay/seek.hpp"
#include "warlog/store/snapshot_cache.hpp"

namespace warlog::cli {

static_assert(SnapshotArgs{}.every == replay::kDefaultSnapshotEvery, "verbs.hpp keeps the default in step");

namespace {

std::string size_text(std::size_t bytes) {
  if (bytes < 10 * 1024) return fmt::format("{} B", bytes);
  if (bytes < 10 * 1024 * 1024) return fmt::format("{:.1f} KiB", static_cast<double>(bytes) / 1024);
  return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / (1024 * 1024));
}

}  // namespace

CLI::App* add_snapshot(CLI::App& app, Options& o, SnapshotArgs& s) {
  CLI::App* sub = app.add_subcommand("snapshot", "Cache snapshots of folded state so that seeking is fast");
  sub->add_option("--store", o.store, "Store directory (default: $WARLOG_STORE, else .warlog/store)");
  sub->add_option("--game", o.games, "Game id(s) (default: all)");
  sub->add_option("--every", s.every,
                  fmt::format("A snapshot after every N events (default: {})", replay::kDefaultSnapshotEvery))
      ->check(CLI::Validator(
          [](const std::string& v) {
            return v.find_first_not_of('0') == std::string::npos ? std::string("N must be 1 or more") : std::string();
          },
          "N >= 1"));
  sub->add_flag("--drop", s.drop, "Remove the games' cached snapshots instead");
  sub->footer(
      "Snapshots live in your own cache, not in the store (which is only read): $WARLOG_CACHE_DIR, else\n"
      "$XDG_CACHE_HOME/warlog/snapshots (~/.cache/warlog/snapshots), each authenticated with a key of\n"
      "yours ($XDG_CONFIG_HOME/warlog/local.key, made on first use, mode 0600). A seek folds forward from\n"
      "the nearest one made from the events as they are now, under the recorded ruleset and catalog and\n"
      "this engine version, and discards any other. Seeks and the viewer lay them as they go; run this\n"
      "to build a store's at once, or to change the interval. warlog verify --snapshots checks them.\n"
      "Exit 0 on success, 2 on error.");
  return sub;
}

// Each game's snapshots are laid in an isolated reader (isolated.hpp): a
// damaged page ends that process, not warlog, and the other games go on.
int run_snapshot(const Options& o, const SnapshotArgs& s) {
  VerbJob job;
  job.run = [&s](const replay::Archive& archive, core::GameId id, replay::Outbox& box) {
    if (s.drop) {
      auto n = replay::drop_snapshots(archive, id);
      if (!n) return put_error(box, n.error());
      put_stdout(box, fmt::format("game {}: {} snapshot{} dropped\n", id, *n, *n == 1 ? "" : "s"));
      return;
    }
    auto built = replay::build_snapshots(archive, id, s.every);
    if (!built) return put_error(box, built.error());
    if (built->snapshots == 0 && built->too_large == 0) {
      put_stdout(box, fmt::format("game {}: no snapshots ({} events, fewer than {})\n", id, built->events, s.every));
      return;
    }
    put_stdout(box, fmt::format("game {}: {} snapshot{} every {} events ({} events; {} each on average, {} in all)\n",
                                id, built->snapshots, built->snapshots == 1 ? "" : "s", s.every, built->events,
                                size_text(built->snapshots ? built->bytes / built->snapshots : 0),
                                size_text(built->bytes)));
    if (built->too_large > 0) {
      put_stdout(box, fmt::format("game {}: {} state{} too large to snapshot (seeks fold past them)\n", id,
                                  built->too_large, built->too_large == 1 ? " was" : "s were"));
    }
  };
  auto outcome = run_verb_job(o, std::move(job));
  if (!outcome) return kExitError;
  // The cache is the user's own, outside the store: say where it is.
  if (auto where = store::default_cache_location(); where && outcome->code != kExitError) {
    fmt::print("snapshot cache: {}\n", where->dir.string());
  }
  return outcome->code;
}

}  // namespace warlog::cli
