// The notation's errors: file:line:col, expected, found, hint; every error
// of a file reported; nothing returned when there is any.

#include <gtest/gtest.h>

#include "warlog/core/notation.hpp"

namespace warlog::core {
namespace {

const Catalog& test_catalog() {
  auto card = [](std::string name, CardType t) {
    Card c;
    c.name = std::move(name);
    c.type = t;
    return c;
  };
  static const Catalog catalog(std::vector<Card>{
      card("Ironclaw Lancer", CardType::Troop),
      card("Clawguard Archer", CardType::Troop),
      card("Grain Levy", CardType::Gambit),
      card("Old Mill", CardType::Territory),
  });
  return catalog;
}

// Line 1-4; the body starts on line 5.
constexpr std::string_view kHeader =
    "[Board \"5x4\"]\n"
    "[Seat1 \"Alice\" \"Claw Empire\"]\n"
    "[Seat2 \"Bruno\" \"Paw Coalition\"]\n"
    "[Army1 2 \"Ironclaw Lancer\"]\n";
// Lines 5-7; a test's first body line is line 8.
constexpr std::string_view kTurn = "Turn 1\nMorale 1\nMuster 1\n";

Expected<std::string> deck_files(const std::string& ref) {
  if (ref == "decks/good.deck") return std::string("2 Ironclaw Lancer\n");
  if (ref == "decks/bad.deck") return std::string("# a bad deck\n2 Ironclaw Lancer\nthree Grain Levy\n0 Grain Levy\n");
  if (ref == "decks/typo.deck") return std::string("1 Grain Levy\n4 Ironclaw Lancr\n");
  return make_error(ErrorCode::NotFound, "cannot open " + ref);
}

ParseResult parse(std::string_view text) {
  return parse_notation(text, "game.wlog", test_catalog(), "feed", deck_files);
}

std::string errors_of(const ParseResult& r) {
  std::string out;
  for (const NotationError& e : r.errors) out += e.to_string() + "\n";
  return out;
}

// Parses a file with exactly one error and returns it.
NotationError only_error(const std::string& text) {
  const ParseResult r = parse(text);
  EXPECT_EQ(r.errors.size(), 1u) << errors_of(r);
  EXPECT_TRUE(r.game.events.empty());
  return r.errors.empty() ? NotationError{} : r.errors.front();
}

NotationError body_error(std::string_view line) {
  return only_error(std::string(kHeader) + std::string(kTurn) + std::string(line) + "\n");
}

TEST(NotationErrors, FormatIsFileLineColExpectedFoundHint) {
  const NotationError e{"game.wlog", 7, 8, "a card of the catalog", "\"Ironclad Lancer\"",
                        "did you mean \"Ironclaw Lancer\"?"};
  EXPECT_EQ(e.to_string(),
            "game.wlog:7:8: expected a card of the catalog, found \"Ironclad Lancer\" "
            "(did you mean \"Ironclaw Lancer\"?)");
  EXPECT_EQ((NotationError{"g", 1, 2, "x", "y", ""}).to_string(), "g:1:2: expected x, found y");
}

TEST(NotationErrors, UnknownVerbHasLineColAndClosestVerb) {
  const NotationError e = body_error("  forrage \"Grain Levy\"");
  EXPECT_EQ(e.file, "game.wlog");
  EXPECT_EQ(e.line, 8u);
  EXPECT_EQ(e.col, 3u);
  EXPECT_EQ(e.found, "'forrage'");
  EXPECT_NE(e.expected.find("a verb"), std::string::npos);
  EXPECT_EQ(e.hint, "did you mean 'forage'?");
}

TEST(NotationErrors, BadSpace) {
  const NotationError e = body_error("move b1 bb");
  EXPECT_EQ(e.line, 8u);
  EXPECT_EQ(e.col, 9u);
  EXPECT_EQ(e.expected, "a space such as b2");
  EXPECT_EQ(e.found, "'bb'");
}

TEST(NotationErrors, SpaceOffTheBoard) {
  const NotationError e = body_error("fire a1 f2 1");
  EXPECT_EQ(e.col, 9u);
  EXPECT_EQ(e.expected, "a space on the 5x4 battlefield (a1 to e4)");
  EXPECT_EQ(e.found, "'f2'");
  EXPECT_EQ(body_error("move a5 a4").expected, "a space on the 5x4 battlefield (a1 to e4)");
}

TEST(NotationErrors, UnknownCardSuggestsTheClosestName) {
  const NotationError e = body_error("play \"Ironclad Lancer\" b1");
  EXPECT_EQ(e.line, 8u);
  EXPECT_EQ(e.col, 6u);
  EXPECT_EQ(e.expected, "a card of the catalog");
  EXPECT_EQ(e.found, "\"Ironclad Lancer\"");
  EXPECT_EQ(e.hint, "did you mean \"Ironclaw Lancer\"?");
  EXPECT_EQ(e.to_string(),
            "game.wlog:8:6: expected a card of the catalog, found \"Ironclad Lancer\" "
            "(did you mean \"Ironclaw Lancer\"?)");
}

TEST(NotationErrors, UnquotedCardNameSaysToQuote) {
  const NotationError e = body_error("forage Grain Levy");
  EXPECT_EQ(e.col, 8u);
  EXPECT_EQ(e.expected, "a quoted card name");
  EXPECT_EQ(e.found, "'Grain'");
  EXPECT_NE(e.hint.find("quoted"), std::string::npos);
}

TEST(NotationErrors, MissingHeaderTagsAreReportedWhereTheBodyStarts) {
  const ParseResult r = parse("[Seat1 \"Alice\" \"Claw Empire\"]\n# no Seat2, no Board\nTurn 1\n");
  ASSERT_EQ(r.errors.size(), 2u) << errors_of(r);
  EXPECT_EQ(r.errors[0].line, 3u);
  EXPECT_EQ(r.errors[0].col, 1u);
  EXPECT_EQ(r.errors[0].expected, "a [Seat2 \"Player\" \"Allegiance\"] tag");
  EXPECT_EQ(r.errors[0].found, "'Turn'");
  EXPECT_EQ(r.errors[1].expected, "a [Board \"5x4\"] tag");
  EXPECT_TRUE(r.game.events.empty());

  const ParseResult empty = parse("");
  ASSERT_EQ(empty.errors.size(), 3u) << errors_of(empty);
  EXPECT_EQ(empty.errors[0].found, "end of file");
}

TEST(NotationErrors, UnterminatedString) {
  const NotationError e = body_error("draw \"Ironclaw Lancer\", \"Grain Levy");
  EXPECT_EQ(e.line, 8u);
  EXPECT_EQ(e.col, 25u);  // the quote that opens the string left open
  EXPECT_EQ(e.expected, "a closing '\"'");
  EXPECT_EQ(e.found, "end of line");
}

TEST(NotationErrors, DeckFileThatCannotBeLoadedIsReportedAtTheTag) {
  const NotationError e = only_error(std::string(kHeader) + "[Army2 \"decks/missing.deck\"]\n");
  EXPECT_EQ(e.file, "game.wlog");
  EXPECT_EQ(e.line, 5u);
  EXPECT_EQ(e.col, 8u);
  EXPECT_EQ(e.expected, "a readable deck file");
  EXPECT_EQ(e.found, "\"decks/missing.deck\"");
  EXPECT_EQ(e.hint, "cannot open decks/missing.deck");
}

TEST(NotationErrors, NoDeckLoaderMeansInlineDecksOnly) {
  const ParseResult r = parse_notation(std::string(kHeader) + "[Army2 \"decks/good.deck\"]\n", "game.wlog",
                                       test_catalog(), "feed", DeckLoader{});
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].hint, "deck files cannot be loaded here");
}

