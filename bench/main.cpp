// warlog_bench: the figures of docs/performance.md (scripts/bench runs it).
//
//   warlog_bench --data DIR [--import-games N] [--seeks N] [--appends N]
//                [Google Benchmark flags, e.g. --benchmark_format=json]
//   warlog_bench --data DIR --record-only [--appends N]
//                                               only record/*: DIR is scratch space
//   warlog_bench --make-long DIR --events N [--disputed]
//                                               one long game into a new store
//
// DIR holds archive/ (`warlog generate --store DIR/archive`) and long/
// (--make-long). Times are wall-clock (UseRealTime): on a shared machine
// they are lower bounds on speed.

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <cstdlib>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "bench.hpp"
#include "data.hpp"

int main(int argc, char** argv) {
  warlog::bench::Config config;
  std::string make_long;
  std::size_t long_events = 1'000'000;
  bool disputed = false;
  bool record_only = false;
  // Our flags first; the rest go to Google Benchmark.
  std::vector<char*> rest{argv[0]};
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        fmt::print(stderr, "warlog_bench: {} needs a value\n", a);
        std::exit(2);
      }
      return argv[++i];
    };
    auto number = [&]() { return static_cast<std::size_t>(std::stoull(value())); };
    if (a == "--data") {
      config.data = value();
    } else if (a == "--make-long") {
      make_long = value();
    } else if (a == "--record-only") {
      record_only = true;
    } else if (a == "--disputed") {
      disputed = true;
    } else if (a == "--events") {
      long_events = number();
    } else if (a == "--import-games") {
      config.import_games = number();
    } else if (a == "--seeks") {
      config.seeks = number();
    } else if (a == "--appends") {
      config.append_count = number();
    } else if (a == "--audit-events") {
      config.audit_events = number();
    } else if (a == "--bytes-games") {
      config.bytes_games = number();
    } else {
      rest.push_back(argv[i]);
    }
  }
  try {
    if (!make_long.empty()) {
      warlog::bench::make_long_store(make_long, long_events, disputed);
      return 0;
    }
    if (config.data.empty()) {
      fmt::print(stderr, "warlog_bench: give --data DIR (scripts/bench prepares it) or --make-long DIR\n");
      return 2;
    }
    int n = static_cast<int>(rest.size());
    benchmark::Initialize(&n, rest.data());
    if (benchmark::ReportUnrecognizedArguments(n, rest.data())) return 2;
    if (record_only) {
      warlog::bench::register_record_benchmarks(config);
      benchmark::RunSpecifiedBenchmarks();
      benchmark::Shutdown();
      return 0;
    }
    auto open = [](const std::filesystem::path& dir) {
      auto a = warlog::replay::Archive::open(dir.string(), warlog::replay::Archive::Mode::ReadOnly);
      if (!a) throw std::runtime_error(dir.string() + ": " + a.error().message);
      return std::make_shared<const warlog::replay::Archive>(std::move(*a));
    };
    config.archive = open(config.data / "archive");
    config.long_game = open(config.data / "long");
    warlog::bench::register_store_benchmarks(config);
    warlog::bench::register_import_benchmarks(config);
    warlog::bench::register_replay_benchmarks(config);
    warlog::bench::register_notation_benchmarks();
    warlog::bench::register_record_benchmarks(config);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
  } catch (const std::exception& e) {
    fmt::print(stderr, "warlog_bench: {}\n", e.what());
    return 2;
  }
  return 0;
}
