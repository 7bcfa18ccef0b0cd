// Movement and position: shifts (Muster Phase › Movement, rulings R-022), a
// card on a Territory's space, Lost Troops moving and firing,
// and when, by whom and which Troops Burrow and un-Burrow. Each
// violating game here is one the engine passed clean before; each test names
// the rules section (or ruling) it checks.

#include <gtest/gtest.h>

#include "battle_builder.hpp"

namespace warlog {
namespace {

using core::ChargeMode;
using core::Ruleset;
using testing::Battle;
using testing::Table;
using testing::expect_clean;
using testing::expect_none;
using testing::expect_single;
using testing::sq;

constexpr core::Seat kAna = 0;
constexpr core::Seat kBo = 1;

core::TroopsShifted shift(std::initializer_list<std::pair<const char*, const char*>> moves) {
  core::TroopsShifted out;
  for (const auto& [from, to] : moves) out.moves.push_back({sq(from), sq(to)});
  return out;
}

// --- Shifts (Muster Phase › Movement; R-022) ----------------------------------

// Turn 2 on 5x2: Ana (leading) draws and plays the Lancer on a1 and the
// Musketeer on b1; `after` is what she records next in her Muster part.
Battle ana_plays_two() {
  Battle b;
  b.provision_turn().turn(kAna).muster_playing(kAna, {{"Ironclaw Lancer", "a1"}, {"Claw Musketeer", "b1"}});
  return b;
}

TEST(MusterMovement_Shift, SwappingOwnTroopsAsCardsArePlayedIsClean) {
  auto b = ana_plays_two();
  b.act(kAna, shift({{"a1", "b1"}, {"b1", "a1"}})).muster(kBo).warfare();
  const auto f = b.fold();
  expect_clean(f);
  EXPECT_EQ(f.state.at(sq("a1"))->card, "Claw Musketeer");
  EXPECT_EQ(f.state.at(sq("b1"))->card, "Ironclaw Lancer");
}

// A shift onto a space another card holds leaves the Troop on its owner's
// Vanguard row; with that row full, back where it stood: never nowhere
// (card conservation, check_invariants; found by fuzz_smoke.snapshot, where
// the Troop vanished from the state).
TEST(MusterMovement_Shift, AShiftOntoAnOccupiedSpaceWithAFullVanguardPutsTheTroopBackWhereItStood) {
  auto b = ana_plays_two();
  auto f = b.fold();
  core::GameState& s = f.state;
  // Ana's Lancer has advanced to a2; her Vanguard row (row 1) is full.
  s.at(sq("a2")) = *s.at(sq("a1"));
  s.at(sq("a1")).reset();
  for (const char* space : {"a1", "c1", "d1", "e1"}) s.at(sq(space)) = core::Troop{"Paw Militia", kBo};
  s.at(sq("b2")) = core::Troop{"Paw Militia", kBo};
  s.cards_in_game += 5;
  ASSERT_EQ(core::check_invariants(s), "");
  const core::Event ev{0, s.next_seq, s.turn, s.phase, kAna, shift({{"a2", "b2"}})};
  std::vector<core::Finding> out;
  core::apply(core::Context{testing::sample_catalog(), Ruleset{}}, s, ev, out);
  EXPECT_EQ(core::check_invariants(s), "");
  ASSERT_TRUE(s.at(sq("a2")).has_value());
  EXPECT_EQ(s.at(sq("a2"))->card, "Ironclaw Lancer");
  EXPECT_EQ(s.at(sq("b2"))->card, "Paw Militia");
  bool told = false;
  for (const auto& x : out) told |= x.message.find("shift puts 'Ironclaw Lancer' on b2") != std::string::npos;
  EXPECT_TRUE(told);
}

// The probe: a still-mustering Lancer shifted four columns into Bo's Vanguard.
TEST(MusterMovement_Shift, ShiftingATroopFourColumnsIntoTheEnemyVanguardIsAViolation) {
  auto b = ana_plays_two();
  b.act(kAna, shift({{"a1", "e2"}}));
  const auto f = b.fold();
  expect_single(f, "MUS-movement.shift", b.last_seq(), "'Ironclaw Lancer' shifted a1→e2 is not one space");
  expect_none(f, "MUS-mustering.move");  // a shift is no move
}

// Turn 3: Ana's Troops stand since turn 2; she draws, shifts and plays nothing.
TEST(MusterMovement_Shift, AShiftInAMusterPartThatPlaysNoCardIsAViolationWhenThePartCloses) {
  Battle b;
  b.face_off({{"Ironclaw Lancer", "a1"}, {"Claw Musketeer", "b1"}}, {});
  b.turn(kAna).muster(kAna).act(kAna, shift({{"a1", "b1"}, {"b1", "a1"}})).muster(kBo);
  const auto f = b.fold();
  const core::Seq closed = b.last_seq() - 1;  // Bo's PhaseStarted closes Ana's part
  expect_single(f, "MUS-movement.shift", closed, "Ana shifted Troops in a Muster Phase without playing a card");
}

// Findings must point at the right seat and event: the finding above lands
// on Bo's phase marker, where the breach became certain, but names Ana, who
// broke the rule, and her part's opening event, which it concerns.
TEST(FindingSeat, APartClosingFindingNamesTheSeatThatBrokeTheRuleAndThePartItConcerns) {
  Battle b;
  b.face_off({{"Ironclaw Lancer", "a1"}, {"Claw Musketeer", "b1"}}, {});
  b.turn(kAna).phase(core::Phase::Muster, kAna);
  const core::Seq opened = b.last_seq();
  b.act(kAna, core::CardsDrawn{b.fillers(kAna, {}, 2)}).act(kAna, shift({{"a1", "b1"}, {"b1", "a1"}})).muster(kBo);
  const auto hits = b.fold().of("MUS-movement.shift");
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0].seq, b.last_seq() - 1);
  EXPECT_EQ(b.events()[hits[0].seq].seat, kBo) << "the closing event is Bo's";
  EXPECT_EQ(hits[0].seat, kAna);
  EXPECT_EQ(hits[0].concerns, opened);
}

