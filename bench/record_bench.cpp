// Recording figures (issue 16): the append-and-audit latency of one line
// entered through replay::Recorder (parse, fold on a copy, synced append,
// findings), beside LMDB's own synced commit of one small value measured in
// the same run on the same disk; and completion latency.

#include <benchmark/benchmark.h>
#include <lmdb.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench.hpp"
#include "timing.hpp"
#include "warlog/replay/recorder.hpp"

namespace warlog::bench {

namespace {

namespace fs = std::filesystem;

// A scratch directory under the data directory (the same disk as the store).
struct Scratch {
  fs::path path;
  explicit Scratch(const fs::path& parent, const std::string& name) : path(parent / name) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// The spine sample's header (paths made absolute) and its action lines
// without the final `end` (a recorder refuses lines after GameEnded).
struct Spine {
  fs::path header;
  std::vector<std::string> lines;
};
Spine spine(const fs::path& dir) {
  const std::string samples = WARLOG_SAMPLES_DIR;
  std::ifstream in(samples + "/tutorial/spine_first_blood.wlog");
  std::stringstream buf;
  buf << in.rdbuf();
  std::string text = buf.str();
  for (std::size_t at = 0; (at = text.find("\"../", at)) != std::string::npos;) text.replace(at, 4, "\"" + samples + "/");
  Spine s;
  s.header = dir / "spine.header.wlog";
  std::ofstream header(s.header);
  std::istringstream lines(text);
  bool in_header = true;
  for (std::string l; std::getline(lines, l);) {
    const auto first = l.find_first_not_of(" \t");
    if (first == std::string::npos || l[first] == '#') {
      if (in_header) header << l << "\n";
      continue;
    }
    if (l[first] != '[') in_header = false;
    if (in_header) {
      header << l << "\n";
    } else if (!l.starts_with("end ")) {
      s.lines.push_back(l);
    }
  }
  return s;
}

// record/line: one line through Recorder::enter, as `warlog record` does it.
void record_line(benchmark::State& state, const Config& config) {
  Scratch scratch(config.data, "record-line");
  const Spine s = spine(scratch.path);
  auto archive = or_throw(replay::Archive::open((scratch.path / "store").string(), replay::Archive::Mode::ReadWrite));
  std::optional<replay::Recorder> r;
  std::size_t next = 0;
  Latencies l;
  for (auto _ : state) {
    if (!r || next == s.lines.size()) {  // a new game each time through the sample (untimed)
      state.PauseTiming();
      auto made = replay::Recorder::create(archive, s.header.string());
      if (!made) throw std::runtime_error(made.error().error.message);
      r.emplace(std::move(*made));
      next = 0;
      state.ResumeTiming();
    }
    auto o = l.time([&] { return r->enter(s.lines[next++]); });
    if (!o || o->status != replay::LineStatus::Recorded) throw std::runtime_error("record/line: a line was not recorded");
  }
  report_latencies(state, std::move(l));
}

// record/lmdb_synced_put: LMDB alone, one small value (100 bytes) per write
// transaction, committed with LMDB's default full sync: the floor under a
// recorded line.
void lmdb_synced_put(benchmark::State& state, const Config& config) {
  Scratch scratch(config.data, "record-lmdb");
  auto check = [](int rc, const char* what) {
    if (rc != MDB_SUCCESS) throw std::runtime_error(std::string(what) + ": " + mdb_strerror(rc));
  };
  MDB_env* env = nullptr;
  check(mdb_env_create(&env), "mdb_env_create");
  check(mdb_env_set_mapsize(env, std::size_t{64} << 20), "mdb_env_set_mapsize");
  check(mdb_env_open(env, scratch.path.c_str(), 0, 0644), "mdb_env_open");
  MDB_dbi dbi = 0;
  {
    MDB_txn* txn = nullptr;
    check(mdb_txn_begin(env, nullptr, 0, &txn), "mdb_txn_begin");
    check(mdb_dbi_open(txn, nullptr, 0, &dbi), "mdb_dbi_open");
    check(mdb_txn_commit(txn), "mdb_txn_commit");
  }
  std::string value(100, 'v');
  std::uint64_t key = 0;
  Latencies l;
  for (auto _ : state) {
    l.time([&] {
      MDB_txn* txn = nullptr;
      check(mdb_txn_begin(env, nullptr, 0, &txn), "mdb_txn_begin");
      ++key;
      MDB_val k{sizeof key, &key};
      MDB_val v{value.size(), value.data()};
      check(mdb_put(txn, dbi, &k, &v, 0), "mdb_put");
      check(mdb_txn_commit(txn), "mdb_txn_commit");
    });
  }
  mdb_env_close(env);
  report_latencies(state, std::move(l));
}

// record/complete: Recorder::complete on the prefixes a scorekeeper tabs on,
// in the middle of the sample (both seats have cards in hand and on the board).
void record_complete(benchmark::State& state, const Config& config) {
  Scratch scratch(config.data, "record-complete");
  const Spine s = spine(scratch.path);
  auto archive = or_throw(replay::Archive::open((scratch.path / "store").string(), replay::Archive::Mode::ReadWrite));
  auto made = replay::Recorder::create(archive, s.header.string());
  if (!made) throw std::runtime_error(made.error().error.message);
  replay::Recorder r = std::move(*made);
  for (std::size_t i = 0; i < s.lines.size() / 2; ++i) {
    if (!r.enter(s.lines[i])) throw std::runtime_error("record/complete: a line failed");
  }
  const std::vector<std::string> prefixes = {"", "fo", "play \"", "move ", "fire b1 ", "draw \"Ir", "2: play \"", "combat "};
  std::size_t i = 0, candidates = 0;
  Latencies l;
  for (auto _ : state) {
    auto c = l.time([&] { return r.complete(prefixes[i++ % prefixes.size()]); });
    candidates += c.candidates.size();
  }
  benchmark::DoNotOptimize(candidates);
  report_latencies(state, std::move(l));
}

}  // namespace

void register_record_benchmarks(const Config& config) {
  benchmark::RegisterBenchmark("record/line", [config](benchmark::State& s) { record_line(s, config); })
      ->Unit(benchmark::kMicrosecond)
      ->UseRealTime()
      ->Iterations(static_cast<benchmark::IterationCount>(config.append_count));
  benchmark::RegisterBenchmark("record/lmdb_synced_put", [config](benchmark::State& s) { lmdb_synced_put(s, config); })
      ->Unit(benchmark::kMicrosecond)
      ->UseRealTime()
      ->Iterations(static_cast<benchmark::IterationCount>(config.append_count));
  benchmark::RegisterBenchmark("record/complete", [config](benchmark::State& s) { record_complete(s, config); })
      ->Unit(benchmark::kMicrosecond)
      ->UseRealTime()
      ->Iterations(2000);
}

}  // namespace warlog::bench
