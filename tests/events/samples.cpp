#include "events/samples.hpp"

namespace warlog::events::test {

std::vector<core::Event> sample_events() {
  using namespace core;
  using P = Phase;
  std::vector<Event> v;
  // --- Setup
  v.push_back(make_event(
      0, 0, P::Setup, kNoSeat,
      GameCreated{"Spring League, Round 3 \u2014 Table 2", "2026-03-14",
                  "9f2c0d1e4b7a8c3f5e6d7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d",
                  "00ff11ee22dd33cc44bb55aa66997788ffeeddccbbaa99887766554433221100",
                  {{"Ada", Allegiance::PawCoalition}, {"Bj\u00f6rn", Allegiance::Hirelings}},
                  {{"Old Mill", {2, 1}}, {"Ford", {0, 3}}},
                  6,
                  7,
                  std::string("\x5a\x01\xc3\x10live-uuid-16", 16),
                  "Spring League",  // a game of an event (warlog serve round open)
                  3,
                  2}));
  v.push_back(make_event(1, 0, P::Setup, 1,
                         ArmyRegistered{1,
                                        {{"Pikeman", 3}, {"Longbow", 2}, {"Sapper", -1}},
                                        {{"Hold the Line", 1}}}));
  // --- Turn frame
  v.push_back(make_event(2, 1, P::Setup, kNoSeat, TurnStarted{}));
  v.push_back(make_event(3, 1, P::Setup, kNoSeat, MoraleChecked{1}));
  v.push_back(make_event(4, 1, P::Warfare, 0, PhaseStarted{}));
  v.push_back(make_event(5, 9, P::End, kNoSeat, GameEnded{0, Victory::Attrition}));
  // --- Muster Phase
  v.push_back(make_event(6, 2, P::Muster, 0,
                         CardsDrawn{{"Pikeman", "Longbow", "Mill Gambit", ""}}));
  v.push_back(make_event(7, 2, P::Muster, 0, Foraged{"Longbow"}));
  v.push_back(make_event(8, 2, P::Muster, 1, ReturnedFromHomeland{"Mill Gambit"}));
  v.push_back(make_event(9, 2, P::Muster, 1, GambitStocked{"Ford Gambit"}));
  v.push_back(make_event(10, 2, P::Muster, 0, CardPlayed{"Pikeman", {2, 0}}));
  v.push_back(make_event(11, 2, P::Muster, 0, TroopMoved{{2, 0}, {2, 1}}));
  v.push_back(make_event(12, 2, P::Muster, 0,
                         TroopsShifted{{{{1, 0}, {2, 0}}, {{2, 0}, {1, 0}}, {{0, 0}, {}}}}));
  v.push_back(make_event(13, 2, P::Muster, 1,
                         AbilityUsed{{1, 3}, "Rally: +1 Morale to adjacent Troops"}));
  v.push_back(make_event(14, 2, P::Muster, 1, TroopBurrowed{{3, 2}}));
  v.push_back(make_event(15, 3, P::Muster, 1, TroopUnburrowed{{3, 2}}));
  // --- Warfare Phase
  v.push_back(make_event(16, 3, P::Warfare, 0, ShotteFired{{0, 0}, {0, 3}, 2}));
  v.push_back(make_event(17, 3, P::Warfare, 1, ChargeDeclared{ChargeMode::Burrow, {3, 2}}));
  v.push_back(make_event(18, 3, P::Warfare, 0, ChargeDeclined{}));
  v.push_back(make_event(19, 3, P::Warfare, 0, LocalFavorUsed{"redraw one card"}));
  v.push_back(make_event(
      20, 3, P::Warfare, 1,
      CombatResolved{{1, 1},
                     {{{1, 2}, 3}, {{2, 2}, 1}},
                     {{{1, 2}, {{{1, 1}, 2}, {{0, 1}, -4}}}, {{2, 2}, {}}}}));
  v.push_back(make_event(21, 3, P::Warfare, 1, TroopLost{{4, 3}}));
  v.push_back(make_event(22, 3, P::Warfare, 1, TroopDefeated{{1, 2}, {2, 2}}));  // beneath the Territory on c3
  // --- Attrition Phase
  v.push_back(make_event(23, 3, P::Attrition, 1,
                         LostTroopRecovered{{4, 3}, Recovery::Reshuffle, {4, 0}}));
  v.push_back(make_event(
      24, 3, P::Attrition, 0,
      ProvisionsPaid{{{{2, 0}, ""}, {{}, "Mill Gambit"}}, {{{1, 1}, "Pikeman"}}}));
  v.push_back(make_event(25, 3, P::Attrition, 0, CardsDiscarded{{"Longbow", "Longbow"}}));
  v.push_back(make_event(26, 3, P::Attrition, 0, TerritoryControlTaken{{2, 1}}));
  v.push_back(make_event(27, 65535, P::Attrition, 1, TroopFled{{0, 0}}));
  // --- Corrections
  v.push_back(make_event(28, 3, P::Attrition, kNoSeat, Voided{27, "wrong Troop typed", "Scorekeeper Ana"}));
  v.push_back(make_event(29, 3, P::Attrition, kNoSeat,
                         BackupTo{0xffffffffffffffffULL, "appeal \u2014 seq 24", "a1b2c3d4e5f60718",
                                  std::string("\x00\xff sig", 6)}));
  return v;
}

}  // namespace warlog::events::test
