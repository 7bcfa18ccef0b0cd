// check_text, invalid_utf8_at, check_event_text and clip_for_message
// (core/text.hpp): what text from outside may hold, and how much of it a
// message shows.

#include <gtest/gtest.h>

#include "warlog/core/event.hpp"
#include "warlog/core/notation.hpp"
#include "warlog/core/text.hpp"

namespace warlog::core {
namespace {

Card lancer() {
  Card c;
  c.name = "Ironclaw Lancer";
  return c;
}

TEST(Text, WellFormedUtf8OfEveryLengthIsValid) {
  EXPECT_FALSE(invalid_utf8_at("plain"));
  EXPECT_FALSE(invalid_utf8_at("\xC3\xA9 \xE2\x80\x94 \xE5\xA4\x9C \xF0\x9F\x90\xBE"));  // é — 夜 🐾
  EXPECT_FALSE(invalid_utf8_at("\xF4\x8F\xBF\xBF"));                                       // U+10FFFF
  EXPECT_FALSE(check_text("tab\tand\nnewline"));
}

TEST(Text, EachIllFormedSequenceIsFoundAtItsByte) {
  EXPECT_EQ(invalid_utf8_at("ab\xFF"), 2u);              // never a UTF-8 byte
  EXPECT_EQ(invalid_utf8_at("a\x80"), 1u);               // a lone continuation
  EXPECT_EQ(invalid_utf8_at("\xC0\xAF"), 0u);            // overlong '/'
  EXPECT_EQ(invalid_utf8_at("\xE0\x80\xAF"), 0u);        // overlong, three bytes
  EXPECT_EQ(invalid_utf8_at("x\xED\xA0\x80"), 1u);       // a surrogate, U+D800
  EXPECT_EQ(invalid_utf8_at("\xF4\x90\x80\x80"), 0u);    // past U+10FFFF
  EXPECT_EQ(invalid_utf8_at("ok \xE2\x80"), 3u);         // cut short at the end
}

TEST(Text, ControlCharactersButTabAndNewlineAreRefused) {
  const auto nul = check_text(std::string("a\0b", 3));
  ASSERT_TRUE(nul);
  EXPECT_EQ(nul->offset, 1u);
  EXPECT_EQ(nul->reason, "a control character (U+0000)");
  EXPECT_EQ(check_text("a\rb")->reason, "a control character (U+000D)");
  EXPECT_EQ(check_text("\x1b[31m")->reason, "a control character (U+001B)");
  EXPECT_EQ(check_text("del\x7f")->reason, "a control character (U+007F)");
  EXPECT_EQ(check_text("c1 \xC2\x9B")->reason, "a control character (U+009B)");
  EXPECT_FALSE(check_text("\xC2\xA0")) << "U+00A0 is a character, not a control";
}

TEST(Text, ClipKeepsWholeCharactersAndMarksTheCut) {
  EXPECT_EQ(clip_for_message("short"), "short");
  EXPECT_EQ(clip_for_message(std::string(80, 'x')), std::string(80, 'x'));
  EXPECT_EQ(clip_for_message(std::string(81, 'x')), std::string(80, 'x') + "...");
  EXPECT_EQ(clip_for_message("\xC3\xA9\xC3\xA9\xC3\xA9", 2), "\xC3\xA9\xC3\xA9...");
  EXPECT_EQ(clip_for_message("a\x1b[2J\tb\xff\xC2\x9B"), "a\\x1b[2J\\x09b\\xff\\xc2\\x9b")
      << "controls and invalid bytes are shown, not passed through";
}

TEST(EventText, EveryTextFieldIsCheckedAndNamed) {
  auto fault = [](Payload p) {
    Event ev;
    ev.payload = std::move(p);
    const auto r = check_event_text(ev);
    return r ? std::string("ok") : r.error().message;
  };
  GameCreated g;
  g.title = "fine";
  g.territories = {{"Old Mill", {}}, {"Mill\xff", {}}};
  EXPECT_EQ(fault(g), "GameCreated.territories[1].card: invalid UTF-8 (byte 0xff) at byte 4");
  g.territories.pop_back();
  g.date = "2026\x01";
  EXPECT_EQ(fault(g), "GameCreated.date: a control character (U+0001) at byte 4");
  ArmyRegistered a;
  a.orders = {{"A", 1}, {"B", 1}, {"\xc3", 1}};
  EXPECT_EQ(fault(a), "ArmyRegistered.orders[2].card: invalid UTF-8 (byte 0xc3) at byte 0");
  ProvisionsPaid pp;
  pp.unpaid = {{{}, "Grain\x7f"}};
  EXPECT_EQ(fault(pp), "ProvisionsPaid.unpaid[0].card: a control character (U+007F) at byte 5");
  EXPECT_EQ(fault(LocalFavorUsed{"redraw\xe2\x80"}), "LocalFavorUsed.option: invalid UTF-8 (byte 0xe2) at byte 6");
  EXPECT_EQ(fault(CardsDiscarded{{"a", "b", std::string("c\0", 2)}}),
            "CardsDiscarded.cards[2]: a control character (U+0000) at byte 1");
  EXPECT_EQ(fault(CardPlayed{"Lancer", Space{0, 0}}), "ok");
}

// The notation reports what the store would refuse, with its line:col.
const Catalog& catalog() {
  static const Catalog c(std::vector<Card>{lancer()});
  return c;
}
constexpr std::string_view kSeats = "[Board \"5x4\"]\n[Seat1 \"Alice\" \"claw\"]\n[Seat2 \"Bruno\" \"paw\"]\n";

TEST(NotationText, InvalidUtf8InATitleIsReportedAtItsLineAndColumn) {
  const ParseResult r =
      parse_notation(std::string(kSeats) + "[Title \"Caf\xC3\xA9 \xFF\"]\n", "g.wlog", catalog(), "", DeckLoader{});
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].to_string(), "g.wlog:4:14: expected UTF-8 text, found the byte 0xff (save the file as UTF-8)");
}

