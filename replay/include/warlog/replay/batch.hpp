#pragma once
// Runs work over many games on a pool of threads. Each call of `work` gets
// an index into the caller's list and stores its own result there, so the
// output order is the input order whatever the threads do. The store hands
// each thread its own LMDB reader (MDB_NOTLS), so readers never block.

#include <cstddef>
#include <functional>

namespace warlog::replay {

// Calls work(i) for i in [0, count) on `jobs` threads (0: one per core).
// `progress(done)` is called on the calling thread as items finish (throttle
// it in the callee) and once at the end with count. With one job everything
// runs on the calling thread; otherwise the caller sleeps on a condition
// variable, never a timer, and returns as the last item finishes.
// `work` must not throw.
void parallel_for(std::size_t count, unsigned jobs, const std::function<void(std::size_t)>& work,
                  const std::function<void(std::size_t done)>& progress);

}  // namespace warlog::replay
