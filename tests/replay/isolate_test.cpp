// run_isolated (replay/isolate.hpp): games read in a forked child, a child
// that dies replaced after the game it died in, output in game order. The
// deaths here are the job's own (a raised signal), standing in for a
// damaged page; tests/cli/page_suite_test.cpp damages real pages.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <signal.h>

#include <cstdlib>
#include <map>
#include <stdexcept>

#include "temp_dir.hpp"
#include "warlog/replay/isolate.hpp"

namespace warlog {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

const std::string kSamples = WARLOG_SAMPLES_DIR;

// Four sample games (ids 1-4), the store closed again: the caller of
// run_isolated must not have it open (the child opens it).
class Isolation : public ::testing::Test {
 protected:
  void SetUp() override {
    auto archive = replay::Archive::open(dir_.store(), replay::Archive::Mode::ReadWrite);
    ASSERT_TRUE(archive) << archive.error().message;
    for (const char* name : {"cut_off", "green_powder", "out_of_turn", "the_mill_road"}) {
      auto r = archive->import_file(kSamples + "/games/" + name + ".wlog", {});
      ASSERT_TRUE(r) << name;
    }
  }

  struct Seen {
    std::vector<core::GameId> order;  // of record deliveries
    std::map<core::GameId, std::string> text;
    std::vector<replay::LostGame> lost;
    Expected<replay::IsolatedRun> run = make_error(ErrorCode::Internal, "not run");
  };

  // Every game puts "game N;" then does whatever `body` does.
  Seen run(unsigned jobs, std::function<void(core::GameId, replay::Outbox&)> body,
           std::function<void()> in_select = {}) {
    replay::IsolatedJob job;
    job.store = dir_.store();
    job.jobs = jobs;
    job.select = [in_select](const replay::Archive& a) -> Expected<std::vector<core::GameId>> {
      if (in_select) in_select();
      auto games = a.games();
      if (!games) return tl::unexpected(games.error());
      std::vector<core::GameId> ids;
      for (const auto& g : *games) ids.push_back(g.id);
      return ids;
    };
    job.run = [body](const replay::Archive& a, core::GameId id, replay::Outbox& box) {
      auto g = a.game(id);
      box.put(1, "game " + std::to_string(id) + (g ? ";" : "?"));
      if (body) body(id, box);
    };
    Seen seen;
    replay::IsolatedSink sink;
    sink.records = [&](core::GameId id, std::vector<replay::Record>&& records) {
      seen.order.push_back(id);
      for (const auto& r : records) seen.text[id] += r.bytes;
    };
    sink.lost = [&](const replay::LostGame& l) { seen.lost.push_back(l); };
    seen.run = replay::run_isolated(job, sink);
    return seen;
  }

