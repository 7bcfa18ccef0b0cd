// Survey (replay/survey.hpp): one fold gives the audit's findings, an
// outline that tiles the stream, and per-turn figures from core's values; a
// survey extended over appended events equals one taken afresh.

#include <gtest/gtest.h>

#include <optional>
#include <span>

#include "game_corpus.hpp"
#include "store/store_fixtures.hpp"
#include "temp_dir.hpp"
#include "warlog/replay/survey.hpp"
#include "warlog/store/store.hpp"

namespace warlog {
namespace {

using replay::Archive;

Archive open_rw(const testing::TempDir& dir) {
  auto a = Archive::open(dir.store(), Archive::Mode::ReadWrite);
  if (!a) throw std::runtime_error(a.error().message);
  return std::move(*a);
}

// Imports the game's first `head` events (all when 0) with its blobs.
core::GameId import(Archive& archive, const testing::CorpusGame& g, std::size_t head = 0) {
  EXPECT_TRUE(archive.store().put_blob(store::BlobKind::Catalog, g.catalog_text));
  EXPECT_TRUE(archive.store().put_blob(store::BlobKind::Ruleset, g.ruleset_text));
  const std::size_t n = head == 0 ? g.events.size() : head;
  auto id = archive.store().import_game(std::span(g.events).first(n));
  EXPECT_TRUE(id) << id.error().message;
  return id ? *id : 0;
}

class SurveyOf : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(SurveyOf, AGeneratedGameMatchesTheAuditAndTilesTheStream) {
  const testing::CorpusGame g = testing::generated_game(GetParam());
  testing::TempDir dir;
  Archive archive = open_rw(dir);
  const core::GameId id = import(archive, g);
  auto survey = replay::survey_game(archive, id);
  ASSERT_TRUE(survey) << survey.error().message;
  auto audit = archive.audit(id);
  ASSERT_TRUE(audit) << audit.error().message;

