#pragma once
// Timing shared by the benchmark executables (warlog_bench and
// warlog_viewer_bench): per-call latencies on the wall clock and on this
// thread's CPU, reported as Google Benchmark counters, and Expected unwrapping.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <stdexcept>
#include <string>
#include <vector>

#include "warlog/core/error.hpp"

namespace warlog::bench {

// The value, or std::runtime_error with the error's message.
template <class T>
T or_throw(Expected<T> v) {
  if (!v) throw std::runtime_error(v.error().message);
  if constexpr (!std::is_void_v<T>) return std::move(*v);
}

// This thread's CPU time in seconds: on a machine shared with other builds a
// sub-millisecond operation's wall-clock tail is the scheduler's time slice,
// so latencies are reported both ways.
inline double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Wall-clock and on-CPU latencies of one timed call each, in seconds.
struct Latencies {
  std::vector<double> wall, cpu;
  template <class Fn>
  auto time(Fn&& fn) {
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = thread_cpu_seconds();
    if constexpr (std::is_void_v<decltype(fn())>) {
      fn();
      cpu.push_back(thread_cpu_seconds() - c0);
      wall.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    } else {
      auto r = fn();
      cpu.push_back(thread_cpu_seconds() - c0);
      wall.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      return r;
    }
  }
};

// Counters in ms: p50_ms, p99_ms, max_ms (wall) and p50_cpu_ms, p99_cpu_ms,
// max_cpu_ms; samples.
inline void report_latencies(benchmark::State& state, Latencies l) {
  if (l.wall.empty()) return;
  auto put = [&](std::vector<double>& v, const std::string& suffix) {
    std::sort(v.begin(), v.end());
    auto at = [&](double q) { return v[std::min(v.size() - 1, static_cast<std::size_t>(q * v.size()))] * 1e3; };
    state.counters["p50" + suffix] = at(0.50);
    state.counters["p99" + suffix] = at(0.99);
    state.counters["max" + suffix] = v.back() * 1e3;
  };
  put(l.wall, "_ms");
  put(l.cpu, "_cpu_ms");
  state.counters["samples"] = static_cast<double>(l.wall.size());
}

}  // namespace warlog::bench
