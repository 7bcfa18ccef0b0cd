// Rule-change regression on the samples: a changed ruleset or card list is
// reported with the games, first divergent events and outcomes it changes.

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "temp_dir.hpp"
#include "warlog/replay/replay.hpp"
#include "warlog/replay/rule_diff.hpp"

namespace warlog {
namespace {

const std::string kSamples = WARLOG_SAMPLES_DIR;

replay::Archive open_with_spine(const testing::TempDir& dir, core::GameId& id) {
  auto a = replay::Archive::open(dir.store(), replay::Archive::Mode::ReadWrite);
  EXPECT_TRUE(a);
  auto r = a->import_file(kSamples + "/tutorial/spine_first_blood.wlog", {});
  EXPECT_TRUE(r);
  id = r->id;
  return std::move(*a);
}

core::Catalog catalog_with(std::string_view from, std::string_view to) {
  std::ifstream in(kSamples + "/catalogs/sample_cards.csv");
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos);
  text.replace(at, from.size(), to);
  return *core::parse_catalog_csv(text);
}

TEST(RuleDiff, TheSameRulesChangeNothing) {
  testing::TempDir dir;
  core::GameId id = 0;
  auto archive = open_with_spine(dir, id);
  auto d = replay::rule_diff(archive, id, {});
  ASSERT_TRUE(d) << d.error().message;
  EXPECT_FALSE(d->changed());
  EXPECT_FALSE(d->outcome_changed());
  EXPECT_TRUE(d->added.empty());
  EXPECT_TRUE(d->removed.empty());
  EXPECT_EQ(d->klass(), replay::DiffClass::Unchanged);
  EXPECT_EQ(replay::diff_text(*d), "");
}

TEST(RuleDiff, AVigorErrataIsReportedAtTheCombatItChanges) {
  testing::TempDir dir;
  core::GameId id = 0;
  auto archive = open_with_spine(dir, id);
  replay::RuleDiffOptions o;
  // The Ironclaw Lancer's Vigor 3 -> 2: its combat on turn 2 no longer defeats the Pikeman.
  o.candidate.catalog = catalog_with("Ironclaw Lancer,Claw Empire,Troop,Common,2,1,3,3,3",
                                     "Ironclaw Lancer,Claw Empire,Troop,Common,2,1,3,2,3");
  auto d = replay::rule_diff(archive, id, o);
  ASSERT_TRUE(d) << d.error().message;
  ASSERT_TRUE(d->changed());
  EXPECT_EQ(d->first->event, "CombatResolved");
  EXPECT_EQ(d->first->turn, 2);
  EXPECT_EQ(d->first->phase, core::Phase::Warfare);
  ASSERT_FALSE(d->first->differences.empty()) << replay::diff_text(*d);
  EXPECT_EQ(d->first->differences[0].rfind("the Coalition Pikeman on c2 (Seat 2, Bruno) survives with ", 0), 0u)
      << replay::diff_text(*d);
  ASSERT_EQ(d->added.size(), 2u) << replay::diff_text(*d);
  EXPECT_EQ(d->added[0].finding.rule_id, "WAR-C.vigor");
  EXPECT_EQ(d->added[1].finding.rule_id, "WAR-C.defeat");
  EXPECT_TRUE(d->removed.empty());
}

TEST(RuleDiff, ARulesetChangeCanRemoveFindingsAndFlipTheOutcome) {
  testing::TempDir dir;
  core::GameId id = 0;
  auto archive = open_with_spine(dir, id);
  replay::RuleDiffOptions o;
  core::Ruleset three;
  three.draw_per_turn = 3;  // Bruno's three-card draw becomes legal, the others short
  o.candidate.ruleset = three;
  auto d = replay::rule_diff(archive, id, o);
  ASSERT_TRUE(d);
  ASSERT_TRUE(d->changed());
  ASSERT_EQ(d->removed.size(), 1u);
  EXPECT_EQ(d->removed[0].finding.rule_id, "MUS-a.draw");
  EXPECT_EQ(d->removed[0].finding.seq, 27u);
  EXPECT_FALSE(d->added.empty());
  EXPECT_TRUE(d->first->findings_differ);

  // A ruling that moves the Supremacy check out of reach flips the outcome:
  // with Control needing every side (here: no Territory in play would be
  // the simplest), use a catalog where the Old Mill is no Territory.
  replay::RuleDiffOptions no_mill;
  no_mill.candidate.catalog = catalog_with("Old Mill,,Territory", "Old Mill,,Dwelling");
  auto flip = replay::rule_diff(archive, id, no_mill);
  ASSERT_TRUE(flip);
  EXPECT_TRUE(flip->outcome_changed()) << replay::diff_text(*flip);
  EXPECT_EQ(flip->base.victory, core::Victory::Supremacy);
  EXPECT_NE(flip->candidate.victory, core::Victory::Supremacy);
  // With no Territory from the start, Alice's Attrition Phase is one the
  // recording never played (she pays nothing it lists): not followable.
  EXPECT_EQ(flip->klass(), replay::DiffClass::Undetermined) << replay::diff_text(*flip);
  ASSERT_FALSE(flip->first->differences.empty());
  EXPECT_EQ(flip->first->differences[0], "0 Territories are in play instead of 1");
}

// Each game falls in exactly one class, the undetermined first.
TEST(RuleDiff, EachGameFallsInExactlyOneClass) {
  replay::GameDiff d;
  d.game.seats = {core::SeatSetup{"Alice", core::Allegiance::ClawEmpire}, core::SeatSetup{"Bruno", core::Allegiance::PawCoalition}};
  d.base = replay::Outcome{0, core::Victory::Supremacy, 7};
  d.candidate = d.base;
  EXPECT_EQ(d.klass(), replay::DiffClass::Unchanged);
  d.first = replay::Divergence{};
  EXPECT_EQ(d.klass(), replay::DiffClass::Findings);
  d.candidate = replay::Outcome{1, core::Victory::Attrition, 9};
  EXPECT_EQ(d.klass(), replay::DiffClass::Outcome);
  EXPECT_EQ(replay::flip_words(d),
            "Seat 2 (Bruno) wins by Attrition on turn 9 instead of Seat 1 (Alice) by Supremacy on turn 7");
  // The same winner and victory on another turn is an outcome change, and says
  // that nobody else won.
  d.candidate = replay::Outcome{0, core::Victory::Supremacy, 5};
  EXPECT_EQ(d.klass(), replay::DiffClass::Outcome);
  EXPECT_EQ(replay::flip_words(d), "Seat 1 (Alice) still wins by Supremacy, on turn 5 instead of 7");
  d.candidate = replay::Outcome{0, core::Victory::Attrition, 9};
  EXPECT_EQ(replay::flip_words(d), "Seat 1 (Alice) still wins, by Attrition on turn 9 instead of by Supremacy on turn 7");
  d.undetermined = replay::Unfollowable{};
  EXPECT_EQ(d.klass(), replay::DiffClass::Undetermined);
  for (auto c : {replay::DiffClass::Unchanged, replay::DiffClass::Findings, replay::DiffClass::Outcome,
                 replay::DiffClass::Undetermined}) {
    EXPECT_EQ(replay::diff_class_from_string(replay::to_string(c)), c);
  }
  EXPECT_FALSE(replay::diff_class_from_string("changed"));
}

// Issue 19's example, and issue 15's: under the Burrower's Vigor 3 -> 2,
// cut_off keeps an Imperial Grenadier on e2 that the recording had
// defeated; Ines then provisions as if it were gone, so the game cannot be
// followed from there, never "outcome unchanged".
TEST(RuleDiff, TheBurrowerErrataLeavesCutOffUndeterminedAtTheGrenadierOnE2) {
  testing::TempDir dir;
  auto archive = replay::Archive::open(dir.store(), replay::Archive::Mode::ReadWrite);
  ASSERT_TRUE(archive);
  auto game = archive->import_file(kSamples + "/games/cut_off.wlog", {});
  ASSERT_TRUE(game);
  replay::RuleDiffOptions o;
  auto errata = core::load_catalog(kSamples + "/catalogs/errata_burrower_vigor.csv");
  ASSERT_TRUE(errata);
  o.candidate.catalog = *errata;
  auto d = replay::rule_diff(*archive, game->id, o);
  ASSERT_TRUE(d) << d.error().message;
  const std::string text = replay::diff_text(*d);
  EXPECT_EQ(d->klass(), replay::DiffClass::Undetermined) << text;
  ASSERT_TRUE(d->first);
  EXPECT_EQ(d->first->seq, 197u);
  ASSERT_FALSE(d->first->differences.empty()) << text;
  EXPECT_EQ(d->first->differences[0],
            "the Imperial Grenadier on e2 (Seat 1, Ines) survives with 1 Vitality instead of being defeated");
  ASSERT_TRUE(d->undetermined) << text;
  EXPECT_EQ(d->undetermined->at.seq, 200u);
  EXPECT_EQ(d->undetermined->because.finding.rule_id, "ATT-3.listed");
  for (const auto& f : d->added) EXPECT_LE(f.finding.seq, 200u) << "findings past the unfollowable event are not compared";
  EXPECT_EQ(text.find("outcome unchanged"), std::string::npos) << text;
  EXPECT_NE(text.find("not followable from seq 200, turn 10 Attrition Phase, Seat 1 (Ines)"), std::string::npos) << text;
}

// A finding the candidate adds about a state both folds agree on is a
// finding, not an unfollowable game (the empty-deck penalty's new findings).
TEST(RuleDiff, ANewViolationAboutAnAgreedStateIsAFindingNotUndetermined) {
  testing::TempDir dir;
  auto archive = replay::Archive::open(dir.store(), replay::Archive::Mode::ReadWrite);
  ASSERT_TRUE(archive);
  auto game = archive->import_file(kSamples + "/games/the_long_hedgerow.wlog", {});
  ASSERT_TRUE(game);
  replay::RuleDiffOptions o;
  auto penalty = core::load_ruleset(kSamples + "/rulesets/empty_deck_penalty.toml");
  ASSERT_TRUE(penalty);
  o.candidate.ruleset = *penalty;
  auto d = replay::rule_diff(*archive, game->id, o);
  ASSERT_TRUE(d) << d.error().message;
  EXPECT_EQ(d->klass(), replay::DiffClass::Findings) << replay::diff_text(*d);
  EXPECT_FALSE(d->undetermined);
  EXPECT_EQ(d->first->turn, 16);
  // An Attrition Victory: the Old Mill was left uncontrolled in the final turn 16 (rulings R-072).
  EXPECT_NE(replay::diff_text(*d).find("outcome unchanged: Seat 2 (Tamsin) wins by Attrition on turn 16"),
            std::string::npos)
      << replay::diff_text(*d);
}

TEST(RuleDiff, UnknownGameIsNotFound) {
  testing::TempDir dir;
  core::GameId id = 0;
  auto archive = open_with_spine(dir, id);
  auto d = replay::rule_diff(archive, 42, {});
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().code, ErrorCode::NotFound);
}

}  // namespace
}  // namespace warlog