TEST(FindingSeat, AFindingOfAnEventNamesItsSeatAndItself) {
  auto b = ana_plays_two();
  b.act(kAna, shift({{"a1", "e2"}}));
  const auto hits = b.fold().of("MUS-movement.shift");
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0].seat, kAna);
  EXPECT_EQ(hits[0].concerns, b.last_seq());
}

TEST(MusterMovement_Shift, ShiftingADwellingIsAViolation) {
  Battle b;
  b.provision_turn().turn(kAna).muster_playing(kAna, {{"Ironclaw Lancer", "a1"}, {"Supply Wagon", "b1"}});
  b.act(kAna, shift({{"a1", "b1"}, {"b1", "a1"}}));
  expect_single(b.fold(), "MUS-movement.own-troops", b.last_seq(), "'Supply Wagon' on b1 is a Dwelling");
}

TEST(MusterMovement_OwnTroops, MovingADwellingIsAViolation) {
  Battle b;
  b.face_off({{"Supply Wagon", "a1"}}, {});
  b.turn(kAna).muster(kAna).move(kAna, "a1", "b1");
  expect_single(b.fold(), "MUS-movement.own-troops", b.last_seq(), "'Supply Wagon' on a1 is a Dwelling");
}

// --- A card on a Territory's space (R-042) -------------------------------------

// 5x3, the Old Mill on c2: Ana's Lancer stands on c1 since turn 2, Bo's
// Militia on c3; in turn 3 Ana moves the Lancer onto the Mill.
Battle lancer_onto_the_mill(Ruleset r = {}) {
  Battle b(Table::with_territory(), std::move(r));
  b.face_off({{"Ironclaw Lancer", "c1"}}, {{"Paw Militia", "c3"}});  // Bo contests the Mill: no Supremacy
  b.turn(kAna).muster(kAna).move(kAna, "c1", "c2");
  return b;
}

TEST(MusterMovement_TerritorySpace, MovingOntoATerritorysSpaceIsAViolation) {
  auto b = lancer_onto_the_mill();
  const auto f = b.fold();
  expect_single(f, "MUS-movement.territory", b.last_seq(), "the Territory 'Old Mill' lies on c2");
  EXPECT_TRUE(f.state.at(sq("c1")).has_value()) << "like a move onto a card (R-003), it stays where it was";
  EXPECT_FALSE(f.state.at(sq("c2")).has_value());
}

