// Deck contents and rarity across the Army and Orders Decks (Deck
// Construction, rulings R-052), Turncoat's extra draw as the drawer's choice
// (Deck Construction › Turncoat (parked), R-019), and both timings of Muster
// Phase › Card Text Timing. Each violating game is one the engine
// passed clean before, or (the timing) one it reported wrongly.

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "battle_builder.hpp"

namespace warlog {
namespace {

using core::Ruleset;
using testing::Battle;
using testing::Folded;
using testing::Table;
using testing::expect_clean;
using testing::expect_none;
using testing::expect_single;
using testing::sq;

constexpr core::Seat kAna = 0;
constexpr core::Seat kBo = 1;

// --- Deck Construction: what a deck is made of -----------------------------------

TEST(DeckConstruction_Contents, TroopsGambitsDwellingsAndTheArmyAbilityAreClean) {
  expect_clean(Battle().fold());
}

TEST(DeckConstruction_Contents, ATerritoryCardInAnArmyDeckIsAViolation) {
  Table t;
  t.armies[0].army.push_back({"Old Mill", 1});
  const auto f = Battle(std::move(t)).fold();
  expect_single(f, "DECK.contents", 1, "Ana's Army Deck holds 1 'Old Mill', a Territory");
}

// Played, the Territory card is a finding and leaves the hand for the
// discard pile: it had vanished from every place, and card conservation
// (check_invariants, run after every event here) now holds.
TEST(DeckConstruction_Contents, ATerritoryCardPlayedIsAViolationAndGoesToTheDiscard) {
  Table t;
  t.armies[0].army.push_back({"Old Mill", 1});
  Battle b(std::move(t));
  b.turn(0).muster(0, "Old Mill", "Paw Militia").play(0, "Old Mill", "a1");
  const auto f = b.fold();
  EXPECT_FALSE(f.of("MUS-b.vanguard").empty()) << f.all();
  EXPECT_EQ(testing::count(f.state.seats[kAna].hand, "Old Mill"), 0);
  EXPECT_EQ(testing::count(f.state.seats[kAna].discard, "Old Mill"), 1);
  EXPECT_EQ(core::check_invariants(f.state), "");
}

TEST(DeckConstruction_Contents, AnArmyAbilityCardInTheOrdersDeckIsAViolation) {
  Table t;
  t.armies[0].orders.push_back({"Claw Orders", 1});
  expect_single(Battle(std::move(t)).fold(), "DECK.contents", 1, "Ana's Orders Deck holds 1 'Claw Orders'");
}

// --- Card Rarity & Deck Limits across both decks (R-052) -------------------------

// Ana's Army Deck gains 2 March Orders; her Orders Deck already holds 5.
Table seven_march_orders() {
  Table t;
  t.armies[0].army.push_back({"March Order", 2});
  return t;
}

TEST(DeckConstruction_Rarity, CopiesInTheArmyAndOrdersDecksCountTogether) {
  expect_single(Battle(seven_march_orders()).fold(), "DECK.rarity", 1, "Ana brings 7 copies of 'March Order'");
}

TEST(DeckConstruction_Rarity, UnderRarityPerDeckEachDeckCountsApart) {
  Ruleset r;
  r.rarity_per_deck = true;
  expect_clean(Battle(seven_march_orders(), r).fold());
}

// --- Turncoat (parked): the extra draw is the drawer's choice (R-019) --------------

// A Hireling company (splashing Paw Militia) against the Paw Coalition, with
// the parked Turncoat rule on. In turn 2 Ana draws a Paw Militia, a card of
// Bo's allegiance, and a Sellsword.
Battle turncoat_draw() {
  Table t;
  t.seats[0] = {"Ana", core::Allegiance::Hirelings};
  t.armies[0] = testing::hireling_army(0);
  t.provisioning[0] = testing::default_provisioning(core::Allegiance::Hirelings);
  Ruleset r;
  r.turncoat = true;
  Battle b(std::move(t), r);
  b.provision_turn().turn(kAna).muster(kAna, "Paw Militia", "Sellsword");
  return b;
}

TEST(DeckTurncoat, TheDrawerMayLeaveTheExtraDrawUntaken) {
  auto b = turncoat_draw();
  b.muster(kBo);
  expect_clean(b.fold());
}

TEST(DeckTurncoat, TheDrawerMayTakeTheExtraDraw) {
  auto b = turncoat_draw();
  b.act(kAna, core::CardsDrawn{{"Sellsword"}}).muster(kBo);
  expect_clean(b.fold());
}

TEST(DeckTurncoat, ASecondExtraDrawIsAViolation) {
  auto b = turncoat_draw();
  b.act(kAna, core::CardsDrawn{{"Sellsword", "Sellsword"}});
  expect_single(b.fold(), "MUS-a.draw", b.last_seq(), "Ana drew 4 cards this turn, not 3");
}

// --- Muster Phase › Card Text Timing: both timings hold (R-053) -------------------

// The sample catalog with the Ironclaw Lancer's text made "When played".
const core::Catalog& catalog_with_when_played_lancer() {
  static const core::Catalog catalog = [] {
    std::ifstream in(std::string(WARLOG_SAMPLES_DIR) + "/catalogs/sample_cards.csv");
    std::stringstream text;
    text << in.rdbuf();
    std::string csv = text.str();
    const std::string from = "Ironclaw Lancer,Claw Empire,Troop,Common,2,1,3,3,3,,";
    csv.replace(csv.find(from), from.size(), "Ironclaw Lancer,Claw Empire,Troop,Common,2,1,3,3,3,trigger,");
    auto c = core::parse_catalog_csv(csv);
    if (!c) throw std::runtime_error(c.error().message);
    return std::move(*c);
  }();
  return catalog;
}

// Turn 2: Ana plays the Lancer on a1 and uses its text at once.
Battle lancer_text_on_play() {
  Battle b;
  b.provision_turn().turn(kAna).muster_playing(kAna, {{"Ironclaw Lancer", "a1"}});
  b.act(kAna, core::AbilityUsed{sq("a1"), "When played: a rallying cry"});
  return b;
}

TEST(MusterCardTextTiming, WhenPlayedTextFiresOnTheTurnOfPlay) {
  const auto b = lancer_text_on_play();
  Folded f;
  const core::Context ctx{catalog_with_when_played_lancer(), b.rules()};
  for (const core::Event& ev : b.events()) core::apply(ctx, f.state, ev, f.findings);
  expect_clean(f);
}

TEST(MusterCardTextTiming, AnAbilityWithoutTriggerTextOnTheTurnOfPlayIsStillMustering) {
  const auto b = lancer_text_on_play();
  expect_single(b.fold(), "MUS-mustering.ability", b.last_seq(), "'Ironclaw Lancer' on a1 uses an ability while still "
                                                                 "mustering");
}

TEST(Ruleset, TheRarityPerDeckOptionIsRead) {
  auto r = core::parse_ruleset_toml("[rulings]\nrarity_per_deck = true\n");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(r->rarity_per_deck);
  EXPECT_FALSE(Ruleset{}.rarity_per_deck);
}

}  // namespace
}  // namespace warlog
