// Card catalog CSV and ruleset TOML: the data a game is audited under.

#include <gtest/gtest.h>

#include <memory>
#include <set>

#include "game_builder.hpp"
#include "warlog/core/finding.hpp"
#include "warlog/core/ruleset.hpp"

namespace warlog {
namespace {

TEST(Catalog, SampleCatalogLoadsWithEveryFaction) {
  const core::Catalog& c = testing::sample_catalog();
  std::set<core::Allegiance> factions;
  for (const auto& card : c.cards()) {
    if (card.type != core::CardType::Territory) factions.insert(card.faction);
  }
  EXPECT_EQ(factions.size(), 4u);
  const core::Card* musketeer = c.find("Claw Musketeer");
  ASSERT_NE(musketeer, nullptr);
  EXPECT_TRUE(musketeer->has(core::kQuirkShotte));
  EXPECT_EQ(musketeer->vigor, 2);
  EXPECT_EQ(c.find("Old Mill")->threshold, 4);
  EXPECT_EQ(c.hash().size(), 64u);
}

TEST(Catalog, ClosestNameSuggestsTheMisspeltCard) {
  EXPECT_EQ(testing::sample_catalog().closest("Ironclaw Lancr"), "Ironclaw Lancer");
  EXPECT_EQ(testing::sample_catalog().closest("paw militia"), "Paw Militia");
}

TEST(Catalog, QuotedCellsWithCommasAndQuotes) {
  auto c = core::parse_catalog_csv("name,type,text\r\n\"Odd, \"\"Card\"\"\",Troop,\"a, b\"\r\n");
  ASSERT_TRUE(c) << c.error().message;
  ASSERT_EQ(c->cards().size(), 1u);
  EXPECT_EQ(c->cards()[0].name, "Odd, \"Card\"");
  EXPECT_EQ(c->cards()[0].text, "a, b");
}

TEST(Catalog, BadCellIsReportedWithLineAndColumn) {
  auto c = core::parse_catalog_csv("name,type,vigor\nA,Troop,3\nB,Troop,lots\n");
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, ErrorCode::InvalidArgument);
  EXPECT_EQ(c.error().message.rfind("3:3:", 0), 0u) << c.error().message;
}

TEST(Catalog, UnknownColumnAndDuplicateNameAreErrors) {
  EXPECT_FALSE(core::parse_catalog_csv("name,colour\nA,red\n"));
  auto dup = core::parse_catalog_csv("name\nA\nA\n");
  ASSERT_FALSE(dup);
  EXPECT_NE(dup.error().message.find("duplicate"), std::string::npos);
}

TEST(Catalog, UnterminatedQuoteIsAnError) {
  auto c = core::parse_catalog_csv("name\n\"A\n");
  ASSERT_FALSE(c);
  EXPECT_NE(c.error().message.find("unterminated"), std::string::npos);
}

TEST(Catalog, MissingFileIsNotFound) {
  auto c = core::load_catalog("/nonexistent/cards.csv");
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, ErrorCode::NotFound);
}

TEST(Ruleset, StandardSampleMatchesTheDefaults) {
  auto r = core::load_ruleset(std::string(WARLOG_SAMPLES_DIR) + "/rulesets/standard.toml");
  ASSERT_TRUE(r) << r.error().message;
  const core::Ruleset d;
  EXPECT_EQ(r->deck_min, d.deck_min);
  EXPECT_EQ(r->draw_per_turn, d.draw_per_turn);
  EXPECT_EQ(r->recovery_cost, d.recovery_cost);
  EXPECT_EQ(r->empty_deck_penalty, false);
  EXPECT_EQ(r->hash.size(), 64u);
}

TEST(Ruleset, OptionsAreRead) {
  auto r = core::parse_ruleset_toml("[wip]\nempty_deck_penalty = true\n[muster]\ndraw_per_turn = 3\n");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(r->empty_deck_penalty);
  EXPECT_EQ(r->draw_per_turn, 3);
}

