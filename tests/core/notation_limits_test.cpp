// Hostile notation lines ("Trust the store" › Hostile inputs that stall or
// leak): lexing is linear in the line, and a line over
// kMaxNotationLineBytes is refused with its file:line:col before it is lexed.
// Nothing here times anything: a quadratic lexer makes these tests run for
// hours (a 10 MB line never finished), a linear one in well under a second.

#include <gtest/gtest.h>

#include <string>

#include "../../core/src/notation_lex.hpp"  // the lexer is internal; its test reaches in
#include "warlog/core/notation.hpp"

namespace warlog::core {
namespace {

Card lancer() {
  Card c;
  c.name = "Ironclaw Lancer";
  return c;
}

const Catalog& test_catalog() {
  static const Catalog catalog(std::vector<Card>{lancer()});
  return catalog;
}

// Lines 1-3 are these; a test's own line is line 4.
constexpr std::string_view kSeats =
    "[Board \"5x4\"]\n"
    "[Seat1 \"Alice\" \"Claw Empire\"]\n"
    "[Seat2 \"Bruno\" \"Paw Coalition\"]\n";

ParseResult parse(std::string_view text) {
  return parse_notation(text, "game.wlog", test_catalog(), "feed", DeckLoader{});
}

std::string errors_of(const ParseResult& r) {
  std::string out;
  for (const NotationError& e : r.errors) out += e.to_string().substr(0, 300) + "\n";
  return out;
}

constexpr std::size_t kMiB = 1024 * 1024;

TEST(NotationLimits, AFourMebibyteTitleLineIsRefusedWithItsLineAndColumn) {
  const std::string text = std::string(kSeats) + "[Title \"" + std::string(4 * kMiB, 'x') + "\"]\n";
  const ParseResult r = parse(text);
  ASSERT_EQ(r.errors.size(), 1u) << errors_of(r);
  const NotationError& e = r.errors.front();
  EXPECT_EQ(e.file, "game.wlog");
  EXPECT_EQ(e.line, 4u);
  EXPECT_EQ(e.col, kMaxNotationLineBytes + 1);  // the first character past the limit
  EXPECT_EQ(e.expected, "a line of at most 65536 bytes");
  EXPECT_EQ(e.found, "a line of " + std::to_string(8 + 4 * kMiB + 2) + " bytes");
  EXPECT_TRUE(r.game.events.empty());
}

TEST(NotationLimits, TheRefusedLinesColumnCountsCharactersNotBytes) {
  // 2 MB of 'é' (two bytes each): byte 65536 is character 32769.
  std::string line = "# ";
  for (std::size_t i = 0; i < kMiB; ++i) line += "\xC3\xA9";
  const ParseResult r = parse(std::string(kSeats) + "Turn 1\n" + line + "\n");
  ASSERT_EQ(r.errors.size(), 1u) << errors_of(r);
  EXPECT_EQ(r.errors[0].line, 5u);
  EXPECT_EQ(r.errors[0].col, 1u + 2u + (kMaxNotationLineBytes - 2) / 2);
}

TEST(NotationLimits, AllOneMebibyteLinesOfAFileAreEachRefused) {
  const std::string big(kMiB, 'a');
  const ParseResult r = parse(std::string(kSeats) + big + "\n" + "Turn 1\n" + "# " + big + "\n");
  ASSERT_EQ(r.errors.size(), 2u) << errors_of(r);
  EXPECT_EQ(r.errors[0].line, 4u);
  EXPECT_EQ(r.errors[1].line, 6u);
}

TEST(NotationLimits, ASixtyKibibyteLineParses) {
  const std::string title(60 * 1024, 't');
  const ParseResult r = parse(std::string(kSeats) + "[Title \"" + title + "\"]\n");
  ASSERT_TRUE(r.ok()) << errors_of(r);
  ASSERT_FALSE(r.game.events.empty());
  EXPECT_EQ(std::get<GameCreated>(r.game.events[0].payload).title, title);
}

TEST(NotationLimits, ALineOfExactlyTheLimitParses) {
  const std::string prefix = "[Title \"";
  const std::string title(kMaxNotationLineBytes - prefix.size() - 2, 't');
  const ParseResult r = parse(std::string(kSeats) + prefix + title + "\"]\n");
  ASSERT_TRUE(r.ok()) << errors_of(r);
}

TEST(NotationLimits, ErrorsShowAtMostEightyCharactersOfAToken) {
  const ParseResult r = parse(std::string(kSeats) + "[Territory \"" + std::string(50000, 'q') + "\" c2]\n");
  ASSERT_EQ(r.errors.size(), 1u) << errors_of(r);
  EXPECT_EQ(r.errors[0].expected, "a card of the catalog");
  EXPECT_LE(r.errors[0].found.size(), 90u) << r.errors[0].found.substr(0, 200);
  EXPECT_EQ(r.errors[0].found.substr(0, 4), "\"qqq");
}

TEST(NotationLimits, HeaderRefsSkipAnOverlongLine) {
  const NotationRefs refs =
      notation_refs("[Title \"" + std::string(4 * kMiB, 'x') + "\"]\n[Catalog \"cards.csv\"]\n");
  EXPECT_EQ(refs.catalog_ref, "cards.csv");
}

TEST(NotationLimits, AnOverlongDeckLineIsRefusedWithItsLineAndColumn) {
  const auto deck = parse_deck("2 Ironclaw Lancer\n3 " + std::string(2 * kMiB, 'L') + "\n");
  ASSERT_FALSE(deck.has_value());
  EXPECT_EQ(deck.error().message.substr(0, 44), "2:65537: expected a line of at most 65536 by");
}

// The lexer alone, on a line far over the parser's limit: 2 MiB of tokens.
// Its columns are counted as it goes (it used to count each from the line's
// start: quadratic).
TEST(NotationLex, AMultiMegabyteLineLexesWithEveryColumnRight) {
  std::string line;
  const std::size_t n = 2 * kMiB / 4;
  for (std::size_t i = 0; i < n; ++i) line += "b2, ";
  line += "\"\xC3\xA9\" >";
  const notation::LexedLine lexed = notation::lex(line);
  ASSERT_FALSE(lexed.error.has_value());
  ASSERT_EQ(lexed.tokens.size(), 2 * n + 3);  // b2 and ',' each time, the string, '>', End
  EXPECT_EQ(lexed.tokens[2 * (n - 1)].col, 4 * (n - 1) + 1);
  EXPECT_EQ(lexed.tokens[2 * n].kind, notation::Tok::String);
  EXPECT_EQ(lexed.tokens[2 * n].col, 4 * n + 1);
  EXPECT_EQ(lexed.tokens[2 * n + 1].col, 4 * n + 5);  // after "é": 3 characters, then a space
  EXPECT_EQ(lexed.tokens.back().col, 4 * n + 6);
}

}  // namespace
}  // namespace warlog::core
