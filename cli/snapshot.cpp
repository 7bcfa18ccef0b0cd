// warlog snapshot: lay (or drop) the snapshots that seeking folds forward
// from (replay/seek.hpp). Import lays them for long games already; this verb
// rebuilds them with another interval, or after an engine upgrade made the
// old ones stale.

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "common.hpp"
#include "isolated.hpp"
#include "verbs.hpp"
#include "warlog/replay/seek.hpp"
#include "warlog/store/store.hpp"

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
  CLI::App* sub = app.add_subcommand("snapshot", "Lay snapshots of folded state so that seeking is fast");
  sub->add_option("--store", o.store, "Store directory (default: $WARLOG_STORE, else .warlog/store)");
  sub->add_option("--game", o.games, "Game id(s) (default: all)");
  sub->add_option("--every", s.every,
                  fmt::format("A snapshot after every N events (default: {})", replay::kDefaultSnapshotEvery))
      ->check(CLI::Validator(
          [](const std::string& v) {
            return v.find_first_not_of('0') == std::string::npos ? std::string("N must be 1 or more") : std::string();
          },
          "N >= 1"));
  sub->add_flag("--drop", s.drop, "Remove the games' snapshots instead");
  sub->footer(
      "Snapshots are a cache under the recorded ruleset and this engine version: a seek folds forward\n"
      "from the nearest one and discards any that does not match. Import lays them for games longer\n"
      "than the default interval; rerun this after upgrading warlog, or to change the interval.\n"
      "Exit 0 on success, 2 on error.");
  return sub;
}

// Each game's snapshots are laid in an isolated reader (isolated.hpp): a
// damaged page ends that process, not warlog, and the other games go on.
int run_snapshot(const Options& o, const SnapshotArgs& s) {
  VerbJob job;
  job.mode = replay::Archive::Mode::ReadWrite;
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
  job.finish = [](const replay::Archive& archive) { return archive.store().sync(); };
  auto outcome = run_verb_job(o, std::move(job));
  return outcome ? outcome->code : kExitError;
}

}  // namespace warlog::cli