TEST(NotationText, AControlCharacterInAPlayerNameIsReportedAtItsColumn) {
  const ParseResult r = parse_notation("[Board \"5x4\"]\n[Seat1 \"Al\x1bice\" \"claw\"]\n[Seat2 \"B\" \"paw\"]\n",
                                       "g.wlog", catalog(), "", DeckLoader{});
  // The second error: a tag line that does not lex sets no seat.
  ASSERT_EQ(r.errors.size(), 2u);
  EXPECT_EQ(r.errors[0].to_string(),
            "g.wlog:2:11: expected text in the string, found the control character U+001B (write a line break as \\n)");
}

// A control character outside a string is a lexing error; the message shows
// it as \x1b, never the raw byte a terminal would act on.
TEST(NotationText, AControlCharacterOutsideAStringIsShownNotPrinted) {
  const ParseResult r = parse_notation(std::string(kSeats) + "Turn 1\n\x1b[2J\n", "g.wlog", catalog(), "",
                                       DeckLoader{});
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].line, 5u);
  EXPECT_EQ(r.errors[0].col, 1u);
  EXPECT_EQ(r.errors[0].found, "'\\x1b'");
}

TEST(NotationText, InvalidUtf8InADeckFileIsReportedInTheDeckFile) {
  const DeckLoader loader = [](const std::string&) -> Expected<std::string> {
    return std::string("3 Ironclaw Lancer\n2 Lanc\xE9r\n");  // Latin-1, not UTF-8
  };
  const ParseResult r =
      parse_notation(std::string(kSeats) + "[Army1 \"a.deck\"]\n", "g.wlog", catalog(), "", loader);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].file, "a.deck");
  EXPECT_EQ(r.errors[0].line, 2u);
  EXPECT_EQ(r.errors[0].col, 7u);
  EXPECT_EQ(r.errors[0].found, "the byte 0xe9");
}

}  // namespace
}  // namespace warlog::core
