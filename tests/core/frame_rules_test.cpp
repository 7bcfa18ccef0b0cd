// The frame of a game: the stream's order, setup, acting seats and phases
// (LOG.*), the Morale Check (MOR.leader, assumed), and the Muster step order
// and Card Text Timing. Each rule: a passing and a violating case.

#include <gtest/gtest.h>

#include "game_builder.hpp"

namespace warlog {
namespace {

using core::Phase;
using core::Space;
using testing::GameBuilder;
using testing::fold_events;

constexpr Space sp(char col, int row) {
  return Space{static_cast<std::int8_t>(col - 'a'), static_cast<std::int8_t>(row - 1)};
}

GameBuilder opening() {
  GameBuilder b;
  b.turn().morale(0);
  return b;
}

TEST(LogOrder, ConsecutiveSequenceNumbersAreClean) {
  auto b = opening();
  b.muster(0, "Ironclaw Lancer", "Claw Musketeer");
  EXPECT_TRUE(fold_events(b.events()).of("LOG.order").empty());
}

TEST(LogOrder, AGapInSequenceNumbersIsAFinding) {
  auto b = opening();
  b.muster(0, "Ironclaw Lancer", "Claw Musketeer");
  auto events = b.events();
  events.erase(events.begin() + 5);  // a removed event: the Muster PhaseStarted
  const auto f = fold_events(events);
  ASSERT_EQ(f.of("LOG.order").size(), 1u) << f.all();
  EXPECT_NE(f.of("LOG.order")[0].message.find("expected sequence 5"), std::string::npos);
}

TEST(LogOrder, ATurnThatSkipsAheadIsAFinding) {
  GameBuilder b;
  b.turn().turn();  // turn 2 right after turn 1 started: parts skipped, fine for numbering
  auto events = b.events();
  events.back().turn = 3;
  const auto f = fold_events(events);
  EXPECT_FALSE(f.of("LOG.order").empty()) << f.all();
}

TEST(LogSetup, TwoRegisteredArmiesBeforeTurnOneAreClean) {
  EXPECT_TRUE(fold_events(opening().events()).of("LOG.setup").empty());
}

TEST(LogSetup, ATurnBeforeAnArmyIsRegisteredIsAFinding) {
  auto events = opening().events();
  events.erase(events.begin() + 2);  // seat 2's ArmyRegistered
  for (core::Seq i = 0; i < events.size(); ++i) events[i].seq = i;
  const auto f = fold_events(events);
  ASSERT_EQ(f.of("LOG.setup").size(), 1u) << f.all();
  EXPECT_NE(f.of("LOG.setup")[0].message.find("seat 2"), std::string::npos);
}

TEST(LogSetup, AnEventBeforeGameCreatedIsAFinding) {
  core::Event ev;
  ev.payload = core::TurnStarted{};
  const auto f = fold_events({ev});
  EXPECT_EQ(f.of("LOG.setup").size(), 1u);
}

TEST(LogNoTroop, MovingATroopThatIsThereIsClean) {
  auto b = opening();
  b.muster(0, "Ironclaw Lancer", "Claw Musketeer").act(0, core::CardPlayed{"Ironclaw Lancer", sp('a', 1)});
  EXPECT_TRUE(fold_events(b.events()).of("LOG.no-troop").empty());
}

TEST(LogNoTroop, MovingFromAnEmptySpaceIsAFinding) {
  auto b = opening();
  b.muster(0, "Ironclaw Lancer", "Claw Musketeer").act(0, core::TroopMoved{sp('a', 1), sp('a', 2)});
  const auto f = fold_events(b.events());
  ASSERT_EQ(f.of("LOG.no-troop").size(), 1u) << f.all();
  EXPECT_EQ(f.of("LOG.no-troop")[0].message, "no card stands on a1");
}

TEST(LogUnknownCard, DrawingCardsOfTheCatalogIsClean) {
  auto b = opening();
  b.muster(0, "Ironclaw Lancer", "Supply Wagon");
  EXPECT_TRUE(fold_events(b.events()).of("LOG.unknown-card").empty());
}

TEST(LogUnknownCard, PlayingACardTheCatalogDoesNotHoldIsAFinding) {
  auto b = opening();
  b.muster(0, "Ironclaw Lancer", "Claw Musketeer").act(0, core::CardPlayed{"Ironclad Lancer", sp('a', 1)});
  const auto f = fold_events(b.events());
  ASSERT_EQ(f.of("LOG.unknown-card").size(), 1u) << f.all();
  EXPECT_EQ(f.of("LOG.unknown-card")[0].seq, b.last_seq());
  EXPECT_NE(f.of("LOG.unknown-card")[0].message.find("'Ironclad Lancer' is not in the card catalog"), std::string::npos)
      << f.all();
}

TEST(LogSpace, PlayingOntoASpaceOfTheGridIsClean) {
  auto b = opening();
  b.muster(0, "Ironclaw Lancer", "Claw Musketeer").act(0, core::CardPlayed{"Ironclaw Lancer", sp('e', 1)});
  const auto f = fold_events(b.events());
  EXPECT_TRUE(f.of("LOG.space").empty()) << f.all();
  EXPECT_TRUE(f.state.at(sp('e', 1)).has_value());
}

TEST(LogSpace, PlayingOntoASpaceOffTheGridIsAFinding) {
  auto b = opening();
  b.muster(0, "Ironclaw Lancer", "Claw Musketeer").act(0, core::CardPlayed{"Ironclaw Lancer", sp('f', 1)});
  const auto f = fold_events(b.events());
  ASSERT_EQ(f.of("LOG.space").size(), 1u) << f.all();
  EXPECT_NE(f.of("LOG.space")[0].message.find("space f1 is off the 5x4 battlefield"), std::string::npos) << f.all();
}

TEST(LogZone, PlayingACardFromTheHandIsClean) {
  auto b = opening();
  b.muster(0, "Ironclaw Lancer", "Claw Musketeer").act(0, core::CardPlayed{"Claw Musketeer", sp('a', 1)});
  const auto f = fold_events(b.events());
  EXPECT_TRUE(f.of("LOG.zone").empty()) << f.all();
  EXPECT_EQ(f.state.seats[0].hand.count("Claw Musketeer"), 0u);
}

TEST(LogZone, PlayingACardThatIsNotInTheHandIsAFinding) {
  auto b = opening();
  b.muster(0, "Ironclaw Lancer", "Claw Musketeer").act(0, core::CardPlayed{"Marshal Vex", sp('a', 1)});
  const auto f = fold_events(b.events());
  ASSERT_EQ(f.of("LOG.zone").size(), 1u) << f.all();
  EXPECT_NE(f.of("LOG.zone")[0].message.find("'Marshal Vex' is not in Ana's hand"), std::string::npos) << f.all();
}

TEST(LogActor, TheActiveSeatDrawingIsClean) {
  auto b = opening();
  b.muster(0, "Ironclaw Lancer", "Claw Musketeer");
  EXPECT_TRUE(fold_events(b.events()).of("LOG.actor").empty());
}

TEST(LogActor, DrawingInTheOtherPlayersMusterIsAFinding) {
  auto b = opening();
  b.muster(0, "Ironclaw Lancer", "Claw Musketeer").act(1, core::CardsDrawn{{"Paw Militia"}});
  const auto f = fold_events(b.events());
  ASSERT_EQ(f.of("LOG.actor").size(), 1u) << f.all();
  EXPECT_NE(f.of("LOG.actor")[0].message.find("drawing cards by Bo during Ana's muster phase"), std::string::npos)
      << f.all();
}

TEST(LogActor, AnEventForASeatThatDoesNotExistIsAFinding) {
  auto b = opening();
  b.muster(0, "Ironclaw Lancer", "Claw Musketeer").act(7, core::Foraged{"Ironclaw Lancer"});
  EXPECT_EQ(fold_events(b.events()).of("LOG.actor").size(), 1u);
}

TEST(LogPhase, PlayingInTheMusterPhaseIsClean) {
  auto b = opening();
  b.muster(0, "Ironclaw Lancer", "Claw Musketeer").act(0, core::CardPlayed{"Ironclaw Lancer", sp('a', 1)});
  EXPECT_TRUE(fold_events(b.events()).of("LOG.phase").empty());
}

TEST(LogPhase, PlayingACardInTheWarfarePhaseIsAFinding) {
  auto b = opening();
  b.muster(0, "Ironclaw Lancer", "Claw Musketeer").muster(1, "Paw Militia", "Paw Slinger").phase(Phase::Warfare, 0);
  b.act(0, core::CardPlayed{"Ironclaw Lancer", sp('a', 1)});
  const auto f = fold_events(b.events());
  ASSERT_EQ(f.of("LOG.phase").size(), 1u) << f.all();
  EXPECT_NE(f.of("LOG.phase")[0].message.find("the game is in the warfare phase"), std::string::npos);
}

TEST(MoraleCheck, TheHigherMoraleLeadingIsClean) {
  auto b = opening();
  b.muster(0, "Marshal Vex", "Claw Musketeer").act(0, core::CardPlayed{"Marshal Vex", sp('a', 1)});
  b.muster(1, "Paw Militia", "Paw Slinger").act(1, core::CardPlayed{"Paw Militia", sp('a', 4)});
  b.turn().morale(0);  // Vex 6 against Militia 2
  EXPECT_TRUE(fold_events(b.events()).of("MOR.leader").empty());
}

TEST(MoraleCheck, TheLowerMoraleRecordedAsLeaderIsAnAssumedWarning) {
  auto b = opening();
  b.muster(0, "Marshal Vex", "Claw Musketeer").act(0, core::CardPlayed{"Marshal Vex", sp('a', 1)});
  b.muster(1, "Paw Militia", "Paw Slinger").act(1, core::CardPlayed{"Paw Militia", sp('a', 4)});
  b.turn().morale(1);
  const auto f = fold_events(b.events());
  ASSERT_EQ(f.of("MOR.leader").size(), 1u) << f.all();
  EXPECT_EQ(f.of("MOR.leader")[0].severity, core::Severity::Warning);
  EXPECT_EQ(f.of("MOR.leader")[0].basis, core::Basis::Assumed);
  EXPECT_EQ(f.state.leader, 1) << "the recorded leader is followed (R-004)";
}

// R-004's option: the fold leads with the seat the Morale gives, and the
// log's leader is only checked, so what follows is judged from the derived
// leader (here: Ana's Muster is due first, not Bo's).
GameBuilder vex_against_militia_recorded_for(core::Seat leader) {
  auto b = opening();
  b.muster(0, "Marshal Vex", "Claw Musketeer").act(0, core::CardPlayed{"Marshal Vex", sp('a', 1)});
  b.muster(1, "Paw Militia", "Paw Slinger").act(1, core::CardPlayed{"Paw Militia", sp('a', 4)});
  b.turn().morale(leader);  // Vex 6 against Militia 2
  if (leader == 0) b.muster(0, "Ironclaw Lancer", "Claw Musketeer");
  else b.muster(1, "Paw Militia", "Grain Cart");
  return b;
}

core::Ruleset leader_from_morale() {
  core::Ruleset r;
  r.leader_from_morale = true;
  return r;
}

TEST(MoraleCheck, UnderLeaderFromMoraleTheHigherMoraleRecordedIsNoFinding) {
  const auto f = fold_events(vex_against_militia_recorded_for(0).events(), leader_from_morale());
  EXPECT_TRUE(f.of("MOR.leader").empty()) << f.all();
  EXPECT_TRUE(f.of("MUS.order").empty()) << f.all();
  EXPECT_EQ(f.state.leader, 0);
}

TEST(MoraleCheck, UnderLeaderFromMoraleTheLowerMoraleRecordedIsAFindingAndNotFollowed) {
  const auto b = vex_against_militia_recorded_for(1);
  const auto f = fold_events(b.events(), leader_from_morale());
  ASSERT_EQ(f.of("MOR.leader").size(), 1u) << f.all();
  EXPECT_EQ(f.of("MOR.leader")[0].message,
            "Bo is recorded Leading in Morale with 2 Morale against Ana's 6; Ana leads, as the Morale gives");
  EXPECT_EQ(f.state.leader, 0) << "the leader the Morale gives (R-004's option)";
  // The cascade the default reading avoids: Bo's Muster Phase comes first.
  ASSERT_EQ(f.of("MUS.order").size(), 1u) << f.all();
  // By default the same log has only the warning, and Bo leads.
  const auto d = fold_events(b.events());
  EXPECT_EQ(d.of("MOR.leader").size(), 1u) << d.all();
  EXPECT_TRUE(d.of("MUS.order").empty()) << d.all();
  EXPECT_EQ(d.state.leader, 1);
}

TEST(MoraleCheck, UnderLeaderFromMoraleATieKeepsLastTurnsLeader) {
  auto b = opening();
  b.muster(0, "Ironclaw Lancer", "Claw Musketeer");
  b.muster(1, "Paw Militia", "Paw Slinger");
  b.turn().morale(1);  // 0 against 0: Ana led turn 1, so she keeps it
  const auto f = fold_events(b.events(), leader_from_morale());
  ASSERT_EQ(f.of("MOR.leader").size(), 1u) << f.all();
  EXPECT_EQ(f.state.leader, 0);
}

TEST(MusterSteps_StepAFirst, DrawingBeforePlayingIsClean) {
  auto b = opening();
  b.muster(0, "Ironclaw Lancer", "Supply Wagon").act(0, core::Foraged{"Supply Wagon"})
      .act(0, core::CardPlayed{"Ironclaw Lancer", sp('a', 1)});
  EXPECT_TRUE(fold_events(b.events()).of("MUS.steps").empty());
}

TEST(MusterSteps_StepAFirst, PlayingBeforeDrawingIsAViolation) {
  auto b = opening();
  b.phase(Phase::Muster, 0).act(0, core::CardPlayed{"Ironclaw Lancer", sp('a', 1)});
  EXPECT_EQ(fold_events(b.events()).of("MUS.steps").size(), 1u);
}

TEST(MusterSteps_StepAFirst, ForagingAfterPlayingIsAViolation) {
  auto b = opening();
  b.muster(0, "Ironclaw Lancer", "Supply Wagon").act(0, core::CardPlayed{"Ironclaw Lancer", sp('a', 1)})
      .act(0, core::Foraged{"Supply Wagon"});
  const auto f = fold_events(b.events());
  ASSERT_EQ(f.of("MUS.steps").size(), 1u) << f.all();
  EXPECT_EQ(f.of("MUS.steps")[0].seq, b.last_seq());
}

TEST(MusterCardTextTiming, AGambitUsedATurnAfterItArrivedIsClean) {
  auto b = opening();
  b.muster(0, "Drill Orders", "Claw Musketeer").act(0, core::GambitStocked{"Drill Orders"});
  b.muster(1, "Paw Militia", "Paw Slinger");
  b.turn().morale(0).muster(0, "Ironclaw Lancer", "Claw Musketeer")
      .act(0, core::AbilityUsed{Space{}, "Drill Orders: drill a Troop"});
  EXPECT_TRUE(fold_events(b.events()).of("MUS-timing.phase").empty());
}

TEST(MusterCardTextTiming, AGambitUsedTheTurnItArrivedIsAViolation) {
  auto b = opening();
  b.muster(0, "Drill Orders", "Claw Musketeer").act(0, core::GambitStocked{"Drill Orders"})
      .act(0, core::AbilityUsed{Space{}, "Drill Orders: drill a Troop"});
  const auto f = fold_events(b.events());
  ASSERT_EQ(f.of("MUS-timing.phase").size(), 1u) << f.all();
  EXPECT_NE(f.of("MUS-timing.phase")[0].message.find("the turn it arrived"), std::string::npos);
}

TEST(MusterCardTextTiming, AnAbilityOfACardNotInPlayIsAZoneFinding) {
  auto b = opening();
  b.muster(0, "Drill Orders", "Claw Musketeer").act(0, core::AbilityUsed{Space{}, "Drill Orders: drill"});
  EXPECT_EQ(fold_events(b.events()).of("LOG.zone").size(), 1u);
}

}  // namespace
}  // namespace warlog
