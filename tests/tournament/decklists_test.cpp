// serve decks: every decklist audited against Deck Construction when it is
// loaded (the same fold the audit makes), nothing registered when one breaks
// it; the registry a round trip of what was registered.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "event_fixture.hpp"
#include "warlog/tournament/decklists.hpp"

namespace warlog::tournament {
namespace {

using ::testing::HasSubstr;
using testing::EventStore;
using testing::event_samples;

TEST(Decklists, TheSampleEventRegistersItsFiveDecklists) {
  EventStore s;
  DeckInput in;
  in.paths = {event_samples()};
  auto r = register_decklists(s.archive, in);
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_TRUE(r->refused.empty());
  EXPECT_EQ(r->registry.event.name, "Old Mill Open");
  EXPECT_EQ(r->registry.event.territories.size(), 2U);
  ASSERT_EQ(r->registry.decklists.size(), 5U);
  EXPECT_EQ(r->added.size(), 5U);
  const Decklist* alice = r->registry.find("  alice ");
  ASSERT_NE(alice, nullptr);
  EXPECT_EQ(alice->allegiance, core::Allegiance::ClawEmpire);
  int orders = 0;
  for (const auto& c : alice->orders) orders += c.count;
  EXPECT_EQ(orders, 10);

  // What was written reads back as registered.
  auto loaded = load_registry(s.archive);
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  ASSERT_TRUE(loaded->has_value());
  EXPECT_EQ((*loaded)->event, r->registry.event);
  EXPECT_EQ((*loaded)->decklists.size(), 5U);
  EXPECT_EQ(registry_text(**loaded), registry_text(r->registry));
}

// Deck Construction › Card Rarity & Deck Limits and › Deck Size › Note:
// samples/event/refused/greedy.decklist, eight Ironclaw Lancers and no Orders Deck.
TEST(Decklists, ADeckBreakingDeckConstructionIsRefusedByItsRuleAndNothingIsRegistered) {
  EventStore s;
  DeckInput in;
  in.event_file = event_samples() + "/event.wlog";
  in.paths = {event_samples() + "/alice.decklist", event_samples() + "/refused/greedy.decklist"};
  auto r = register_decklists(s.archive, in);
  ASSERT_TRUE(r.has_value()) << r.error().message;
  ASSERT_EQ(r->refused.size(), 2U);
  EXPECT_EQ(r->refused[0].player, "Gus");
  std::vector<std::string> rules{r->refused[0].rule_id, r->refused[1].rule_id};
  EXPECT_THAT(rules, ::testing::UnorderedElementsAre("DECK.rarity", "DECK.orders"));
  for (const auto& f : r->refused) {
    EXPECT_THAT(f.citation, HasSubstr("Deck Construction"));
    EXPECT_THAT(f.source, HasSubstr("greedy.decklist:4"));
  }
  EXPECT_FALSE(std::filesystem::exists(registry_path(s.archive)));  // not even Alice's
}

// Deck Construction › Deck Size: the limit grows by 10 a Territory beyond the
// first (rulings R-090): 45 cards pass with the event's two Territories and
// are refused with one.
TEST(Decklists, DeckSizeIsJudgedWithTheEventsTerritories) {
  EventStore s;
  s.register_samples();
  auto loaded = load_registry(s.archive);
  ASSERT_TRUE(loaded && *loaded);
  const auto catalog = s.archive.catalog_by_hash((*loaded)->event.catalog_hash);
  const auto ruleset = s.archive.ruleset_by_hash((*loaded)->event.ruleset_hash);
  ASSERT_TRUE(catalog && ruleset);
  Decklist big;
  big.player = "Hana";
  big.allegiance = core::Allegiance::PawCoalition;
  big.source = "hana.decklist:1";
  // Each card within its rarity's limit: 36 of the Coalition's, 9 of the Empire's.
  big.army = {{"Paw Militia", 6},      {"Paw Slinger", 6},    {"Coalition Pikeman", 4}, {"Rebel Captain Moss", 2},
              {"Grain Cart", 6},       {"Barricade Levy", 6}, {"Rebel Rabble Token", 6}, {"Ironclaw Lancer", 6},
              {"Claw Musketeer", 3}};
  EXPECT_TRUE(audit_decklist((*loaded)->event, **catalog, **ruleset, big).empty());
  EventSetup one = (*loaded)->event;
  one.territories.resize(1);
  auto faults = audit_decklist(one, **catalog, **ruleset, big);
  ASSERT_EQ(faults.size(), 1U);
  EXPECT_EQ(faults[0].rule_id, "DECK.size");
  EXPECT_EQ(faults[0].citation, "Deck Construction › Deck Size");
  EXPECT_THAT(faults[0].message, HasSubstr("45 cards; 30 to 40 allowed with 1 Territory"));
}

TEST(Decklists, AMisspeltCardIsNamedWithItsLineAndTheClosestCard) {
  EventStore s;
  s.register_samples();
  DeckInput in;
  in.paths = {s.file("ivo.decklist", "[Player \"Ivo\"]\n[Allegiance \"The Weald\"]\n[Army 6 \"Weald Burower\"]\n")};
  auto r = register_decklists(s.archive, in);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, ErrorCode::InvalidArgument);
  EXPECT_THAT(r.error().message, HasSubstr("ivo.decklist:3:9: expected a card of the event's catalog, found "
                                           "\"Weald Burower\" (did you mean \"Weald Burrower\"?)"));
}

TEST(Decklists, APlayerTwiceInOneCallIsRefusedAndAgainLaterReplaces) {
  EventStore s;
  s.register_samples();
  DeckInput twice;
  twice.paths = {event_samples() + "/chen.decklist", event_samples() + "/chen.decklist"};
  auto r = register_decklists(s.archive, twice);
  ASSERT_FALSE(r.has_value());
  EXPECT_THAT(r.error().message, HasSubstr("expected one decklist per player, found Chen's again"));

  DeckInput again;
  again.paths = {s.file("chen2.decklist", "[Player \"CHEN\"]\n[Allegiance \"The Weald\"]\n[Army \"" +
                                              std::string(WARLOG_SAMPLES_DIR) + "/decks/weald_roots.deck\"]\n[Army 1 \"Elder Rootmother\"]\n")};
  auto replaced = register_decklists(s.archive, again);
  ASSERT_TRUE(replaced.has_value()) << replaced.error().message;
  EXPECT_TRUE(replaced->refused.empty());
  EXPECT_EQ(replaced->replaced, std::vector<std::string>{"Chen"});
  EXPECT_TRUE(replaced->added.empty());
  EXPECT_EQ(replaced->registry.decklists.size(), 5U);
  EXPECT_EQ(replaced->registry.find("chen")->player, "CHEN");
}

TEST(Decklists, MalformedFilesNameEveryProblemWithItsLine) {
  EventStore s;
  DeckInput in;
  in.event_file = s.file("event.wlog", "[Event \"X\"]\n[Board \"5by4\"]\n");
  in.paths = {s.file("a.decklist", "[Allegiance \"Claw Empire\"]\n[Player \"A\"]\n[Army six \"Ironclaw Lancer\"]\n")};
  auto r = register_decklists(s.archive, in);
  ASSERT_FALSE(r.has_value());
  const std::string& m = r.error().message;
  EXPECT_THAT(m, HasSubstr("event.wlog:2:8: expected COLSxROWS"));
  EXPECT_THAT(m, HasSubstr("expected a [Ruleset \"FILE\"] tag"));
  EXPECT_THAT(m, HasSubstr("a.decklist:1:2: expected [Player \"Name\"] before a decklist's tags"));
  EXPECT_THAT(m, HasSubstr("a.decklist:3:7: expected a card count from 1"));
  EXPECT_THAT(m, HasSubstr("a.decklist:2: expected [Allegiance \"...\"] in A's decklist"));
}

TEST(Decklists, NoEventGivenNorRegisteredIsNotFound) {
  EventStore s;
  DeckInput in;
  in.paths = {event_samples() + "/bruno.decklist"};
  auto r = register_decklists(s.archive, in);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, ErrorCode::NotFound);
  EXPECT_THAT(r.error().message, HasSubstr("--event FILE"));
}

}  // namespace
}  // namespace warlog::tournament
