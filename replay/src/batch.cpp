#include "warlog/replay/batch.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace warlog::replay {

void parallel_for(std::size_t count, unsigned jobs, const std::function<void(std::size_t)>& work,
                  const std::function<void(std::size_t)>& progress) {
  if (jobs == 0) jobs = std::max(1u, std::thread::hardware_concurrency());
  jobs = static_cast<unsigned>(std::min<std::size_t>(jobs, std::max<std::size_t>(count, 1)));
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> done{0};
  auto worker = [&] {
    for (std::size_t i = next++; i < count; i = next++) {
      work(i);
      ++done;
    }
  };
  std::vector<std::jthread> pool;
  pool.reserve(jobs);
  for (unsigned t = 0; t < jobs; ++t) pool.emplace_back(worker);
  while (done.load() < count) {
    if (progress) progress(done.load());
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  pool.clear();  // joins
  if (progress) progress(count);
}

}  // namespace warlog::replay
