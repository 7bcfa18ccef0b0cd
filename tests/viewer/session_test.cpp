// Stepping through a game: the session seeks (snapshot + short fold), the
// state follows, and the session keeps the archive it seeks in alive.

#include <gtest/gtest.h>

#include <optional>

#include <QSignalSpy>

#include "game_session.hpp"
#include "sample_store.hpp"
#include "snapshot_builder.hpp"
#include "state_model.hpp"
#include "warlog/replay/seek.hpp"

namespace warlog::viewer {
namespace {

std::unique_ptr<GameSession> open_session(std::shared_ptr<const replay::Archive> archive, core::GameId id) {
  auto s = GameSession::open(std::move(archive), id);
  if (!s) throw std::runtime_error(s.error().message);
  return std::move(*s);
}

std::unique_ptr<GameSession> first_blood() {
  return open_session(warlog::testing::shared_sample_archive(), warlog::testing::sample_store().first_blood);
}

std::vector<core::Event> all_events(const GameSession& s) {
  auto ev = s.events(0, s.event_count());
  if (!ev) throw std::runtime_error(ev.error().message);
  return std::move(*ev);
}

// The seq of the first event of this payload type by this seat.
template <class P>
core::Seq first_of(const GameSession& s, core::Seat seat) {
  for (const auto& ev : all_events(s)) {
    if (std::holds_alternative<P>(ev.payload) && ev.seat == seat) return ev.seq;
  }
  throw std::runtime_error("no such event in the sample");
}

int hand_of_first_seat(const StateModel& model) {
  return model.find(StateModel::FirstSeatSection, QStringLiteral("Hand"), StateModel::Value)
      .data(StateModel::RawValueRole)
      .toInt();
}

TEST(GameSession, OpensAGameFromTheStoreAtItsFirstEvent) {
  auto s = first_blood();
  EXPECT_EQ(s->game().title, "First blood at the Old Mill");
  EXPECT_FALSE(s->empty());
  EXPECT_EQ(s->seq(), 0u);
  EXPECT_EQ(s->event_count(), s->game().events);
  EXPECT_EQ(s->last_seq(), s->event_count() - 1);
  EXPECT_FALSE(s->findings().empty());
  EXPECT_TRUE(std::holds_alternative<core::GameCreated>(s->moment().event.payload));
  // The outline tiles the stream.
  ASSERT_FALSE(s->spans().empty());
  EXPECT_EQ(s->spans().front().first, 0u);
  EXPECT_EQ(s->spans().back().last, s->last_seq());
  for (std::size_t i = 1; i < s->spans().size(); ++i) EXPECT_EQ(s->spans()[i].first, s->spans()[i - 1].last + 1);
}

TEST(GameSession, AnUnknownGameIsNotFound) {
  auto s = GameSession::open(warlog::testing::shared_sample_archive(), 987654);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, ErrorCode::NotFound);
}

TEST(GameSession, SteppingForwardAndBackChangesSeqAndState) {
  auto session = first_blood();
  StateModel state;
  QObject::connect(session.get(), &GameSession::moved, [&] {
    state.set_state(session->moment().state, session->catalog(), session->ruleset(), &session->before());
  });
  state.set_state(session->moment().state, session->catalog(), session->ruleset());
  QSignalSpy moved(session.get(), &GameSession::moved);

  const core::Seq draw = first_of<core::CardsDrawn>(*session, 0);
  while (session->seq() < draw) session->step(+1);
  EXPECT_EQ(session->seq(), draw);
  EXPECT_EQ(moved.count(), static_cast<int>(draw));
  EXPECT_EQ(moved.last().at(0).value<core::Seq>(), draw);
  EXPECT_EQ(hand_of_first_seat(state), 2);
  EXPECT_TRUE(state.find(StateModel::FirstSeatSection, QStringLiteral("Hand")).data(StateModel::ChangedRole).toBool());

  session->step(-1);
  EXPECT_EQ(session->seq(), draw - 1);
  EXPECT_EQ(hand_of_first_seat(state), 0);
  // The event before the draw did not touch the hand.
  EXPECT_FALSE(state.find(StateModel::FirstSeatSection, QStringLiteral("Hand")).data(StateModel::ChangedRole).toBool());
}

TEST(GameSession, EveryMomentEqualsARefoldFromTheStartHoweverWeGotThere) {
  auto s = first_blood();
  const auto events = all_events(*s);
  const core::Context ctx{s->catalog(), s->ruleset()};
  auto check = [&] {
    const replay::Moment refold = replay::moment_at(ctx, events, s->seq());
    EXPECT_EQ(s->moment().state, refold.state) << "seq " << s->seq();
    EXPECT_EQ(s->moment().findings, refold.findings) << "seq " << s->seq();
    const core::GameState before = s->seq() == 0 ? core::GameState{} : replay::moment_at(ctx, events, s->seq() - 1).state;
    EXPECT_EQ(s->before(), before) << "seq " << s->seq();
  };
  check();
  while (s->seq() < s->last_seq()) {
    s->step(+1);
    check();
  }
  s->go_to(20);
  check();
  s->step(-1);
  check();
  s->first();
  check();
}

TEST(GameSession, SeeksThroughSnapshotsNotFromTheStart) {
  const warlog::testing::StoreCopy copy("snapshots");
  const core::GameId id = warlog::testing::sample_store().first_blood;
  auto archive = copy.open();
  auto built = replay::build_snapshots(*archive, id, 10);
  ASSERT_TRUE(built) << built.error().message;
  ASSERT_GT(built->snapshots, 1u);
  auto s = open_session(archive, id);
  s->last();
  ASSERT_TRUE(s->last_seek().snapshot_seq.has_value());
  EXPECT_LE(s->last_seek().folded, 10u) << "a seek folds from the nearest snapshot";
  s->step(-1);
  EXPECT_LE(s->last_seek().folded, 10u);
  s->go_to(s->last_seq() / 2);
  EXPECT_LE(s->last_seek().folded, 10u);
  EXPECT_EQ(s->last_seek().written, 0u) << "the viewer never writes snapshots";
}

TEST(SnapshotBuilder, LaysTheSnapshotsOnAWorkerThreadWhileTheSessionSeeks) {
  const warlog::testing::StoreCopy copy("builder");
  const core::GameId id = warlog::testing::sample_store().first_blood;
  auto archive = copy.open(replay::Archive::Mode::ReadOnly);  // the cache is the user's: a read-only store will do
  ASSERT_TRUE(*replay::needs_snapshots(*archive, id, 5));
  auto s = open_session(archive, id);
  SnapshotBuilder builder(archive, id, 5);
  QSignalSpy progress(&builder, &SnapshotBuilder::progress);
  QSignalSpy finished(&builder, &SnapshotBuilder::finished);
  // Seeks on this thread meanwhile stay exact (they fold from the start or
  // from whatever the builder has laid so far).
  s->last();
  const core::Seq last = s->seq();
  ASSERT_TRUE(finished.count() > 0 || finished.wait(30'000)) << "the build never finished";
  ASSERT_EQ(finished.count(), 1);
  EXPECT_TRUE(finished.at(0).at(0).toBool()) << finished.at(0).at(1).toString().toStdString();
  ASSERT_GE(progress.count(), 1);
  EXPECT_EQ(progress.last().at(0).toULongLong(), progress.last().at(1).toULongLong()) << "the last says done";
  EXPECT_FALSE(*replay::needs_snapshots(*archive, id, 5));
  // The session's next seeks start from the new snapshots.
  s->first();
  s->go_to(last);
  ASSERT_TRUE(s->last_seek().snapshot_seq.has_value());
  EXPECT_LE(s->last_seek().folded, 5u);
}

TEST(SnapshotBuilder, DestroyingItStopsTheBuildAndWaits) {
  const warlog::testing::StoreCopy copy("builder-stop");
  const core::GameId id = warlog::testing::sample_store().first_blood;
  auto archive = copy.open();
  auto builder = std::make_unique<SnapshotBuilder>(archive, id, 1);
  QSignalSpy finished(builder.get(), &SnapshotBuilder::finished);  // direct: recorded on the worker
  builder.reset();  // returns only once the worker has ended
  ASSERT_EQ(finished.count(), 1) << "the worker ended before the builder was gone";
  // Stopped or done, what was laid is whole: seeks from it are exact.
  auto r = replay::seek(*archive, id, 20);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_FALSE(r->cache_error);
  EXPECT_EQ(r->moment.seq, 20u);
}

TEST(GameSession, KeepsTheArchiveOpenAfterEveryoneElseLetsGo) {
  // The regression: a Seeker that outlived the Archive it referred to.
  const warlog::testing::StoreCopy copy("ownership");
  const core::GameId id = warlog::testing::sample_store().first_blood;
  std::weak_ptr<replay::Archive> watch;
  {
    auto archive = copy.open(replay::Archive::Mode::ReadOnly);
    watch = archive;
    auto s = open_session(archive, id);
    archive.reset();
    EXPECT_FALSE(watch.expired()) << "the session shares the archive";
    s->last();
    s->step(-1);
    s->first();
    EXPECT_EQ(s->seq(), 0u);
    EXPECT_FALSE(s->events(0, 5).value().empty());
  }
  EXPECT_TRUE(watch.expired()) << "the last session closed the archive";
  // Closed for real: LMDB lets a process open a store once at a time.
  EXPECT_NO_THROW((void)copy.open(replay::Archive::Mode::ReadOnly));
}

TEST(GameSession, StepsStopAtEitherEnd) {
  auto s = first_blood();
  QSignalSpy moved(s.get(), &GameSession::moved);
  s->step(-1);
  EXPECT_EQ(s->seq(), s->first_seq());
  EXPECT_EQ(moved.count(), 0);
  s->last();
  EXPECT_EQ(s->seq(), s->last_seq());
  s->step(+1);
  EXPECT_EQ(s->seq(), s->last_seq());
  s->go_to(s->last_seq() + 1000);
  EXPECT_EQ(s->seq(), s->last_seq());
  s->first();
  EXPECT_EQ(s->seq(), s->first_seq());
  EXPECT_EQ(moved.count(), 2);
}

TEST(GameSession, PhaseKeysLandOnPhaseStarts) {
  auto s = first_blood();
  std::vector<core::Seq> starts;
  for (const auto& span : s->spans()) starts.push_back(span.first);
  ASSERT_GE(starts.size(), 3u);
  for (std::size_t i = 1; i < starts.size(); ++i) {
    s->next_phase();
    EXPECT_EQ(s->seq(), starts[i]);
  }
  s->next_phase();  // no later phase: stays
  EXPECT_EQ(s->seq(), starts.back());
  s->last();
  s->previous_phase();
  EXPECT_EQ(s->seq(), starts.back());
  s->previous_phase();
  EXPECT_EQ(s->seq(), starts[starts.size() - 2]);
  // Every PhaseStarted begins a span.
  for (const auto& ev : all_events(*s)) {
    if (std::holds_alternative<core::PhaseStarted>(ev.payload)) {
      EXPECT_NE(std::find(starts.begin(), starts.end(), ev.seq), starts.end()) << "seq " << ev.seq;
    }
  }
}

TEST(GameSession, TurnKeysLandOnTurnStarts) {
  auto s = first_blood();
  std::vector<core::Seq> turn_starts;  // TurnStarted events
  for (const auto& ev : all_events(*s)) {
    if (std::holds_alternative<core::TurnStarted>(ev.payload)) turn_starts.push_back(ev.seq);
  }
  ASSERT_GE(turn_starts.size(), 2u);
  for (core::Seq start : turn_starts) {
    s->next_turn();
    EXPECT_EQ(s->seq(), start);
  }
  s->step(+3);
  s->previous_turn();
  EXPECT_EQ(s->seq(), turn_starts.back()) << "first to the start of this turn";
  s->previous_turn();
  EXPECT_EQ(s->seq(), turn_starts[turn_starts.size() - 2]) << "then to the turn before";
}

TEST(GameSession, TheMomentCarriesThatEventsFindings) {
  auto s = first_blood();
  const auto& all = s->findings();
  std::optional<replay::LocatedFinding> violation;
  for (std::size_t i = 0; i < all.size() && !violation; ++i) {
    if (all.at(i).rule_id == "MUS-a.draw") violation = all.located(i);
  }
  ASSERT_TRUE(violation);
  s->go_to(violation->finding.seq);
  EXPECT_EQ(s->seq(), violation->finding.seq);
  const auto here = s->findings_here();
  const auto same = std::find_if(here.begin(), here.end(), [&](const auto& f) { return f.finding == violation->finding; });
  ASSERT_NE(same, here.end());
  EXPECT_EQ(same->citation, violation->citation);
  EXPECT_EQ(same->turn, violation->turn);
  EXPECT_EQ(same->seat, violation->seat);
}

TEST(GameSession, TurnFiguresAreCoresValuesAtTheEndOfEachTurn) {
  auto s = first_blood();
  const auto events = all_events(*s);
  const core::Context ctx{s->catalog(), s->ruleset()};
  ASSERT_FALSE(s->turns().empty());
  for (const replay::TurnFigures& t : s->turns()) {
    const core::GameState at = replay::moment_at(ctx, events, t.last).state;
    EXPECT_EQ(events[t.last].turn, t.turn);
    if (t.last + 1 < events.size()) {
      EXPECT_NE(events[t.last + 1].turn, t.turn) << "the turn's last event";
    }
    for (core::Seat seat = 0; seat < core::kSeatCount; ++seat) {
      EXPECT_EQ(t.seats[seat].morale_total, core::morale_total(at, seat, s->catalog()));
      EXPECT_EQ(t.seats[seat].provision_cost, core::provision_cost(at, seat, s->catalog(), s->ruleset()));
    }
  }
}

TEST(GameSession, RefreshFoldsEventsAppendedSince) {
  const warlog::testing::StoreCopy copy("refresh");
  const core::GameId id = warlog::testing::sample_store().first_blood;
  auto archive = copy.open();
  auto s = open_session(archive, id);
  const core::Seq before = s->event_count();
  QSignalSpy grew(s.get(), &GameSession::grew);
  EXPECT_EQ(s->refresh().value(), 0u);
  EXPECT_EQ(grew.count(), 0);

  const std::vector<core::Event> more = s->events(before - 2, before).value();
  ASSERT_TRUE(warlog::testing::append_events(*archive, id, before, more));
  EXPECT_EQ(s->refresh().value(), 2u);
  ASSERT_EQ(grew.count(), 1);
  EXPECT_EQ(grew.last().at(1).value<core::Seq>(), before + 2);
  EXPECT_EQ(s->event_count(), before + 2);
  EXPECT_EQ(s->spans().back().last, before + 1);
  s->last();
  EXPECT_EQ(s->seq(), before + 1);
}

}  // namespace
}  // namespace warlog::viewer
