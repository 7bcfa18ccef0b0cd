// The writer thread (server/src/writer.hpp, docs/server.md › 2): lines that
// arrive together are committed in one transaction, each answered after it;
// a retried line whose events are stored answers "already recorded" and
// writes nothing; a stale expected seq is a conflict with the other
// recorder's events.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <future>
#include <latch>
#include <nlohmann/json.hpp>

#include "sample_lines.hpp"
#include "temp_dir.hpp"
#include "warlog/replay/recorder.hpp"
#include "writer.hpp"

namespace warlog::server {
namespace {

using testing::sample_lines;
using testing::TempDir;
using nlohmann::json;

// Submits and waits for the answer.
Answer enter(Writer& w, core::GameId game, core::Seq expected, const std::string& line, Role role = Role::Table) {
  std::promise<Answer> answered;
  auto got = answered.get_future();
  w.submit(LineRequest{game, expected, line, role}, [&answered](Answer a) { answered.set_value(std::move(a)); });
  return got.get();
}

class WriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto opened = replay::Archive::open(dir_.store(), replay::Archive::Mode::ReadWrite);
    ASSERT_TRUE(opened) << opened.error().message;
    archive_.emplace(std::move(*opened));
    lines_ = sample_lines(dir_.path(), "tutorial/spine_first_blood.wlog");
    for (int i = 0; i < 3; ++i) {
      auto r = replay::Recorder::create(*archive_, lines_.header.string());
      ASSERT_TRUE(r) << r.error().error.message;
      setup_events_ = r->next_seq();
    }
  }
  [[nodiscard]] core::Seq events_of(core::GameId g) const { return archive_->game(g)->events; }

  TempDir dir_;
  std::optional<replay::Archive> archive_;
  testing::SampleLines lines_;
  core::Seq setup_events_ = 0;
};

TEST_F(WriterTest, LinesQueuedTogetherAreCommittedInOneTransactionEachAnsweredAfterIt) {
  Writer w(*archive_);
  std::latch queued(1);
  std::promise<Answer> held;
  // A task holds the writer until three tables' lines are queued behind it.
  w.run([&queued](Writer&) {
    queued.wait();
    return Answer{};
  }, [&held](Answer a) { held.set_value(std::move(a)); });
  std::vector<std::promise<Answer>> answers(3);
  for (core::GameId g = 1; g <= 3; ++g) {
    w.submit(LineRequest{g, setup_events_, "Turn 1", Role::Table},
             [&answers, g](Answer a) { answers[g - 1].set_value(std::move(a)); });
  }
  queued.count_down();
  for (core::GameId g = 1; g <= 3; ++g) {
    const Answer a = answers[g - 1].get_future().get();
    EXPECT_EQ(a.status, 200u) << a.body;
    EXPECT_TRUE(a.wrote);
    const json j = json::parse(a.body);
    EXPECT_EQ(j["status"], "ok");
    EXPECT_EQ(j["seqs"], json::array({setup_events_}));
    EXPECT_EQ(events_of(g), setup_events_ + 1) << "answered only once stored";
  }
  EXPECT_EQ(w.stats().commits, 1u);
  EXPECT_EQ(w.stats().lines, 3u);
}

TEST_F(WriterTest, TwoLinesOfOneGameQueuedTogetherAreTakenInOrder) {
  Writer w(*archive_);
  std::latch queued(1);
  w.run([&queued](Writer&) {
    queued.wait();
    return Answer{};
  }, [](Answer) {});
  std::promise<Answer> first, second;
  w.submit(LineRequest{1, setup_events_, "Turn 1", Role::Table}, [&first](Answer a) { first.set_value(std::move(a)); });
  w.submit(LineRequest{1, setup_events_ + 1, "Morale 1", Role::Table},
           [&second](Answer a) { second.set_value(std::move(a)); });
  queued.count_down();
  EXPECT_EQ(json::parse(first.get_future().get().body)["status"], "ok");
  EXPECT_EQ(json::parse(second.get_future().get().body)["status"], "ok");
  EXPECT_EQ(events_of(1), setup_events_ + 2);
}

TEST_F(WriterTest, ARetriedLineIsAlreadyRecordedAndWritesNothing) {
  Writer w(*archive_);
  const core::Seq e = setup_events_;
  ASSERT_EQ(json::parse(enter(w, 1, e, "Turn 1").body)["status"], "ok");
  ASSERT_EQ(json::parse(enter(w, 1, e + 1, "Morale 1").body)["status"], "ok");
  ASSERT_EQ(json::parse(enter(w, 1, e + 2, "Muster 1").body)["status"], "ok");
  const Answer first = enter(w, 1, e + 3, "draw \"Supply Wagon\", \"Ironclaw Lancer\"");
  ASSERT_EQ(json::parse(first.body)["status"], "ok") << first.body;

  // The answer was lost; the page sends the same line with the same expected seq.
  const Answer again = enter(w, 1, e + 3, "draw \"Supply Wagon\", \"Ironclaw Lancer\"");
  EXPECT_EQ(again.status, 200u);
  EXPECT_FALSE(again.wrote);
  const json j = json::parse(again.body);
  EXPECT_EQ(j["status"], "already-recorded");
  EXPECT_EQ(j["seqs"], json::array({e + 3}));
  EXPECT_EQ(events_of(1), e + 4);

  // Another line at that stale seq is someone else's events: a conflict, nothing written.
  const Answer other = enter(w, 1, e + 3, "draw \"Grain Cart\"");
  EXPECT_EQ(other.status, 409u);
  const json c = json::parse(other.body);
  EXPECT_EQ(c["status"], "conflict");
  ASSERT_EQ(c["events"].size(), 1u);
  EXPECT_EQ(c["events"][0]["type"], "CardsDrawn");
  EXPECT_EQ(events_of(1), e + 4);

  // Past the end: refused, nothing written.
  EXPECT_EQ(enter(w, 1, e + 9, "Warfare 1").status, 409u);
  EXPECT_EQ(events_of(1), e + 4);
}

TEST_F(WriterTest, ABackupIsAJudgesAndARefusedLineWritesNothing) {
  Writer w(*archive_);
  const core::Seq e = setup_events_;
  ASSERT_EQ(json::parse(enter(w, 1, e, "Turn 1").body)["status"], "ok");
  const Answer table = enter(w, 1, e + 1, "backup 1 \"appeal\" by \"J. Ruiz\"");
  EXPECT_EQ(table.status, 403u) << table.body;
  EXPECT_EQ(events_of(1), e + 1);
  const Answer judge = enter(w, 1, e + 1, "backup 1 \"appeal\" by \"J. Ruiz\"", Role::Judge);
  EXPECT_EQ(judge.status, 200u) << judge.body;
  EXPECT_EQ(json::parse(judge.body)["status"], "ok");

  const Answer refused = enter(w, 1, e + 2, "plya \"Ironclaw Lancer\" b1");
  EXPECT_EQ(json::parse(refused.body)["status"], "refused");
  EXPECT_EQ(events_of(1), e + 2);
  EXPECT_EQ(enter(w, 7, 0, "Turn 1").status, 404u);
}

}  // namespace
}  // namespace warlog::server