// One error per deck file, the rest counted: a tag can name any file, and
// a file that is not a deck must not be echoed into the errors line by line.
TEST(NotationErrors, BadCountsInADeckFileAreReportedInTheDeckFile) {
  const ParseResult r = parse(std::string(kHeader) + "[Army2 \"decks/bad.deck\"]\n");
  ASSERT_EQ(r.errors.size(), 1u) << errors_of(r);
  EXPECT_EQ(r.errors[0].to_string(),
            "decks/bad.deck:3:1: expected a count and a card name, as in 3 Ironclaw Lancer, found 'three' "
            "(deck named at game.wlog:5:8; 1 more error in this deck file)");
  EXPECT_TRUE(r.game.events.empty());
}

TEST(NotationErrors, UnknownCardInADeckFile) {
  const NotationError e = only_error(std::string(kHeader) + "[Army2 \"decks/typo.deck\"]\n");
  EXPECT_EQ(e.file, "decks/typo.deck");
  EXPECT_EQ(e.line, 2u);
  EXPECT_EQ(e.col, 3u);
  EXPECT_EQ(e.hint, "did you mean \"Ironclaw Lancer\"? deck named at game.wlog:5:8");
}

TEST(NotationErrors, ActionBeforeTheFirstTurn) {
  const NotationError e = only_error(std::string(kHeader) + "draw \"Grain Levy\"\nTurn 1\n");
  EXPECT_EQ(e.line, 5u);
  EXPECT_EQ(e.col, 1u);
  EXPECT_EQ(e.expected, "a Turn marker (Turn 1) before the first action");
  EXPECT_EQ(e.found, "'draw'");
  EXPECT_EQ(only_error(std::string(kHeader) + "Muster 1\n").expected,
            "a Turn marker (Turn 1) before the first phase");
}

