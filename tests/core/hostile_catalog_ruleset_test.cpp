// Catalogs and rulesets that were silently accepted ("Trust the store" ›
// Hostile inputs): each is now a clear error naming the line and column.

#include <gtest/gtest.h>

#include <string>

#include "warlog/core/catalog.hpp"
#include "warlog/core/ruleset.hpp"

namespace warlog::core {
namespace {

std::string catalog_error(const std::string& csv) {
  const auto c = parse_catalog_csv(csv);
  EXPECT_FALSE(c.has_value()) << csv.substr(0, 200);
  if (c) return {};
  EXPECT_EQ(c.error().code, ErrorCode::InvalidArgument);
  return c.error().message;
}

std::string ruleset_error(const std::string& toml) {
  const auto r = parse_ruleset_toml(toml);
  EXPECT_FALSE(r.has_value()) << toml;
  if (r) return {};
  EXPECT_EQ(r.error().code, ErrorCode::InvalidArgument);
  return r.error().message;
}

constexpr std::string_view kHeader = "name,type,cost,vigor\n";

// Was: the row's missing cost and vigor read as 0.
TEST(HostileCatalog, ARowWithTooFewColumnsIsAnError) {
  EXPECT_EQ(catalog_error(std::string(kHeader) + "Lancer,Troop,2,3\nArcher,Troop\n"),
            "3:1: a row of 2 cells, but the header names 4 columns");
}

TEST(HostileCatalog, ACellPastTheHeaderIsAnError) {
  EXPECT_EQ(catalog_error(std::string(kHeader) + "Lancer,Troop,2,3,surprise\n"),
            "2:5: a cell past the header's 4 columns: 'surprise'");
  EXPECT_TRUE(parse_catalog_csv(std::string(kHeader) + "Lancer,Troop,2,3,\n")) << "a trailing empty cell is fine";
}

TEST(HostileCatalog, ANegativeCostIsAnError) {
  EXPECT_EQ(catalog_error(std::string(kHeader) + "Lancer,Troop,-2,3\n"),
            "2:3: expected a whole number from 0 to 999 for cost, found '-2'");
}

TEST(HostileCatalog, AHeaderOnlyCatalogHasNoCards) {
  EXPECT_EQ(catalog_error(std::string(kHeader)), "1:1: the catalog has no cards: a header row and nothing under it");
  EXPECT_EQ(catalog_error(std::string(kHeader) + "# all cut\n\n"),
            "1:1: the catalog has no cards: a header row and nothing under it");
}

TEST(HostileCatalog, AHundredThousandCharacterNameIsOverTheLimit) {
  const std::string message = catalog_error("name\n" + std::string(100000, 'N') + "\n");
  EXPECT_EQ(message, "2:1: a card name of 100000 characters, over the limit of 200: '" + std::string(80, 'N') + "...'");
  EXPECT_TRUE(parse_catalog_csv("name\n" + std::string(kMaxCardNameChars, 'N') + "\n"));
}

TEST(HostileCatalog, ANameWithAControlCharacterOrBadUtf8IsAnError) {
  EXPECT_EQ(catalog_error("name\nLan\x1b" "cer\n"), "2:1: a card name holding a control character (U+001B): 'Lan\\x1bcer'");
  EXPECT_EQ(catalog_error("name,text\nLancer,\"caf\xe9\"\n"), "2:2: invalid UTF-8 (byte 0xe9); save the catalog as UTF-8");
}

TEST(HostileCatalog, AnOffendingCellIsQuotedAtMostEightyCharacters) {
  const std::string message = catalog_error(std::string(kHeader) + "Lancer,Troop," + std::string(5000, '9') + ",1\n");
  EXPECT_EQ(message, "2:3: expected a whole number from 0 to 999 for cost, found '" + std::string(80, '9') + "...'");
}

// Was: read as the standard ruleset, under its name and version.
TEST(HostileRuleset, AnEmptyFileIsAnError) {
  EXPECT_EQ(ruleset_error(""),
            "1:1: empty ruleset file: expected a [section] with options, as in samples/rulesets/standard.toml");
  EXPECT_EQ(ruleset_error("\n  \n"),
            "1:1: empty ruleset file: expected a [section] with options, as in samples/rulesets/standard.toml");
}

TEST(HostileRuleset, ARulesetWithoutASectionIsAnError) {
  EXPECT_EQ(ruleset_error("# draw_per_turn = 3, someday\n"),
            "1:1: the ruleset sets no option: expected a [section] with options, as in samples/rulesets/standard.toml");
  EXPECT_EQ(ruleset_error("[deck]\n[muster]\n"),
            "1:1: the ruleset sets no option: expected a [section] with options, as in samples/rulesets/standard.toml");
}

TEST(HostileRuleset, ADeckMinimumAboveItsMaximumIsAnError) {
  EXPECT_EQ(ruleset_error("[deck]\nmin = 45\nmax = 40\n"), "2:7: deck.min (45) is above deck.max (40)");
  EXPECT_EQ(ruleset_error("[deck]\nmin = 41\n"), "2:7: deck.min (41) is above deck.max (40)");  // the default max
  EXPECT_EQ(ruleset_error("[deck]\norders_max = 5\n"), "2:14: deck.orders_min (10) is above deck.orders_max (5)");
  EXPECT_TRUE(parse_ruleset_toml("[deck]\nmin = 40\nmax = 40\n"));
}

TEST(HostileRuleset, AnUnknownKeyIsQuotedAtMostEightyCharacters) {
  const std::string message = ruleset_error("[deck]\n" + std::string(1000, 'k') + " = 1\n");
  EXPECT_EQ(message, "2:1: unknown option 'deck." + std::string(80, 'k') + "...' (see samples/rulesets/standard.toml)");
}

}  // namespace
}  // namespace warlog::core
