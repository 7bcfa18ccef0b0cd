#include "warlog/replay/batch.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace warlog::replay {

void parallel_for(std::size_t count, unsigned jobs, const std::function<void(std::size_t)>& work,
                  const std::function<void(std::size_t)>& progress) {
  if (jobs == 0) jobs = std::max(1u, std::thread::hardware_concurrency());
  jobs = static_cast<unsigned>(std::min<std::size_t>(jobs, std::max<std::size_t>(count, 1)));
  // One job: run on the calling thread. No thread to start, nothing to wait
  // for: `audit --game 1` costs its CPU time and no more.
  if (jobs == 1) {
    for (std::size_t i = 0; i < count; ++i) {
      work(i);
      if (progress) progress(i + 1);
    }
    if (progress && count == 0) progress(0);
    return;
  }
  std::atomic<std::size_t> next{0};
  std::size_t done = 0;  // guarded by m
  std::mutex m;
  std::condition_variable changed;
  auto worker = [&] {
    for (std::size_t i = next++; i < count; i = next++) {
      work(i);
      {
        const std::lock_guard lock(m);
        ++done;
      }
      changed.notify_one();
    }
  };
  std::vector<std::jthread> pool;
  pool.reserve(jobs);
  for (unsigned t = 0; t < jobs; ++t) pool.emplace_back(worker);
  // Woken by every finished item (progress is throttled by its own callee),
  // and returns the moment the last one finishes: no polling sleep.
  {
    std::unique_lock lock(m);
    std::size_t reported = 0;
    while (done < count) {
      changed.wait(lock, [&] { return done != reported; });
      reported = done;
      if (progress && reported < count) {
        lock.unlock();
        progress(reported);
        lock.lock();
      }
    }
  }
  pool.clear();  // joins
  if (progress) progress(count);
}

}  // namespace warlog::replay
