// Replay figures: audit against raw cursor scans of the same values, seek
// against a full refold, the viewer's step at the end of a long game, and
// the archive audit on two threads.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <random>
#include <string>
#include <ctime>
#include <sys/resource.h>
#include <stdexcept>
#include <vector>

#include "bench.hpp"
#include "timing.hpp"
#include "warlog/core/fold.hpp"
#include "warlog/replay/batch.hpp"
#include "warlog/replay/seek.hpp"
#include "warlog/store/store.hpp"

namespace warlog::bench {

namespace {

std::vector<core::GameId> all_games(const replay::Archive& a) {
  return or_throw(or_throw(a.store().reader()).game_ids());
}

core::Seq event_count(const replay::Archive& a, core::GameId id) { return or_throw(a.game(id)).events; }

// Reads every value of the games with a cursor and touches each byte once
// (a checksum, so the reads cannot be optimised away): what the store costs
// before any decoding.
std::uint64_t raw_scan(const replay::Archive& a, core::GameId id) {
  auto reader = or_throw(a.store().reader());
  std::uint64_t sum = 0;
  (void)or_throw(reader.scan_raw(id, 0, store::kEndSeq, [&](core::Seq, std::string_view bytes) {
    for (const char c : bytes) sum += static_cast<unsigned char>(c);
    return true;
  }));
  return sum;
}

// --- Audit, one thread ---------------------------------------------------------

// audit/one_thread: Archive::audit of game after game on this thread: read
// from the store by cursor, decode, fold, locate findings, digest.
void audit_one_thread(benchmark::State& state, const replay::Archive& a, const std::vector<core::GameId>& ids,
                      std::size_t events) {
  std::size_t violations = 0;
  for (auto _ : state) {
    for (core::GameId id : ids) violations += or_throw(a.audit(id)).violations();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * events));
  state.counters["games"] = static_cast<double>(ids.size());
  state.counters["violations"] = static_cast<double>(violations) / static_cast<double>(state.iterations());
}

// audit/decode_only: the same cursor and Cap'n Proto decoding into
// core::Event, no fold.
void decode_only(benchmark::State& state, const replay::Archive& a, const std::vector<core::GameId>& ids,
                 std::size_t events) {
  for (auto _ : state) {
    auto reader = or_throw(a.store().reader());
    std::size_t n = 0;
    for (core::GameId id : ids) {
      n += or_throw(reader.scan(id, 0, store::kEndSeq, [](const core::Event& ev) {
        benchmark::DoNotOptimize(ev);
        return true;
      }));
    }
    benchmark::DoNotOptimize(n);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * events));
}

// audit/raw_scan, the baseline: the same values by cursor, undecoded.
void raw_scan_games(benchmark::State& state, const replay::Archive& a, const std::vector<core::GameId>& ids,
                    std::size_t events) {
  for (auto _ : state) {
    std::uint64_t sum = 0;
    for (core::GameId id : ids) sum += raw_scan(a, id);
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * events));
}

// --- Archive, two threads ---------------------------------------------------------

// archive/audit_2_threads: every game of the archive audited on two threads
// (replay::parallel_for, as `warlog audit --jobs 2` runs it).
// The process's CPU time (every thread), in seconds.
double process_cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  auto secs = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6; };
  return secs(u.ru_utime) + secs(u.ru_stime);
}

void archive_audit(benchmark::State& state, const replay::Archive& a, const std::vector<core::GameId>& ids,
                   std::size_t events) {
  const double cpu0 = process_cpu_seconds();
  for (auto _ : state) {
    std::atomic<std::size_t> failed{0};
    replay::parallel_for(
        ids.size(), 2, [&](std::size_t i) { failed += a.audit(ids[i]) ? 0 : 1; }, {});
    if (failed > 0) throw std::runtime_error("archive audit: a game failed to audit");
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * events));
  state.counters["games"] = static_cast<double>(ids.size());
  // Both threads' CPU time: what the run costs whatever else the machine runs.
  state.counters["cpu_s"] = (process_cpu_seconds() - cpu0) / static_cast<double>(state.iterations());
}

// archive/raw_scan_2_threads, the baseline: every value by cursor on two threads.
void archive_raw(benchmark::State& state, const replay::Archive& a, const std::vector<core::GameId>& ids,
                 std::size_t events) {
  for (auto _ : state) {
    std::atomic<std::uint64_t> sum{0};
    replay::parallel_for(
        ids.size(), 2, [&](std::size_t i) { sum += raw_scan(a, ids[i]); }, {});
    benchmark::DoNotOptimize(sum.load());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * events));
}

// --- Seek -------------------------------------------------------------------------