// The three readings of: off by default, and each
// sample ruleset that flips one flips only it.
TEST(Ruleset, TheLeaderUnpaidGambitAndFinalControlOptionsAreRead) {
  const core::Ruleset d;
  EXPECT_FALSE(d.leader_from_morale || d.unpaid_gambit_morale_penalty || d.final_control_any_moment);
  const std::string dir = std::string(WARLOG_SAMPLES_DIR) + "/rulesets/";
  auto leader = core::load_ruleset(dir + "leader_from_morale.toml");
  auto gambit = core::load_ruleset(dir + "unpaid_gambit_morale_penalty.toml");
  auto control = core::load_ruleset(dir + "final_control_any_moment.toml");
  ASSERT_TRUE(leader && gambit && control);
  EXPECT_TRUE(leader->leader_from_morale && !leader->unpaid_gambit_morale_penalty && !leader->final_control_any_moment);
  EXPECT_TRUE(!gambit->leader_from_morale && gambit->unpaid_gambit_morale_penalty && !gambit->final_control_any_moment);
  EXPECT_TRUE(!control->leader_from_morale && !control->unpaid_gambit_morale_penalty && control->final_control_any_moment);
}

// R-097 on by default, R-023's Dwelling surcharge off; each read from TOML,
// and the sample ruleset for the Dwelling flips only it.
TEST(Ruleset, TheDrawTextAndDwellingSurchargeOptionsAreRead) {
  const core::Ruleset d;
  EXPECT_TRUE(d.draws_from_card_text);
  EXPECT_FALSE(d.dwelling_allegiance_surcharge);
  auto off = core::parse_ruleset_toml("[rulings]\ndraws_from_card_text = false\n");
  ASSERT_TRUE(off) << off.error().message;
  EXPECT_FALSE(off->draws_from_card_text);
  auto dwelling = core::load_ruleset(std::string(WARLOG_SAMPLES_DIR) + "/rulesets/dwelling_allegiance_surcharge.toml");
  ASSERT_TRUE(dwelling) << dwelling.error().message;
  EXPECT_TRUE(dwelling->dwelling_allegiance_surcharge);
  EXPECT_TRUE(dwelling->draws_from_card_text);
  EXPECT_FALSE(dwelling->unpaid_gambit_morale_penalty);
}

TEST(Ruleset, DifferentContentHasADifferentHash) {
  auto a = core::parse_ruleset_toml("[muster]\ndraw_per_turn = 2\n");
  auto b = core::parse_ruleset_toml("[muster]\ndraw_per_turn = 3\n");
  ASSERT_TRUE(a && b);
  EXPECT_NE(a->hash, b->hash);
}

TEST(Ruleset, UnknownKeyIsAnErrorWithItsPosition) {
  auto r = core::parse_ruleset_toml("[muster]\ndraw_per_trun = 3\n");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message.rfind("2:1:", 0), 0u) << r.error().message;
  EXPECT_NE(r.error().message.find("muster.draw_per_trun"), std::string::npos);
}

TEST(Ruleset, WrongTypeAndSyntaxErrorsAreReported) {
  EXPECT_FALSE(core::parse_ruleset_toml("[wip]\nturncoat = 3\n"));
  EXPECT_FALSE(core::parse_ruleset_toml("[deck]\nmin = \"thirty\"\n"));
  EXPECT_FALSE(core::parse_ruleset_toml("[deck\nmin = 3\n"));
}

TEST(RuleRegistry, IdsAreUniqueAndEveryRuleIsCited) {
  std::set<std::string_view> ids;
  for (const core::Rule& r : core::all_rules()) {
    EXPECT_TRUE(ids.insert(r.id).second) << "duplicate rule id " << r.id;
    EXPECT_FALSE(r.citation.empty()) << r.id;
    EXPECT_FALSE(r.summary.empty()) << r.id;
    EXPECT_EQ(core::find_rule(r.id), &r);
  }
  EXPECT_EQ(core::find_rule("NO.such-rule"), nullptr);
}

TEST(RuleRegistry, AssumedRulesNameTheirRuling) {
  for (const core::Rule& r : core::all_rules()) {
    if (r.basis == core::Basis::Assumed) {
      EXPECT_FALSE(r.ruling.empty()) << r.id << " rests on an assumption";
    }
  }
}

}  // namespace
}  // namespace warlog

namespace warlog {
namespace {

// Regression: a copied catalog's name index pointed into the original's
// cards, so finding a card after the original died read freed memory.
TEST(Catalog, ACopyOutlivesItsOriginal) {
  auto original = std::make_unique<core::Catalog>(testing::sample_catalog());
  core::Catalog copy(*original);
  core::Catalog assigned;
  assigned = *original;
  original.reset();
  ASSERT_NE(copy.find("Ironclaw Lancer"), nullptr);
  EXPECT_EQ(copy.find("Ironclaw Lancer")->vigor, 3);
  ASSERT_NE(assigned.find("Paw Militia"), nullptr);
  EXPECT_EQ(assigned.find("Paw Militia")->name, "Paw Militia");
}

}  // namespace
}  // namespace warlog
