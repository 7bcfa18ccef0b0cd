// Warfare Phase (../shared/rules, document "Warfare Phase"): Shotte, Charge,
// Combat Resolution. This file holds the state effects; the rule checks of
// the Warfare document grow here (issue 3).

#include <fmt/format.h>

#include "rule_ids.hpp"
#include "../step.hpp"

namespace warlog::core::detail {

void defeat(const Step& st, Space sp) {
  auto& slot = st.s.at(sp);
  if (!slot) return;
  // Attrition Phase › 4: a Troop destroyed next to a Territory goes beneath
  // it; next to two, beneath the first listed (rulings R-016).
  for (TerritoryState& t : st.s.territories) {
    if (adjacent(t.space, sp)) {
      ++t.beneath;
      slot.reset();
      return;
    }
  }
  add(st.s.seats[slot->owner].discard, slot->card);
  slot.reset();
}

namespace {

void hit(const Step& st, Space target, int damage, std::vector<Space>& defeated) {
  Troop* t = st.troop_at(target);
  if (t == nullptr) return;
  t->damage = static_cast<std::int16_t>(t->damage + (damage > 0 ? damage : 0));
  const Card* c = st.ctx.catalog.find(t->card);
  if (c != nullptr && t->damage >= c->vitality) defeated.push_back(target);
}

void remove_defeated(const Step& st, const std::vector<Space>& defeated) {
  for (Space sp : defeated) defeat(st, sp);
}

}  // namespace

void on(const Step& st, const TroopBurrowed& b) {
  Troop* t = st.troop_at(b.space);
  if (t != nullptr) t->flags |= kTroopBurrowed;
}

void on(const Step& st, const TroopUnburrowed& u) {
  Troop* t = st.troop_at(u.space);
  if (t == nullptr) return;
  t->flags &= static_cast<std::uint16_t>(~kTroopBurrowed);
  t->unburrowed_turn = st.s.turn;
}

void on(const Step& st, const ShotteFired& f) {
  Troop* shooter = st.troop_at(f.shooter);
  if (shooter == nullptr) return;
  shooter->flags |= kTroopShotteUsed;
  std::vector<Space> defeated;
  hit(st, f.target, f.damage, defeated);
  remove_defeated(st, defeated);
}

void on(const Step& st, const ChargeDeclared&) {
  st.s.charge_declared = true;
  st.s.charger = st.ev.seat;
}

void on(const Step& st, const ChargeDeclined&) {
  st.s.charge_declined = true;
  if (st.ev.seat < kSeatCount) {
    // Warfare Phase › Local Favor: until the end of their next Muster Phase.
    st.s.seats[st.ev.seat].local_favor_until_turn = static_cast<std::uint16_t>(st.s.turn + 1);
  }
}

void on(const Step&, const LocalFavorUsed&) {}

void on(const Step& st, const CombatResolved& c) {
  std::vector<Space> defeated;
  if (Troop* t = st.troop_at(c.troop)) t->flags |= kTroopFoughtThisCharge;
  for (const Strike& s : c.strikes) hit(st, s.target, s.damage, defeated);
  for (const DefenderSplit& d : c.defenders) {
    for (const Strike& s : d.strikes) hit(st, s.target, s.damage, defeated);
  }
  remove_defeated(st, defeated);
}

void on(const Step& st, const TroopLost& l) {
  Troop* t = st.troop_at(l.space);
  if (t == nullptr) return;
  t->flags |= kTroopLost;
  t->lost_turn = st.s.turn;
}

void on(const Step&, const TroopDefeated&) {}

}  // namespace warlog::core::detail