// seek/random: Seeker::seek to uniformly random seqs of the long game (fixed
// seed): the nearest snapshot, checked and decoded, then a fold forward.
void seek_random(benchmark::State& state, const replay::Archive& a, std::size_t seeks) {
  const replay::Seeker seeker = or_throw(replay::Seeker::open(a, 1));
  const core::Seq n = event_count(a, 1);
  std::mt19937_64 rng(42);
  std::uniform_int_distribution<core::Seq> pick(0, n - 1);
  Latencies l;
  l.wall.reserve(seeks);
  l.cpu.reserve(seeks);
  std::size_t from_snapshot = 0;
  for (auto _ : state) {
    const core::Seq seq = pick(rng);
    auto r = l.time([&] { return seeker.seek(seq); });
    if (!r) throw std::runtime_error(r.error().message);
    from_snapshot += r->snapshot_seq.has_value();
  }
  report_latencies(state, std::move(l));
  state.counters["from_snapshot"] = static_cast<double>(from_snapshot);
}

// seek/full_refold, the baseline: the state at the last event folded from the
// start out of the store (what a seek without snapshots does), with the
// state before it kept as a seek keeps it.
void full_refold(benchmark::State& state, const replay::Archive& a) {
  const core::Catalog catalog = or_throw(a.catalog_of(1));
  const core::Ruleset ruleset = or_throw(a.ruleset_of(1));
  const core::Context ctx{catalog, ruleset};
  const core::Seq n = event_count(a, 1);
  for (auto _ : state) {
    auto reader = or_throw(a.store().reader());
    core::GameState s, before;
    std::vector<core::Finding> findings;
    (void)or_throw(reader.scan(1, 0, store::kEndSeq, [&](const core::Event& ev) {
      if (ev.seq + 1 == n) before = s;
      findings.clear();
      core::apply(ctx, s, ev, findings);
      return true;
    }));
    benchmark::DoNotOptimize(s);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

// step/end: the replay Seeker step, as the viewer calls it, at the end of the
// long game: stepping between the last two events, each step one seek (the
// moment, its findings, the state before). The viewer's own projection into
// its Qt models is not included (see docs/performance.md).
void step_end(benchmark::State& state, const replay::Archive& a) {
  const replay::Seeker seeker = or_throw(replay::Seeker::open(a, 1));
  const core::Seq last = event_count(a, 1) - 1;
  Latencies l;
  bool at_end = false;
  for (auto _ : state) {
    auto r = l.time([&] { return seeker.seek(at_end ? last - 1 : last); });
    if (!r) throw std::runtime_error(r.error().message);
    benchmark::DoNotOptimize(r->before);
    at_end = !at_end;
  }
  report_latencies(state, std::move(l));
}

// The archive's first games up to `events` events: the audit sample.
std::vector<core::GameId> first_games(const replay::Archive& a, std::size_t events, std::size_t& total) {
  std::vector<core::GameId> out;
  total = 0;
  for (core::GameId id : all_games(a)) {
    if (total >= events) break;
    out.push_back(id);
    total += event_count(a, id);
  }
  return out;
}

}  // namespace

void register_replay_benchmarks(const Config& config) {
  const auto& archive = *config.archive;
  const auto& long_game = *config.long_game;

  std::size_t sample_events = 0;
  const auto sample = first_games(archive, config.audit_events, sample_events);
  auto group = [&](const char* name, auto fn, const replay::Archive& a, std::vector<core::GameId> ids,
                   std::size_t events, int iterations) {
    benchmark::RegisterBenchmark(name, [fn, &a, ids, events](benchmark::State& s) { fn(s, a, ids, events); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->Iterations(iterations);
  };
  group("audit/one_thread", audit_one_thread, archive, sample, sample_events, 3);
  group("audit/decode_only", decode_only, archive, sample, sample_events, 3);
  group("audit/raw_scan", raw_scan_games, archive, sample, sample_events, 3);
  const std::size_t long_events = event_count(long_game, 1);
  group("audit/long_game", audit_one_thread, long_game, {1}, long_events, 2);
  group("audit/long_game_raw_scan", raw_scan_games, long_game, {1}, long_events, 2);

  std::size_t archive_events = 0;
  const auto every = first_games(archive, SIZE_MAX, archive_events);
  group("archive/audit_2_threads", archive_audit, archive, every, archive_events, 1);
  group("archive/raw_scan_2_threads", archive_raw, archive, every, archive_events, 1);

  benchmark::RegisterBenchmark("seek/random", [&long_game, n = config.seeks](benchmark::State& s) {
    seek_random(s, long_game, n);
  })->Unit(benchmark::kMicrosecond)->UseRealTime()->Iterations(static_cast<benchmark::IterationCount>(config.seeks));
  benchmark::RegisterBenchmark("seek/full_refold", [&long_game](benchmark::State& s) { full_refold(s, long_game); })
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime()
      ->Iterations(3);
  benchmark::RegisterBenchmark("step/end", [&long_game](benchmark::State& s) { step_end(s, long_game); })
      ->Unit(benchmark::kMicrosecond)
      ->UseRealTime()
      ->Iterations(2000);
}

}  // namespace warlog::bench
