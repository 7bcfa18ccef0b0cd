// Attrition Phase › 4. Check Territory Threshold, with two Territories: the
// Territory a Troop destroyed beside both goes beneath (rulings R-071),
// several Territories at their Threshold in one final turn, and a
// final turn answered by Control (R-073: no rule lowers a count).
//
// The games need two Territories of Threshold 1, which the sample catalog
// lacks: they are folded under the sample catalog plus two test cards.

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <optional>
#include <stdexcept>

#include "battle_builder.hpp"

namespace warlog {
namespace {

using core::GameEnded;
using core::Ruleset;
using core::Victory;
using testing::Battle;
using testing::Folded;
using testing::Table;
using testing::expect_clean;
using testing::expect_none;
using testing::expect_single;
using testing::sq;

constexpr core::Seat kAna = 0;
constexpr core::Seat kBo = 1;

const core::Catalog& cairn_catalog() {
  static const core::Catalog catalog = [] {
    std::ifstream in(std::string(WARLOG_SAMPLES_DIR) + "/catalogs/sample_cards.csv", std::ios::binary);
    std::string csv((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    csv += "\nSouth Cairn,,Territory,Common,0,0,0,0,0,,1,\"A test Territory. Threshold 1.\"\n"
           "North Cairn,,Territory,Common,0,0,0,0,0,,1,\"A test Territory. Threshold 1.\"\n";
    auto c = core::parse_catalog_csv(csv);
    if (!c) throw std::runtime_error(c.error().message);
    return std::move(*c);
  }();
  return catalog;
}

Folded fold(const Battle& b, const Ruleset& rules) {
  Folded f;
  const core::Context ctx{cairn_catalog(), rules};
  for (const core::Event& ev : b.events()) {
    core::apply(ctx, f.state, ev, f.findings);
    EXPECT_EQ(core::check_invariants(f.state), "") << "after seq " << ev.seq;
  }
  return f;
}
Folded fold(const Battle& b) { return fold(b, b.rules()); }

// 5x3, the South Cairn on c2 and the North Cairn on a2 (in that setup
// order), Threshold 1 each. Turn 3: Bo steps his Pikemen onto b2 (beside
// both Cairns) and d2 (beside the South Cairn); Ana's Lancers defeat them
// and fall. `b2_beneath` is what the log says of the Pikeman from b2
// (nothing, or `defeated b2 beneath SP`); `combat_seq` is where it fell.
// Ana ends turn 3 with the Musketeer on c1 and a Lancer on e1 (Morale 5 to
// Bo's 4 on c3 and d3), so she leads turn 4.
struct Cairns {
  Battle b;
  core::Seq combat_seq = 0;
};

Cairns cairns(std::optional<std::string> b2_beneath, Ruleset r = {}) {
  Table t;
  t.rows = 3;
  t.territories = {{"South Cairn", sq("c2")}, {"North Cairn", sq("a2")}};
  Cairns c{Battle(t, std::move(r))};
  Battle& b = c.b;
  b.provision_turn().deploy({{"Ironclaw Lancer", "b1"}, {"Ironclaw Lancer", "d1"}},
                            {{"Coalition Pikeman", "b3"}, {"Coalition Pikeman", "d3"}}).settle();
  b.turn().muster_playing(kAna, {{"Claw Musketeer", "c1"}, {"Ironclaw Lancer", "e1"}});
  b.muster(kBo, "Paw Militia", "Paw Slinger");
  b.move(kBo, "b3", "b2").move(kBo, "d3", "d2").play(kBo, "Paw Militia", "c3").play(kBo, "Paw Slinger", "d3");
  b.warfare().act(kAna, core::ChargeDeclared{});
  b.act(kAna, core::CombatResolved{sq("b1"), {{sq("b2"), 3}}, {{sq("b2"), {{sq("b1"), 3}}}}});
  c.combat_seq = b.last_seq();
  b.act(kAna, core::CombatResolved{sq("d1"), {{sq("d2"), 3}}, {{sq("d2"), {{sq("d1"), 3}}}}});
  if (b2_beneath) b.act(kAna, core::TroopDefeated{sq("b2"), sq(*b2_beneath)});
  b.settle();
  return c;
}

// --- Beneath which Territory (R-071) ------------------------------------------

TEST(AttritionStep4_Beneath, ATroopDestroyedBesideTwoTerritoriesGoesBeneathTheOneTheLogNames) {
  auto c = cairns("a2");
  const auto f = fold(c.b);
  expect_clean(f);
  EXPECT_EQ(f.state.territories[0].beneath, 1) << "South Cairn: the Pikeman from d2";
  EXPECT_EQ(f.state.territories[1].beneath, 1) << "North Cairn: the Pikeman from b2, as the log says";
}

// warlog rules › Choices the log records: the pick is the log's to make.
TEST(LogChoicesTheLogRecords_Beneath, NamingTheTerritoryOfATroopBesideTwoIsNoWarning) {
  auto c = cairns("a2");
  c.b.turn();
  const auto f = fold(c.b);
  expect_none(f, "LOG.beneath");
  EXPECT_EQ(f.state.territories[1].beneath, 1) << "North Cairn, as the log says";
}

TEST(LogChoicesTheLogRecords_Beneath, NotNamingTheTerritoryOfATroopBesideTwoIsAWarning) {
  auto c = cairns(std::nullopt);
  c.b.turn();
  const auto f = fold(c.b);
  // Reported when the turn ends, where the Threshold is counted; it
  // concerns the combat that destroyed the Pikeman, and no seat broke it.
  expect_single(f, "LOG.beneath", c.b.last_seq() - 1,
                "'Coalition Pikeman' destroyed on b2 lay beside 2 Territories and the log does not say beneath "
                "which; counted beneath 'South Cairn', the first in setup order");
  const auto hit = f.of("LOG.beneath").at(0);
  EXPECT_EQ(hit.concerns, c.combat_seq);
  EXPECT_EQ(hit.seat, core::kNoSeat);
  EXPECT_EQ(hit.severity, core::Severity::Warning);
  EXPECT_EQ(f.state.territories[0].beneath, 2);
  EXPECT_EQ(f.state.territories[1].beneath, 0);
}

TEST(AttritionStep4_Beneath, NamingATerritoryTheTroopWasNotBesideIsAViolation) {
  auto c = cairns(std::nullopt);
  c.b.act(kBo, core::TroopDefeated{sq("d2"), sq("a2")});  // late in the turn, still this turn's
  const auto f = fold(c.b);
  expect_single(f, "ATT-4.beneath", c.b.last_seq(),
                "the Troop destroyed on d2 is recorded beneath 'North Cairn' on a2, which it was not beside");
  EXPECT_EQ(f.state.territories[1].beneath, 0);
}

TEST(AttritionStep4_Beneath, NamingASpaceWithNoTerritoryIsALogSpaceFinding) {
  auto c = cairns("b1");
  expect_single(fold(c.b), "LOG.space", c.combat_seq + 2, "no Territory stands on b1");
}

TEST(AttritionStep4_Beneath, TheRulingOptionPutsItBeneathTheFirstTerritoryInSetupOrder) {
  Ruleset r;
  r.beneath_first_territory = true;  // R-071's option: the earlier reading
  auto quiet = cairns(std::nullopt, r);
  quiet.b.turn();
  const auto q = fold(quiet.b);
  expect_clean(q);
  EXPECT_EQ(q.state.territories[0].beneath, 2);
  auto c = cairns("a2", r);
  const auto f = fold(c.b);
  expect_single(f, "ATT-4.beneath", c.combat_seq + 2,
                "'Coalition Pikeman' destroyed on b2 is recorded beneath 'North Cairn', but goes beneath "
                "'South Cairn', the first Territory in setup order beside it");
  EXPECT_EQ(f.state.territories[1].beneath, 0);
}

// --- Several Territories at their Threshold (R-072) ----------------------------

TEST(AttritionStep4_Threshold, EveryTerritoryAtItsThresholdShareOneFinalTurn) {
  auto c = cairns("a2");
  c.b.turn();
  const auto f = fold(c.b);
  expect_clean(f);
  EXPECT_EQ(f.state.final_turn, 4);
  EXPECT_TRUE(f.state.territories[0].final_due);
  EXPECT_TRUE(f.state.territories[1].final_due);
  // Left to the first in setup order, only the South Cairn is at its
  // Threshold: the log's choice decides which Territories the turn answers.
  auto unsaid = cairns(std::nullopt);
  unsaid.b.turn();
  const auto u = fold(unsaid.b);
  EXPECT_TRUE(u.state.territories[0].final_due);
  EXPECT_FALSE(u.state.territories[1].final_due);
}

// Turn 4, the final turn: Ana leads; Bo steps from d3 onto d2, so the South
// Cairn has Ana's c1 against Bo's c3 and d2, and nobody stands beside the
// North Cairn. Neither is Controlled.
Cairns unanswered_final_turn(Ruleset r = {}) {
  auto c = cairns("a2", std::move(r));
  c.b.turn();
  EXPECT_EQ(c.b.leader(), kAna);
  c.b.muster(kAna).muster(kBo).move(kBo, "d3", "d2").warfare().act(kAna, core::ChargeDeclined{}).settle();
  return c;
}

TEST(AttritionStep4_Victory, WithSeveralUnansweredTheMostSidesOfThemWins) {
  auto c = unanswered_final_turn();
  c.b.act(core::kNoSeat, GameEnded{kBo, Victory::Attrition});
  const auto f = fold(c.b);
  expect_clean(f);
  EXPECT_EQ(f.state.victory, Victory::Attrition);
  EXPECT_EQ(f.state.winner, kBo) << "sides 1 to 2 over both Cairns, though Ana leads";
}

// The turn of the decision is the final turn, also when the Attrition
// Victory is derived at the next turn's TurnStarted (the long hedgerow's
// turn 16, read as the turn 22 its log plays on to).
TEST(AttritionStep4_Victory, TheGameIsDecidedInTheFinalTurnThoughTheLogPlaysOn) {
  auto c = unanswered_final_turn();
  const core::Seq next_turn = c.b.last_seq() + 1;  // turn 5's TurnStarted (turn() adds its Morale Check too)
  c.b.turn();
  c.b.turn();
  const auto f = fold(c.b);
  ASSERT_EQ(f.state.victory, Victory::Attrition);
  EXPECT_EQ(f.state.decided_at, next_turn);
  EXPECT_EQ(f.state.turn, 6);
  EXPECT_EQ(f.state.decided_turn, 4) << "the final turn, not the turn the log reached";
  EXPECT_THAT(core::to_text(f.state), ::testing::HasSubstr(fmt::format(
                                          "victory attrition decided_at {} in turn 4 ", next_turn)));
}

TEST(AttritionStep4_Victory, DerivedAtTheGameEndedItIsDecidedInTheFinalTurn) {
  auto c = unanswered_final_turn();
  c.b.act(core::kNoSeat, GameEnded{kBo, Victory::Attrition});
  const auto f = fold(c.b);
  EXPECT_EQ(f.state.decided_at, c.b.last_seq());
  EXPECT_EQ(f.state.decided_turn, 4);
}

TEST(AttritionStep4_Victory, WithSeveralUnansweredAnotherWinnerIsAViolation) {
  auto c = unanswered_final_turn();
  c.b.act(core::kNoSeat, GameEnded{kAna, Victory::Attrition});
  expect_single(fold(c.b), "LOG.result", c.b.last_seq(),
                "recorded an Attrition Victory for Ana, but the rules give an Attrition Victory to Bo");
}

TEST(AttritionStep4_Victory, TheRulingOptionCountsTerritoriesWonInsteadOfSides) {
  Ruleset r;
  r.threshold_most_territories = true;  // R-072's option
  auto c = unanswered_final_turn(r);
  c.b.turn();
  const auto f = fold(c.b);
  // The South Cairn is Bo's on sides, the empty North Cairn the leader's:
  // one each, and the tie goes to Ana, Leading in Morale.
  expect_single(f, "ATT-4.victory", c.b.last_seq() - 1,
                "turn 5 starts after the final turn: the game ended in an Attrition Victory for Ana ('South Cairn' "
                "and 'North Cairn' not Controlled; Territories 1 to 1)");
  EXPECT_EQ(f.state.winner, kAna);
}

// --- Answered by Control (R-073) -------------------------------------------------

TEST(AttritionStep4_Threshold, ControlOfEveryTerritoryDueAnswersTheFinalTurnAndPlayGoesOn) {
  auto c = cairns("a2");
  c.b.turn();
  // Bo plays a Militia onto a3 (beside the North Cairn) and steps c3 to b3:
  // the North Cairn is Bo's, the South Cairn Ana's (c1 alone).
  c.b.muster(kAna).muster_playing(kBo, {{"Paw Militia", "a3"}}).move(kBo, "c3", "b3");
  c.b.warfare().act(kAna, core::ChargeDeclined{}).settle().turn();
  const auto f = fold(c.b);
  expect_clean(f);
  EXPECT_FALSE(f.state.victory.has_value());
  // Both are still at their Threshold: the turn that follows is final again
  // and a count never falls back below it.
  EXPECT_EQ(f.state.final_turn, 5);
  EXPECT_TRUE(f.state.territories[0].final_due && f.state.territories[1].final_due);
}

TEST(AttritionStep4_Threshold, ControlOfOnlyOneTerritoryDueEndsTheGame) {
  auto c = cairns("a2");
  c.b.turn();
  // Bo steps c3 to b3 and leaves d3 where it is: the South Cairn is Ana's
  // (c1 alone), the North Cairn nobody's, so the game ends; on the North
  // Cairn's sides (none to none) the tie goes to Ana.
  c.b.muster(kAna).muster(kBo).move(kBo, "c3", "b3").warfare().act(kAna, core::ChargeDeclined{}).settle();
  c.b.act(core::kNoSeat, GameEnded{kAna, Victory::Attrition});
  const auto f = fold(c.b);
  expect_clean(f);
  EXPECT_EQ(f.state.winner, kAna);
  EXPECT_EQ(f.state.victory, Victory::Attrition);
}

// --- When Control answers the final turn (R-074) -----------------------------------

// Turn 4, the final turn for both Cairns. Ana plays a Lancer onto a1: the
// North Cairn is hers alone. Bo steps c3 to b3: the South Cairn is hers too
// (c1 alone), so for a moment she Controls both. Bo then plays Militia onto
// a3 and c3, and each Cairn is contested again when the turn ends.
Cairns control_held_for_a_moment(Ruleset r = {}) {
  auto c = cairns("a2", std::move(r));
  c.b.turn();
  EXPECT_EQ(c.b.leader(), kAna);
  c.b.muster_playing(kAna, {{"Ironclaw Lancer", "a1"}});
  c.b.muster(kBo, "Paw Militia", "Paw Militia").move(kBo, "c3", "b3");
  c.b.play(kBo, "Paw Militia", "a3").play(kBo, "Paw Militia", "c3");
  c.b.warfare().act(kAna, core::ChargeDeclined{}).settle();
  return c;
}

Ruleset final_control_any_moment() {
  Ruleset r;
  r.final_control_any_moment = true;
  return r;
}

TEST(AttritionStep4_Victory, AControlTakenAndLostInTheFinalTurnDoesNotAnswerIt) {
  auto c = control_held_for_a_moment();
  c.b.turn();
  const auto f = fold(c.b);
  // Sides 2 to 2 over both Cairns: the tie goes to Ana, Leading in Morale.
  expect_single(f, "ATT-4.victory", c.b.last_seq() - 1,
                "turn 5 starts after the final turn: the game ended in an Attrition Victory for Ana ('South Cairn' "
                "and 'North Cairn' not Controlled; sides 2 to 2)");
  EXPECT_EQ(f.state.victory, Victory::Attrition);
}

TEST(AttritionStep4_Victory, UnderTheOptionAControlHeldForAMomentAnswersTheFinalTurn) {
  auto c = control_held_for_a_moment(final_control_any_moment());
  c.b.turn();
  const auto f = fold(c.b);
  expect_none(f, "ATT-4.victory");
  EXPECT_FALSE(f.state.victory.has_value()) << "both Cairns were answered in turn 4: play goes on";
  // Both are still at their Threshold: turn 5 is final again.
  EXPECT_EQ(f.state.final_turn, 5);
  EXPECT_TRUE(f.state.territories[0].final_due && f.state.territories[1].final_due);
}

TEST(AttritionStep4_Victory, UnderTheOptionAnAttritionVictoryRecordedForAnAnsweredTurnIsAViolation) {
  auto c = control_held_for_a_moment(final_control_any_moment());
  c.b.act(core::kNoSeat, GameEnded{kAna, Victory::Attrition});
  // An answered final turn leaves the Threshold reached: the next turn is
  // final again, and ending the game before it is ATT-4.threshold.
  expect_single(fold(c.b), "ATT-4.threshold", c.b.last_seq(),
                "recorded an Attrition Victory for Ana before the final turn 5 was played");
}

TEST(AttritionStep4_Victory, UnderTheOptionAControlNeverHeldStillEndsTheGame) {
  auto c = unanswered_final_turn(final_control_any_moment());
  c.b.act(core::kNoSeat, GameEnded{kBo, Victory::Attrition});
  const auto f = fold(c.b);
  expect_clean(f);
  EXPECT_EQ(f.state.winner, kBo);
}

}  // namespace
}  // namespace warlog
