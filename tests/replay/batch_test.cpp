// replay::parallel_for: every index once, results in input order, progress
// ending at the count, on one job and on several.

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "warlog/replay/batch.hpp"

namespace warlog::replay {
namespace {

void expect_each_index_once(unsigned jobs, std::size_t count) {
  std::vector<int> hits(count, 0);
  std::vector<std::size_t> reported;
  parallel_for(count, jobs, [&](std::size_t i) { ++hits[i]; },
               [&](std::size_t done) { reported.push_back(done); });
  for (std::size_t i = 0; i < count; ++i) EXPECT_EQ(hits[i], 1) << "index " << i << " on " << jobs << " jobs";
  ASSERT_FALSE(reported.empty());
  EXPECT_EQ(reported.back(), count);
  for (std::size_t k = 1; k < reported.size(); ++k) EXPECT_LE(reported[k - 1], reported[k]);
}

TEST(ParallelFor, OneJobRunsEveryIndexOnTheCallingThreadInOrder) {
  const auto caller = std::this_thread::get_id();
  std::vector<std::size_t> order;
  parallel_for(5, 1, [&](std::size_t i) {
    EXPECT_EQ(std::this_thread::get_id(), caller);
    order.push_back(i);
  }, {});
  EXPECT_EQ(order, (std::vector<std::size_t>{0, 1, 2, 3, 4}));
}

TEST(ParallelFor, EveryIndexOnceAndProgressEndsAtTheCount) {
  expect_each_index_once(1, 17);
  expect_each_index_once(2, 17);
  expect_each_index_once(4, 1000);
  expect_each_index_once(3, 0);
}

TEST(ParallelFor, SeveralJobsUseOtherThreads) {
  std::atomic<int> off_caller{0};
  const auto caller = std::this_thread::get_id();
  parallel_for(64, 2, [&](std::size_t) {
    if (std::this_thread::get_id() != caller) ++off_caller;
  }, {});
  EXPECT_EQ(off_caller.load(), 64);
}

}  // namespace
}  // namespace warlog::replay
