// Stepping through a game: the session moves, the state follows.

#include <gtest/gtest.h>

#include <QSignalSpy>

#include "game_session.hpp"
#include "sample_store.hpp"
#include "state_model.hpp"

namespace warlog::viewer {
namespace {

SessionData first_blood() {
  auto archive = warlog::testing::open_sample_archive();
  auto data = load_session(archive, warlog::testing::sample_store().first_blood);
  if (!data) throw std::runtime_error(data.error().message);
  return std::move(*data);
}

// The seq of the first event of this payload type by this seat.
template <class P>
core::Seq first_of(const GameSession& s, core::Seat seat) {
  for (const auto& ev : s.events()) {
    if (std::holds_alternative<P>(ev.payload) && ev.seat == seat) return ev.seq;
  }
  throw std::runtime_error("no such event in the sample");
}

int hand_of_first_seat(const StateModel& model) {
  return model.find(StateModel::FirstSeatSection, QStringLiteral("Hand"), StateModel::Value)
      .data(StateModel::RawValueRole)
      .toInt();
}

TEST(GameSession, LoadsAGameFromTheStore) {
  GameSession s(first_blood());
  EXPECT_EQ(s.game().title, "First blood at the Old Mill");
  EXPECT_FALSE(s.empty());
  EXPECT_EQ(s.seq(), s.first_seq());
  EXPECT_EQ(s.last_seq(), s.events().back().seq);
  EXPECT_FALSE(s.findings().empty());
}

TEST(GameSession, SteppingForwardAndBackChangesSeqAndState) {
  GameSession session(first_blood());
  StateModel state;
  QObject::connect(&session, &GameSession::moved,
                   [&] { state.set_state(session.moment().state, session.catalog(), session.ruleset(), &session.before()); });
  state.set_state(session.moment().state, session.catalog(), session.ruleset());
  QSignalSpy moved(&session, &GameSession::moved);

  const core::Seq draw = first_of<core::CardsDrawn>(session, 0);
  while (session.seq() < draw) session.step(+1);
  EXPECT_EQ(session.seq(), draw);
  EXPECT_EQ(moved.count(), static_cast<int>(draw));
  EXPECT_EQ(moved.last().at(0).value<core::Seq>(), draw);
  EXPECT_EQ(hand_of_first_seat(state), 2);
  EXPECT_TRUE(state.find(StateModel::FirstSeatSection, QStringLiteral("Hand")).data(StateModel::ChangedRole).toBool());

  session.step(-1);
  EXPECT_EQ(session.seq(), draw - 1);
  EXPECT_EQ(hand_of_first_seat(state), 0);
  // The event before the draw did not touch the hand.
  EXPECT_FALSE(state.find(StateModel::FirstSeatSection, QStringLiteral("Hand")).data(StateModel::ChangedRole).toBool());
}

TEST(GameSession, BeforeIsTheStateBeforeTheCurrentEventHoweverWeGotThere) {
  GameSession s(first_blood());
  const core::Context ctx{s.catalog(), s.ruleset()};
  EXPECT_EQ(s.before(), core::GameState{});
  s.step(+1);
  EXPECT_EQ(s.before(), replay::moment_at(ctx, s.events(), s.first_seq()).state);
  s.go_to(20);
  EXPECT_EQ(s.before(), replay::moment_at(ctx, s.events(), 19).state);
  s.step(-1);
  EXPECT_EQ(s.before(), replay::moment_at(ctx, s.events(), 18).state);
}

TEST(GameSession, StepsStopAtEitherEnd) {
  GameSession s(first_blood());
  QSignalSpy moved(&s, &GameSession::moved);
  s.step(-1);
  EXPECT_EQ(s.seq(), s.first_seq());
  EXPECT_EQ(moved.count(), 0);
  s.last();
  EXPECT_EQ(s.seq(), s.last_seq());
  s.step(+1);
  EXPECT_EQ(s.seq(), s.last_seq());
  s.go_to(s.last_seq() + 1000);
  EXPECT_EQ(s.seq(), s.last_seq());
  s.first();
  EXPECT_EQ(s.seq(), s.first_seq());
  EXPECT_EQ(moved.count(), 2);
}

TEST(GameSession, PhaseKeysLandOnPhaseStarts) {
  GameSession s(first_blood());
  std::vector<core::Seq> starts;
  for (const auto& ev : s.events()) {
    if (std::holds_alternative<core::PhaseStarted>(ev.payload)) starts.push_back(ev.seq);
  }
  ASSERT_GE(starts.size(), 3u);
  for (core::Seq start : starts) {
    s.next_phase();
    EXPECT_EQ(s.seq(), start);
  }
  s.next_phase();  // no later phase: stays
  EXPECT_EQ(s.seq(), starts.back());
  s.last();
  s.previous_phase();
  EXPECT_EQ(s.seq(), starts.back());
  s.previous_phase();
  EXPECT_EQ(s.seq(), starts[starts.size() - 2]);
}

TEST(GameSession, TheMomentCarriesThatEventsFindings) {
  GameSession s(first_blood());
  const auto& all = s.findings();
  const auto violation = std::find_if(all.begin(), all.end(),
                                      [](const auto& f) { return f.finding.rule_id == "MUS-a.draw"; });
  ASSERT_NE(violation, all.end());
  s.go_to(violation->finding.seq);
  EXPECT_EQ(s.seq(), violation->finding.seq);
  const auto here = s.findings_here();
  const auto same = std::find_if(here.begin(), here.end(), [&](const auto& f) { return f.finding == violation->finding; });
  ASSERT_NE(same, here.end());
  EXPECT_EQ(same->citation, violation->citation);
  EXPECT_EQ(same->turn, violation->turn);
  EXPECT_EQ(same->seat, violation->seat);
}

TEST(GameSession, AnEmptyGameHasNoMomentAndIgnoresKeys) {
  GameSession s(SessionData{});
  EXPECT_TRUE(s.empty());
  s.step(+1);
  s.last();
  s.next_phase();
  EXPECT_EQ(s.seq(), 0u);
  EXPECT_TRUE(s.findings_here().empty());
}

}  // namespace
}  // namespace warlog::viewer
