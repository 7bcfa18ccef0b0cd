// run_isolated_work (replay/isolate.hpp): a writing verb's whole store work
// in a forked child. The deaths here are the work's own (a raised signal),
// standing in for a damaged page; tests/cli/page_suite_test.cpp and
// writer_isolation_test.cpp damage real pages.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>

#include "temp_dir.hpp"
#include "warlog/replay/isolate.hpp"
#include "warlog/store/lmdb.hpp"

namespace warlog {
namespace {

using ::testing::HasSubstr;

const std::string kSamples = WARLOG_SAMPLES_DIR;

class IsolatedWork : public ::testing::Test {
 protected:
  void SetUp() override {
    auto archive = replay::Archive::open(dir_.store(), replay::Archive::Mode::ReadWrite);
    ASSERT_TRUE(archive) << archive.error().message;
    for (const char* name : {"cut_off", "green_powder", "out_of_turn", "the_mill_road"}) {
      ASSERT_TRUE(archive->import_file(kSamples + "/games/" + name + ".wlog", {})) << name;
    }
  }

  // What `work` writes to stderr through the relay, and the outcome.
  std::pair<replay::WorkOutcome, std::string> run_capturing_stderr(const std::function<int()>& work) {
    const std::string file = (dir_.path() / "stderr").string();
    std::fflush(stderr);
    const int saved = ::dup(STDERR_FILENO);
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    ::dup2(fd, STDERR_FILENO);
    ::close(fd);
    auto outcome = replay::run_isolated_work(dir_.store(), "writer", work);
    std::fflush(stderr);
    ::dup2(saved, STDERR_FILENO);
    ::close(saved);
    std::ifstream in(file);
    return {outcome, std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>())};
  }

  // Every game's id, after the work, from this process.
  std::size_t verified_games() {
    auto archive = replay::Archive::open(dir_.store(), replay::Archive::Mode::ReadOnly);
    if (!archive) return 0;
    auto games = archive->games();
    if (!games) return 0;
    std::size_t ok = 0;
    for (const auto& g : *games) {
      auto v = archive->verify(g.id);
      ok += v && v->ok;
    }
    return ok;
  }

