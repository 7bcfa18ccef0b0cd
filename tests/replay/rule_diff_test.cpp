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
  bool pikeman_survives = false;
  for (const auto& l : d->first->candidate_only) pikeman_survives |= l.find("c2: Coalition Pikeman") != std::string::npos;
  EXPECT_TRUE(pikeman_survives) << replay::diff_text(*d);
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