TEST(MusterMovement_TerritorySpace, UnderCardsOnTerritorySpacesTheMoveIsClean) {
  Ruleset r;
  r.cards_on_territory_spaces = true;
  const auto f = lancer_onto_the_mill(r).fold();
  expect_clean(f);
  EXPECT_EQ(f.state.at(sq("c2"))->card, "Ironclaw Lancer");
}

TEST(MusterMovement_TerritorySpace, PlayingOntoATerritorysSpaceIsAViolation) {
  Table t;
  t.territories = {{"Old Mill", core::Space{2, 0}}};  // c1, in Ana's Vanguard
  Battle b(std::move(t));
  b.provision_turn().turn(kAna).muster_playing(kAna, {{"Ironclaw Lancer", "c1"}});
  const auto f = b.fold();
  expect_single(f, "MUS-movement.territory", b.last_seq(), "'Ironclaw Lancer' played on c1");
  EXPECT_FALSE(f.state.at(sq("c1")).has_value());
}

TEST(MusterMovement_TerritorySpace, ShiftingOntoATerritorysSpaceIsAViolation) {
  Battle b(Table::with_territory());
  b.provision_turn().turn(kAna).muster_playing(kAna, {{"Ironclaw Lancer", "c1"}});
  b.act(kAna, shift({{"c1", "c2"}}));
  const auto f = b.fold();
  expect_single(f, "MUS-movement.territory", b.last_seq(), "the Territory 'Old Mill' lies on c2");
  EXPECT_TRUE(f.state.at(sq("c1")).has_value());
}

// --- Lost Troops (R-046) ---------------------------------------------------------

// Turn 3, Ana leads with her Lancer on a1 (Bo's Militia on a2); the Lancer
// becomes Lost in the Warfare Phase and Ana declines.
Battle lancer_lost(Ruleset r = {}) {
  auto b = testing::battle_turn({{"Ironclaw Lancer", "a1"}}, {{"Paw Militia", "a2"}}, {}, std::move(r));
  b.act(kAna, core::TroopLost{sq("a1")}).act(kAna, core::ChargeDeclined{}).attrition(kAna);
  return b;
}

TEST(MusterMovement_Lost, ATroopNotLostMovesInAttritionStepOne) {
  auto b = testing::battle_turn({{"Ironclaw Lancer", "a1"}}, {{"Paw Militia", "a2"}});
  b.act(kAna, core::ChargeDeclined{}).attrition(kAna).move(kAna, "a1", "b1");
  expect_clean(b.fold());
}

TEST(MusterMovement_Lost, ALostTroopMovingIsAViolation) {
  auto b = lancer_lost();
  b.move(kAna, "a1", "b1");
  expect_single(b.fold(), "MUS-movement.lost", b.last_seq(), "'Ironclaw Lancer' moving a1→b1 is Lost");
}

TEST(MusterMovement_Lost, UnderLostTroopsActALostTroopMoves) {
  Ruleset r;
  r.lost_troops_act = true;
  auto b = lancer_lost(r);
  b.move(kAna, "a1", "b1");
  expect_clean(b.fold());
}

TEST(WarfareA_Lost, ALostTroopFiringIsAViolation) {
  auto b = testing::battle_turn({{"Claw Musketeer", "a1"}}, {{"Paw Militia", "a2"}});
  b.act(kAna, core::TroopLost{sq("a1")}).act(kAna, core::ShotteFired{sq("a1"), sq("a2"), 2});
  expect_single(b.fold(), "WAR-A.lost", b.last_seq(), "'Claw Musketeer' on a1 is Lost");
}

TEST(WarfareA_Lost, UnderLostTroopsActALostTroopFires) {
  Ruleset r;
  r.lost_troops_act = true;
  auto b = testing::battle_turn({{"Claw Musketeer", "a1"}}, {{"Paw Militia", "a2"}}, {}, r);
  b.act(kAna, core::TroopLost{sq("a1")}).act(kAna, core::ShotteFired{sq("a1"), sq("a2"), 2});
  expect_clean(b.fold());
}

// --- Burrowing and un-Burrowing (R-045) ------------------------------------------