TEST(NotationErrors, ActionWithNoActingSeat) {
  const NotationError e = only_error(std::string(kHeader) + "Turn 1\nMorale 1\nplay \"Grain Levy\"\n");
  EXPECT_EQ(e.line, 7u);
  EXPECT_EQ(e.expected, "a phase marker (Muster 1) or a seat prefix (1: ...) before this action");
}

TEST(NotationErrors, HeaderTagProblems) {
  EXPECT_EQ(only_error("[Titel \"x\"]\n" + std::string(kHeader)).hint, "did you mean [Title]?");
  EXPECT_EQ(only_error(std::string(kHeader) + "[Board \"5x4\"]\n").expected, "each tag once");
  EXPECT_EQ(only_error(std::string(kHeader) + "[Seat3 \"Cleo\" \"The Weald\"]\n").expected, "Seat1 or Seat2");
  EXPECT_EQ(only_error(std::string(kHeader) + "[Territory \"Old Mill\" f1]\n").expected,
            "a space on the 5x4 battlefield (a1 to e4)");
  EXPECT_EQ(only_error("[Board \"5 by 4\"]\n[Seat1 \"A\" \"claw\"]\n[Seat2 \"B\" \"paw\"]\n").expected,
            "COLSxROWS, 1 to 26 columns by 1 to 99 rows, as in \"5x4\"");
  const NotationError allegiance = only_error("[Board \"5x4\"]\n[Seat1 \"A\" \"Claws\"]\n[Seat2 \"B\" \"paw\"]\n");
  EXPECT_EQ(allegiance.line, 2u);
  EXPECT_EQ(allegiance.col, 12u);
  EXPECT_EQ(allegiance.expected, "an allegiance");
  const NotationError late = only_error(std::string(kHeader) + std::string(kTurn) + "[Title \"late\"]\n");
  EXPECT_EQ(late.hint, "header tags go before the first Turn");
  EXPECT_EQ(only_error(std::string(kHeader) + "[Title \"x\"\n").expected, "']' to close the tag");
}

TEST(NotationErrors, ListsNeedCommas) {
  const NotationError e = body_error("draw \"Ironclaw Lancer\" \"Grain Levy\"");
  EXPECT_EQ(e.col, 24u);
  EXPECT_EQ(e.expected, "end of line");
  EXPECT_EQ(e.hint, "separate list items with commas");
}

TEST(NotationErrors, OtherSyntax) {
  EXPECT_EQ(body_error("recover c3 refund").expected, "pay or reshuffle");
  EXPECT_EQ(body_error("end 3 supremacy").expected, "a seat number from 1 to 2");
  EXPECT_EQ(body_error("end 1 surrender").expected, "supremacy, attrition, concession or unfinished");
  EXPECT_EQ(body_error("shift b1 b2").expected, "'>' between the two spaces of a shift, as in b1>b2");
  EXPECT_EQ(body_error("fire a1 b2").expected, "the damage dealt");
  EXPECT_EQ(body_error("charge sideways").expected, "burrow, card or the charging Troop's space");
  EXPECT_EQ(body_error("2: Muster 2").expected, "Muster without a seat prefix");
  EXPECT_EQ(body_error("Turn 0").expected, "a turn number from 1 to 65535");
  EXPECT_EQ(body_error("move b1 b2 b3").found, "'b3'");
  EXPECT_EQ(body_error("ability b2 \"bad \\q escape\"").expected, "an escape \\\" \\\\ or \\n");
  const NotationError odd = body_error("move b1 @b2");
  EXPECT_EQ(odd.col, 9u);
  EXPECT_EQ(odd.found, "'@'");
}

