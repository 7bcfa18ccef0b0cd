// Findings the judge's probe trial (issue 15) found wrong: a false violation,
// a finding about the wrong event, a citation of the wrong section. Each is a
// probe game of tests/data/probes, with a passing and a violating case named
// after the rules section.

#include <gtest/gtest.h>

#include <algorithm>

#include "battle_builder.hpp"
#include "probe_games.hpp"

namespace warlog {
namespace {

using testing::audit_probe;
using testing::expect_clean;
using testing::expect_none;
using testing::expect_single;

// --- Warfare › C.: a defender beside two chargers (rulings R-008) ------------

// x6a: the second combat writes the defender that already struck in the
// no-damage form of docs/notation.md § 5 (`; c2`).
TEST(WarfareC_DefenderStrikesOnce, TheNoDamageFormForADefenderThatAlreadyStruckIsClean) {
  const auto p = audit_probe("x6a_defender_once_legal");
  expect_none(p.f, "WAR-C.vigor");
  expect_none(p.f, "WAR-C.split");
}

// x6b: the same Charge, the defender left out of the second combat.
TEST(WarfareC_DefenderStrikesOnce, LeavingOutADefenderThatAlreadyStruckIsClean) {
  const auto p = audit_probe("x6b_defender_once_omitted");
  expect_none(p.f, "WAR-C.vigor");
  expect_none(p.f, "WAR-C.strike-back");
}

// x6c: the defender deals its damage again in the second combat.
TEST(WarfareC_DefenderStrikesOnce, ADefenderDealingDamageInASecondCombatIsAViolation) {
  const auto p = audit_probe("x6c_defender_strikes_twice");
  const auto vigor = p.f.of("WAR-C.vigor");
  ASSERT_EQ(vigor.size(), 1u) << p.f.all();
  EXPECT_NE(vigor[0].message.find("already dealt its damage this Charge"), std::string::npos) << vigor[0].message;
}

// --- Order of the parts: cited where it is written ---------------------------

// a18: Attrition parts in the wrong order (Attrition Phase, first sentence).
TEST(AttritionOrder, TheNextPlayersAttritionFirstIsAViolationOfTheAttritionPhase) {
  const auto p = audit_probe("a18_attrition_order");
  EXPECT_EQ(p.f.of("ATT.order").size(), 1u) << p.f.all();
  // The leader's part, after the turn's last part, is where the next turn
  // was due: that stays the log's order (LOG.order).
  const auto after = p.f.of("LOG.order");
  ASSERT_EQ(after.size(), 1u) << p.f.all();
  EXPECT_NE(after[0].message.find("where the next turn was due"), std::string::npos) << after[0].message;
}

TEST(AttritionOrder, TheLeadersAttritionFirstIsClean) {
  const auto p = audit_probe("b_end");
  expect_none(p.f, "ATT.order");
}

// z1: a turn starting before the next player's Attrition part (End of Turn).
TEST(AttritionEndOfTurn, ATurnStartingBeforeTheNextPlayersAttritionIsAViolation) {
  const auto p = audit_probe("z1_skip_attrition2");
  ASSERT_EQ(p.f.of("ATT-end.order").size(), 1u) << p.f.all();
  const auto hits = p.f.of("ATT-end.order");
  // Found at turn 4's TurnStarted, the event that makes the skip certain.
  const auto turn4 = std::find_if(p.events.begin(), p.events.end(), [](const core::Event& ev) {
    return ev.turn == 4 && std::holds_alternative<core::TurnStarted>(ev.payload);
  });
  ASSERT_NE(turn4, p.events.end());
  EXPECT_EQ(hits[0].seq, turn4->seq);
  EXPECT_NE(hits[0].message.find("had its turn"), std::string::npos) << hits[0].message;
  expect_none(p.f, "LOG.order");
}

TEST(AttritionEndOfTurn, BothAttritionPartsBeforeTheNextTurnAreClean) {
  const auto p = audit_probe("b_end");
  expect_none(p.f, "ATT-end.order");
}

// w33: the Warfare Phase's marker under the player not Leading in Morale.
TEST(WarfareOrder, AWarfarePhaseOfThePlayerNotLeadingIsAViolationOfTheWarfarePhase) {
  const auto p = audit_probe("w33_warfare_by_nonleader");
  ASSERT_EQ(p.f.of("WAR.order").size(), 1u) << p.f.all();
  const auto hits = p.f.of("WAR.order");
  EXPECT_NE(hits[0].message.find("warfare phase starts where"), std::string::npos) << hits[0].message;
  expect_none(p.f, "LOG.order");
}

TEST(WarfareOrder, TheLeadersWarfarePhaseIsClean) {
  const auto p = audit_probe("b_end");
  expect_none(p.f, "WAR.order");
}

// a19: `move a1 a3` in Attrition step 1 breaks step 1's "1 space".
TEST(AttritionStep1_Move, MovingTwoSpacesInStep1CitesStep1NotMusterMovement) {
  const auto p = audit_probe("a19_attr_move_two_spaces");
  const auto hits = p.f.of("ATT-1.move");
  ASSERT_EQ(hits.size(), 1u) << p.f.all();
  EXPECT_NE(hits[0].message.find("is not a move of one space"), std::string::npos) << hits[0].message;
  expect_none(p.f, "MUS-movement.one-space");
}

// --- A part the log skips still owes its checks (rulings R-096) -------------

// z1: turn 4 starts with Bruno's Attrition part never taken.
TEST(AttritionStep3_SkippedPart, AnAttritionPartNeverTakenOwesItsProvisions) {
  const auto p = audit_probe("z1_skip_attrition2");
  const auto turn4 = std::find_if(p.events.begin(), p.events.end(), [](const core::Event& ev) {
    return ev.turn == 4 && std::holds_alternative<core::TurnStarted>(ev.payload);
  });
  ASSERT_NE(turn4, p.events.end());
  expect_single(p.f, "ATT-3.listed", turn4->seq, "Bruno's Attrition Phase ends with no Provision costs paid");
}

TEST(AttritionStep3_SkippedPart, BothAttritionPartsTakenOweNothingMore) {
  const auto p = audit_probe("b_end");
  expect_none(p.f, "ATT-3.listed");
}

// z2: the Warfare Phase starts where Bruno's Muster part was due.
TEST(MusterStepA_SkippedPart, AMusterPartNeverTakenDrewNoCards) {
  const auto p = audit_probe("z2_skip_muster2");
  const auto draws = p.f.of("MUS-a.draw");
  ASSERT_EQ(p.f.of("MUS-a.draw").size(), 1u) << p.f.all();
  EXPECT_NE(draws[0].message.find("Bruno drew 0 cards this turn, not 2"), std::string::npos) << draws[0].message;
  EXPECT_EQ(draws[0].seat, 1);
}

TEST(MusterStepA_SkippedPart, BothMusterPartsTakenAreClean) {
  const auto p = audit_probe("b_end");
  expect_none(p.f, "MUS-a.draw");
}

}  // namespace
}  // namespace warlog