  EXPECT_EQ(survey->events, g.events.size());
  EXPECT_EQ(survey->state, audit->final_state);
  ASSERT_EQ(survey->findings.size(), audit->findings.size());
  for (std::size_t i = 0; i < survey->findings.size(); ++i) {
    const replay::LocatedFinding f = survey->findings.located(i);
    EXPECT_EQ(f.finding, audit->findings[i].finding);
    EXPECT_EQ(f.citation, audit->findings[i].citation);
    EXPECT_EQ(f.turn, audit->findings[i].turn);
    EXPECT_EQ(f.seat, audit->findings[i].seat);
  }
  // Spans tile 0..n-1; each starts at a PhaseStarted or a change of turn or phase.
  ASSERT_FALSE(survey->spans.empty());
  EXPECT_EQ(survey->spans.front().first, 0u);
  EXPECT_EQ(survey->spans.back().last, g.events.size() - 1);
  for (std::size_t i = 0; i < survey->spans.size(); ++i) {
    const replay::PhaseSpan& s = survey->spans[i];
    if (i > 0) {
      EXPECT_EQ(s.first, survey->spans[i - 1].last + 1);
    }
    for (core::Seq q = s.first; q <= s.last; ++q) {
      EXPECT_EQ(g.events[q].turn, s.turn);
      EXPECT_EQ(g.events[q].phase, s.phase);
      if (q > s.first) {
        EXPECT_FALSE(std::holds_alternative<core::PhaseStarted>(g.events[q].payload)) << q;
      }
    }
  }
  // One figure row per turn, after its last event.
  ASSERT_FALSE(survey->turns.empty());
  EXPECT_EQ(survey->turns.back().turn, g.events.back().turn);
  for (std::size_t i = 1; i < survey->turns.size(); ++i) EXPECT_GT(survey->turns[i].turn, survey->turns[i - 1].turn);
}

INSTANTIATE_TEST_SUITE_P(Seeds, SurveyOf, ::testing::Values(1, 2, 3));

// The survey keeps the state as the audit ends the log: for a log
// cut mid-game, its closed state is the audit's final state, and grows with
// the log (the viewer's rests_on weighs against it, with no second fold).
TEST(Survey, KeepsTheClosedStateTheAuditEndsTheLogWith) {
  const testing::CorpusGame g = testing::generated_game(3);
  testing::TempDir dir;
  Archive archive = open_rw(dir);
  const core::GameId id = import(archive, g, g.events.size() / 2);
  auto survey = replay::survey_game(archive, id);
  ASSERT_TRUE(survey) << survey.error().message;
  auto audit = archive.audit(id);
  ASSERT_TRUE(audit) << audit.error().message;
  EXPECT_EQ(survey->closed, audit->final_state);
  EXPECT_EQ(survey->closed.next_seq, survey->state.next_seq);
}

TEST(Survey, ExtendedOverAppendedEventsEqualsAFreshSurvey) {
  const testing::CorpusGame g = testing::generated_game(7);
  ASSERT_GT(g.events.size(), 100u);
  testing::TempDir dir;
  Archive archive = open_rw(dir);
  const core::GameId id = import(archive, g, 10);
  auto survey = replay::survey_game(archive, id);
  ASSERT_TRUE(survey) << survey.error().message;
  EXPECT_EQ(survey->events, 10u);
  EXPECT_EQ(replay::extend_survey(archive, *survey).value(), 0u) << "nothing new";

  // Appended in uneven pieces, as a live recorder would.
  std::size_t at = 10;
  for (std::size_t piece : {1u, 7u, 13u}) {
    const auto more = std::span(g.events).subspan(at, piece);
    ASSERT_TRUE(archive.store().append(id, at, more));
    at += piece;
    EXPECT_EQ(replay::extend_survey(archive, *survey).value(), piece);
  }
  ASSERT_TRUE(archive.store().append(id, at, std::span(g.events).subspan(at)));
  EXPECT_EQ(replay::extend_survey(archive, *survey).value(), g.events.size() - at);

  auto fresh = replay::survey_game(archive, id);
  ASSERT_TRUE(fresh);
  EXPECT_EQ(survey->events, fresh->events);
  EXPECT_EQ(survey->spans, fresh->spans);
  EXPECT_EQ(survey->turns, fresh->turns);
  EXPECT_EQ(survey->state, fresh->state);
  ASSERT_EQ(survey->findings.size(), fresh->findings.size());
  for (std::size_t i = 0; i < survey->findings.size(); ++i) {
    EXPECT_EQ(survey->findings.located(i).finding, fresh->findings.located(i).finding);
  }
  EXPECT_EQ(survey->game.events, g.events.size());
}

// A refresh that meets a broken store halfway (a gap where an event was
// removed) fails with DataLoss and puts the survey back exactly: the
// findings it had pushed, the spans it had grown and the state it had
// folded are undone, without copying the survey first.
TEST(Survey, AFailedExtensionLeavesTheSurveyAsItWas) {
  testing::CorpusGame g = testing::generated_game(7);
  ASSERT_GT(g.events.size(), 100u);
  g.events[15].payload = core::CardsDrawn{{"No Such Card"}};  // findings in the part that will fail
  testing::TempDir dir;
  core::GameId id = 0;
  std::optional<replay::GameSurvey> survey;
  {
    Archive archive = open_rw(dir);
    id = import(archive, g, 10);
    auto first = replay::survey_game(archive, id);
    ASSERT_TRUE(first) << first.error().message;
    survey = std::move(*first);
    ASSERT_TRUE(archive.store().append(id, 10, std::span(g.events).subspan(10, 90)));
  }
  // The block at seq 65..99 removed: the survey folds 10..64, then fails.
  store::test::edit_raw(dir.store(), store::kDbEvents, [&](MDB_txn* txn, MDB_dbi dbi) {
    ASSERT_TRUE(store::lmdb::del(txn, dbi, store::view(store::event_key(id, 65))).value());
  });
  const replay::GameSurvey before = *survey;
  Archive archive = open_rw(dir);
  auto added = replay::extend_survey(archive, *survey);
  ASSERT_FALSE(added);
  EXPECT_EQ(added.error().code, ErrorCode::DataLoss);
  EXPECT_EQ(survey->events, before.events);
  EXPECT_EQ(survey->spans, before.spans);
  EXPECT_EQ(survey->turns, before.turns);
  EXPECT_EQ(survey->state, before.state);
  EXPECT_EQ(survey->game.events, before.game.events);
  ASSERT_EQ(survey->findings.size(), before.findings.size());

  // The same fold over the events before the gap does find the edit: the
  // undo had something to undo.
  auto upto = replay::read_events(archive, id, 0, 65);
  ASSERT_TRUE(upto) << upto.error().message;
  EXPECT_EQ(upto->size(), 65u);
  core::GameState state;
  std::vector<core::Finding> found;
  for (const auto& ev : *upto) core::apply(core::Context{g.catalog, g.ruleset}, state, ev, found);
  EXPECT_GT(found.size(), survey->findings.size());
}

TEST(Survey, ReadEventsGivesTheRangeAskedClampedToTheStream) {
  const testing::CorpusGame g = testing::generated_game(1);
  testing::TempDir dir;
  Archive archive = open_rw(dir);
  const core::GameId id = import(archive, g);
  auto some = replay::read_events(archive, id, 5, 9);
  ASSERT_TRUE(some);
  ASSERT_EQ(some->size(), 4u);
  EXPECT_EQ(some->front().seq, 5u);
  auto tail = replay::read_events(archive, id, g.events.size() - 2, g.events.size() + 100);
  ASSERT_TRUE(tail);
  EXPECT_EQ(tail->size(), 2u);
  EXPECT_FALSE(replay::read_events(archive, 999, 0, 5)) << "an unknown game";
  EXPECT_EQ(replay::survey_game(archive, 999).error().code, ErrorCode::NotFound);
}

}  // namespace
}  // namespace warlog
