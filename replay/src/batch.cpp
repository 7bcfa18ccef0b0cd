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
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> done{0};
  std::mutex mutex;
  std::condition_variable finished;
  auto worker = [&] {
    for (std::size_t i = next++; i < count; i = next++) {
      work(i);
      if (++done == count) {
        std::lock_guard lock(mutex);
        finished.notify_one();
      }
    }
  };
  std::vector<std::jthread> pool;
  pool.reserve(jobs);
  for (unsigned t = 0; t < jobs; ++t) pool.emplace_back(worker);
  // Progress every 20 ms, but no waiting out the last interval: a one-game
  // audit used to sleep 20 ms after its game was done.
  std::unique_lock lock(mutex);
  while (done.load() < count) {
    if (progress) {
      lock.unlock();
      progress(done.load());
      lock.lock();
    }
    finished.wait_for(lock, std::chrono::milliseconds(20), [&] { return done.load() >= count; });
  }
  lock.unlock();
  pool.clear();  // joins
  if (progress) progress(count);
}

}  // namespace warlog::replay
