// Order within steps: Foraging (and the extra Gambit) after the draws
// (Muster Phase › Steps › a. Draw cards, rulings R-018), the moves of
// Attrition step 1 before any recovery (Attrition Phase › 1. Recover Troops,
// R-051), and a Morale Check opening every turn (warlog rules › Event
// order). Each violating game is one the engine passed clean before.

#include <gtest/gtest.h>

#include "battle_builder.hpp"

namespace warlog {
namespace {

using core::Phase;
using core::Recovery;
using testing::Battle;
using testing::expect_clean;
using testing::expect_none;
using testing::expect_single;
using testing::sq;

constexpr core::Seat kAna = 0;
constexpr core::Seat kBo = 1;

// --- Muster Phase › Steps › a. Draw cards ---------------------------------------

TEST(MusterStepA_DrawCards, ForagingAfterDrawingIsClean) {
  Battle b;
  b.turn(kAna).muster(kAna, "Supply Wagon", "Claw Musketeer").act(kAna, core::Foraged{"Supply Wagon"});
  expect_clean(b.fold());
}

TEST(MusterStepA_DrawCards, ForagingBeforeDrawingIsAViolation) {
  Battle b;
  b.provision_turn().turn(kAna).phase(Phase::Muster, kAna).act(kAna, core::CardsDrawn{{"Supply Wagon"}});
  b.act(kAna, core::Foraged{"Supply Wagon"});
  const core::Seq forage = b.last_seq();
  b.act(kAna, core::CardsDrawn{{"Claw Musketeer"}});
  expect_single(b.fold(), "MUS.steps", forage, "Ana Forages before drawing 2 cards: step a. draws first");
}

TEST(MusterStepA_DrawCards, StockingTheExtraGambitBeforeDrawingIsAViolation) {
  Battle b;
  b.turn(kAna).phase(Phase::Muster, kAna).act(kAna, core::CardsDrawn{{"Drill Orders"}});
  b.act(kAna, core::GambitStocked{"Drill Orders"});
  const core::Seq stock = b.last_seq();
  b.act(kAna, core::CardsDrawn{{"Claw Musketeer"}});
  expect_single(b.fold(), "MUS.steps", stock, "Ana stocks a Gambit before drawing 2 cards");
}

// --- Attrition Phase › 1. Recover Troops: moves, then recovery --------------------

// Turn 3, Ana leads; her Lancer (a1) is Lost, her Musketeer stands on e1.
// She declines, and her Attrition part begins.
Battle ana_recovers() {
  auto b = testing::battle_turn({{"Ironclaw Lancer", "a1"}, {"Claw Musketeer", "e1"}}, {{"Paw Militia", "a2"}});
  b.act(kAna, core::TroopLost{sq("a1")}).act(kAna, core::ChargeDeclined{}).attrition(kAna);
  return b;
}

TEST(AttritionStep1_RecoverTroops, MovingThenRecoveringIsClean) {
  auto b = ana_recovers();
  b.move(kAna, "e1", "d1").act(kAna, core::LostTroopRecovered{sq("a1"), Recovery::Reshuffle, {}});
  expect_clean(b.fold());
}

TEST(AttritionStep1_RecoverTroops, MovingAfterARecoveryIsAViolation) {
  auto b = ana_recovers();
  b.act(kAna, core::LostTroopRecovered{sq("a1"), Recovery::Reshuffle, {}}).move(kAna, "e1", "d1");
  expect_single(b.fold(), "ATT-1.move", b.last_seq(), "Ana moves a Troop after recovering a Lost Troop");
}

// --- warlog rules › Event order: every turn opens with its Morale Check -----------

TEST(LogOrder, ATurnWithItsMoraleCheckIsClean) {
  Battle b;
  b.provision_turn().turn(kAna).musters();
  expect_clean(b.fold());
}

TEST(LogOrder, AMissingMoraleCheckAfterTurnOneIsAFinding) {
  Battle b;
  b.provision_turn().act(core::kNoSeat, core::TurnStarted{});
  // act() keeps the builder's turn: number the event as turn 2 by hand.
  auto events = b.events();
  events.back().turn = 2;
  core::Event phase;
  phase.seq = events.size();
  phase.turn = 2;
  phase.phase = Phase::Muster;
  phase.seat = kAna;
  phase.payload = core::PhaseStarted{};
  events.push_back(phase);
  const auto f = testing::fold_events(events);
  const auto hits = f.of("LOG.order");
  ASSERT_EQ(hits.size(), 1u) << f.all();
  EXPECT_EQ(hits[0].seq, phase.seq);
  EXPECT_NE(hits[0].message.find("turn 2's muster phase starts without the turn's Morale Check"), std::string::npos)
      << hits[0].message;
  expect_none(f, "MUS.order");
}

}  // namespace
}  // namespace warlog

namespace warlog {
namespace {

// --- Attrition Phase › 3. › Failing to pay: an owed discard and the hand (R-060) ---

// Turn 2: Ana draws Drill Orders and an Ironclaw Lancer; she plays the Gambit
// and, when `play_lancer`, the Lancer too (her hand is then empty: turn 1's
// two cards were Foraged and stocked). She leaves the Gambit unpaid.
testing::Battle unpaid_gambit(bool play_lancer) {
  testing::Battle b;
  b.provision_turn().turn(0).muster(0, "Drill Orders", "Ironclaw Lancer").play(0, "Drill Orders", "");
  if (play_lancer) b.play(0, "Ironclaw Lancer", "a1");
  b.muster(1).warfare().act(0, core::ChargeDeclined{}).attrition(0);
  std::vector<core::PaidItem> paid;
  if (play_lancer) paid.push_back({testing::sq("a1"), "Ironclaw Lancer"});
  b.pay(0, paid, {{core::Space{}, "Drill Orders"}}).attrition(1).pay_all(1);
  return b;
}

TEST(AttritionStep3_FailingToPay, AnOwedDiscardTheHandCannotCoverIsNoFinding) {
  const auto f = unpaid_gambit(true).fold();
  EXPECT_TRUE(f.state.seats[0].hand.empty());
  testing::expect_none(f, "ATT-3.discard");
}

TEST(AttritionStep3_FailingToPay, AnOwedDiscardNotMadeFromAHandThatHoldsACardIsAViolation) {
  const auto b = unpaid_gambit(false);
  const auto f = b.fold();
  testing::expect_single(f, "ATT-3.discard", b.last_seq() - 1, "Ana still owes 1 discard for unpaid cards");
  EXPECT_EQ(f.of("ATT-3.discard")[0].seat, 0) << "Ana's breach, on Bo's phase marker";
}

}  // namespace
}  // namespace warlog
