// Warfare Phase rules (../shared/rules, document "Warfare Phase"): each with a
// passing case and a violating case, named after its section; the Combat
// Rulings table has its own table-driven test (combat_rulings_table_test.cpp).
//
// Most positions are on a 5x2 board, where the two Vanguards touch: a Troop
// deployed in turn 2 fights in turn 3 (Battle::face_off).

#include <gtest/gtest.h>

#include "battle_builder.hpp"

namespace warlog {
namespace {

using core::ChargeMode;
using core::CombatResolved;
using core::DefenderSplit;
using core::Ruleset;
using core::ShotteFired;
using core::Strike;
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

Battle battle(const std::vector<Placement>& ana, const std::vector<Placement>& bo, Table t = {}, Ruleset r = {}) {
  return testing::battle_turn(ana, bo, std::move(t), std::move(r));
}

ShotteFired fire(std::string_view from, std::string_view at, int damage) { return {sq(from), sq(at), damage}; }
core::ChargeDeclared charge() { return {ChargeMode::Normal, {}}; }
// `troop` strikes one adjacent enemy with `damage`; that enemy strikes back.
CombatResolved duel(std::string_view troop, int damage, std::string_view enemy, int back) {
  return {sq(troop), {{sq(enemy), damage}}, {{sq(enemy), {{sq(troop), back}}}}};
}

// Ana's Ironclaw Lancer (Morale 3, Vigor 3, Vitality 3) on a1 faces Bo's Paw
// Militia (2, 2, 2) on a2; Ana leads.
Battle lancer_vs_militia(Ruleset r = {}) { return battle({{"Ironclaw Lancer", "a1"}}, {{"Paw Militia", "a2"}}, {}, r); }
// Ana's Claw Musketeer (Shotte, Vigor 2) on a1 faces Bo's Paw Militia on a2;
// a Morale tie keeps Ana leading.
Battle musketeer_vs_militia(Ruleset r = {}) {
  return battle({{"Claw Musketeer", "a1"}}, {{"Paw Militia", "a2"}}, {}, r);
}

TEST(WarfareFixtures, TheBattlePositionsAreCleanAndReady) {
  const auto f = lancer_vs_militia().fold();
  expect_clean(f);
  EXPECT_EQ(f.state.turn, 3);
  EXPECT_EQ(f.state.phase, core::Phase::Warfare);
  EXPECT_EQ(f.state.leader, kAna);
  EXPECT_FALSE(core::still_mustering(f.state, *f.state.at(sq("a1"))));
}

// --- A. Shotte Subphase --------------------------------------------------------

TEST(WarfareA_ShotteSubphase, FiringBeforeTheChargeIsClean) {
  auto b = musketeer_vs_militia();
  b.act(kAna, fire("a1", "a2", 2)).act(kAna, charge());
  const auto f = b.fold();
  expect_clean(f);
  EXPECT_FALSE(f.state.at(sq("a2")).has_value()) << "2 Shotte damage defeats the Militia (Vitality 2)";
  EXPECT_EQ(count(f.state.seats[kBo].discard, "Paw Militia"), 1);
  EXPECT_TRUE(f.state.at(sq("a1"))->has(core::kTroopShotteUsed));
}

TEST(WarfareA_ShotteSubphase, FiringAfterTheChargeIsAViolation) {
  auto b = musketeer_vs_militia();
  b.act(kAna, charge()).act(kAna, fire("a1", "a2", 2));
  expect_single(b.fold(), "WAR-A.subphase", b.last_seq(), "Shotte fire after the Charge Subphase began");
}

// Two Musketeers for Ana; two Paw Slingers (Shotte, Vigor 1) and a Coalition
// Pikeman (Vitality 3) for Bo, who leads in turn 4 on Morale 7 to 4.
Battle shotte_exchange() {
  Battle b;
  b.face_off({{"Claw Musketeer", "a1"}, {"Claw Musketeer", "b1"}},
             {{"Paw Slinger", "a2"}, {"Paw Slinger", "b2"}, {"Coalition Pikeman", "c2"}});
  b.turn().musters().warfare();
  return b;
}

TEST(WarfareA_ShotteOrder, LeaderFirstThenTheNextPlayerIsClean) {
  auto b = shotte_exchange();
  ASSERT_EQ(b.leader(), kBo);
  b.act(kBo, fire("a2", "a1", 1)).act(kBo, fire("b2", "b1", 1));
  b.act(kAna, fire("a1", "c2", 2)).act(kAna, fire("b1", "a2", 2));
  const auto f = b.fold();
  expect_clean(f);
  EXPECT_EQ(f.state.at(sq("a1"))->damage, 1);
  EXPECT_EQ(f.state.at(sq("c2"))->damage, 2);
  EXPECT_FALSE(f.state.at(sq("a2")).has_value());
}

TEST(WarfareA_ShotteOrder, AlternatingOneTroopAtATimeIsClean) {
  auto b = shotte_exchange();
  b.act(kBo, fire("a2", "a1", 1)).act(kAna, fire("a1", "c2", 2));
  b.act(kBo, fire("b2", "b1", 1)).act(kAna, fire("b1", "c2", 2));
  const auto f = b.fold();
  expect_none(f, "WAR-A.order");
  EXPECT_FALSE(f.state.at(sq("c2")).has_value()) << "4 damage defeats the Pikeman";
}

TEST(WarfareA_ShotteOrder, TheLeaderFiringAgainAfterTheNextPlayerFiredTwiceIsAViolation) {
  auto b = shotte_exchange();
  b.act(kBo, fire("a2", "a1", 1)).act(kAna, fire("a1", "c2", 2)).act(kAna, fire("b1", "c2", 2));
  b.act(kBo, fire("b2", "b1", 1));
  expect_single(b.fold(), "WAR-A.order", b.last_seq(), "Bo fires again after Ana fired, outside alternating fire");
}

// Regression: said "Bo fires again after Ana fired" when Bo had not fired.
TEST(WarfareA_ShotteOrder, TheLeaderFiringAfterTheNextPlayerFiredFirstIsAViolation) {
  auto b = shotte_exchange();
  b.act(kAna, fire("a1", "c2", 2)).act(kBo, fire("a2", "a1", 1));
  expect_single(b.fold(), "WAR-A.order", b.last_seq(),
                "Bo fires after Ana fired first: Leading in Morale, Bo fires first or not at all");
}

// Ana's Musketeer on a1 against Bo's Coalition Pikeman (Vitality 3) on a2.
Battle musketeer_vs_pikeman() { return battle({{"Claw Musketeer", "a1"}}, {{"Coalition Pikeman", "a2"}}); }

TEST(WarfareA_ShotteOnce, FiringOnceIsClean) {
  auto b = musketeer_vs_pikeman();
  b.act(kAna, fire("a1", "a2", 2));
  const auto f = b.fold();
  expect_clean(f);
  EXPECT_EQ(f.state.at(sq("a2"))->damage, 2);
}

TEST(WarfareA_ShotteOnce, FiringAgainNextTurnIsAViolation) {
  auto b = musketeer_vs_pikeman();
  b.act(kAna, fire("a1", "a2", 2)).settle().turn().musters().warfare();
  b.act(kAna, fire("a1", "a2", 2));
  const auto f = b.fold();
  expect_single(f, "WAR-A.once", b.last_seq(), "'Claw Musketeer' on a1 has already fired since it was played");
  EXPECT_FALSE(f.state.at(sq("a2")).has_value()) << "the recorded damage still lands";
}

TEST(WarfareA_ShotteQuirk, ATroopWithoutShotteFiringIsAViolation) {
  auto b = lancer_vs_militia();
  b.act(kAna, fire("a1", "a2", 3));
  expect_single(b.fold(), "WAR-A.quirk", b.last_seq(), "'Ironclaw Lancer' has no Shotte Quirk");
}

TEST(WarfareA_ShotteQuirk, FiringAtOwnTroopIsAViolation) {
  auto b = battle({{"Claw Musketeer", "a1"}, {"Ironclaw Lancer", "b1"}}, {{"Paw Militia", "a2"}});
  b.act(kAna, fire("a1", "b1", 2));
  const auto f = b.fold();
  expect_single(f, "WAR-A.quirk", b.last_seq(), "fires at its own side's 'Ironclaw Lancer'");
  EXPECT_EQ(f.state.at(sq("b1"))->damage, 2);
}

TEST(WarfareA_ShotteMustering, ATroopPlayedLastTurnFiresCleanly) {
  auto b = musketeer_vs_pikeman();
  b.act(kAna, fire("a1", "a2", 2));
  expect_none(b.fold(), "WAR-A.mustering");
}

TEST(WarfareA_ShotteMustering, ATroopPlayedThisTurnFiringIsAViolation) {
  Battle b;
  b.face_off({{"Claw Musketeer", "a1"}}, {{"Coalition Pikeman", "a2"}}).turn();
  ASSERT_EQ(b.leader(), kBo);  // Morale 3 to 2
  b.muster(kBo).muster_playing(kAna, {{"Claw Musketeer", "c1"}}).warfare();
  b.act(kAna, fire("c1", "a2", 2));
  expect_single(b.fold(), "WAR-A.mustering", b.last_seq(), "'Claw Musketeer' on c1 fires while still mustering");
}

TEST(WarfareA_ShotteDamage, DamageEqualToVigorIsClean) {
  auto b = musketeer_vs_pikeman();
  b.act(kAna, fire("a1", "a2", 2));
  expect_none(b.fold(), "WAR-A.damage");
}

TEST(WarfareA_ShotteDamage, DamageOtherThanVigorIsAWarning) {
  auto b = musketeer_vs_pikeman();
  b.act(kAna, fire("a1", "a2", 3));
  const auto f = b.fold();
  expect_single(f, "WAR-A.damage", b.last_seq(), "'Claw Musketeer' deals 3 Shotte damage; its Vigor is 2");
  EXPECT_EQ(f.of("WAR-A.damage")[0].severity, core::Severity::Warning);
  EXPECT_EQ(f.of("WAR-A.damage")[0].basis, core::Basis::Assumed);
  ASSERT_TRUE(f.state.at(sq("a2")).has_value()) << "the card's Vigor lands, not the recorded 3 (R-041)";
  EXPECT_EQ(f.state.at(sq("a2"))->damage, 2);
}

TEST(WarfareA_ShotteDamage, TheRulingOptionLeavesShotteDamageFree) {
  Ruleset r;
  r.shotte_damage_is_vigor = false;
  auto b = battle({{"Claw Musketeer", "a1"}}, {{"Coalition Pikeman", "a2"}}, {}, r);
  b.act(kAna, fire("a1", "a2", 3));
  const auto f = b.fold();
  expect_none(f, "WAR-A.damage");
  EXPECT_FALSE(f.state.at(sq("a2")).has_value()) << "with the option off the recorded damage lands";
}

// --- B. Charge Subphase --------------------------------------------------------

TEST(WarfareB_ChargeSubphase, TheLeaderChargesAndCombatDealsVigor) {
  auto b = lancer_vs_militia();
  b.act(kAna, charge()).act(kAna, duel("a1", 3, "a2", 2));
  const auto f = b.fold();
  expect_clean(f);
  EXPECT_TRUE(f.state.this_turn.charge_declared);
  EXPECT_EQ(f.state.this_turn.charger, kAna);
  EXPECT_FALSE(f.state.at(sq("a2")).has_value());
  EXPECT_EQ(count(f.state.seats[kBo].discard, "Paw Militia"), 1);
  EXPECT_EQ(f.state.at(sq("a1"))->damage, 2);
}

TEST(WarfareB_ChargeSubphase, TheTrailingPlayerChargingIsAViolation) {
  auto b = lancer_vs_militia();
  b.act(kBo, charge());
  expect_single(b.fold(), "WAR-B.leader", b.last_seq(), "Bo declares a Charge but Ana is Leading in Morale");
}

TEST(WarfareB_ChargeSubphase, TheTrailingPlayerDecliningIsAViolation) {
  auto b = lancer_vs_militia();
  b.act(kBo, core::ChargeDeclined{});
  expect_single(b.fold(), "WAR-B.leader", b.last_seq(), "Bo declines a Charge, a choice that belongs to Ana");
}

TEST(WarfareB_ChargeOnce, OneDecisionIsClean) {
  auto b = lancer_vs_militia();
  b.act(kAna, core::ChargeDeclined{});
  const auto f = b.fold();
  expect_none(f, "WAR-B.once");
  EXPECT_TRUE(f.state.this_turn.charge_declined);
}

TEST(WarfareB_ChargeOnce, ChargingThenDecliningIsAViolation) {
  auto b = lancer_vs_militia();
  b.act(kAna, charge()).act(kAna, core::ChargeDeclined{});
  expect_single(b.fold(), "WAR-B.once", b.last_seq(), "a decline after a Charge was declared this turn");
}

// Claw Empire against the Weald: Ana's Lancer a1 and Musketeer b1 (Morale 5)
// against Bo's Weald Burrower a2 (Burrow; 2, 3, 3) and Briar Archer b2
// (Morale 4). Bo Burrows in his turn-3 Muster Phase.
Battle burrower_waits(bool burrow = true) {
  Battle b(Table::against_weald());
  b.face_off({{"Ironclaw Lancer", "a1"}, {"Claw Musketeer", "b1"}}, {{"Weald Burrower", "a2"}, {"Briar Archer", "b2"}});
  b.turn().muster(kAna).muster(kBo);
  if (burrow) b.act(kBo, core::TroopBurrowed{sq("a2")});
  return b.warfare();
}

TEST(WarfareB_Burrow, ABurrowedTroopUnBurrowsAndChargesForTheTrailingPlayer) {
  auto b = burrower_waits();
  ASSERT_EQ(b.leader(), kAna);
  b.act(kBo, core::ChargeDeclared{ChargeMode::Burrow, sq("a2")});
  const auto charged = b.state();
  EXPECT_FALSE(charged.at(sq("a2"))->has(core::kTroopBurrowed));
  EXPECT_EQ(charged.at(sq("a2"))->unburrowed_turn, 3);
  b.act(kBo, duel("a2", 3, "a1", 3));
  const auto f = b.fold();
  expect_clean(f);
  EXPECT_EQ(f.state.this_turn.charger, kBo);
  // Both reach 0 Vitality together: both are defeated.
  EXPECT_FALSE(f.state.at(sq("a1")).has_value());
  EXPECT_FALSE(f.state.at(sq("a2")).has_value());
  // Troop Wages: destroyed the turn it un-Burrowed, it is still provisioned.
  ASSERT_EQ(f.state.seats[kBo].this_turn.wages_due.size(), 1u);
  EXPECT_EQ(f.state.seats[kBo].this_turn.wages_due[0].card, "Weald Burrower");
  EXPECT_TRUE(f.state.seats[kBo].this_turn.wages_due[0].unburrowed);
}

TEST(WarfareB_Burrow, ABurrowChargeFromATroopNotBurrowedIsAViolation) {
  auto b = burrower_waits();
  b.act(kBo, core::ChargeDeclared{ChargeMode::Burrow, sq("b2")});
  const auto f = b.fold();
  expect_single(f, "WAR-B.burrow", b.last_seq(), "a Burrow Charge from b2, where Bo has no Burrowed Troop");
  expect_none(f, "WAR-B.leader");
}

TEST(WarfareB_BurrowQuirk, ABurrowTroopBurrowsCleanly) {
  const auto f = burrower_waits().fold();
  expect_clean(f);
  EXPECT_TRUE(f.state.at(sq("a2"))->has(core::kTroopBurrowed));
}

TEST(WarfareB_BurrowQuirk, ATroopWithoutBurrowBurrowingIsAViolation) {
  auto b = burrower_waits(false);
  b.act(kBo, core::TroopBurrowed{sq("b2")});
  expect_single(b.fold(), "WAR-B.burrow-quirk", b.last_seq(), "'Briar Archer' has no Burrow Quirk");
}

TEST(WarfareB_Unburrow, UnBurrowingABurrowedTroopInItsOwnersMusterIsClean) {
  Battle b(Table::against_weald());
  b.face_off({{"Ironclaw Lancer", "a1"}, {"Claw Musketeer", "b1"}}, {{"Weald Burrower", "a2"}, {"Briar Archer", "b2"}});
  b.turn().muster(kAna).muster(kBo).act(kBo, core::TroopBurrowed{sq("a2")}).act(kBo, core::TroopUnburrowed{sq("a2")});
  const auto f = b.fold();
  expect_none(f, "WAR-B.unburrow");
  EXPECT_FALSE(f.state.at(sq("a2"))->has(core::kTroopBurrowed));
}

TEST(WarfareB_Unburrow, UnBurrowingATroopNotBurrowedIsAViolation) {
  auto b = burrower_waits(false);
  b.act(kBo, core::TroopUnburrowed{sq("a2")});
  expect_single(b.fold(), "WAR-B.unburrow", b.last_seq(), "'Weald Burrower' on a2 un-Burrows but is not Burrowed");
}

// Ana leads and declines in turn 3: Local Favor until the end of her turn-4
// Muster Phase.
Battle ana_declines() {
  auto b = lancer_vs_militia();
  b.act(kAna, core::ChargeDeclined{});
  return b;
}

TEST(WarfareB_LocalFavor, DecliningGrantsItAndUsingItInTheNextMusterIsClean) {
  auto b = ana_declines();
  EXPECT_EQ(b.state().seats[kAna].local_favor_until_turn, 4);
  b.settle().turn();
  ASSERT_EQ(b.leader(), kAna);
  b.muster(kAna).act(kAna, core::LocalFavorUsed{"draw one more"});
  const auto f = b.fold();
  expect_clean(f);
  EXPECT_EQ(f.state.seats[kAna].local_favor_until_turn, 0) << "used once";
}

TEST(WarfareB_LocalFavor, UsingItWithoutHavingDeclinedIsAViolation) {
  auto b = ana_declines();
  b.act(kBo, core::LocalFavorUsed{"draw one more"});
  expect_single(b.fold(), "WAR-B.local-favor", b.last_seq(), "Bo uses Local Favor ('draw one more') without holding it");
}

TEST(WarfareB_LocalFavor, UsingItAfterTheNextMusterPhaseIsAViolation) {
  auto b = ana_declines();
  b.settle().turn().musters().warfare().act(kAna, core::LocalFavorUsed{"draw one more"});
  expect_single(b.fold(), "WAR-B.local-favor", b.last_seq(), "Ana uses Local Favor");
}

TEST(WarfareB_LocalFavor, UsingItInTheOpponentsMusterAfterOwnEndedIsAViolation) {
  // "until the end of their next Muster Phase": Ana's part of turn 4 closed
  // when Bo's began.
  auto b = ana_declines();
  b.settle().turn().musters().act(kAna, core::LocalFavorUsed{"draw one more"});
  expect_single(b.fold(), "WAR-B.local-favor", b.last_seq(), "Ana uses Local Favor");
}

TEST(WarfareB_LocalFavor, UsingItTwiceIsAViolation) {
  auto b = ana_declines();
  b.settle().turn().muster(kAna).act(kAna, core::LocalFavorUsed{"a"}).act(kAna, core::LocalFavorUsed{"b"});
  expect_single(b.fold(), "WAR-B.local-favor", b.last_seq(), "('b') without holding it");
}

// --- C. Combat Resolution ------------------------------------------------------

TEST(WarfareC_CombatResolution, TheChargerResolvesEveryCombat) {
  auto b = lancer_vs_militia();
  b.act(kAna, charge()).act(kAna, duel("a1", 3, "a2", 2));
  expect_none(b.fold(), "WAR-C.resolver");
}

TEST(WarfareC_CombatResolution, TheOtherPlayerResolvingACombatIsAViolation) {
  auto b = lancer_vs_militia();
  b.act(kAna, charge()).act(kBo, duel("a1", 3, "a2", 2));
  expect_single(b.fold(), "WAR-C.resolver", b.last_seq(), "Bo resolves a combat of Ana's Charge");
}

TEST(WarfareC_CombatResolution, ACombatLedByAnEnemyTroopIsAViolation) {
  auto b = lancer_vs_militia();
  b.act(kAna, charge()).act(kAna, duel("a2", 2, "a1", 3));
  expect_single(b.fold(), "WAR-C.resolver", b.last_seq(), "'Paw Militia' on a2 leads a combat but belongs to Bo");
}

TEST(WarfareC_CombatResolution, ACombatWithoutAChargeIsAViolation) {
  auto b = lancer_vs_militia();
  b.act(kAna, duel("a1", 3, "a2", 2));
  expect_single(b.fold(), "WAR-C.resolver", b.last_seq(), "a combat without a declared Charge");
}

// Lancer a1 (Morale 3) and Musketeer b1 (Morale 2) each face a Paw Militia.
Battle two_duels() {
  auto b = battle({{"Ironclaw Lancer", "a1"}, {"Claw Musketeer", "b1"}}, {{"Paw Militia", "a2"}, {"Paw Militia", "b2"}});
  b.act(kAna, charge());
  return b;
}

TEST(WarfareC_Order, HighestMoraleFirstIsClean) {
  auto b = two_duels();
  b.act(kAna, duel("a1", 3, "a2", 2)).act(kAna, duel("b1", 2, "b2", 2));
  const auto f = b.fold();
  expect_clean(f);
  for (const char* gone : {"a2", "b2", "b1"}) EXPECT_FALSE(f.state.at(sq(gone)).has_value()) << gone;
  EXPECT_EQ(count(f.state.seats[kAna].discard, "Claw Musketeer"), 1);
}

TEST(WarfareC_Order, ALowerMoraleTroopFightingFirstIsAViolation) {
  auto b = two_duels();
  b.act(kAna, duel("b1", 2, "b2", 2));
  expect_single(b.fold(), "WAR-C.order", b.last_seq(),
                "'Claw Musketeer' (Morale 2) fights before 'Ironclaw Lancer' on a1 (Morale 3)");
}

TEST(WarfareC_Order, ATroopLeadingTwoCombatsIsAViolation) {
  auto b = two_duels();
  b.act(kAna, duel("a1", 3, "a2", 2)).act(kAna, CombatResolved{sq("a1"), {}, {}});
  expect_single(b.fold(), "WAR-C.order", b.last_seq(), "'Ironclaw Lancer' on a1 leads a second combat this Charge");
}

TEST(WarfareC_Order, AnUnprovisionedTroopFightsAtMoraleZero) {
  // Ana leaves her Lancer unpaid in turn 2: Morale 0 until her next
  // Attrition Phase, so the Musketeer (2) fights first in turn 3.
  Battle b;
  b.provision_turn().deploy({{"Ironclaw Lancer", "a1"}, {"Claw Musketeer", "b1"}},
                            {{"Paw Militia", "a2"}, {"Paw Militia", "b2"}});
  b.attrition(kAna).pay(kAna, {{sq("b1"), "Claw Musketeer"}}, {{sq("a1"), "Ironclaw Lancer"}});
  b.attrition(kBo).pay_all(kBo).turn(kBo).musters();  // Morale 2 to 4: Bo leads
  b.warfare().act(kBo, charge()).act(kBo, duel("b2", 2, "b1", 2)).act(kBo, duel("a2", 2, "a1", 3));
  expect_none(b.fold(), "WAR-C.order");
}

// The Musketeer on e1 stands beside no enemy: it is not eligible, so it need
// not fight, and the Charge of the Lancer alone resolves every combat.
TEST(WarfareC_Eligible, OnlyTheTroopAdjacentToAnEnemyFightingIsClean) {
  auto b = battle({{"Ironclaw Lancer", "a1"}, {"Claw Musketeer", "e1"}}, {{"Paw Militia", "a2"}});
  b.act(kAna, charge()).act(kAna, duel("a1", 3, "a2", 2));
  const auto f = b.fold();
  expect_none(f, "WAR-C.eligible");
  expect_clean(f);
}

TEST(WarfareC_Eligible, ATroopAdjacentToNoEnemyLeadingACombatIsAViolation) {
  auto b = battle({{"Ironclaw Lancer", "a1"}, {"Claw Musketeer", "e1"}}, {{"Paw Militia", "a2"}});
  b.act(kAna, charge()).act(kAna, duel("a1", 3, "a2", 2)).act(kAna, CombatResolved{sq("e1"), {}, {}});
  expect_single(b.fold(), "WAR-C.eligible", b.last_seq(), "'Claw Musketeer' on e1 is adjacent to no enemy Troop");
}

TEST(WarfareC_Eligible, StrikingAnEnemyThatIsNotAdjacentIsAViolation) {
  auto b = battle({{"Ironclaw Lancer", "a1"}}, {{"Paw Militia", "a2"}, {"Paw Militia", "c2"}});
  b.act(kAna, charge())
      .act(kAna, CombatResolved{sq("a1"), {{sq("a2"), 2}, {sq("c2"), 1}}, {{sq("a2"), {{sq("a1"), 2}}}}});
  expect_single(b.fold(), "WAR-C.eligible", b.last_seq(),
                "'Ironclaw Lancer' on a1 strikes c2, which holds no adjacent enemy Troop");
}

TEST(WarfareC_Vigor, DealingLessThanVigorIsAViolation) {
  auto b = lancer_vs_militia();
  b.act(kAna, charge()).act(kAna, duel("a1", 2, "a2", 2));
  expect_single(b.fold(), "WAR-C.vigor", b.last_seq(), "'Ironclaw Lancer' on a1 deals 2 damage; its Vigor is 3");
}

// Bo's Rebel Captain Moss (Morale 5, Vigor 4, Vitality 4) steps from c2 to
// c1, between Ana's Lancer b1 and Musketeer d1 (Morale 5: a tie keeps Ana).
Battle moss_between_two(Ruleset r = {}) {
  Battle b(Table{}, r);
  b.face_off({{"Ironclaw Lancer", "b1"}, {"Claw Musketeer", "d1"}}, {{"Rebel Captain Moss", "c2"}});
  b.turn().muster(kAna).muster(kBo).move(kBo, "c2", "c1").warfare();
  // The Lancer's combat: Moss divides its 4 Vigor between both attackers.
  b.act(kAna, charge()).act(kAna, CombatResolved{sq("b1"), {{sq("c1"), 3}}, {{sq("c1"), {{sq("b1"), 3}, {sq("d1"), 1}}}}});
  return b;
}

TEST(WarfareC_Vigor, ADefenderDealsItsDamageOncePerCharge) {
  auto b = moss_between_two();
  b.act(kAna, CombatResolved{sq("d1"), {{sq("c1"), 2}}, {}});
  const auto f = b.fold();
  expect_clean(f);
  EXPECT_FALSE(f.state.at(sq("b1")).has_value());
  EXPECT_FALSE(f.state.at(sq("c1")).has_value()) << "3 + 2 damage defeats Moss (Vitality 4)";
  EXPECT_EQ(f.state.at(sq("d1"))->damage, 1);
}

TEST(WarfareC_Vigor, ADefenderStrikingInASecondCombatIsAViolation) {
  auto b = moss_between_two();
  b.act(kAna, duel("d1", 2, "c1", 4));
  expect_single(b.fold(), "WAR-C.vigor", b.last_seq(),
                "'Rebel Captain Moss' on c1 already dealt its damage this Charge (rulings R-008)");
}

TEST(WarfareC_Vigor, TheRulingOptionLetsADefenderStrikeInEveryCombat) {
  Ruleset r;
  r.defender_strikes_each_combat = true;
  auto b = moss_between_two(r);
  b.act(kAna, duel("d1", 2, "c1", 4));
  const auto f = b.fold();
  expect_none(f, "WAR-C.vigor");
  EXPECT_FALSE(f.state.at(sq("d1")).has_value());
}

// Ana's Lancer b1 (and a Musketeer far off on e1) against two Militia; Bo
// steps one from a2 to a1, so the Lancer is adjacent to two enemies.
Battle lancer_between_two(Ruleset r = {}) {
  Battle b(Table{}, r);
  b.face_off({{"Ironclaw Lancer", "b1"}, {"Claw Musketeer", "e1"}}, {{"Paw Militia", "a2"}, {"Paw Militia", "b2"}});
  b.turn().muster(kAna).muster(kBo).move(kBo, "a2", "a1").warfare().act(kAna, charge());
  return b;
}

const std::vector<DefenderSplit> kBothStrikeBack = {{sq("a1"), {{sq("b1"), 2}}}, {sq("b2"), {{sq("b1"), 2}}}};

TEST(WarfareC_Split, DividingVigorBetweenEveryAdjacentEnemyIsClean) {
  auto b = lancer_between_two();
  b.act(kAna, CombatResolved{sq("b1"), {{sq("a1"), 2}, {sq("b2"), 1}}, kBothStrikeBack});
  const auto f = b.fold();
  expect_clean(f);
  EXPECT_FALSE(f.state.at(sq("a1")).has_value());
  EXPECT_EQ(f.state.at(sq("b2"))->damage, 1);
  EXPECT_FALSE(f.state.at(sq("b1")).has_value()) << "2 + 2 damage from both defenders defeats the Lancer";
}

TEST(WarfareC_Split, LeavingAnAdjacentEnemyOutIsAViolation) {
  auto b = lancer_between_two();
  b.act(kAna, CombatResolved{sq("b1"), {{sq("b2"), 3}}, kBothStrikeBack});
  expect_single(b.fold(), "WAR-C.split", b.last_seq(),
                "'Ironclaw Lancer' on b1 fights every adjacent enemy but gives 'Paw Militia' on a1 no damage");
}

TEST(WarfareC_Split, TheRulingOptionAllowsAnUnevenSplit) {
  Ruleset r;
  r.combat_split_all = false;
  auto b = lancer_between_two(r);
  b.act(kAna, CombatResolved{sq("b1"), {{sq("b2"), 3}}, kBothStrikeBack});
  expect_none(b.fold(), "WAR-C.split");
}

TEST(WarfareC_Defeat, ARecordedDefeatTheFoldDerivedIsClean) {
  auto b = lancer_vs_militia();
  b.act(kAna, charge()).act(kAna, duel("a1", 3, "a2", 2)).act(kAna, core::TroopDefeated{sq("a2"), core::Space{}});
  expect_clean(b.fold());
}

TEST(WarfareC_Defeat, ARecordedDefeatOfATroopWithVitalityLeftIsAViolation) {
  auto b = lancer_vs_militia();
  b.act(kAna, charge()).act(kAna, duel("a1", 3, "a2", 2)).act(kAna, core::TroopDefeated{sq("a1"), core::Space{}});
  const auto f = b.fold();
  expect_single(f, "WAR-C.defeat", b.last_seq(), "'Ironclaw Lancer' on a1 is recorded as defeated but has 1 Vitality left");
  EXPECT_TRUE(f.state.at(sq("a1")).has_value()) << "a recorded consequence is checked, never trusted";
}

TEST(WarfareC_Defeat, ARecordedDefeatOnAnEmptySpaceIsAViolation) {
  auto b = lancer_vs_militia();
  b.act(kAna, core::TroopDefeated{sq("c1"), core::Space{}});
  expect_single(b.fold(), "WAR-C.defeat", b.last_seq(), "recorded defeat on c1, where no Troop stands");
}

TEST(WarfareC_Defeat, DamageIsSimultaneousSoBothTroopsCanFall) {
  // Lancer (3, 3) against Coalition Pikeman (Vigor 3, Vitality 3).
  auto b = battle({{"Ironclaw Lancer", "a1"}}, {{"Coalition Pikeman", "a2"}});
  b.act(kAna, charge()).act(kAna, duel("a1", 3, "a2", 3));
  const auto f = b.fold();
  expect_clean(f);
  EXPECT_FALSE(f.state.at(sq("a1")).has_value());
  EXPECT_FALSE(f.state.at(sq("a2")).has_value());
  EXPECT_EQ(count(f.state.seats[kAna].discard, "Ironclaw Lancer"), 1);
  EXPECT_EQ(count(f.state.seats[kBo].discard, "Coalition Pikeman"), 1);
}

TEST(WarfareC_Defeat, ATroopDefeatedNextToATerritoryGoesBeneathIt) {
  // 5x3, Old Mill on c2. Bo steps b3 -> b2, beside the Old Mill and Ana's b1.
  Battle b(Table::with_territory());
  b.face_off({{"Ironclaw Lancer", "b1"}, {"Ironclaw Lancer", "c1"}},
             {{"Coalition Pikeman", "b3"}, {"Coalition Pikeman", "c3"}});
  b.turn().muster(kAna).muster(kBo).move(kBo, "b3", "b2").warfare();
  b.act(kAna, charge()).act(kAna, duel("b1", 3, "b2", 3));
  const auto f = b.fold();
  expect_clean(f);
  ASSERT_EQ(f.state.territories.size(), 1u);
  EXPECT_EQ(f.state.territories[0].beneath, 1) << "the Pikeman on b2 went beneath the Old Mill";
  EXPECT_EQ(count(f.state.seats[kBo].discard, "Coalition Pikeman"), 0);
  EXPECT_EQ(count(f.state.seats[kAna].discard, "Ironclaw Lancer"), 1) << "b1 is not beside the Old Mill";
}

// Ana's Lancer a1 and Musketeer c1 against Bo's Militia a2 and e2: after the
// a1 combat, c1 and e2 are adjacent to no enemy.
Battle after_one_combat(const char* ana_second = "c1") {
  auto b = battle({{"Ironclaw Lancer", "a1"}, {"Claw Musketeer", ana_second}}, {{"Paw Militia", "a2"}, {"Paw Militia", "e2"}});
  b.act(kAna, charge()).act(kAna, duel("a1", 3, "a2", 2));
  return b;
}

TEST(WarfareC_PostMove, AChargerTroopAdjacentToNoEnemyMovesOneSpace) {
  auto b = after_one_combat();
  b.move(kAna, "c1", "d1");
  const auto f = b.fold();
  expect_clean(f);
  EXPECT_EQ(f.state.at(sq("d1"))->card, "Claw Musketeer");
}

TEST(WarfareC_PostMove, ATroopAdjacentToAnEnemyMovingIsAViolation) {
  auto b = after_one_combat("e1");  // e1 stands beside Bo's Militia on e2
  b.move(kAna, "e1", "d1");
  expect_single(b.fold(), "WAR-C.post-move", b.last_seq(), "'Claw Musketeer' on e1 moves while adjacent to an enemy Troop");
}

TEST(WarfareC_PostMove, MovingInTheWarfarePhaseWithoutAChargeIsAViolation) {
  auto b = lancer_vs_militia();
  b.act(kAna, core::ChargeDeclined{}).move(kAna, "a1", "b1");
  expect_single(b.fold(), "WAR-C.post-move", b.last_seq(), "'Ironclaw Lancer' moves in the Warfare Phase without a Charge");
}

// Regression: a second post-combat move was reported as MUS-c.one-move,
// citing the Muster Phase's step c.
TEST(WarfareC_PostMove, MovingATroopTwiceAfterCombatIsAViolationOfThePostMove) {
  auto b = after_one_combat();
  b.move(kAna, "c1", "d1").move(kAna, "d1", "e1");
  const auto f = b.fold();
  expect_single(f, "WAR-C.post-move", b.last_seq(), "'Claw Musketeer' moving d1→e1 has already moved this phase");
  expect_none(f, "MUS-c.one-move");
}

TEST(WarfareC_PostMove, TheOtherPlayerMovingAfterTheChargeIsAViolation) {
  // "Allied Troops not adjacent to any enemy may then move": the charger's.
  auto b = after_one_combat();
  b.move(kBo, "e2", "d2");
  expect_single(b.fold(), "WAR-C.post-move", b.last_seq(), "Bo");
}

// --- The Troop Wages Rule ------------------------------------------------------

// Bo plays a second Militia on b2 in turn 3; Ana's Lancer on b1 defeats it
// the same turn (a mustering Troop does not strike back).
Battle wages_owed() {
  Battle b;
  b.face_off({{"Ironclaw Lancer", "b1"}}, {{"Paw Militia", "a2"}}).turn();
  b.muster(kAna).muster_playing(kBo, {{"Paw Militia", "b2"}}).warfare();
  b.act(kAna, charge()).act(kAna, CombatResolved{sq("b1"), {{sq("b2"), 3}}, {}});
  return b.attrition(kAna).pay_all(kAna).attrition(kBo);
}

TEST(WarfareWages, ATroopDestroyedTheTurnItWasMusteredIsStillProvisioned) {
  auto b = wages_owed();
  const auto before = b.state();
  ASSERT_EQ(before.seats[kBo].this_turn.wages_due.size(), 1u);
  EXPECT_EQ(before.seats[kBo].this_turn.wages_due[0].space, sq("b2"));
  EXPECT_EQ(core::provision_cost(before, kBo, testing::sample_catalog(), b.rules()), 1 + 1);
  b.pay_all(kBo);
  const auto f = b.fold();
  expect_clean(f);
  EXPECT_TRUE(f.state.seats[kBo].this_turn.wages_due.empty());
}

TEST(WarfareWages, LeavingTheWageOutIsAViolation) {
  auto b = wages_owed();
  b.pay(kBo, {{sq("a2"), "Paw Militia"}});
  expect_single(b.fold(), "WAR.wages", b.last_seq(), "Bo's Provisions payment does not say whether 'Paw Militia' is paid; it counts as unpaid");
}

// --- Bad input: spaces off the grid --------------------------------------------

TEST(WarfareBadInput, SpacesOffTheGridAreFindingsAndTheFoldGoesOn) {
  auto b = lancer_vs_militia();
  b.act(kAna, fire("j9", "a2", 2));
  const core::Seq shot = b.last_seq();
  b.act(kAna, charge())
      .act(kAna, CombatResolved{sq("a1"), {{sq("a2"), 2}, {sq("a9"), 1}}, {{sq("a2"), {{sq("a1"), 2}}}}});
  const core::Seq combat = b.last_seq();
  b.act(kAna, core::TroopDefeated{core::Space{-3, 100}, core::Space{}});
  const core::Seq defeated = b.last_seq();
  b.act(kAna, core::TroopDefeated{sq("a1"), core::Space{}});  // still checked after all that
  const auto f = b.fold();
  const auto space = f.of("LOG.space");
  ASSERT_EQ(space.size(), 3u) << f.all();
  EXPECT_EQ(space[0].seq, shot);
  EXPECT_NE(space[0].message.find("space j9 is off the 5x2 battlefield"), std::string::npos) << space[0].message;
  EXPECT_EQ(space[1].seq, combat);
  EXPECT_EQ(space[2].seq, defeated);
  expect_single(f, "WAR-C.eligible", combat, "strikes a9, which holds no adjacent enemy Troop");
  expect_single(f, "WAR-C.defeat", b.last_seq(), "'Ironclaw Lancer' on a1 is recorded as defeated but has 1");
  EXPECT_FALSE(f.state.at(sq("a2")).has_value()) << "the on-grid strike still landed";
}

}  // namespace
}  // namespace warlog
