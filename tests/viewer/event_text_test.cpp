// Timeline labels: what each event row says.

#include <gtest/gtest.h>

#include "event_text.hpp"
#include "game_builder.hpp"

namespace warlog::viewer {
namespace {

const std::vector<core::SeatSetup> kSeats{{"Ana", core::Allegiance::ClawEmpire},
                                          {"Bo", core::Allegiance::PawCoalition}};

core::Event event(core::Seq seq, core::Seat seat, core::Payload payload, core::Phase phase = core::Phase::Muster) {
  core::Event ev;
  ev.seq = seq;
  ev.turn = 1;
  ev.phase = phase;
  ev.seat = seat;
  ev.payload = std::move(payload);
  return ev;
}

TEST(EventLabel, NamesSeqPlayerPayloadAndItsFields) {
  EXPECT_EQ(event_label(event(17, 0, core::CardPlayed{"Ironclaw Lancer", core::Space{0, 0}}), kSeats),
            "seq 17  Ana: CardPlayed Ironclaw Lancer → a1");
}

TEST(EventLabel, ATableWideEventHasNoPlayer) {
  EXPECT_EQ(event_label(event(3, core::kNoSeat, core::TurnStarted{}), kSeats), "seq 3  TurnStarted");
}

TEST(EventLabel, APhaseStartSaysWhichPhase) {
  EXPECT_EQ(event_label(event(5, 1, core::PhaseStarted{}, core::Phase::Warfare), kSeats),
            "seq 5  Bo: PhaseStarted Warfare");
}

TEST(EventLabel, AnUnnamedSeatIsNumberedFromOne) {
  EXPECT_EQ(seat_name({}, 1), "seat 2");
  EXPECT_EQ(seat_name(kSeats, core::kNoSeat), "table");
}

TEST(EventLabel, CombatListsEveryStrike) {
  core::CombatResolved c;
  c.troop = core::Space{1, 1};
  c.strikes = {{core::Space{2, 1}, 3}};
  c.defenders = {{core::Space{2, 1}, {{core::Space{1, 1}, 2}}}};
  EXPECT_EQ(payload_detail(c, kSeats), "b2: 3 to c2; c2: 2 to b2");
}

TEST(EventLabel, EveryEventOfABuiltGameHasALabel) {
  warlog::testing::GameBuilder b;
  b.turn().morale(0).muster(0, "Ironclaw Lancer", "Claw Musketeer");
  for (const core::Event& ev : b.events()) {
    const std::string label = event_label(ev, kSeats);
    EXPECT_EQ(label.rfind("seq " + std::to_string(ev.seq) + "  ", 0), 0u) << label;
    EXPECT_NE(label.find(core::payload_name(ev.payload)), std::string::npos) << label;
  }
}

TEST(PlayersText, ListsEachPlayerWithAllegiance) {
  EXPECT_EQ(players_text(kSeats), "Ana (Claw Empire) vs Bo (Paw Coalition)");
}

}  // namespace
}  // namespace warlog::viewer
