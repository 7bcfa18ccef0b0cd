// The Charge Subphase and Combat Resolution, second pass: a Charge a card
// allows (rulings R-048), every eligible combat fought, a defender's
// strike back, a Troop that fought then moving, and Local
// Favor only from an explicit decline, from the next turn. Each
// violating game here is one the engine passed clean before.

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "battle_builder.hpp"

namespace warlog {
namespace {

using core::ChargeMode;
using core::CombatResolved;
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

core::ChargeDeclared charge(ChargeMode m = ChargeMode::Normal, std::string_view from = "") { return {m, sq(from)}; }
CombatResolved duel(std::string_view troop, int damage, std::string_view enemy, int back) {
  return {sq(troop), {{sq(enemy), damage}}, {{sq(enemy), {{sq(troop), back}}}}};
}

// Ana's Ironclaw Lancer (3, 3, 3) on a1 against Bo's Paw Militia (2, 2, 2) on
// a2 in turn 3, Ana leading, the Warfare Phase begun.
Battle lancer_vs_militia(Ruleset r = {}, Table t = {}) {
  return testing::battle_turn({{"Ironclaw Lancer", "a1"}}, {{"Paw Militia", "a2"}}, std::move(t), std::move(r));
}

// The sample catalog with one card whose text allows a Charge.
const core::Catalog& catalog_with_a_charge_card() {
  static const core::Catalog catalog = [] {
    std::ifstream in(std::string(WARLOG_SAMPLES_DIR) + "/catalogs/sample_cards.csv");
    std::stringstream text;
    text << in.rdbuf();
    std::string csv = text.str();
    const std::string from = "Paw Militia,Paw Coalition,Troop,Common,1,1,2,2,2,shocked,";
    csv.replace(csv.find(from), from.size(), "Paw Militia,Paw Coalition,Troop,Common,1,1,2,2,2,shocked charge,");
    auto c = core::parse_catalog_csv(csv);
    if (!c) throw std::runtime_error(c.error().message);
    return std::move(*c);
  }();
  return catalog;
}

Folded fold_with(const core::Catalog& catalog, const Battle& b) {
  Folded f;
  const core::Context ctx{catalog, b.rules()};
  for (const core::Event& ev : b.events()) core::apply(ctx, f.state, ev, f.findings);
  return f;
}

// --- A Charge a card allows (Warfare Phase › B. Charge Subphase; R-048) --------

TEST(WarfareB_CardCharge, ACardChargeNoCardAllowsIsAViolation) {
  auto b = lancer_vs_militia();
  b.act(kBo, charge(ChargeMode::Card)).act(kBo, duel("a2", 2, "a1", 3));
  expect_single(b.fold(), "WAR-B.card-charge", b.last_seq() - 1,
                "Bo declares a Charge by a card's leave, but no card of Bo's in play allows one");
}

TEST(WarfareB_CardCharge, ACardChargeACardInPlayAllowsIsClean) {
  auto b = lancer_vs_militia();
  b.act(kBo, charge(ChargeMode::Card)).act(kBo, duel("a2", 2, "a1", 3));
  const auto f = fold_with(catalog_with_a_charge_card(), b);
  expect_clean(f);
  EXPECT_FALSE(f.state.at(sq("a2")).has_value()) << "the Lancer's 3 defeats the Militia";
}

// --- Every eligible combat (Warfare Phase › C. Combat Resolution; R-049) ------

TEST(WarfareC_EveryCombat, AChargeWithNoCombatWhileTroopsStandAdjacentIsAViolation) {
  auto b = lancer_vs_militia();
  b.act(kAna, charge()).attrition(kAna);
  expect_single(b.fold(), "WAR-C.every-combat", b.last_seq(),
                "Ana's Charge leaves 'Ironclaw Lancer' on a1 unfought beside 'Paw Militia' on a2");
}

// The finding is reported when the phase closes, but it concerns the Charge
// that left the combat unfought, not the Warfare Phase marker before it: a
// judge stepping to `concerns` lands on the decision in dispute (probe e1).
TEST(WarfareC_EveryCombat, AnUnfoughtCombatConcernsTheChargeDeclaredNotTheWarfareMarker) {
  auto b = lancer_vs_militia();
  b.act(kAna, charge());
  const core::Seq declared = b.last_seq();
  b.attrition(kAna);
  const auto f = b.fold();
  const auto hits = f.of("WAR-C.every-combat");
  ASSERT_EQ(hits.size(), 1u) << f.all();
  EXPECT_EQ(hits[0].concerns, declared) << f.all();
  EXPECT_EQ(hits[0].seat, kAna);
  EXPECT_NE(hits[0].seq, hits[0].concerns) << "reported at the phase's close, not at the Charge";
}

TEST(WarfareC_EveryCombat, AChargeThatFightsItsEligibleCombatIsClean) {
  auto b = lancer_vs_militia();
  b.act(kAna, charge()).act(kAna, duel("a1", 3, "a2", 2)).settle();
  expect_clean(b.fold());
}

TEST(WarfareC_EveryCombat, APostCombatMoveBeforeAnEligibleCombatIsAViolation) {
  auto b = testing::battle_turn({{"Ironclaw Lancer", "a1"}, {"Claw Musketeer", "e1"}}, {{"Paw Militia", "a2"}});
  b.act(kAna, charge()).move(kAna, "e1", "d1");
  expect_single(b.fold(), "WAR-C.every-combat", b.last_seq(), "leaves 'Ironclaw Lancer' on a1 unfought");
}

TEST(WarfareC_EveryCombat, UnderChargeCombatsOptionalAnUnfoughtCombatIsClean) {
  Ruleset r;
  r.charge_combats_optional = true;
  auto b = lancer_vs_militia(r);
  b.act(kAna, charge()).attrition(kAna);
  expect_none(b.fold(), "WAR-C.every-combat");
}

// --- A defender's strike back (Warfare Phase › C. Combat Resolution; R-038) -----

TEST(WarfareC_StrikeBack, ADefenderStrikeBackLeftOutIsAViolationAndItsVigorLands) {
  auto b = lancer_vs_militia();
  b.act(kAna, charge()).act(kAna, CombatResolved{sq("a1"), {{sq("a2"), 3}}, {}});
  const auto f = b.fold();
  expect_single(f, "WAR-C.strike-back", b.last_seq(),
                "'Paw Militia' on a2 is struck by 'Ironclaw Lancer' on a1 but its strike back is not recorded");
  ASSERT_TRUE(f.state.at(sq("a1")).has_value());
  EXPECT_EQ(f.state.at(sq("a1"))->damage, 2) << "the Militia's Vigor 2, dealt at the same time";
}

TEST(WarfareC_StrikeBack, UnderStrikeBackOptionalTheOmissionDealsNothing) {
  Ruleset r;
  r.strike_back_optional = true;
  auto b = lancer_vs_militia(r);
  b.act(kAna, charge()).act(kAna, CombatResolved{sq("a1"), {{sq("a2"), 3}}, {}});
  const auto f = b.fold();
  expect_clean(f);
  EXPECT_EQ(f.state.at(sq("a1"))->damage, 0);
}

// --- A Troop that fought, then moving (Warfare Phase › B.; R-047) ---------------

Battle lancer_wins_then_moves(Ruleset r = {}) {
  auto b = lancer_vs_militia(std::move(r));
  b.act(kAna, charge()).act(kAna, duel("a1", 3, "a2", 2)).move(kAna, "a1", "b1");
  return b;
}

TEST(WarfareB_FoughtMove, AVictorMovingElsewhereIsCleanByDefault) {
  const auto f = lancer_wins_then_moves().fold();
  expect_clean(f);
  EXPECT_EQ(f.state.at(sq("b1"))->card, "Ironclaw Lancer");
}

TEST(WarfareB_FoughtMove, UnderFoughtTroopsStayAVictorMovingIsAViolation) {
  Ruleset r;
  r.fought_troops_stay = true;
  auto b = lancer_wins_then_moves(r);
  expect_single(b.fold(), "WAR-C.fought-move", b.last_seq(), "'Ironclaw Lancer' on a1 fought this Charge and moves");
}

// --- Local Favor (Warfare Phase › B. Charge Subphase › Local Favor; R-050) -------

// Claw against the Weald in turn 3: Ana leads; Bo's Burrower (a2, Burrowed
// in his Muster part) un-Burrows and Charges Ana's Lancer (a1), and his
// Briar Archer (b2) fights her Musketeer (b1). All four fall.
Battle burrow_charge_pre_empts_ana(Ruleset r = {}) {
  Battle b(Table::against_weald(), std::move(r));
  b.face_off({{"Ironclaw Lancer", "a1"}, {"Claw Musketeer", "b1"}}, {{"Weald Burrower", "a2"}, {"Briar Archer", "b2"}});
  b.turn().muster(kAna).muster(kBo).act(kBo, core::TroopBurrowed{sq("a2")}).warfare();
  b.act(kBo, charge(ChargeMode::Burrow, "a2")).act(kBo, duel("a2", 3, "a1", 3)).act(kBo, duel("b2", 2, "b1", 2));
  return b;
}

TEST(WarfareB_LocalFavor, ALeaderPreEmptedByABurrowChargeGainsNone) {
  auto b = burrow_charge_pre_empts_ana();
  b.act(kAna, core::ChargeDeclined{});
  const auto f = b.fold();
  expect_single(f, "WAR-B.once", b.last_seq(), "a decline after a Charge was declared this turn");
  EXPECT_EQ(f.state.seats[kAna].local_favor_until_turn, 0);
}

TEST(WarfareB_LocalFavor, UnderFavorWhenPreEmptedTheLeaderGainsIt) {
  Ruleset r;
  r.favor_when_preempted = true;
  const auto f = burrow_charge_pre_empts_ana(r).fold();
  expect_clean(f);
  EXPECT_EQ(f.state.seats[kAna].local_favor_until_turn, 4);
}

TEST(WarfareB_LocalFavor, UsingItInTheTurnItWasGainedIsAViolation) {
  auto b = lancer_vs_militia();
  b.act(kAna, core::ChargeDeclined{}).attrition(kAna).act(kAna, core::LocalFavorUsed{"draw one more"});
  expect_single(b.fold(), "WAR-B.local-favor", b.last_seq(), "Ana uses Local Favor ('draw one more') in the turn it "
                                                             "was gained");
}

TEST(WarfareB_LocalFavor, UnderFavorSameTurnUsingItAtOnceIsClean) {
  Ruleset r;
  r.favor_same_turn = true;
  auto b = lancer_vs_militia(r);
  b.act(kAna, core::ChargeDeclined{}).attrition(kAna).act(kAna, core::LocalFavorUsed{"draw one more"});
  expect_none(b.fold(), "WAR-B.local-favor");
}

TEST(Ruleset, TheChargeOptionsAreRead) {
  auto r = core::parse_ruleset_toml(
      "[rulings]\nfought_troops_stay = true\ncharge_combats_optional = true\nstrike_back_optional = true\n"
      "favor_when_preempted = true\nfavor_same_turn = true\n");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(r->fought_troops_stay && r->charge_combats_optional && r->strike_back_optional &&
              r->favor_when_preempted && r->favor_same_turn);
  const Ruleset d;
  EXPECT_FALSE(d.fought_troops_stay || d.charge_combats_optional || d.strike_back_optional ||
               d.favor_when_preempted || d.favor_same_turn);
}

}  // namespace
}  // namespace warlog
