// Muster Phase rules: each with a passing case and a violating case, named
// after its section (../shared/rules, document "Muster Phase").

#include <gtest/gtest.h>

#include "game_builder.hpp"

namespace warlog {
namespace {

using core::Phase;
using core::Space;
using testing::GameBuilder;
using testing::fold_events;

constexpr Space sp(char col, int row) { return Space{static_cast<std::int8_t>(col - 'a'), static_cast<std::int8_t>(row - 1)}; }

// A turn-1 opening: Ana leads, both draw two.
GameBuilder opening() {
  GameBuilder b;
  b.turn().morale(0);
  return b;
}

TEST(MusterStepA_DrawCards, DrawingTwoIsClean) {
  auto b = opening();
  b.muster(0, "Ironclaw Lancer", "Claw Musketeer").muster(1, "Paw Militia", "Paw Slinger").phase(Phase::Warfare, 0);
  const auto f = fold_events(b.events());
  EXPECT_TRUE(f.of("MUS-a.draw").empty()) << f.all();
  EXPECT_EQ(f.state.seats[0].hand.at("Ironclaw Lancer"), 1);
  EXPECT_EQ(f.state.seats[0].deck.at("Ironclaw Lancer"), 5);
}

TEST(MusterStepA_DrawCards, DrawingThreeIsAViolation) {
  auto b = opening();
  b.muster(0, "Ironclaw Lancer", "Claw Musketeer").act(0, core::CardsDrawn{{"Talon Sergeant"}});
  const auto f = fold_events(b.events());
  ASSERT_EQ(f.of("MUS-a.draw").size(), 1u) << f.all();
  EXPECT_EQ(f.of("MUS-a.draw")[0].seq, b.last_seq());
  EXPECT_NE(f.of("MUS-a.draw")[0].message.find("drew 3"), std::string::npos);
}

TEST(MusterStepA_DrawCards, DrawingOneIsAViolationWhenThePartCloses) {
  auto b = opening();
  b.phase(Phase::Muster, 0).act(0, core::CardsDrawn{{"Ironclaw Lancer"}}).muster(1, "Paw Militia", "Paw Slinger");
  const auto f = fold_events(b.events());
  ASSERT_EQ(f.of("MUS-a.draw").size(), 1u) << f.all();
  EXPECT_NE(f.of("MUS-a.draw")[0].message.find("drew 1 card"), std::string::npos);
}

TEST(MusterStepA_DrawCards, DrawingACardNotInTheDeckIsALogFinding) {
  auto b = opening();
  b.muster(0, "Ironclaw Lancer", "Paw Militia");  // a Paw card is not in Ana's deck
  const auto f = fold_events(b.events());
  EXPECT_EQ(f.of("LOG.zone").size(), 1u) << f.all();
}

TEST(MusterStepA_ForageOrReturn, ForagingOnceIsClean) {
  auto b = opening();
  b.muster(0, "Supply Wagon", "Claw Musketeer").act(0, core::Foraged{"Supply Wagon"});
  const auto f = fold_events(b.events());
  EXPECT_TRUE(f.of("MUS-a.forage-or-return").empty()) << f.all();
  ASSERT_EQ(f.state.seats[0].homeland.size(), 1u);
  EXPECT_EQ(f.state.seats[0].homeland[0].card, "Supply Wagon");
}

TEST(MusterStepA_ForageOrReturn, ForagingThenReturningIsAViolation) {
  auto b = opening();
  b.muster(0, "Supply Wagon", "Claw Musketeer")
      .act(0, core::Foraged{"Supply Wagon"})
      .act(0, core::ReturnedFromHomeland{"Supply Wagon"});
  const auto f = fold_events(b.events());
  ASSERT_EQ(f.of("MUS-a.forage-or-return").size(), 1u) << f.all();
  EXPECT_EQ(f.of("MUS-a.forage-or-return")[0].seq, b.last_seq());
}

TEST(MusterStepA_ForageOrReturn, ForagingTwiceIsAViolation) {
  auto b = opening();
  b.muster(0, "Supply Wagon", "Claw Musketeer")
      .act(0, core::Foraged{"Supply Wagon"})
      .act(0, core::Foraged{"Claw Musketeer"});
  EXPECT_EQ(fold_events(b.events()).of("MUS-a.forage-or-return").size(), 1u);
}

TEST(MusterStepA_ReturnedNotPlayable, PlayingAReturnedCardNextTurnIsClean) {
  auto b = opening();
  b.muster(0, "Ironclaw Lancer", "Claw Musketeer").act(0, core::Foraged{"Ironclaw Lancer"})
      .muster(1, "Paw Militia", "Paw Slinger");
  b.turn().morale(0).muster(0, "Talon Sergeant", "Claw Musketeer").act(0, core::ReturnedFromHomeland{"Ironclaw Lancer"});
  b.muster(1, "Paw Militia", "Paw Slinger");
  b.turn().morale(0).muster(0, "Talon Sergeant", "Claw Musketeer").act(0, core::CardPlayed{"Ironclaw Lancer", sp('a', 1)});
  const auto f = fold_events(b.events());
  EXPECT_TRUE(f.of("MUS-a.returned-not-playable").empty()) << f.all();
  ASSERT_TRUE(f.state.at(sp('a', 1)).has_value());
}

TEST(MusterStepA_ReturnedNotPlayable, PlayingAReturnedCardTheSameTurnIsAViolation) {
  auto b = opening();
  b.muster(0, "Ironclaw Lancer", "Claw Musketeer").act(0, core::Foraged{"Ironclaw Lancer"})
      .muster(1, "Paw Militia", "Paw Slinger");
  b.turn().morale(0).muster(0, "Talon Sergeant", "Claw Musketeer")
      .act(0, core::ReturnedFromHomeland{"Ironclaw Lancer"})
      .act(0, core::CardPlayed{"Ironclaw Lancer", sp('a', 1)});
  const auto f = fold_events(b.events());
  EXPECT_EQ(f.of("MUS-a.returned-not-playable").size(), 1u) << f.all();
}

TEST(MusterStepA_ExtraGambit, StockingOneGambitIsClean) {
  auto b = opening();
  b.muster(0, "Drill Orders", "Claw Musketeer").act(0, core::GambitStocked{"Drill Orders"});
  EXPECT_TRUE(fold_events(b.events()).of("MUS-a.extra-gambit").empty());
}

TEST(MusterStepA_ExtraGambit, StockingATroopIsAViolation) {
  auto b = opening();
  b.muster(0, "Ironclaw Lancer", "Claw Musketeer").act(0, core::GambitStocked{"Ironclaw Lancer"});
  EXPECT_EQ(fold_events(b.events()).of("MUS-a.extra-gambit").size(), 1u);
}

TEST(MusterStepB_PlayCards, PlayingIntoOwnVanguardIsClean) {
  auto b = opening();
  b.muster(0, "Ironclaw Lancer", "Claw Musketeer").act(0, core::CardPlayed{"Ironclaw Lancer", sp('b', 1)});
  b.muster(1, "Paw Militia", "Paw Slinger").act(1, core::CardPlayed{"Paw Militia", sp('b', 4)});
  const auto f = fold_events(b.events());
  EXPECT_TRUE(f.of("MUS-b.vanguard").empty()) << f.all();
  EXPECT_EQ(f.state.at(sp('b', 4))->owner, 1);
}

TEST(MusterStepB_PlayCards, PlayingOutsideTheVanguardIsAViolation) {
  auto b = opening();
  b.muster(0, "Ironclaw Lancer", "Claw Musketeer").act(0, core::CardPlayed{"Ironclaw Lancer", sp('b', 3)});
  EXPECT_EQ(fold_events(b.events()).of("MUS-b.vanguard").size(), 1u);
}

// Two turns: Ana plays a Lancer on b1 in turn 1; the test appends turn 2.
GameBuilder lancer_on_b1() {
  auto b = opening();
  b.muster(0, "Ironclaw Lancer", "Claw Musketeer").act(0, core::CardPlayed{"Ironclaw Lancer", sp('b', 1)});
  b.muster(1, "Paw Militia", "Paw Slinger");
  b.turn().morale(0).muster(0, "Talon Sergeant", "Claw Musketeer");
  return b;
}

TEST(MusterStepC_MoveEligibleTroops, OneMoveOfOneSpaceIsClean) {
  auto b = lancer_on_b1();
  b.act(0, core::TroopMoved{sp('b', 1), sp('b', 2)});
  const auto f = fold_events(b.events());
  EXPECT_TRUE(f.of("MUS-c.one-move").empty()) << f.all();
  EXPECT_TRUE(f.of("MUS-movement.one-space").empty()) << f.all();
  EXPECT_TRUE(f.state.at(sp('b', 2)).has_value());
}

TEST(MusterStepC_MoveEligibleTroops, MovingTheSameTroopTwiceIsAViolation) {
  auto b = lancer_on_b1();
  b.act(0, core::TroopMoved{sp('b', 1), sp('b', 2)}).act(0, core::TroopMoved{sp('b', 2), sp('c', 2)});
  const auto f = fold_events(b.events());
  ASSERT_EQ(f.of("MUS-c.one-move").size(), 1u) << f.all();
  EXPECT_EQ(f.of("MUS-c.one-move")[0].seq, b.last_seq());
}

TEST(MusterMovement, MovingOneSpaceSidewaysIsClean) {
  auto b = lancer_on_b1();
  b.act(0, core::TroopMoved{sp('b', 1), sp('c', 1)});
  const auto f = fold_events(b.events());
  EXPECT_TRUE(f.of("MUS-movement.one-space").empty()) << f.all();
  EXPECT_TRUE(f.state.at(sp('c', 1)).has_value());
  EXPECT_FALSE(f.state.at(sp('b', 1)).has_value());
}

TEST(MusterMovement, MovingTwoSpacesIsAViolation) {
  auto b = lancer_on_b1();
  b.act(0, core::TroopMoved{sp('b', 1), sp('b', 3)});
  EXPECT_EQ(fold_events(b.events()).of("MUS-movement.one-space").size(), 1u);
}

TEST(MusterMovement, MovingDiagonallyIsAViolation) {
  auto b = lancer_on_b1();
  b.act(0, core::TroopMoved{sp('b', 1), sp('c', 2)});
  EXPECT_EQ(fold_events(b.events()).of("MUS-movement.one-space").size(), 1u);
}

TEST(MusterMovement, MovingAnEnemyTroopIsAViolation) {
  auto b = lancer_on_b1();
  b.muster(1, "Paw Militia", "Paw Slinger").act(1, core::TroopMoved{sp('b', 1), sp('b', 2)});
  const auto f = fold_events(b.events());
  EXPECT_EQ(f.of("MUS-movement.own-troops").size(), 1u) << f.all();
}

TEST(MusterStillMustering, MovingATroopThatEnteredLastTurnIsClean) {
  auto b = lancer_on_b1();
  b.act(0, core::TroopMoved{sp('b', 1), sp('b', 2)});
  const auto f = fold_events(b.events());
  EXPECT_TRUE(f.of("MUS-mustering.move").empty()) << f.all();
  EXPECT_TRUE(f.state.at(sp('b', 2)).has_value());
}

TEST(MusterStillMustering, MovingATroopOnTheTurnItEnteredIsAViolation) {
  auto b = opening();
  b.muster(0, "Ironclaw Lancer", "Claw Musketeer")
      .act(0, core::CardPlayed{"Ironclaw Lancer", sp('b', 1)})
      .act(0, core::TroopMoved{sp('b', 1), sp('b', 2)});
  const auto f = fold_events(b.events());
  ASSERT_EQ(f.of("MUS-mustering.move").size(), 1u) << f.all();
  EXPECT_EQ(f.of("MUS-mustering.move")[0].seq, b.last_seq());
}

TEST(MusterStillMustering, UsingAnAbilityOnTheTurnItEnteredIsAViolation) {
  auto b = opening();
  b.muster(0, "Ironclaw Lancer", "Claw Musketeer")
      .act(0, core::CardPlayed{"Ironclaw Lancer", sp('b', 1)})
      .act(0, core::AbilityUsed{sp('b', 1), "rally"});
  EXPECT_EQ(fold_events(b.events()).of("MUS-mustering.ability").size(), 1u);
}

TEST(MusterStillMustering, UsingAnAbilityTheNextTurnIsClean) {
  auto b = lancer_on_b1();
  b.act(0, core::AbilityUsed{sp('b', 1), "rally"});
  EXPECT_TRUE(fold_events(b.events()).of("MUS-mustering.ability").empty());
}

TEST(MusterSteps_Order, LeaderMustersFirstIsClean) {
  auto b = opening();
  b.muster(0, "Ironclaw Lancer", "Claw Musketeer").muster(1, "Paw Militia", "Paw Slinger");
  EXPECT_TRUE(fold_events(b.events()).of("MUS.order").empty());
}

TEST(MusterSteps_Order, NextPlayerMusteringFirstIsAViolation) {
  auto b = opening();
  b.muster(1, "Paw Militia", "Paw Slinger");
  EXPECT_EQ(fold_events(b.events()).of("MUS.order").size(), 1u);
}

}  // namespace
}  // namespace warlog