  testing::TempDir dir_;
};

TEST_F(Isolation, ASoundStoreIsReadByOneChildAndReportedInGameOrder) {
  auto seen = run(2, {});
  ASSERT_TRUE(seen.run) << seen.run.error().message;
  EXPECT_THAT(seen.order, ElementsAre(1, 2, 3, 4));
  EXPECT_EQ(seen.text[3], "game 3;");
  EXPECT_TRUE(seen.lost.empty());
  EXPECT_EQ(seen.run->children, 1u);
  EXPECT_EQ(seen.run->lost, 0u);
}

TEST_F(Isolation, AGameWhoseReaderDiesOfSIGSEGVIsLostAndTheOthersAreReported) {
  auto seen = run(1, [](core::GameId id, replay::Outbox&) {
    if (id == 2) ::raise(SIGSEGV);
  });
  ASSERT_TRUE(seen.run) << seen.run.error().message;
  EXPECT_THAT(seen.order, ElementsAre(1, 3, 4));
  ASSERT_EQ(seen.lost.size(), 1u);
  EXPECT_EQ(seen.lost[0].game, 2u);
  EXPECT_EQ(seen.lost[0].signal, SIGSEGV);
  EXPECT_EQ(seen.run->children, 2u);  // one restart, after game 2
  const std::string line = seen.lost[0].message("S");
  EXPECT_THAT(line, HasSubstr("store S: the data file is corrupt"));
  EXPECT_THAT(line, HasSubstr("restore it from a copy (game 2 was being read; the reader died of SIGSEGV)"));
  // Nothing is damaged in this store: the page walk names no page.
  EXPECT_FALSE(seen.lost[0].page);
}

TEST_F(Isolation, AnAbortOnOneOfTwoThreadsNamesItsOwnGame) {
  auto seen = run(2, [](core::GameId id, replay::Outbox&) {
    if (id == 3) std::abort();
  });
  ASSERT_TRUE(seen.run) << seen.run.error().message;
  EXPECT_THAT(seen.order, ElementsAre(1, 2, 4));
  ASSERT_EQ(seen.lost.size(), 1u);
  EXPECT_EQ(seen.lost[0].game, 3u);
  EXPECT_EQ(seen.lost[0].signal, SIGABRT);
}

TEST_F(Isolation, AReaderKilledWithoutAWordIsFoundByRerunningTheGamesInFlightOneByOne) {
  // SIGKILL runs no handler: the parent does not know which game of those in
  // flight did it, so it runs them again in a child of one thread.
  auto seen = run(2, [](core::GameId id, replay::Outbox&) {
    if (id == 2) ::raise(SIGKILL);
  });
  ASSERT_TRUE(seen.run) << seen.run.error().message;
  EXPECT_THAT(seen.order, ElementsAre(1, 3, 4));
  ASSERT_EQ(seen.lost.size(), 1u);
  EXPECT_EQ(seen.lost[0].game, 2u);
  EXPECT_EQ(seen.lost[0].signal, SIGKILL);
}

TEST_F(Isolation, EveryGameDyingIsEveryGameLostNotAnEndlessRestart) {
  auto seen = run(2, [](core::GameId, replay::Outbox&) { ::raise(SIGBUS); });
  ASSERT_TRUE(seen.run) << seen.run.error().message;
  EXPECT_TRUE(seen.order.empty());
  ASSERT_EQ(seen.lost.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(seen.lost[i].game, i + 1);
  EXPECT_LE(seen.run->children, 9u);  // at most two per game
}

TEST_F(Isolation, OutputFlushedBeforeADeathStaysDeliveredAndTheGameIsLost) {
  auto seen = run(1, [](core::GameId id, replay::Outbox& box) {
    if (id != 1) return;
    box.put(1, " first half");
    box.flush();
    ::raise(SIGSEGV);
  });
  ASSERT_TRUE(seen.run) << seen.run.error().message;
  EXPECT_EQ(seen.text[1], "game 1; first half");
  EXPECT_THAT(seen.order, ElementsAre(1, 2, 3, 4));
  ASSERT_EQ(seen.lost.size(), 1u);
  EXPECT_EQ(seen.lost[0].game, 1u);
}

TEST_F(Isolation, AReaderDyingWhileChoosingTheGamesIsDataLoss) {
  auto seen = run(1, {}, [] { ::raise(SIGSEGV); });
  ASSERT_FALSE(seen.run);
  EXPECT_EQ(seen.run.error().code, ErrorCode::DataLoss);
  EXPECT_THAT(seen.run.error().message, HasSubstr("opening the store and listing its games; the reader died of SIGSEGV"));
  EXPECT_TRUE(seen.order.empty());
}

TEST_F(Isolation, AStoreThatCannotBeOpenedGivesItsOwnError) {
  replay::IsolatedJob job;
  job.store = (dir_.path() / "nowhere").string();
  job.select = [](const replay::Archive&) -> Expected<std::vector<core::GameId>> { return std::vector<core::GameId>{}; };
  job.run = [](const replay::Archive&, core::GameId, replay::Outbox&) {};
  replay::IsolatedSink sink;
  sink.records = [](core::GameId, std::vector<replay::Record>&&) {};
  sink.lost = [](const replay::LostGame&) {};
  auto r = replay::run_isolated(job, sink);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::NotFound);
  EXPECT_THAT(r.error().message, HasSubstr("no warlog store at"));
}

TEST_F(Isolation, AnExceptionInAJobIsABugThatReachesTheCaller) {
  EXPECT_THROW(run(1,
                   [](core::GameId id, replay::Outbox&) {
                     if (id == 2) throw std::logic_error("bug in game 2");
                   }),
               std::runtime_error);
}

TEST_F(Isolation, WithoutIsolationTheSameRecordsComeFromThisProcess) {
  ::setenv("WARLOG_NO_ISOLATION", "1", 1);
  auto seen = run(2, {});
  ::unsetenv("WARLOG_NO_ISOLATION");
  ASSERT_TRUE(seen.run) << seen.run.error().message;
  EXPECT_THAT(seen.order, ElementsAre(1, 2, 3, 4));
  EXPECT_EQ(seen.text[4], "game 4;");
  EXPECT_EQ(seen.run->children, 0u);
}

}  // namespace
}  // namespace warlog
