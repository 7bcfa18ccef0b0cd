// The end of the log (rulings R-095): a log without an `end` line closes the
// part it ends in there, as a phase marker would, and a turn whose five parts
// were played ends (core::close_log). Each violating case is a game of the
// judge's probe trial (issue 15) that was clean before; tests/data/probes.
// Suites are named after the section of the check the end of the log runs.

#include <gtest/gtest.h>

#include <filesystem>

#include "battle_builder.hpp"
#include "probe_games.hpp"

namespace warlog {
namespace {

using testing::Probe;
using testing::audit_probe;
using testing::expect_clean;
using testing::expect_none;
using testing::expect_single;

// Every finding close_log added says where it was found.
void expect_end_of_log(const Probe& p, std::string_view rule) {
  for (const core::Finding& f : p.f.of(rule)) {
    EXPECT_EQ(f.seq, p.last) << f.message;
    EXPECT_NE(f.message.find("(the log ends here)"), std::string::npos) << f.message;
  }
}

// --- Passing: a clean game, with and without its end line -------------------

TEST(LogEndOfLog, ACleanGameWithItsEndLineIsClosedByItAndStaysClean) {
  const Probe p = audit_probe("b_end");
  expect_clean(p.f);
  EXPECT_EQ(p.open, "");
}

TEST(LogEndOfLog, ACleanGameCutAfterAWholeTurnStaysCleanAndSaysWhereItEnds) {
  const Probe p = audit_probe("b");
  expect_clean(p.f);
  EXPECT_EQ(p.open, "turn 3, Attrition 2");
  EXPECT_FALSE(p.f.state.victory.has_value());
}

// --- Violating: each probe that was clean ------------------------------------

// bu3: an un-Burrowed Troop left unpaid in the last Attrition part, the log
// ending before the discard it owes.
TEST(AttritionStep3_EndOfLog, AnOwedDiscardIsStillOwedWhereTheLogEnds) {
  const Probe p = audit_probe("bu3_unburrowed_unpaid_nodiscard");
  expect_single(p.f, "ATT-3.discard", p.last, "still owes 1 discard");
  expect_end_of_log(p, "ATT-3.discard");
  EXPECT_EQ(p.open, "turn 4, Attrition 2");
}

// a05d: a Gambit left unpaid in the last part of the log.
TEST(AttritionStep3_EndOfLog, AnUnpaidGambitsDiscardIsOwedWhereTheLogEnds) {
  const Probe p = audit_probe("a05d_gambit_nodiscard_last_part");
  expect_single(p.f, "ATT-3.discard", p.last, "still owes");
  expect_end_of_log(p, "ATT-3.discard");
}

// e1: a Charge declared, an eligible combat never fought, then the log ends.
TEST(WarfareC_EndOfLog, AChargeWithItsCombatsUnfoughtIsFoundWhereTheLogEnds) {
  const Probe p = audit_probe("e1_charge_nocombat_eof");
  expect_single(p.f, "WAR-C.every-combat", p.last, "unfought");
  expect_end_of_log(p, "WAR-C.every-combat");
  EXPECT_NE(p.open.find("Warfare"), std::string::npos) << p.open;
  // Found at the log's end, it concerns the last Charge declared: the
  // decision a judge steps to, not the Warfare marker before it.
  core::Seq charge = ~core::Seq{0};
  for (const core::Event& ev : p.events) {
    if (std::holds_alternative<core::ChargeDeclared>(ev.payload)) charge = ev.seq;
  }
  ASSERT_NE(charge, ~core::Seq{0});
  for (const core::Finding& f : p.f.of("WAR-C.every-combat")) EXPECT_EQ(f.concerns, charge) << f.message;
}

// e2: the log ends after a Muster part that drew one card.
TEST(MusterStepA_EndOfLog, AMusterPartThatDrewOneCardIsShortWhereTheLogEnds) {
  const Probe p = audit_probe("e2_draw1_eof");
  expect_single(p.f, "MUS-a.draw", p.last, "drew 1 card this turn, not 2");
  expect_end_of_log(p, "MUS-a.draw");
  EXPECT_EQ(p.open, "turn 4, Muster 1");
}

// e3: the log ends after a Muster part that shifted Troops but played no card.
TEST(MusterMovement_EndOfLog, AShiftWithNoCardPlayedIsFoundWhereTheLogEnds) {
  const Probe p = audit_probe("e3_shift_noplay_eof");
  expect_single(p.f, "MUS-movement.shift", p.last, "without playing a card");
  expect_end_of_log(p, "MUS-movement.shift");
}

// t6: a final turn played to its end, and no end line: the rules give an
// Attrition Victory the log never records.
TEST(AttritionStep4_EndOfLog, AFinalTurnPlayedWholeGivesItsAttritionVictoryAtTheEndOfTheLog) {
  const Probe p = audit_probe("t6_final_turn_no_end");
  ASSERT_TRUE(p.f.state.victory.has_value()) << p.f.all();
  EXPECT_EQ(*p.f.state.victory, core::Victory::Attrition);
  EXPECT_EQ(p.f.state.decided_at, p.last);
  expect_single(p.f, "LOG.result", p.last, "the rules give an Attrition Victory");
  expect_end_of_log(p, "LOG.result");
}

// What a live recorder sees: the fold alone, line by line, never closes the
// log, so none of these is found before the game is over.
TEST(LogEndOfLog, TheFoldAloneFindsNothingAtTheEndSoALiveGameIsNotClosed) {
  for (const char* name : {"e2_draw1_eof", "e3_shift_noplay_eof", "bu3_unburrowed_unpaid_nodiscard"}) {
    const Probe p = audit_probe(name, false);
    expect_none(p.f, "MUS-a.draw");
    expect_none(p.f, "MUS-movement.shift");
    expect_none(p.f, "ATT-3.discard");
  }
}

TEST(LogEndOfLog, ClosingTheLogTwiceAfterItsEndLineAddsNothing) {
  const auto g = testing::load_sample_game(std::filesystem::path(WARLOG_SOURCE_DIR) / "tests" / "data" / "probes" /
                                           "b_end.wlog");
  const core::Context ctx{g.catalog, g.ruleset};
  std::vector<core::Finding> found;
  core::GameState s = core::fold(ctx, g.events, found);
  EXPECT_EQ(core::close_log(ctx, s, found), "");
  EXPECT_TRUE(found.empty());
}

}  // namespace
}  // namespace warlog
