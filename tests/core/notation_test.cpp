// The notation: every verb, the header, the context rules, the round trip,
// and the example game in docs/notation.md.

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "warlog/core/corrections.hpp"
#include "warlog/core/notation.hpp"

namespace warlog::core {
namespace {

Card card(std::string name, Allegiance f, CardType t, std::uint16_t quirks = kQuirkNone) {
  Card c;
  c.name = std::move(name);
  c.faction = f;
  c.type = t;
  c.quirks = quirks;
  return c;
}

const Catalog& test_catalog() {
  using A = Allegiance;
  using T = CardType;
  static const Catalog catalog(
      std::vector<Card>{
          card("Ironclaw Lancer", A::ClawEmpire, T::Troop),
          card("Clawguard Archer", A::ClawEmpire, T::Troop, kQuirkShotte),
          card("Grain Levy", A::ClawEmpire, T::Gambit),
          card("Orders Deck", A::ClawEmpire, T::ArmyAbility),
          card("Flank March", A::ClawEmpire, T::Gambit),
          card("Paw Militia", A::PawCoalition, T::Troop),
          card("Burrow Sapper", A::PawCoalition, T::Troop, kQuirkBurrow),
          card("Rabble Slinger", A::PawCoalition, T::Troop, kQuirkShotte | kQuirkShocked),
          card("Seed Store", A::PawCoalition, T::Gambit),
          card("Grain Cart", A::Hirelings, T::Dwelling),
          card("Old Mill", A::Hirelings, T::Territory),
          card("Stone Bridge", A::Hirelings, T::Territory),
          // Names of samples/catalogs/sample_cards.csv used by docs/notation.md.
          card("Supply Wagon", A::ClawEmpire, T::Dwelling),
          card("Claw Musketeer", A::ClawEmpire, T::Troop, kQuirkShotte),
          card("Talon Sergeant", A::ClawEmpire, T::Troop),
          card("March Order", A::ClawEmpire, T::Gambit),
          card("Hold the Line", A::ClawEmpire, T::Gambit),
          card("Coalition Pikeman", A::PawCoalition, T::Troop),
          card("Paw Slinger", A::PawCoalition, T::Troop, kQuirkShotte | kQuirkShocked),
      },
      "c0ffee");
  return catalog;
}

Expected<std::string> no_files(const std::string& ref) {
  return make_error(ErrorCode::NotFound, "no deck files in this test: " + ref);
}

constexpr std::string_view kHeader =
    "[Title \"Test\"]\n"
    "[Board \"5x4\"]\n"
    "[Seat1 \"Alice\" \"Claw Empire\"]\n"
    "[Seat2 \"Bruno\" \"Paw Coalition\"]\n";

ParseResult parse(std::string_view text, const DeckLoader& loader = no_files) {
  return parse_notation(text, "game.wlog", test_catalog(), "feed", loader);
}

std::string errors_of(const ParseResult& r) {
  std::string out;
  for (const NotationError& e : r.errors) out += e.to_string() + "\n";
  return out;
}

Space at(std::string_view s) { return *space_from_string(s); }

// The event one body line yields after "Turn 1 / Morale 1 / Muster 1".
Event body_event(std::string_view line) {
  const std::string text = std::string(kHeader) + "Turn 1\nMorale 1\nMuster 1\n" + std::string(line) + "\n";
  const ParseResult r = parse(text);
  EXPECT_TRUE(r.ok()) << line << "\n" << errors_of(r);
  if (!r.ok() || r.game.events.empty()) return {};
  return r.game.events.back();
}

TEST(NotationParse, HeaderYieldsGameCreatedAndOneArmyPerSeat) {
  const std::string text = std::string(kHeader) +
                           "[Date \"2026-03-14\"]\n[Ruleset \"rulesets/standard.toml\"]\n[Catalog \"core.csv\"]\n"
                           "[Territory \"Old Mill\" c2]\n[Territory \"Stone Bridge\" d3]\n"
                           "[Army1 3 \"Ironclaw Lancer\"]\n[Orders1 2 \"Flank March\"]\n[Army2 4 \"Paw Militia\"]\n";
  const ParseResult r = parse(text);
  ASSERT_TRUE(r.ok()) << errors_of(r);
  ASSERT_EQ(r.game.events.size(), 3u);
  EXPECT_EQ(r.game.ruleset_ref, "rulesets/standard.toml");
  EXPECT_EQ(r.game.catalog_ref, "core.csv");

  const Event& e0 = r.game.events[0];
  EXPECT_EQ(e0.seq, 0u);
  EXPECT_EQ(e0.game, 0u);
  EXPECT_EQ(e0.phase, Phase::Setup);
  EXPECT_EQ(e0.seat, kNoSeat);
  GameCreated want;
  want.title = "Test";
  want.date = "2026-03-14";
  want.ruleset_hash = "feed";
  want.catalog_hash = "c0ffee";
  want.seats = {{"Alice", Allegiance::ClawEmpire}, {"Bruno", Allegiance::PawCoalition}};
  want.territories = {{"Old Mill", at("c2")}, {"Stone Bridge", at("d3")}};
  want.cols = 5;
  want.rows = 4;
  EXPECT_EQ(std::get<GameCreated>(e0.payload), want);

  EXPECT_EQ(r.game.events[1], (Event{0, 1, 0, Phase::Setup, 0,
                                     ArmyRegistered{0, {{"Ironclaw Lancer", 3}}, {{"Flank March", 2}}}}));
  EXPECT_EQ(r.game.events[2], (Event{0, 2, 0, Phase::Setup, 1, ArmyRegistered{1, {{"Paw Militia", 4}}, {}}}));
  EXPECT_EQ(r.game.lines, (std::vector<std::uint32_t>{1, 10, 12}));
}

TEST(NotationParse, DeckFilesAreLoadedThroughTheLoader) {
  std::vector<std::string> asked;
  const DeckLoader loader = [&](const std::string& ref) -> Expected<std::string> {
    asked.push_back(ref);
    return std::string("# vanguard\n3 Ironclaw Lancer\n2 Clawguard Archer  # archers\n");
  };
  const ParseResult r = parse(std::string(kHeader) + "[Army1 \"decks/claw.deck\"]\n[Army1 1 \"Grain Levy\"]\n", loader);
  ASSERT_TRUE(r.ok()) << errors_of(r);
  EXPECT_EQ(asked, std::vector<std::string>{"decks/claw.deck"});
  EXPECT_EQ(std::get<ArmyRegistered>(r.game.events[1].payload).army,
            (std::vector<CardCount>{{"Ironclaw Lancer", 3}, {"Clawguard Archer", 2}, {"Grain Levy", 1}}));
}

TEST(NotationParse, EveryVerbYieldsItsEvent) {
  struct Case {
    std::string_view line;
    Payload payload;
  };
  const Case cases[] = {
      {"draw \"Ironclaw Lancer\", \"Grain Levy\"", CardsDrawn{{"Ironclaw Lancer", "Grain Levy"}}},
      {"draw", CardsDrawn{}},
      {"forage \"Grain Cart\"", Foraged{"Grain Cart"}},
      {"return \"Grain Cart\"", ReturnedFromHomeland{"Grain Cart"}},
      {"stock \"Grain Levy\"", GambitStocked{"Grain Levy"}},
      {"play \"Ironclaw Lancer\" b1", CardPlayed{"Ironclaw Lancer", at("b1")}},
      {"play \"Flank March\"", CardPlayed{"Flank March", Space{}}},
      {"move b1 b2", TroopMoved{at("b1"), at("b2")}},
      {"shift b1>b2, b2>b1", TroopsShifted{{{at("b1"), at("b2")}, {at("b2"), at("b1")}}}},
      {"ability b2 \"Rally: +1 Morale\"", AbilityUsed{at("b2"), "Rally: +1 Morale"}},
      {"ability - \"Grain Levy: supply\"", AbilityUsed{Space{}, "Grain Levy: supply"}},
      {"burrow b2", TroopBurrowed{at("b2")}},
      {"unburrow b2", TroopUnburrowed{at("b2")}},
      {"fire b2 c3 2", ShotteFired{at("b2"), at("c3"), 2}},
      {"charge", ChargeDeclared{ChargeMode::Normal, Space{}}},
      {"charge burrow b2", ChargeDeclared{ChargeMode::Burrow, at("b2")}},
      {"charge card", ChargeDeclared{ChargeMode::Card, Space{}}},
      {"decline", ChargeDeclined{}},
      {"favor \"draw a card\"", LocalFavorUsed{"draw a card"}},
      {"combat b2 -> c2 3, b3 1; c2 -> b2 2",
       CombatResolved{at("b2"), {{at("c2"), 3}, {at("b3"), 1}}, {{at("c2"), {{at("b2"), 2}}}}}},
      {"combat b2", CombatResolved{at("b2"), {}, {}}},
      {"lost c3", TroopLost{at("c3")}},
      {"defeated c2", TroopDefeated{at("c2"), Space{}}},
      {"defeated c2 beneath b2", TroopDefeated{at("c2"), at("b2")}},  // R-071: the Territory the table chose
      {"recover c3 pay a1", LostTroopRecovered{at("c3"), Recovery::Pay, at("a1")}},
      {"recover c3 reshuffle", LostTroopRecovered{at("c3"), Recovery::Reshuffle, Space{}}},
      {"pay b2, c1, \"Grain Levy\" unpaid d1",
       ProvisionsPaid{{{at("b2"), ""}, {at("c1"), ""}, {Space{}, "Grain Levy"}}, {{at("d1"), ""}}}},
      {"pay unpaid \"Grain Levy\"", ProvisionsPaid{{}, {{Space{}, "Grain Levy"}}}},
      {"discard \"Grain Levy\"", CardsDiscarded{{"Grain Levy"}}},
      {"control c2", TerritoryControlTaken{at("c2")}},
      {"fled d1", TroopFled{at("d1")}},
      {"void 4 \"wrong card typed\"", Voided{4, "wrong card typed", ""}},
      {"void 4 \"slip\" by \"Ana\"", Voided{4, "slip", "Ana"}},
      {"backup 3 \"appeal\" by \"J. Ruiz\"", BackupTo{3, "appeal", "J. Ruiz", ""}},
      {"backup 3 \"appeal\" by \"a1b2\" signed \"00ff10\"", BackupTo{3, "appeal", "a1b2", std::string("\x00\xff\x10", 3)}},
  };
  for (const Case& c : cases) {
    const Event ev = body_event(c.line);
    EXPECT_EQ(ev.payload, c.payload) << c.line;
    EXPECT_EQ(ev.seq, 6u) << c.line;  // after GameCreated, 2 armies, Turn, Morale, Muster
    EXPECT_EQ(ev.turn, 1) << c.line;
    EXPECT_EQ(ev.phase, Phase::Muster) << c.line;
    // the phase marker's seat; corrections are table-wide
    EXPECT_EQ(ev.seat, is_correction(c.payload) ? kNoSeat : 0) << c.line;
  }
}

TEST(NotationParse, MarkersSetTurnPhaseAndSeat) {
  const ParseResult r = parse(std::string(kHeader) +
                              "Turn 3\nMorale 2\nWarfare 2\n  charge\n  1: fire a1 b4 1\n  -: defeated b4\n"
                              "end 2 attrition\n");
  ASSERT_TRUE(r.ok()) << errors_of(r);
  const auto& ev = r.game.events;
  ASSERT_EQ(ev.size(), 10u);
  EXPECT_EQ(ev[3], (Event{0, 3, 3, Phase::Muster, kNoSeat, TurnStarted{}}));
  EXPECT_EQ(ev[4], (Event{0, 4, 3, Phase::Muster, kNoSeat, MoraleChecked{1}}));
  EXPECT_EQ(ev[5], (Event{0, 5, 3, Phase::Warfare, 1, PhaseStarted{}}));
  EXPECT_EQ(ev[6], (Event{0, 6, 3, Phase::Warfare, 1, ChargeDeclared{}}));
  EXPECT_EQ(ev[7], (Event{0, 7, 3, Phase::Warfare, 0, ShotteFired{at("a1"), at("b4"), 1}}));
  EXPECT_EQ(ev[8], (Event{0, 8, 3, Phase::Warfare, kNoSeat, TroopDefeated{at("b4"), Space{}}}));
  EXPECT_EQ(ev[9], (Event{0, 9, 3, Phase::Warfare, kNoSeat, GameEnded{1, Victory::Attrition}}));
  EXPECT_EQ(r.game.lines.back(), 11u);
}

TEST(NotationParse, KeywordsAreCaseInsensitive) {
  const Event ev = body_event("PLAY \"Ironclaw Lancer\" B1");
  EXPECT_EQ(ev.payload, (Payload{CardPlayed{"Ironclaw Lancer", at("b1")}}));
}

TEST(NotationParse, CommentsAndBlankLinesAreIgnored) {
  const std::string plain = std::string(kHeader) + "Turn 1\nMorale 1\nMuster 1\ndraw \"Grain Levy\"\n";
  const std::string commented = "# typed up from the table sheet\n\n" + std::string(kHeader) +
                                "\n   \nTurn 1   # first turn\nMorale 1\n\n# Alice's muster\nMuster 1\n"
                                "draw \"Grain Levy\" # a string may hold # too: \"#\"\n";
  const ParseResult a = parse(plain);
  const ParseResult b = parse(commented);
  ASSERT_TRUE(a.ok() && b.ok()) << errors_of(a) << errors_of(b);
  EXPECT_EQ(a.game.events, b.game.events);
}

TEST(NotationParse, CrlfLineEndingsAndByteOrderMarkAreAccepted) {
  const std::string lf = std::string(kHeader) + "Turn 1\nMorale 1\nMuster 1\nplay \"Ironclaw Lancer\" b1\n";
  std::string crlf = "\xEF\xBB\xBF";
  for (char c : lf) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  const ParseResult a = parse(lf);
  const ParseResult b = parse(crlf);
  ASSERT_TRUE(a.ok() && b.ok()) << errors_of(a) << errors_of(b);
  EXPECT_EQ(a.game.events, b.game.events);
  EXPECT_EQ(a.game.lines, b.game.lines);
}

TEST(NotationParse, StringsKeepEscapes) {
  const Event ev = body_event(R"(ability b2 "says \"charge!\" \\ twice\nthen rests")");
  EXPECT_EQ(std::get<AbilityUsed>(ev.payload).ability, "says \"charge!\" \\ twice\nthen rests");
}

// A stream using every payload kind, with awkward values: it must survive
// export -> parse unchanged, and export must be a fixed point.
std::vector<Event> every_payload_stream() {
  std::vector<Event> ev;
  auto add = [&](std::uint16_t turn, Phase phase, Seat seat, Payload p) {
    ev.push_back(Event{0, ev.size(), turn, phase, seat, std::move(p)});
  };
  GameCreated g;
  g.title = "Every \"payload\"";
  g.date = "2026-03-14";
  g.ruleset_hash = "feed";
  g.catalog_hash = "c0ffee";
  g.seats = {{"Alice", Allegiance::ClawEmpire}, {"Bruno \\ Co", Allegiance::Hirelings}};
  g.territories = {{"Old Mill", at("c2")}};
  g.cols = 5;
  g.rows = 4;
  add(0, Phase::Setup, kNoSeat, g);
  add(0, Phase::Setup, 0, ArmyRegistered{0, {{"Ironclaw Lancer", 6}, {"Grain Levy", 2}, {"Ironclaw Lancer", 1}},
                                         {{"Flank March", 3}}});
  add(0, Phase::Setup, 1, ArmyRegistered{1, {}, {}});
  add(1, Phase::Muster, kNoSeat, TurnStarted{});
  add(1, Phase::Muster, kNoSeat, MoraleChecked{0});
  add(1, Phase::Muster, 0, PhaseStarted{});
  add(1, Phase::Muster, 0, CardsDrawn{{"Ironclaw Lancer", "Grain Levy"}});
  add(1, Phase::Muster, 0, CardsDrawn{});
  add(1, Phase::Muster, 0, Foraged{"Grain Levy"});
  add(1, Phase::Muster, 0, ReturnedFromHomeland{"Grain Levy"});
  add(1, Phase::Muster, 0, GambitStocked{"Grain Levy"});
  add(1, Phase::Muster, 0, CardPlayed{"Ironclaw Lancer", at("b1")});
  add(1, Phase::Muster, 0, CardPlayed{"Flank March", Space{}});
  add(1, Phase::Muster, 0, TroopMoved{at("b1"), at("b2")});
  add(1, Phase::Muster, 0, TroopsShifted{{{at("b1"), at("c1")}, {at("c1"), at("b1")}}});
  add(1, Phase::Muster, 0, TroopsShifted{});
  add(1, Phase::Muster, 0, AbilityUsed{at("b2"), "line one\nline \"two\""});
  add(1, Phase::Muster, 0, AbilityUsed{Space{}, "Orders Deck: rabble"});
  add(1, Phase::Muster, 1, TroopBurrowed{at("c4")});  // another seat in this phase
  add(1, Phase::Muster, 0, TroopUnburrowed{at("c4")});
  add(1, Phase::Warfare, 0, PhaseStarted{});
  add(1, Phase::Warfare, 0, ShotteFired{at("b2"), at("b4"), -1});
  add(1, Phase::Warfare, 1, ShotteFired{at("b4"), at("b2"), 2});
  add(1, Phase::Warfare, 0, ChargeDeclared{ChargeMode::Normal, Space{}});
  add(1, Phase::Warfare, 1, ChargeDeclared{ChargeMode::Burrow, at("c4")});
  add(1, Phase::Warfare, 0, ChargeDeclared{ChargeMode::Card, at("b2")});
  add(1, Phase::Warfare, 0, ChargeDeclared{ChargeMode::Normal, at("b2")});
  add(1, Phase::Warfare, 0, ChargeDeclined{});
  add(1, Phase::Warfare, 0, LocalFavorUsed{""});
  add(1, Phase::Warfare, 0,
      CombatResolved{at("b2"), {{at("b3"), 3}, {at("c2"), 0}}, {{at("b3"), {{at("b2"), 1}}}, {at("c2"), {}}}});
  add(1, Phase::Warfare, 0, CombatResolved{at("b2"), {}, {}});
  add(1, Phase::Warfare, kNoSeat, TroopLost{at("b3")});
  add(1, Phase::Warfare, 0, TroopDefeated{at("b3"), Space{}});
  add(1, Phase::Warfare, 0, TroopDefeated{at("b3"), at("c3")});
  add(1, Phase::Attrition, 1, PhaseStarted{});
  add(1, Phase::Attrition, 1, LostTroopRecovered{at("b3"), Recovery::Pay, at("b4")});
  add(1, Phase::Attrition, 1, LostTroopRecovered{at("b3"), Recovery::Pay, Space{}});
  add(1, Phase::Attrition, 1, LostTroopRecovered{at("b3"), Recovery::Reshuffle, Space{}});
  add(1, Phase::Attrition, 1, LostTroopRecovered{at("b3"), Recovery::Reshuffle, at("a4")});
  add(1, Phase::Attrition, 1,
      ProvisionsPaid{{{at("b4"), ""}, {Space{}, "Seed Store"}, {at("a4"), "Paw Militia"}}, {{at("d4"), ""}}});
  add(1, Phase::Attrition, 1, ProvisionsPaid{{}, {{Space{}, "Seed Store"}}});
  add(1, Phase::Attrition, 1, ProvisionsPaid{});
  add(1, Phase::Attrition, 1, CardsDiscarded{{"Seed Store", "Paw Militia"}});
  add(1, Phase::Attrition, 1, TerritoryControlTaken{at("c2")});
  add(1, Phase::Attrition, 1, TroopFled{at("d4")});
  add(1, Phase::Attrition, kNoSeat, MoraleChecked{kNoSeat});
  add(1, Phase::Attrition, kNoSeat, Voided{40, "wrong \"Troop\" typed", ""});
  add(1, Phase::Attrition, kNoSeat, Voided{0, "", "Ana"});
  add(1, Phase::Attrition, kNoSeat, BackupTo{12, "appeal", "J. Ruiz", std::string("\x00\x01\xfe", 3)});
  // R-080: after the backup to seq 12 the table stands where it stood before
  // seq 12, in turn 1's Muster part: so does the next line.
  add(1, Phase::Muster, kNoSeat, BackupTo{12, "", "", ""});
  add(2, Phase::Muster, kNoSeat, TurnStarted{});
  add(2, Phase::Muster, 1, CardsDrawn{{"Paw Militia"}});  // an action before any phase marker
  add(2, Phase::Muster, kNoSeat, CardsDrawn{{"Paw Militia"}});
  add(2, Phase::Muster, 1, MoraleChecked{1});
  add(2, Phase::Muster, kNoSeat, PhaseStarted{});
  add(2, Phase::Muster, kNoSeat, GameEnded{kNoSeat, Victory::Unfinished});
  add(2, Phase::Muster, kNoSeat, GameEnded{0, Victory::Supremacy});
  add(2, Phase::Muster, kNoSeat, GameEnded{1, Victory::Concession});
  return ev;
}

TEST(NotationRoundTrip, EveryPayloadSurvivesExportAndParse) {
  const std::vector<Event> events = every_payload_stream();
  std::set<std::size_t> kinds;
  for (const Event& e : events) kinds.insert(e.payload.index());
  ASSERT_EQ(kinds.size(), std::variant_size_v<Payload>) << "the stream must use every payload kind";

  const std::string text = export_notation(events);
  const ParseResult r = parse(text);
  ASSERT_TRUE(r.ok()) << errors_of(r) << text;
  ASSERT_EQ(r.game.events.size(), events.size()) << text;
  for (std::size_t i = 0; i < events.size(); ++i) {
    EXPECT_EQ(r.game.events[i], events[i]) << "seq " << i << " (" << payload_name(events[i].payload) << ")\n"
                                           << text;
  }
  EXPECT_EQ(export_notation(r.game.events), text);
}

TEST(NotationRoundTrip, ExportIsCanonical) {
  const std::string typed = std::string(kHeader) +
                            "[Army1 2 \"Ironclaw Lancer\"]\n"
                            "turn 1\nmorale 1\nmuster 1\nDRAW \"Ironclaw Lancer\",\"Grain Levy\"   # two\n"
                            "play \"Ironclaw Lancer\" B1\nwarfare 1\n2:fire c4 b1 1\ncharge\n"
                            "combat b1->b2 1;b2->b1 1\nend 1 SUPREMACY\n";
  const ParseResult r = parse(typed);
  ASSERT_TRUE(r.ok()) << errors_of(r);
  const std::string text = export_notation(r.game.events);
  EXPECT_EQ(text,
            "[Title \"Test\"]\n"
            "[Date \"\"]\n"
            "[Ruleset \"feed\"]\n"
            "[Catalog \"c0ffee\"]\n"
            "[Board \"5x4\"]\n"
            "[Seat1 \"Alice\" \"Claw Empire\"]\n"
            "[Seat2 \"Bruno\" \"Paw Coalition\"]\n"
            "[Army1 2 \"Ironclaw Lancer\"]\n"
            "\n"
            "Turn 1\n"
            "Morale 1\n"
            "Muster 1\n"
            "  draw \"Ironclaw Lancer\", \"Grain Levy\"\n"
            "  play \"Ironclaw Lancer\" b1\n"
            "Warfare 1\n"
            "  2: fire c4 b1 1\n"
            "  charge\n"
            "  combat b1 -> b2 1; b2 -> b1 1\n"
            "end 1 supremacy\n");
  const ParseResult again = parse(text);
  ASSERT_TRUE(again.ok()) << errors_of(again);
  EXPECT_EQ(again.game.events, r.game.events);
  EXPECT_EQ(export_notation(again.game.events), text);
}

// The complete example in docs/notation.md parses, and round-trips.
TEST(NotationDocs, ExampleGameParsesAndRoundTrips) {
  std::ifstream in(std::string(WARLOG_SOURCE_DIR) + "/docs/notation.md");
  ASSERT_TRUE(in) << "docs/notation.md is missing";
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string doc = buf.str();
  const std::string open = "```wlog\n";
  const std::size_t start = doc.find(open);
  ASSERT_NE(start, std::string::npos) << "no ```wlog block in docs/notation.md";
  const std::size_t end = doc.find("```", start + open.size());
  const std::string example = doc.substr(start + open.size(), end - start - open.size());

  const DeckLoader loader = [](const std::string& ref) -> Expected<std::string> {
    if (ref.find("orders") != std::string::npos) return std::string("5 March Order\n5 Hold the Line\n");
    return std::string("6 Ironclaw Lancer\n4 Paw Militia\n");
  };
  const ParseResult r = parse(example, loader);
  ASSERT_TRUE(r.ok()) << errors_of(r);
  EXPECT_TRUE(std::holds_alternative<GameEnded>(r.game.events.back().payload));
  const std::string text = export_notation(r.game.events);
  const ParseResult again = parse(text);
  ASSERT_TRUE(again.ok()) << errors_of(again) << text;
  EXPECT_EQ(again.game.events, r.game.events);
}

// The tags an import needs before it can parse: read by the notation's own
// lexer, so comments, quoting and case work as in the rest of the header.
TEST(NotationRefs, ReadsRulesetAndCatalogTagsFromTheHeaderOnly) {
  const NotationRefs refs = notation_refs(
      "\xEF\xBB\xBF# [Catalog \"in a comment.csv\"]\n"
      "[Title \"A [Catalog \\\"x\\\"] in a title\"]\n"
      "  [ruleset \"rules/standard.toml\"]   # lower-case tag, trailing comment\n"
      "[Catalog \"cards \\\"quoted\\\".csv\"]\n"
      "[Catalog \"second one is ignored.csv\"]\n"
      "Turn 1\n"
      "[Ruleset \"after the header.toml\"]\n");
  EXPECT_EQ(refs.ruleset_ref, "rules/standard.toml");
  EXPECT_EQ(refs.catalog_ref, "cards \"quoted\".csv");
}

TEST(NotationRefs, AMissingOrMalformedTagIsEmpty) {
  EXPECT_EQ(notation_refs("[Title \"x\"]\nTurn 1\n").ruleset_ref, "");
  EXPECT_EQ(notation_refs("[Ruleset standard.toml]\n").ruleset_ref, "");      // unquoted
  EXPECT_EQ(notation_refs("[Ruleset \"unterminated]\n").ruleset_ref, "");      // lex error
  EXPECT_EQ(notation_refs("[Catalog \"a.csv\" \"b.csv\"]\n").catalog_ref, "");  // two values
}

}  // namespace
}  // namespace warlog::core

