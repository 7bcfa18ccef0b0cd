#include "isolated.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <memory>

#include "common.hpp"
#include "progress.hpp"

namespace warlog::cli {

void put_stdout(replay::Outbox& box, std::string text) { box.put(kStdout, std::move(text)); }

void put_error(replay::Outbox& box, const Error& e) {
  box.put(kStderr, fmt::format("warlog: {}\n", e.message));
  put_exit(box, kExitError);
}

void put_exit(replay::Outbox& box, int code) { box.put(kExitCode, std::string(1, static_cast<char>(code))); }

Expected<VerbOutcome> run_verb_job(const Options& opts, VerbJob job) {
  Options o = opts;
  if (auto s = parse_shard(o); !s) {
    error_line(s.error());
    return tl::unexpected(s.error());
  }
  if (!job.select) {
    // After parse_shard: the selection is of this shard.
    job.select = [o, orphans = job.orphans](const replay::Archive& a) { return selected_games(a, o, orphans); };
  }
  VerbOutcome outcome;
  std::unique_ptr<Progress> bar;
  replay::IsolatedSink sink;
  sink.records = [&](core::GameId id, std::vector<replay::Record>&& records) {
    for (const auto& r : records) {
      switch (r.tag) {
        case kStdout: std::fwrite(r.bytes.data(), 1, r.bytes.size(), stdout); break;
        case kStderr: std::fwrite(r.bytes.data(), 1, r.bytes.size(), stderr); break;
        case kExitCode: outcome.code = std::max(outcome.code, r.bytes.empty() ? kExitError : int{r.bytes[0]}); break;
        default:
          if (job.on_record) job.on_record(id, r);
      }
    }
  };
  sink.lost = [&](const replay::LostGame& lost) {
    std::fflush(stdout);  // what the games before it printed comes first
    error_line(Error{ErrorCode::DataLoss, lost.message(o.store.empty() ? replay::default_store_path() : o.store)});
    outcome.code = kExitError;
    if (job.on_lost) job.on_lost(lost);
  };
  if (job.progress) {
    sink.progress = [&](std::size_t done, std::size_t total) {
      if (!bar) bar = std::make_unique<Progress>(job.progress, total);
      bar->update(done);
    };
  }
  replay::IsolatedJob ij;
  ij.store = o.store.empty() ? replay::default_store_path() : o.store;
  ij.mode = job.mode;
  ij.jobs = job.jobs;
  ij.select = job.select;
  ij.run = job.run;
  ij.finish = job.finish;
  auto run = replay::run_isolated(ij, sink);
  if (bar) bar->finish();
  if (!run) {
    error_line(run.error());
    return tl::unexpected(run.error());
  }
  outcome.games = run->games.size();
  outcome.lost = run->lost;
  return outcome;
}

}  // namespace warlog::cli
