// The Combat Rulings table (Warfare Phase › Combat Rulings), row by row. Each
// row answers "No"; the test plays the thing ruled out and expects exactly
// that rule's finding at that event, then plays the counterpart the ruling
// leaves open and expects no finding at all.

#include <gtest/gtest.h>

#include <functional>
#include <ostream>

#include "battle_builder.hpp"

namespace warlog {
namespace {

using core::CombatResolved;
using core::LostTroopRecovered;
using core::Recovery;
using testing::Battle;
using testing::sq;

constexpr core::Seat kAna = 0;

CombatResolved duel(std::string_view troop, int damage, std::string_view enemy, int back) {
  return {sq(troop), {{sq(enemy), damage}}, {{sq(enemy), {{sq(troop), back}}}}};
}

// Ana (leading) charges with her Lancer a1 (Morale 3) and Musketeer b1
// (Morale 2), each facing a Paw Militia on the 5x2 board.
Battle two_duels() {
  auto b = testing::battle_turn({{"Ironclaw Lancer", "a1"}, {"Claw Musketeer", "b1"}},
                                {{"Paw Militia", "a2"}, {"Paw Militia", "b2"}});
  b.act(kAna, core::ChargeDeclared{});
  return b;
}

// Ana's Lancer b1 (and a Musketeer on e1) charges; Bo stepped a Militia from
// a2 to a1, so two Militia (a1, b2) stand beside the Lancer, and the one on
// b2 becomes Lost as the Charge is declared.
Battle lancer_between_two() {
  Battle b;
  b.face_off({{"Ironclaw Lancer", "b1"}, {"Claw Musketeer", "e1"}}, {{"Paw Militia", "a2"}, {"Paw Militia", "b2"}});
  b.turn().muster(kAna).muster(1).move(1, "a2", "a1").warfare();
  b.act(kAna, core::ChargeDeclared{}).act(kAna, core::TroopLost{sq("b2")});
  return b;
}

// Ana's Lancer a1 and Musketeer e1 against Militia on a2 and c2; in turn 3
// Ana plays a second Lancer on c1, facing c2, and charges.
Battle fresh_lancer_beside_an_enemy() {
  Battle b;
  b.face_off({{"Ironclaw Lancer", "a1"}, {"Claw Musketeer", "e1"}}, {{"Paw Militia", "a2"}, {"Paw Militia", "c2"}});
  b.turn().muster_playing(kAna, {{"Ironclaw Lancer", "c1"}}).muster(1).warfare();
  b.act(kAna, core::ChargeDeclared{});
  return b;
}

struct Played {
  Battle battle;
  core::Seq at = 0;  // the event the ruling forbids (ruled-out cases)
};

struct RulingRow {
  const char* name;
  const char* question;
  const char* rule;
  const char* words;
  std::function<Played()> ruled_out;
  std::function<Battle()> allowed;
};

const RulingRow kRulings[] = {
    {"LostMidChargeDoesNotFight", "Does a Troop that becomes Lost mid-Charge still fight?", "WAR-C.lost",
     "'Ironclaw Lancer' on a1 is Lost (since turn 3) and cannot fight",
     [] {
       auto b = two_duels();
       b.act(kAna, core::TroopLost{sq("a1")}).act(kAna, CombatResolved{sq("a1"), {{sq("a2"), 3}}, {}});
       return Played{b, b.last_seq()};
     },
     [] {  // it drops out; the others fight on, in Morale order without it
       auto b = two_duels();
       return b.act(kAna, core::TroopLost{sq("a1")}).act(kAna, duel("b1", 2, "b2", 2));
     }},
    {"LostMidChargeIsNotStruck", "Does a Troop that becomes Lost mid-Charge still fight? (it drops out)",
     "WAR-C.lost", "'Paw Militia' on b2 is Lost and out of the combat, but is struck",
     [] {
       auto b = lancer_between_two();
       b.act(kAna, CombatResolved{sq("b1"), {{sq("a1"), 2}, {sq("b2"), 1}}, {{sq("a1"), {{sq("b1"), 2}}}}});
       return Played{b, b.last_seq()};
     },
     [] {  // the Lancer's whole Vigor goes to the enemy still in the fight
       auto b = lancer_between_two();
       return b.act(kAna, CombatResolved{sq("b1"), {{sq("a1"), 3}}, {{sq("a1"), {{sq("b1"), 2}}}}});
     }},
    {"LostDoesNotReconnectDuringACharge", "Can a Lost Troop reconnect during a Charge?", "WAR-C.reconnect",
     "a Lost Troop on a1 is recovered during the Warfare Phase",
     [] {
       auto b = two_duels();
       b.act(kAna, core::TroopLost{sq("a1")}).act(kAna, LostTroopRecovered{sq("a1"), Recovery::Pay, sq("c1")});
       return Played{b, b.last_seq()};
     },
     [] {  // it stays Lost until the Attrition Phase, where it may be recovered
       auto b = two_duels();
       b.act(kAna, core::TroopLost{sq("a1")}).act(kAna, duel("b1", 2, "b2", 2)).attrition(kAna);
       return b.act(kAna, LostTroopRecovered{sq("a1"), Recovery::Reshuffle, {}}).pay_all(kAna);
     }},
    {"VictorDoesNotAdvance", "Does defeating an enemy let the victor move into the empty space?", "WAR-C.no-advance",
     "'Ironclaw Lancer' advances into a2, emptied by a defeat this Charge",
     [] {
       auto b = two_duels();
       b.act(kAna, duel("a1", 3, "a2", 2)).act(kAna, duel("b1", 2, "b2", 2)).move(kAna, "a1", "a2");
       return Played{b, b.last_seq()};
     },
     [] {  // a Troop adjacent to no enemy may still move 1 space elsewhere
       auto b = testing::battle_turn({{"Ironclaw Lancer", "a1"}}, {{"Paw Militia", "a2"}});
       b.act(kAna, core::ChargeDeclared{}).act(kAna, duel("a1", 3, "a2", 2));
       return b.move(kAna, "a1", "b1");
     }},
    {"MusteringTroopDoesNotFight", "Can a Troop that is still mustering fight?", "WAR-C.mustering",
     "'Ironclaw Lancer' on c1 is still mustering and cannot fight",
     [] {
       auto b = fresh_lancer_beside_an_enemy();
       b.act(kAna, duel("c1", 3, "c2", 2));
       return Played{b, b.last_seq()};
     },
     [] {  // the Lancer deployed last turn fights
       auto b = fresh_lancer_beside_an_enemy();
       return b.act(kAna, duel("a1", 3, "a2", 2));
     }},
};

void PrintTo(const RulingRow& row, std::ostream* os) { *os << row.name; }

class CombatRulingsTable : public ::testing::TestWithParam<RulingRow> {};

TEST_P(CombatRulingsTable, TheRuledOutPlayIsExactlyThatFinding) {
  const RulingRow& row = GetParam();
  SCOPED_TRACE(row.question);
  const Played p = row.ruled_out();
  const auto f = p.battle.fold();
  ASSERT_EQ(f.findings.size(), 1u) << f.all();
  EXPECT_EQ(f.findings[0].rule_id, row.rule);
  testing::expect_single(f, row.rule, p.at, row.words);
}

TEST_P(CombatRulingsTable, TheCounterpartTheRulingAllowsIsClean) {
  const RulingRow& row = GetParam();
  SCOPED_TRACE(row.question);
  testing::expect_clean(row.allowed().fold());
}

INSTANTIATE_TEST_SUITE_P(WarfareCombatRulings, CombatRulingsTable, ::testing::ValuesIn(kRulings),
                         [](const ::testing::TestParamInfo<RulingRow>& info) { return std::string(info.param.name); });

// Derived consequences the table implies.
TEST(WarfareCombatRulings_Consequences, ALostTroopStaysLostThroughTheCharge) {
  auto b = two_duels();
  b.act(kAna, core::TroopLost{sq("a1")}).act(kAna, duel("b1", 2, "b2", 2));
  const auto s = b.state();
  EXPECT_TRUE(s.at(sq("a1"))->has(core::kTroopLost));
  EXPECT_EQ(s.at(sq("a1"))->lost_turn, 3);
}

}  // namespace
}  // namespace warlog