namespace warlog::core {
namespace {

// docs/notation.md › Times: a leading @TIME is the line's recorded time.
const std::string kTimed = std::string(kHeader) + "[Date \"2026-03-14\"]\n";

TEST(NotationTimes, ATimeOfDayIsOnTheGamesDate) {
  const ParseResult r = parse(kTimed + "@16:04:31 Turn 1\nMorale 1\n  @16:04:35.250 Muster 1\n  draw\n");
  ASSERT_TRUE(r.ok()) << errors_of(r);
  ASSERT_EQ(r.game.events.size(), 7u);
  EXPECT_EQ(r.game.events[0].recorded_at_ms, 0);      // the header: no time
  EXPECT_EQ(r.game.events[3].recorded_at_ms, 1'773'504'271'000);  // 2026-03-14T16:04:31Z
  EXPECT_EQ(r.game.events[4].recorded_at_ms, 0);      // a line without a time records none
  EXPECT_EQ(r.game.events[5].recorded_at_ms, 1'773'504'275'250);
  EXPECT_EQ(r.game.events[5].phase, Phase::Muster);
}

TEST(NotationTimes, AFullStampNeedsNoDateAndCrossesMidnight) {
  const ParseResult r = parse(std::string(kHeader) + "@2026-03-14T23:59:59Z Turn 1\n@2026-03-15T00:00:01.5Z Morale 1\n");
  EXPECT_FALSE(r.ok());  // .5: milliseconds are three digits
  const ParseResult ok = parse(std::string(kHeader) + "@2026-03-14T23:59:59Z Turn 1\n@2026-03-15T00:00:01.500Z Morale 1\n");
  ASSERT_TRUE(ok.ok()) << errors_of(ok);
  EXPECT_EQ(ok.game.events[4].recorded_at_ms - ok.game.events[3].recorded_at_ms, 2500);
}

TEST(NotationTimes, BadTimesAreErrorsWithTheirColumn) {
  const ParseResult r = parse(kTimed + "Turn 1\n  @25:00:00 Morale 1\n");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].to_string(),
            "game.wlog:7:3: expected a time such as @16:04:31 (milliseconds optional: .250), found '@25:00:00'");
  const ParseResult undated = parse(std::string(kHeader) + "Turn 1\n@16:04:31 Morale 1\n");
  ASSERT_EQ(undated.errors.size(), 1u);
  EXPECT_NE(undated.errors[0].expected.find("needs an ISO [Date"), std::string::npos);
  const ParseResult alone = parse(kTimed + "Turn 1\n@16:04:31   # only a comment\n");
  ASSERT_EQ(alone.errors.size(), 1u);
  EXPECT_EQ(alone.errors[0].expected, "an action or marker after the time");
}