// Claw against the Weald: Bo's Weald Burrower stands on c2 since turn 2. In
// turn 3 Ana leads; both Muster parts are under way up to Bo's.
Battle burrower_in_bos_muster() {
  Battle b(Table::against_weald());
  b.face_off({{"Ironclaw Lancer", "a1"}}, {{"Weald Burrower", "c2"}}).turn(kAna).musters();
  return b;
}

TEST(WarfareB_BurrowTiming, BurrowingInTheOwnersMusterPartIsClean) {
  auto b = burrower_in_bos_muster();
  b.act(kBo, core::TroopBurrowed{sq("c2")}).warfare();
  const auto f = b.fold();
  expect_clean(f);
  EXPECT_TRUE(f.state.at(sq("c2"))->has(core::kTroopBurrowed));
}

TEST(WarfareB_BurrowTiming, BurrowingInTheWarfarePhaseIsAViolation) {
  auto b = burrower_in_bos_muster();
  b.warfare().act(kBo, core::TroopBurrowed{sq("c2")});
  expect_single(b.fold(), "WAR-B.burrow-timing", b.last_seq(), "Burrows in the warfare phase");
}

TEST(WarfareB_BurrowTiming, UnBurrowingOutsideABurrowChargeInTheWarfarePhaseIsAViolation) {
  auto b = burrower_in_bos_muster();
  b.act(kBo, core::TroopBurrowed{sq("c2")}).warfare().act(kBo, core::TroopUnburrowed{sq("c2")});
  expect_single(b.fold(), "WAR-B.burrow-timing", b.last_seq(), "un-Burrows in the warfare phase");
}

TEST(WarfareB_BurrowTiming, BurrowingAnEnemyTroopIsAViolation) {
  Battle b(Table::against_weald());
  b.face_off({{"Ironclaw Lancer", "a1"}}, {{"Weald Burrower", "c2"}}).turn(kAna).muster(kAna);
  b.act(kAna, core::TroopBurrowed{sq("c2")});
  expect_single(b.fold(), "LOG.actor", b.last_seq(), "Ana Burrows 'Weald Burrower' on c2, which is Bo's");
}

TEST(WarfareB_BurrowTiming, BurrowingInTheOtherPlayersMusterPartIsAViolation) {
  Battle b(Table::against_weald());
  b.face_off({{"Ironclaw Lancer", "a1"}}, {{"Weald Burrower", "c2"}}).turn(kAna).muster(kAna);
  b.act(kBo, core::TroopBurrowed{sq("c2")});
  expect_single(b.fold(), "LOG.actor", b.last_seq(), "Burrowing by Bo during Ana's muster phase");
}

// Turn 2: Bo plays the Burrower on c2 and Burrows it at once.
Battle burrows_on_entry(Ruleset r = {}) {
  Battle b(Table::against_weald(), std::move(r));
  b.provision_turn().turn(kAna).muster_playing(kAna, {{"Ironclaw Lancer", "a1"}});
  b.muster_playing(kBo, {{"Weald Burrower", "c2"}}).act(kBo, core::TroopBurrowed{sq("c2")});
  return b;
}

TEST(WarfareB_BurrowMustering, BurrowingOnTheTurnItEnteredIsAViolation) {
  auto b = burrows_on_entry();
  expect_single(b.fold(), "WAR-B.burrow-mustering", b.last_seq(), "'Weald Burrower' on c2 is still mustering");
}

TEST(WarfareB_BurrowMustering, UnderBurrowWhileMusteringItIsClean) {
  Ruleset r;
  r.burrow_while_mustering = true;
  expect_clean(burrows_on_entry(r).fold());
}

TEST(Ruleset, ThePositionOptionsAreRead) {
  const Ruleset d;
  EXPECT_FALSE(d.cards_on_territory_spaces || d.burrow_while_mustering || d.lost_troops_act);
  auto r = core::parse_ruleset_toml(
      "[rulings]\ncards_on_territory_spaces = true\nburrow_while_mustering = true\nlost_troops_act = true\n");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(r->cards_on_territory_spaces && r->burrow_while_mustering && r->lost_troops_act);
}

}  // namespace
}  // namespace warlog
