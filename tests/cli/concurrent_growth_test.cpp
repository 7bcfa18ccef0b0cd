// warlog audit while another process grows the map ("Trust the store", one
// concurrent writer, item 2). Before the fix about 1 run in 80 exited 2
// ("another process grew the map; close the 1 open reader(s)", or the open's
// own read txn failing with MDB_MAP_RESIZED): with two audit threads, one
// still held a reader when the other found the map grown, and a reader
// never remapped while another was open. The writer here is this binary
// re-run as GrowerChild.Run: it keeps the map just above the data, growing
// it a little before each commit, so every other commit outgrows the map an
// audit opened with (what doubling does once in a long while, all the time).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "spawn_self.hpp"
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <sstream>
#include <thread>

#include "cli/cli_run.hpp"
#include "store/store_fixtures.hpp"

extern char** environ;

namespace warlog {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

constexpr const char* kChildVar = "WARLOG_GROWER_CHILD";
constexpr std::size_t kStep = 16 * 1024;  // bytes the writer adds per commit

pid_t spawn_grower(const std::string& task) { return warlog::testing::spawn_self(kChildVar, task, "GrowerChild.Run"); }

// The writer: "DIR COMMITS STOPFILE". Raw LMDB (the store's lmdb layer), in
// a database of its own that warlog never reads; stops after COMMITS
// commits or when STOPFILE exists.
TEST(GrowerChild, Run) {
  const char* task = std::getenv(kChildVar);
  if (task == nullptr) GTEST_SKIP() << "runs only as a child of ConcurrentGrowth tests";
  std::istringstream words(task);
  std::string dir, stop;
  int commits = 0;
  words >> dir >> commits >> stop;
  auto env = store::lmdb::Env::create();
  ASSERT_TRUE(env);
  ASSERT_TRUE(env->set_maxdbs(16));
  ASSERT_TRUE(env->open(dir.c_str(), MDB_NOSYNC, 0644));
  const auto page = env->stat().value().ms_psize;
  // LMDB never records a smaller map than before, and warlog gives a store
  // 64 MiB: first write past that, then grow a little at a time.
  const auto start = env->info().value();
  const std::size_t used = (start.me_last_pgno + 1) * page;
  std::string value(start.me_mapsize - used + kStep, 'G');
  for (int i = 0; i < commits && !fs::exists(stop); ++i) {
    // The map: what is used, and room for this commit.
    const auto info = env->info();
    ASSERT_TRUE(info);
    ASSERT_TRUE(env->set_mapsize((info->me_last_pgno + 1) * page + value.size() + 8 * page));
    auto txn = store::lmdb::Txn::begin(env->handle(), nullptr, 0);
    ASSERT_TRUE(txn) << store::lmdb::strerror(txn.error());
    MDB_dbi dbi = 0;
    ASSERT_TRUE(store::lmdb::dbi_open(txn->handle(), "test-growth", MDB_CREATE, dbi));
    const std::string key = std::to_string(i);
    ASSERT_TRUE(store::lmdb::put(txn->handle(), dbi, key, value, 0));
    ASSERT_TRUE(txn->commit());
    value.assign(kStep, 'g');
    std::this_thread::sleep_for(2ms);
  }
}

TEST(ConcurrentGrowth, AuditsWhileAnotherProcessGrowsTheMapNeverFail) {
  testing::TempDir dir;
  // Six games: two audit threads, each opening a reader per game.
  for (const std::string title : {"First", "Second", "Third", "Fourth", "Fifth", "Sixth"}) {
    const auto file = testing::retitled_sample(dir.path(), title);
    const auto r = testing::run_warlog("import --store " + dir.store() + " '" + file.string() + "'");
    ASSERT_EQ(r.code, 0) << r.err;
  }
  const auto data = fs::path(dir.store()) / "data.mdb";
  const auto size_before = fs::file_size(data);
  const auto stop = dir.path() / "stop";
  const pid_t writer = spawn_grower(dir.store() + " 2400 " + stop.string());
  ASSERT_GT(writer, 0);

  // Bounded in count and time: at most 100 audits, at most 60 s of them.
  const auto deadline = std::chrono::steady_clock::now() + 60s;
  int runs = 0, failed = 0;
  std::string first_failure;
  while (runs < 100 && std::chrono::steady_clock::now() < deadline) {
    const auto r = testing::run_warlog("audit --jobs 2 --store " + dir.store());
    ++runs;
    // Exit 1: the spine sample's deliberate violation, in every game.
    if (r.code != 1 || testing::count_lines(r.err) != 0) {
      if (failed++ == 0) first_failure = "exit " + std::to_string(r.code) + ": " + r.err;
    }
  }
  std::ofstream(stop).put('\n');
  int status = 0;
  ASSERT_EQ(waitpid(writer, &status, 0), writer);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the writer failed: " << status;
  EXPECT_EQ(failed, 0) << failed << " of " << runs << " audits failed; the first: " << first_failure;
  // The writer did grow the file under the audits (else this proves nothing).
  EXPECT_GT(fs::file_size(data), size_before + 20 * kStep);
  const auto verify = testing::run_warlog("verify --store " + dir.store());
  EXPECT_EQ(verify.code, 0) << verify.out << verify.err;
}

}  // namespace
}  // namespace warlog