TEST(NotationTimes, ExportWritesTimesBackAndTheRoundTripIsExact) {
  const std::string text = kTimed + "@16:04:31 Turn 1\nMorale 1\n@16:04:35.250 Muster 1\n  @2026-03-15T00:10:00Z draw\n";
  const ParseResult r = parse(text);
  ASSERT_TRUE(r.ok()) << errors_of(r);
  const std::string out = export_notation(r.game.events);
  EXPECT_NE(out.find("\n@16:04:31 Turn 1\n"), std::string::npos) << out;
  EXPECT_NE(out.find("\n@16:04:35.250 Muster 1\n"), std::string::npos) << out;
  EXPECT_NE(out.find("\n  @2026-03-15T00:10:00Z draw\n"), std::string::npos) << out;
  const ParseResult back = parse(out);
  ASSERT_TRUE(back.ok()) << errors_of(back) << out;
  EXPECT_EQ(back.game.events, r.game.events);
  EXPECT_EQ(export_notation(back.game.events), out);
}

TEST(NotationTimes, ExportSaysWhenTheHeadersEventsHadTimes) {
  ParseResult r = parse(kTimed + "@16:04:31 Turn 1\n");
  ASSERT_TRUE(r.ok()) << errors_of(r);
  r.game.events[0].recorded_at_ms = 1'773'504'200'000;  // a game created live: 16:03:20
  const std::string out = export_notation(r.game.events);
  // [Recorded] gives GameCreated's time; the armies recorded none, which one tag cannot say (R-083).
  EXPECT_NE(out.find("[Recorded \"2026-03-14T16:03:20Z\"]\n"), std::string::npos) << out;
  EXPECT_NE(out.find("# not expressible: the header's events were recorded at different times (none for seq 1)\n"),
            std::string::npos)
      << out;
}

}  // namespace
}  // namespace warlog::core
