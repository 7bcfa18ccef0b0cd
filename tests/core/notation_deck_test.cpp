// Deck lists: "COUNT Card Name" per line, '#' comments, LINE:COL errors.

#include <gtest/gtest.h>

#include "warlog/core/notation.hpp"

namespace warlog::core {
namespace {

std::string error_of(std::string_view text) {
  const auto deck = parse_deck(text);
  EXPECT_FALSE(deck.has_value()) << text;
  if (deck) return {};
  EXPECT_EQ(deck.error().code, ErrorCode::InvalidArgument);
  return deck.error().message;
}

TEST(NotationDeck, CountsNamesCommentsAndBlankLines) {
  const auto deck = parse_deck(
      "# Claw vanguard, club night list\n"
      "\n"
      "6 Ironclaw Lancer\n"
      "  4   Clawguard Archer   # the archers\n"
      "1 \"Banner # Three\"\n"
      "2 Ironclaw Lancer\r\n");
  ASSERT_TRUE(deck.has_value()) << deck.error().message;
  EXPECT_EQ(*deck, (std::vector<CardCount>{{"Ironclaw Lancer", 6},
                                           {"Clawguard Archer", 4},
                                           {"Banner # Three", 1},
                                           {"Ironclaw Lancer", 2}}));
}

TEST(NotationDeck, EmptyDeckIsEmpty) {
  const auto deck = parse_deck("# nothing yet\n\n");
  ASSERT_TRUE(deck.has_value());
  EXPECT_TRUE(deck->empty());
}

TEST(NotationDeck, ErrorsCarryLineAndColumn) {
  EXPECT_EQ(error_of("6 Ironclaw Lancer\nIronclaw Lancer\n"),
            "2:1: expected a count and a card name, as in 3 Ironclaw Lancer, found 'Ironclaw'");
  EXPECT_EQ(error_of("  0 Grain Levy\n"), "1:3: expected a count from 1 to 999, found '0'");
  EXPECT_EQ(error_of("1000 Grain Levy\n"), "1:1: expected a count from 1 to 999, found '1000'");
  EXPECT_EQ(error_of("3x Grain Levy\n"), "1:2: expected a space between the count and the card name, found 'x'");
  EXPECT_EQ(error_of("3   # no name\n"), "1:5: expected a card name after the count, found end of line");
  EXPECT_EQ(error_of("3 \"Grain Levy\n"), "1:3: expected a closing '\"', found end of line");
  EXPECT_EQ(error_of("3 \"Grain Levy\" extra\n"), "1:16: expected end of line after the card name, found 'extra'");
}

TEST(NotationDeck, SeveralErrorsSayHowManyMore) {
  EXPECT_EQ(error_of("x\ny\n2 Fine\nz\n"),
            "1:1: expected a count and a card name, as in 3 Ironclaw Lancer, found 'x' (and 2 more)");
}

}  // namespace
}  // namespace warlog::core
