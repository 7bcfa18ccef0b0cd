// The Failing-to-pay table (Attrition Phase › 3. Pay Provision Costs ›
// Failing to pay, with Shocked Troops and the Rabble side), row by row: what
// went unpaid and the penalty the fold derives. Follow-up tests check how
// long each penalty lasts: Morale 0 until the owner's next Attrition Phase;
// a discard owed by the end of the part; the payment priority behind it.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <functional>
#include <ostream>
#include <vector>

#include "battle_builder.hpp"

namespace warlog {
namespace {

using core::ChargeDeclared;
using core::ChargeMode;
using core::CombatResolved;
using core::Seat;
using testing::Battle;
using testing::Table;
using testing::count;
using testing::expect_none;
using testing::expect_single;
using testing::sample_catalog;
using testing::sq;

constexpr Seat kAna = 0;
constexpr Seat kBo = 1;

// Turn 3 on the 5x2 board, Ana's Lancer a1 against Bo's `bo_troop` on a2;
// nobody Charges; Ana has paid, Bo's Attrition Phase has begun.
Battle bo_to_pay(const std::string& bo_troop) {
  auto b = testing::battle_turn({{"Ironclaw Lancer", "a1"}}, {{bo_troop, "a2"}});
  b.act(kAna, core::ChargeDeclined{}).attrition(kAna).pay_all(kAna);
  return b.attrition(kBo);
}

// Claw against the Weald: Bo's Weald Burrower (a2) Burrows in turn 3, then
// un-Burrows to Charge Ana's Lancer (a1); both fall. Bo's Briar Archer (e2)
// stands apart from Ana's Musketeer (b1), so the Charge has no other combat
// to fight (rulings R-049). Ana has paid; Bo's Attrition Phase has begun.
Battle burrower_fell() {
  Battle b(Table::against_weald());
  b.face_off({{"Ironclaw Lancer", "a1"}, {"Claw Musketeer", "b1"}}, {{"Weald Burrower", "a2"}, {"Briar Archer", "e2"}});
  b.turn().muster(kAna).muster(kBo).act(kBo, core::TroopBurrowed{sq("a2")}).warfare();
  b.act(kBo, ChargeDeclared{ChargeMode::Burrow, sq("a2")});
  b.act(kBo, CombatResolved{sq("a2"), {{sq("a1"), 3}}, {{sq("a1"), {{sq("a2"), 3}}}}});
  return b.attrition(kAna).pay_all(kAna).attrition(kBo);
}

enum class Penalty { MoraleZero, Flees, None };

struct Unpaid {
  Battle battle;  // ends with the ProvisionsPaid that leaves it unpaid
  Seat seat = 0;
  core::Space space;  // where it stood (invalid for a Gambit)
  std::string card;
};

struct PayRow {
  const char* name;
  const char* what_went_unpaid;
  std::function<Unpaid()> scenario;
  Penalty troop_penalty;
  int discards_owed;
};

const PayRow kFailingToPay[] = {
    {"Troop", "a Troop", [] {
       auto b = testing::battle_turn({{"Ironclaw Lancer", "a1"}}, {{"Paw Militia", "a2"}});
       b.act(kAna, core::ChargeDeclined{}).attrition(kAna).pay(kAna, {}, {{sq("a1"), "Ironclaw Lancer"}});
       return Unpaid{b, kAna, sq("a1"), "Ironclaw Lancer"};
     },
     Penalty::MoraleZero, 0},
    {"ShockedTroop", "a Troop with the Shocked Quirk", [] {
       auto b = bo_to_pay("Paw Militia");
       b.pay(kBo, {}, {{sq("a2"), "Paw Militia"}});
       return Unpaid{b, kBo, sq("a2"), "Paw Militia"};
     },
     Penalty::Flees, 0},
    {"TroopOnTheRabbleSide", "a Paw Coalition Troop while on the Rabble side", [] {
       auto b = bo_to_pay("Coalition Pikeman");
       b.act(kBo, core::AbilityUsed{{}, "Rebel Rabble Token: rabble"});
       b.pay(kBo, {}, {{sq("a2"), "Coalition Pikeman"}});
       return Unpaid{b, kBo, sq("a2"), "Coalition Pikeman"};
     },
     Penalty::Flees, 0},
    {"Gambit", "a Gambit", [] {
       Battle b;
       b.provision_turn().deploy({{"Drill Orders", ""}}, {{"Paw Militia", "a2"}});
       b.attrition(kAna).pay(kAna, {}, {{{}, "Drill Orders"}});
       return Unpaid{b, kAna, {}, "Drill Orders"};
     },
     Penalty::None, 1},
    {"DefeatedUnBurrowedTroop", "a defeated Burrowed Troop that un-Burrowed this turn", [] {
       auto b = burrower_fell();
       b.pay(kBo, {}, {{sq("a2"), "Weald Burrower"}, {sq("e2"), "Briar Archer"}});
       return Unpaid{b, kBo, sq("a2"), "Weald Burrower"};
     },
     Penalty::None, 1},
};

class FailingToPayTable : public ::testing::TestWithParam<PayRow> {};

TEST_P(FailingToPayTable, ThePenaltyIsDerived) {
  const PayRow& row = GetParam();
  SCOPED_TRACE(row.what_went_unpaid);
  const Unpaid u = row.scenario();
  const auto before = u.battle.state_at(u.battle.events().size() - 1);
  const auto f = u.battle.fold();
  testing::expect_clean(f);  // going unpaid is legal; only its penalty follows
  switch (row.troop_penalty) {
    case Penalty::MoraleZero: {
      ASSERT_TRUE(f.state.at(u.space).has_value());
      const core::Troop& t = *f.state.at(u.space);
      EXPECT_TRUE(t.has(core::kTroopUnprovisioned));
      EXPECT_EQ(core::effective_morale(t, sample_catalog()), 0);
      EXPECT_EQ(core::morale_total(f.state, u.seat, sample_catalog()), 0);
      break;
    }
    case Penalty::Flees:
      EXPECT_FALSE(f.state.at(u.space).has_value()) << "it flees even unwounded";
      EXPECT_EQ(count(f.state.seats[u.seat].discard, u.card), count(before.seats[u.seat].discard, u.card) + 1);
      break;
    case Penalty::None: break;
  }
  EXPECT_EQ(f.state.seats[u.seat].cards_owed_discard, row.discards_owed);
}

void PrintTo(const PayRow& row, std::ostream* os) { *os << row.name; }

INSTANTIATE_TEST_SUITE_P(AttritionStep3_FailingToPay, FailingToPayTable, ::testing::ValuesIn(kFailingToPay),
                         [](const ::testing::TestParamInfo<PayRow>& info) { return std::string(info.param.name); });

// The rows whose penalty is a discard: it must be made by the end of the part.
class FailingToPayDiscard : public ::testing::TestWithParam<PayRow> {};

std::vector<PayRow> rows_owing_a_discard() {
  std::vector<PayRow> out;
  for (const PayRow& row : kFailingToPay) {
    if (row.discards_owed > 0) out.push_back(row);
  }
  return out;
}

// Ends the payer's Attrition part (the next player's part, or the next
// turn); returns the event that ends it.
core::Seq close_part(Battle& b, Seat payer) {
  const core::Seq closing = b.next_seq();
  if (payer == b.leader()) {
    b.attrition(core::other_seat(payer));
  } else {
    b.turn();
  }
  return closing;
}

TEST_P(FailingToPayDiscard, DiscardingBeforeThePartEndsIsClean) {
  const PayRow& row = GetParam();
  SCOPED_TRACE(row.what_went_unpaid);
  Unpaid u = row.scenario();
  const auto hand = u.battle.state().seats[u.seat].hand;
  ASSERT_FALSE(hand.empty());
  u.battle.act(u.seat, core::CardsDiscarded{{hand.begin()->first}});
  close_part(u.battle, u.seat);
  const auto f = u.battle.fold();
  expect_none(f, "ATT-3.discard");
  EXPECT_EQ(f.state.seats[u.seat].cards_owed_discard, 0);
  EXPECT_EQ(count(f.state.seats[u.seat].discard, hand.begin()->first), 1);
}

TEST_P(FailingToPayDiscard, NotDiscardingByTheEndOfThePartIsAViolation) {
  const PayRow& row = GetParam();
  SCOPED_TRACE(row.what_went_unpaid);
  Unpaid u = row.scenario();
  const core::Seq closing = close_part(u.battle, u.seat);
  expect_single(u.battle.fold(), "ATT-3.discard", closing, fmt::format("still owes {} discard", row.discards_owed));
}

INSTANTIATE_TEST_SUITE_P(AttritionStep3_FailingToPay, FailingToPayDiscard,
                         ::testing::ValuesIn(rows_owing_a_discard()),
                         [](const ::testing::TestParamInfo<PayRow>& info) { return std::string(info.param.name); });

// --- How long Morale 0 lasts -------------------------------------------------

TEST(AttritionStep3_FailingToPay_MoraleZero, LastsUntilTheOwnersNextAttritionPhase) {
  // Ana leaves her Lancer unpaid in turn 3. In turn 4 it has Morale 0 at
  // the Morale Check (Bo leads on 2 to 0) and through Warfare; Bo's
  // Attrition part does not restore it, Ana's does.
  auto b = testing::battle_turn({{"Ironclaw Lancer", "a1"}}, {{"Paw Militia", "a2"}});
  b.act(kAna, core::ChargeDeclined{}).attrition(kAna).pay(kAna, {}, {{sq("a1"), "Ironclaw Lancer"}});
  b.attrition(kBo).pay_all(kBo).turn();
  EXPECT_EQ(b.leader(), kBo);
  b.musters().warfare().act(kBo, core::ChargeDeclined{});
  const std::size_t in_warfare = b.events().size();
  b.attrition(kBo);
  const std::size_t bos_part = b.events().size();
  b.pay_all(kBo).attrition(kAna);
  const std::size_t anas_part = b.events().size();
  const auto morale_at = [&](std::size_t n) {
    return core::effective_morale(*b.state_at(n).at(sq("a1")), sample_catalog());
  };
  EXPECT_EQ(morale_at(in_warfare), 0);
  EXPECT_EQ(morale_at(bos_part), 0);
  EXPECT_EQ(morale_at(anas_part), 3) << "restored when Ana's next Attrition Phase starts";
  b.pay_all(kAna);
  const auto f = b.fold();
  testing::expect_clean(f);
  EXPECT_EQ(f.state.leader, kBo);
}

// --- The priority behind the discard -----------------------------------------

TEST(AttritionStep3_FailingToPay_Priority, PayingAnotherTroopBeforeTheUnBurrowedOneIsAViolation) {
  auto b = burrower_fell();
  b.pay(kBo, {{sq("e2"), "Briar Archer"}}, {{sq("a2"), "Weald Burrower"}});
  const auto f = b.fold();
  expect_single(f, "ATT-3.priority", b.last_seq(),
                "Bo pays 'Briar Archer' on e2 but leaves 'Weald Burrower' unpaid, which must be paid first");
  EXPECT_EQ(f.state.seats[kBo].cards_owed_discard, 1);
}

TEST(AttritionStep3_FailingToPay_Priority, PayingTheUnBurrowedTroopFirstIsClean) {
  auto b = burrower_fell();
  b.pay(kBo, {{sq("a2"), "Weald Burrower"}}, {{sq("e2"), "Briar Archer"}});
  const auto f = b.fold();
  testing::expect_clean(f);
  EXPECT_EQ(f.state.seats[kBo].cards_owed_discard, 0);
  EXPECT_TRUE(f.state.at(sq("e2"))->has(core::kTroopUnprovisioned));
}

}  // namespace
}  // namespace warlog
