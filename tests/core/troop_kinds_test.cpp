// Only Troops are Troops: the rules that name Troops apply to Troop cards,
// whatever else the log puts on a battlefield space. A Dwelling played into
// the Vanguard stands there (rulings R-023) but holds no side of a Territory,
// neither fights nor is struck or shot, and never counts toward a Threshold
// a Gambit is never placed on a space. A Burrowed Troop is a
// Troop like any other unless the ruleset reads it as hidden until it
// un-Burrows (R-044, burrowed_troops_hidden). Each test names the rules section it
// checks; each violating game is one the engine passed clean before.

#include <gtest/gtest.h>

#include "battle_builder.hpp"

namespace warlog {
namespace {

using core::ChargeMode;
using core::CombatResolved;
using core::DefenderSplit;
using core::Ruleset;
using core::Victory;
using testing::Battle;
using testing::Placement;
using testing::Table;
using testing::count;
using testing::expect_clean;
using testing::expect_none;
using testing::expect_single;
using testing::sq;

constexpr core::Seat kAna = 0;
constexpr core::Seat kBo = 1;

core::ChargeDeclared charge() { return {ChargeMode::Normal, {}}; }

// --- Sides and Control (Attrition Phase › 2. Check Win Condition, R-017) ------

// 5x3, the Old Mill on c2. Turn 1: Ana (leading) plays `card` on c1, a side
// of the Old Mill; Bo plays nothing. Ana's Attrition part pays what is owed
// (nothing for a Dwelling), which is where Supremacy is checked.
Battle turn_one_on_the_mill(const std::string& card, Ruleset r = {}) {
  Battle b(Table::with_territory(), std::move(r));
  b.turn(kAna).muster_playing(kAna, {{card, "c1"}}).muster(kBo).warfare();
  b.attrition(kAna).pay(kAna, {}, b.owed(kAna));
  return b;
}

TEST(AttritionStep2_Supremacy, ALoneDwellingOnASideHoldsNoSideAndWinsNothing) {
  const auto f = turn_one_on_the_mill("Supply Wagon").fold();
  expect_clean(f);
  EXPECT_FALSE(f.state.victory.has_value()) << "a Supply Wagon is no Troop: it Controls nothing (R-043)";
}

TEST(AttritionStep2_Supremacy, ALoneTroopOnASideWinsOnTurnOne) {
  const auto f = turn_one_on_the_mill("Ironclaw Lancer").fold();
  expect_clean(f);
  ASSERT_TRUE(f.state.victory.has_value());
  EXPECT_EQ(*f.state.victory, Victory::Supremacy);
  EXPECT_EQ(f.state.winner, kAna);
}

// R-043's option: a judge who reads a Dwelling as holding the space it stands on.
TEST(AttritionStep2_Supremacy, UnderDwellingsHoldSidesALoneDwellingWinsOnTurnOne) {
  Ruleset r;
  r.dwellings_hold_sides = true;
  const auto f = turn_one_on_the_mill("Supply Wagon", r).fold();
  expect_clean(f);
  ASSERT_TRUE(f.state.victory.has_value());
  EXPECT_EQ(*f.state.victory, Victory::Supremacy);
  EXPECT_EQ(f.state.winner, kAna);
}

TEST(Ruleset, TheTroopKindOptionsAreRead) {
  const core::Ruleset d;
  EXPECT_FALSE(d.burrowed_troops_hidden);
  EXPECT_FALSE(d.dwellings_hold_sides);
  auto r = core::parse_ruleset_toml("[rulings]\nburrowed_troops_hidden = true\ndwellings_hold_sides = true\n");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(r->burrowed_troops_hidden);
  EXPECT_TRUE(r->dwellings_hold_sides);
}

// 5x3, the Old Mill on c2. Turn 2: Ana's Lancer on c1, Bo's `bo_card` on c3,
// both sides of the Old Mill. Ana leads (0 to 0 at the Morale Check).
Battle mill_faced_by(const std::string& bo_card, Table t = Table::with_territory(), Ruleset r = {}) {
  Battle b(std::move(t), std::move(r));
  b.provision_turn().deploy({{"Ironclaw Lancer", "c1"}}, {{bo_card, "c3"}});
  return b;
}

TEST(AttritionStep2_Supremacy, AnEnemyDwellingOnASideContestsNothing) {
  auto b = mill_faced_by("Grain Cart");
  b.attrition(kAna).pay_all(kAna);
  const auto f = b.fold();
  expect_clean(f);
  ASSERT_TRUE(f.state.victory.has_value()) << "the Grain Cart on c3 does not contest Ana's Lancer";
  EXPECT_EQ(f.state.winner, kAna);
}

TEST(AttritionStep2_Supremacy, AnEnemyTroopOnASideContestsControl) {
  auto b = mill_faced_by("Paw Militia");
  b.settle();
  const auto f = b.fold();
  expect_clean(f);
  EXPECT_FALSE(f.state.victory.has_value());
}

// Ana's Lancer on c1 against Bo's Weald Burrower on c3, played in turn 2 and
// Burrowed in Bo's turn-3 Muster Phase (the first a Troop may: R-045).
Ruleset hidden_burrow() {
  Ruleset r;
  r.burrowed_troops_hidden = true;
  return r;
}

Battle mill_faced_by_a_burrower(Ruleset r = {}) {
  Table t = Table::against_weald();
  t.rows = 3;
  t.territories = {{"Old Mill", core::Space{2, 1}}};
  auto b = mill_faced_by("Weald Burrower", std::move(t), std::move(r));
  b.settle();  // visible in turn 2, the Burrower contests the Mill under either reading
  b.turn().musters().act(kBo, core::TroopBurrowed{sq("c3")}).warfare();
  b.attrition(kAna).pay_all(kAna);
  return b;
}

TEST(AttritionStep2_Supremacy, UnderHiddenBurrowsABurrowedTroopOnASideContestsNothing) {
  const auto f = mill_faced_by_a_burrower(hidden_burrow()).fold();
  expect_clean(f);
  ASSERT_TRUE(f.state.victory.has_value()) << "the Burrowed Troop on c3 is hidden (R-044)";
  EXPECT_EQ(*f.state.victory, Victory::Supremacy);
  EXPECT_EQ(f.state.winner, kAna);
}

// The default reading of R-044: a Burrowed Troop still holds its space.
TEST(AttritionStep2_Supremacy, ABurrowedTroopOnASideContestsControl) {
  const auto f = mill_faced_by_a_burrower().fold();
  expect_clean(f);
  EXPECT_FALSE(f.state.victory.has_value());
}

// --- Combat (Warfare Phase › C. Combat Resolution) -----------------------------

// 5x2, `table`'s Territories (Crossroads Shrine, Threshold 3, on c2 unless
// the table says otherwise). Turn 2: Ana plays `ana` on b1 and a second
// Troop on e1 (she leads on Morale 5 against at most 4); Bo plays `front` on
// a2 and `beside` on b2. Turn 3: Bo moves `front` to a1, so that Ana's b1
// has `front` on a1 and `beside` on b2 next to it; Ana's Warfare Phase.
Battle flanked(const std::string& ana, const std::string& front, const std::string& beside, Table t = {},
               Ruleset r = {}, bool burrow_beside = false) {
  if (t.territories.empty() && t.seats[1].allegiance == core::Allegiance::PawCoalition) {
    t.territories = {{"Crossroads Shrine", core::Space{2, 1}}};
  }
  const std::string second = ana == "Ironclaw Lancer" ? "Claw Musketeer" : "Ironclaw Lancer";
  Battle b(std::move(t), std::move(r));
  b.provision_turn().deploy({{ana, "b1"}, {second, "e1"}}, {{front, "a2"}, {beside, "b2"}}).settle();
  b.turn();
  b.muster(kAna).muster(kBo).move(kBo, "a2", "a1");
  if (burrow_beside) b.act(kBo, core::TroopBurrowed{sq("b2")});
  return b.warfare();
}

TEST(WarfareFixtures, TheFlankedPositionsAreCleanAndReady) {
  for (const char* beside : {"Grain Cart", "Paw Militia"}) {
    const auto f = flanked("Ironclaw Lancer", "Paw Militia", beside).fold();
    expect_clean(f);
    EXPECT_EQ(f.state.leader, kAna) << beside;
    EXPECT_EQ(f.state.at(sq("a1"))->card, "Paw Militia");
    EXPECT_EQ(f.state.at(sq("b2"))->card, beside);
  }
}

TEST(WarfareC_CombatSplit, ADwellingBesideTheFighterGetsNoShareOfItsVigor) {
  auto b = flanked("Ironclaw Lancer", "Paw Militia", "Grain Cart");
  b.act(kAna, charge()).act(kAna, CombatResolved{sq("b1"), {{sq("a1"), 3}}, {{sq("a1"), {{sq("b1"), 2}}}}});
  const auto f = b.fold();
  expect_clean(f);
  EXPECT_FALSE(f.state.at(sq("a1")).has_value()) << "3 damage defeats the Militia";
}

TEST(WarfareC_CombatSplit, AnEnemyTroopBesideTheFighterMustGetAShare) {
  auto b = flanked("Ironclaw Lancer", "Paw Militia", "Paw Militia");
  b.act(kAna, charge()).act(kAna, CombatResolved{sq("b1"), {{sq("a1"), 3}}, {{sq("a1"), {{sq("b1"), 2}}}}});
  expect_single(b.fold(), "WAR-C.split", b.last_seq(), "gives 'Paw Militia' on b2 no damage");
}

TEST(WarfareC_CombatResolution, StrikingADwellingIsAViolationAndDestroysNothing) {
  auto b = flanked("Ironclaw Lancer", "Paw Militia", "Grain Cart");
  b.act(kAna, charge()).act(kAna, CombatResolved{sq("b1"), {{sq("a1"), 2}, {sq("b2"), 1}}, {}});
  const auto f = b.fold();
  expect_single(f, "WAR-C.eligible", b.last_seq(), "'Grain Cart' on b2 is struck, but it is a Dwelling");
  ASSERT_TRUE(f.state.at(sq("b2")).has_value()) << "the Grain Cart stays: a Dwelling has no Vitality to lose";
  EXPECT_EQ(f.state.at(sq("b2"))->damage, 0);
  EXPECT_EQ(count(f.state.seats[kBo].discard, "Grain Cart"), 0);
}

TEST(WarfareC_CombatResolution, ADwellingStrikingBackIsAViolation) {
  auto b = flanked("Ironclaw Lancer", "Paw Militia", "Grain Cart");
  b.act(kAna, charge())
      .act(kAna, CombatResolved{sq("b1"), {{sq("a1"), 3}}, {DefenderSplit{sq("b2"), {{sq("b1"), 0}}}}});
  expect_single(b.fold(), "WAR-C.eligible", b.last_seq(), "'Grain Cart' on b2 fights, but it is a Dwelling");
}

// --- Threshold counts (Attrition Phase › 4. Check Territory Threshold) ----------

TEST(AttritionStep4_Threshold, ADwellingStruckNextToATerritoryCountsNothingBeneathIt) {
  auto b = flanked("Ironclaw Lancer", "Paw Militia", "Grain Cart");
  b.act(kAna, charge()).act(kAna, CombatResolved{sq("b1"), {{sq("a1"), 2}, {sq("b2"), 1}}, {}});
  const auto f = b.fold();
  EXPECT_EQ(f.state.territories[0].beneath, 0) << "only a destroyed Troop goes beneath the Shrine";
}

TEST(AttritionStep4_Threshold, ATroopDestroyedNextToATerritoryCountsOne) {
  auto b = flanked("Ironclaw Lancer", "Paw Militia", "Paw Militia");
  b.act(kAna, charge())
      .act(kAna, CombatResolved{sq("b1"),
                                {{sq("a1"), 1}, {sq("b2"), 2}},
                                {DefenderSplit{sq("a1"), {{sq("b1"), 2}}}, DefenderSplit{sq("b2"), {{sq("b1"), 2}}}}});
  const auto f = b.fold();
  expect_clean(f);
  EXPECT_FALSE(f.state.at(sq("b2")).has_value());
  EXPECT_EQ(f.state.territories[0].beneath, 1) << "the Lancer, struck back for 4, falls on b1, beside no Territory";
}

// --- Shotte (Warfare Phase › A. Shotte Subphase) -------------------------------

TEST(WarfareA_ShotteQuirk, FiringAtADwellingIsAViolationAndDestroysNothing) {
  auto b = flanked("Claw Musketeer", "Paw Militia", "Grain Cart");
  b.act(kAna, core::ShotteFired{sq("b1"), sq("b2"), 2});
  const auto f = b.fold();
  expect_single(f, "WAR-A.quirk", b.last_seq(), "'Grain Cart' on b2 is fired at, but it is a Dwelling");
  ASSERT_TRUE(f.state.at(sq("b2")).has_value());
  EXPECT_EQ(f.state.territories[0].beneath, 0);
}

TEST(WarfareA_ShotteQuirk, FiringAtAnEnemyTroopBesideADwellingIsClean) {
  auto b = flanked("Claw Musketeer", "Paw Militia", "Grain Cart");
  b.act(kAna, core::ShotteFired{sq("b1"), sq("a1"), 2});
  const auto f = b.fold();
  expect_clean(f);
  EXPECT_FALSE(f.state.at(sq("a1")).has_value());
}

// --- Burrowed Troops (Warfare Phase › B. › Burrow bypasses this, R-044) ----------
// Visible by default; hidden until they un-Burrow under burrowed_troops_hidden.

// The flanked position against the Weald: a Briar Archer moves to a1, a
// Weald Burrower (Vitality 3) on b2 Burrows.
Battle flanked_by_a_burrower(Ruleset r = {}, const std::string& ana = "Ironclaw Lancer") {
  return flanked(ana, "Briar Archer", "Weald Burrower", Table::against_weald(), std::move(r), true);
}

TEST(WarfareB_BurrowedHidden, UnderHiddenBurrowsStrikingABurrowedTroopIsAViolationAndDealsItNoDamage) {
  auto b = flanked_by_a_burrower(hidden_burrow());
  b.act(kAna, charge()).act(kAna, CombatResolved{sq("b1"), {{sq("a1"), 2}, {sq("b2"), 1}}, {}});
  const auto f = b.fold();
  expect_single(f, "WAR-B.burrowed-hidden", b.last_seq(), "'Weald Burrower' on b2 is struck, but it is Burrowed");
  ASSERT_EQ(f.of("WAR-B.burrowed-hidden").size(), 1u);
  EXPECT_EQ(f.of("WAR-B.burrowed-hidden")[0].basis, core::Basis::Assumed);
  EXPECT_EQ(f.state.at(sq("b2"))->damage, 0);
}

TEST(WarfareB_BurrowedHidden, UnderHiddenBurrowsABurrowedTroopBesideTheFighterGetsNoShare) {
  auto b = flanked_by_a_burrower(hidden_burrow());
  b.act(kAna, charge())
      .act(kAna, CombatResolved{sq("b1"), {{sq("a1"), 3}}, {DefenderSplit{sq("a1"), {{sq("b1"), 2}}}}});
  expect_clean(b.fold());
}

TEST(WarfareB_BurrowedHidden, StrikingABurrowedTroopIsCleanAndLands) {
  auto b = flanked_by_a_burrower();
  b.act(kAna, charge())
      .act(kAna, CombatResolved{sq("b1"),
                                {{sq("a1"), 2}, {sq("b2"), 1}},
                                {DefenderSplit{sq("a1"), {{sq("b1"), 2}}}, DefenderSplit{sq("b2"), {{sq("b1"), 3}}}}});
  const auto f = b.fold();
  expect_clean(f);
  EXPECT_EQ(f.state.at(sq("b2"))->damage, 1);
}

TEST(WarfareB_BurrowedHidden, UnderHiddenBurrowsABurrowedTroopStrikingBackIsAViolation) {
  auto b = flanked_by_a_burrower(hidden_burrow(), "Claw Musketeer");
  b.act(kAna, charge())
      .act(kAna, CombatResolved{sq("b1"), {{sq("a1"), 2}}, {DefenderSplit{sq("b2"), {{sq("b1"), 3}}}}});
  expect_single(b.fold(), "WAR-B.burrowed-hidden", b.last_seq(), "'Weald Burrower' on b2 fights, but it is Burrowed");
}

TEST(WarfareB_BurrowedHidden, UnderHiddenBurrowsABurrowedTroopThatUnBurrowsToChargeFights) {
  // The turn-3 Archer's strike back is left out under R-038's option, so
  // that the Musketeer stands in turn 4.
  Ruleset r = hidden_burrow();
  r.strike_back_optional = true;
  auto b = flanked_by_a_burrower(r, "Claw Musketeer");
  b.act(kAna, charge()).act(kAna, CombatResolved{sq("b1"), {{sq("a1"), 2}}, {}});
  b.settle().turn().musters().warfare();  // Ana leads; a Burrowed Troop may Charge all the same
  b.act(kBo, core::ChargeDeclared{ChargeMode::Burrow, sq("b2")})
      .act(kBo, CombatResolved{sq("b2"), {{sq("b1"), 3}}, {{sq("b1"), {{sq("b2"), 2}}}}});
  const auto f = b.fold();
  expect_clean(f);
  EXPECT_FALSE(f.state.at(sq("b1")).has_value()) << "3 damage defeats the Musketeer";
}

TEST(WarfareB_BurrowedHidden, UnderHiddenBurrowsFiringAtABurrowedTroopIsAViolation) {
  auto b = flanked_by_a_burrower(hidden_burrow(), "Claw Musketeer");
  b.act(kAna, core::ShotteFired{sq("b1"), sq("b2"), 2});
  const auto f = b.fold();
  expect_single(f, "WAR-B.burrowed-hidden", b.last_seq(), "'Weald Burrower' on b2 is fired at, but it is Burrowed");
  EXPECT_EQ(f.state.at(sq("b2"))->damage, 0);
}

// --- Gambits go into play, not onto a space (Muster Phase › Card Text Timing) --

// Turn 2: Ana draws and plays a Drill Orders, with the space `space` ("" for
// none), then both Muster parts end and the Warfare Phase starts.
Battle drill_orders_played(std::string_view space) {
  Battle b;
  b.provision_turn().turn(kAna).muster_playing(kAna, {{"Drill Orders", std::string(space)}});
  return b.muster(kBo).warfare();
}

TEST(MusterCardTextTiming_Gambits, AGambitPlayedIntoPlayIsClean) {
  auto b = drill_orders_played("");
  b.settle();
  const auto f = b.fold();
  expect_clean(f);
  ASSERT_EQ(f.state.seats[kAna].gambits_in_play.size(), 1u);
  EXPECT_EQ(f.state.seats[kAna].gambits_in_play[0].card, "Drill Orders");
}

TEST(MusterCardTextTiming_Gambits, AGambitPlayedOntoASpaceIsAViolationAndGoesIntoPlay) {
  auto b = drill_orders_played("b1");
  const core::Seq played = b.last_seq() - 3;  // before Bo's PhaseStarted, CardsDrawn and the Warfare PhaseStarted
  b.settle();
  const auto f = b.fold();
  expect_single(f, "MUS-b.gambit-space", played, "'Drill Orders' is a Gambit, played onto b1");
  EXPECT_FALSE(f.state.at(sq("b1")).has_value()) << "no Gambit stands on the battlefield";
  ASSERT_EQ(f.state.seats[kAna].gambits_in_play.size(), 1u);
  EXPECT_EQ(f.state.seats[kAna].gambits_in_play[0].card, "Drill Orders");
}

// --- Provision costs (Attrition Phase › 3. Pay Provision Costs) -----------------

TEST(AttritionStep3_PayProvisionCosts, AGambitRecordedOntoASpaceStillOwesItsCost) {
  auto b = drill_orders_played("b1");
  b.attrition(kAna).pay(kAna, {});
  const auto f = b.fold();
  expect_single(f, "ATT-3.listed", b.last_seq(), "Ana's Provisions payment does not say whether 'Drill Orders' is paid");
}

TEST(AttritionStep3_PayProvisionCosts, ADwellingOnTheBattlefieldOwesNothing) {
  auto b = flanked("Ironclaw Lancer", "Paw Militia", "Grain Cart");
  b.act(kAna, core::ChargeDeclined{});
  b.attrition(kAna).pay_all(kAna).attrition(kBo).pay(kBo, {{sq("a1"), "Paw Militia"}});
  const auto f = b.fold();
  expect_none(f, "ATT-3.listed");
  EXPECT_EQ(core::provision_cost(f.state, kBo, testing::sample_catalog(), b.rules()), 1);
}

}  // namespace
}  // namespace warlog