  testing::TempDir dir_;
};

TEST_F(IsolatedWork, TheWorksExitCodeComesBack) {
  const auto outcome = replay::run_isolated_work(dir_.store(), "writer", [] { return 3; });
  EXPECT_EQ(outcome.exit_code, 3);
  EXPECT_FALSE(outcome.death);
  EXPECT_EQ(outcome.passed_signal, 0);
}

TEST_F(IsolatedWork, ADeathByAFaultSignalIsALostStoreNamingTheWriter) {
  const auto outcome = replay::run_isolated_work(dir_.store(), "writer", [] {
    ::raise(SIGSEGV);
    return 0;
  });
  ASSERT_TRUE(outcome.death);
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_EQ(outcome.death->signal, SIGSEGV);
  EXPECT_FALSE(outcome.death->page);  // a sound store: the walk finds no damaged page
  EXPECT_THAT(outcome.death->message("S", "signing game 1"),
              HasSubstr("store S: the data file is corrupt: restore it from a copy (signing game 1; the writer died "
                        "of SIGSEGV)"));
}

TEST_F(IsolatedWork, ASignalMeantForWarlogIsPassedOnNotReportedAsDamage) {
  const auto outcome = replay::run_isolated_work(dir_.store(), "writer", [] {
    ::raise(SIGTERM);
    return 0;
  });
  EXPECT_FALSE(outcome.death);
  EXPECT_EQ(outcome.passed_signal, SIGTERM);
}

// LMDB prints its assertion before it aborts: the death's one line
// replaces it; the work's own lines before it still reach stderr.
TEST_F(IsolatedWork, LmdbsAssertionLineBeforeADeathIsHeldBackTheWorksLinesAreNot) {
  const auto [outcome, err] = run_capturing_stderr([] {
    std::fprintf(stderr, "warlog: game 1: a line of the verb's own\n");
    std::fprintf(stderr, "mdb.c:5921: Assertion 'IS_LEAF(mp)' failed in mdb_page_search_root()\n");
    std::abort();
    return 0;
  });
  ASSERT_TRUE(outcome.death);
  EXPECT_EQ(outcome.death->signal, SIGABRT);
  EXPECT_EQ(err, "warlog: game 1: a line of the verb's own\n");
}

TEST_F(IsolatedWork, ALineThatOnlyLooksLikeLmdbsIsRelayedWhenTheWorkExits) {
  const auto [outcome, err] = run_capturing_stderr([] {
    std::fprintf(stderr, "claim: Assertion 'x' failed in court()\n");
    return 1;
  });
  EXPECT_FALSE(outcome.death);
  EXPECT_EQ(outcome.exit_code, 1);
  EXPECT_EQ(err, "claim: Assertion 'x' failed in court()\n");
}

// Empties every database of the store in one write transaction (the whole
// store gone), then commits it or dies of SIGSEGV before the commit.
int wipe_store(const std::string& store, bool commit) {
  using namespace store::lmdb;
  auto env = Env::create();
  if (!env || !env->set_maxdbs(64) || !env->open(store.c_str(), 0, 0644)) return 10;
  auto txn = Txn::begin(env->handle(), nullptr, 0);
  if (!txn) return 11;
  MDB_dbi main = 0;
  if (!dbi_open(txn->handle(), nullptr, 0, main)) return 12;
  std::vector<std::string> names;
  {
    auto cursor = Cursor::open(txn->handle(), main);
    if (!cursor) return 13;
    for (auto at = cursor->get(MDB_FIRST); at && *at; at = cursor->get(MDB_NEXT)) names.emplace_back(cursor->key());
  }
  std::size_t dropped = 0;
  for (const auto& name : names) {
    MDB_dbi dbi = 0;
    // A plain key of the main database (not a database) is left.
    if (auto opened = dbi_open(txn->handle(), name.c_str(), 0, dbi); !opened || !*opened) continue;
    if (::mdb_drop(txn->handle(), dbi, 0) != 0) return 15;
    ++dropped;
  }
  if (dropped == 0) return 16;
  if (!commit) ::raise(SIGSEGV);  // dies with the transaction open
  return txn->commit() ? 0 : 17;
}

TEST_F(IsolatedWork, AWriteTransactionThatDiesUncommittedLeavesTheStoreAsItWas) {
  ASSERT_EQ(verified_games(), 4u);
  const auto outcome =
      replay::run_isolated_work(dir_.store(), "writer", [this] { return wipe_store(dir_.store(), false); });
  ASSERT_TRUE(outcome.death) << "exit " << outcome.exit_code;
  EXPECT_EQ(outcome.death->signal, SIGSEGV);
  EXPECT_EQ(verified_games(), 4u);  // every game there, every chain intact
}

// The control: the same transaction committed does wipe the store.
TEST_F(IsolatedWork, TheSameTransactionCommittedEmptiesTheStore) {
  const auto outcome =
      replay::run_isolated_work(dir_.store(), "writer", [this] { return wipe_store(dir_.store(), true); });
  EXPECT_EQ(outcome.exit_code, 0);
  EXPECT_EQ(verified_games(), 0u);
}

TEST_F(IsolatedWork, NoIsolationRunsTheWorkInThisProcess) {
  ::setenv("WARLOG_NO_ISOLATION", "1", 1);
  const pid_t here = ::getpid();
  pid_t ran_in = 0;
  const auto outcome = replay::run_isolated_work(dir_.store(), "writer", [&] {
    ran_in = ::getpid();
    return 4;
  });
  ::unsetenv("WARLOG_NO_ISOLATION");
  EXPECT_EQ(ran_in, here);
  EXPECT_EQ(outcome.exit_code, 4);
}

}  // namespace
}  // namespace warlog