TEST(NotationErrors, ColumnsCountCharactersNotBytes) {
  // "é" is two bytes in UTF-8: what follows it is still at column 18.
  const NotationError e = body_error("ability b2 \"Pré\" zz9 ");
  EXPECT_EQ(e.col, 18u);
  EXPECT_EQ(e.found, "'zz9'");
}

TEST(NotationErrors, EveryErrorIsReportedAndNothingIsReturned) {
  const std::string text = "[Board \"5x4\"]\n"                      // 1
                           "[Seat1 \"Alice\" \"Claw Empire\"]\n"    // 2
                           "[Seat2 \"Bruno\" \"Paw Coalition\"]\n"  // 3
                           "[Army1 \"decks/missing.deck\"]\n"       // 4
                           "Turn 1\n"                               // 5
                           "Morale 1\n"                             // 6
                           "Muster 1\n"                             // 7
                           "drw \"Grain Levy\"\n"                   // 8: unknown verb
                           "play \"Grain Levi\" b1\n"               // 9: unknown card
                           "move b1 g9\n"                           // 10: off the board
                           "draw \"Grain Levy\n"                    // 11: unterminated
                           "discard \"Ironclad\", \"Levy\"\n"       // 12: two unknown cards
                           "move b1 b2\n";                          // 13: fine
  const ParseResult r = parse(text);
  EXPECT_FALSE(r.ok());
  EXPECT_TRUE(r.game.events.empty());
  EXPECT_TRUE(r.game.lines.empty());
  std::vector<std::pair<std::uint32_t, std::uint32_t>> where;
  for (const NotationError& e : r.errors) where.emplace_back(e.line, e.col);
  EXPECT_EQ(where, (std::vector<std::pair<std::uint32_t, std::uint32_t>>{
                       {4, 8}, {8, 1}, {9, 6}, {10, 9}, {11, 6}, {12, 9}, {12, 21}}))
      << errors_of(r);
}

// Regression guard for the recovery paths: every truncation and many
// single-byte corruptions of a valid game must parse or fail cleanly, never
// crash, and never return events together with errors.
TEST(NotationErrors, TruncatedOrCorruptedInputFailsCleanly) {
  const std::string game = std::string(kHeader) + "[Army2 \"decks/good.deck\"]\n[Territory \"Old Mill\" c2]\n" +
                           std::string(kTurn) +
                           "draw \"Ironclaw Lancer\", \"Grain Levy\"  # two\n"
                           "play \"Ironclaw Lancer\" b1\nWarfare 1\n2: fire c4 b1 1\ncharge burrow b2\n"
                           "combat b1 -> b2 1, c1 2; b2 -> b1 1\nAttrition 1\npay b1, \"Grain Levy\" unpaid c1\n"
                           "recover c3 pay a1\nend 1 supremacy\n";
  ASSERT_TRUE(parse(game).ok()) << errors_of(parse(game));
  auto check = [](const std::string& text) {
    const ParseResult r = parse(text);
    if (!r.ok()) {
      EXPECT_TRUE(r.game.events.empty());
      for (const NotationError& e : r.errors) EXPECT_GE(e.col, 1u) << e.to_string();
    } else {
      EXPECT_EQ(r.game.events.size(), r.game.lines.size());
    }
  };
  for (std::size_t i = 0; i <= game.size(); ++i) check(game.substr(0, i));
  for (std::size_t i = 0; i < game.size(); ++i) {
    for (const char c : std::string("\"#[]:;,>-\\\n\xff" "9z ")) {
      std::string bad = game;
      bad[i] = c;
      check(bad);
    }
  }
}

}  // namespace
}  // namespace warlog::core
