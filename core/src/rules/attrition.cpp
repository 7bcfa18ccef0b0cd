// Attrition Phase (../shared/rules, document "Attrition Phase"): recovery,
// the win check, Provision costs, the Territory Threshold. This file holds
// the state effects; the rule checks grow here (issue 3).

#include <fmt/format.h>

#include "rule_ids.hpp"
#include "../step.hpp"

namespace warlog::core::detail {

void defeat(const Step& st, Space sp);

void on(const Step& st, const LostTroopRecovered& r) {
  Troop* t = st.troop_at(r.space);
  if (t == nullptr) return;
  Troop troop = *t;
  st.s.at(r.space).reset();
  troop.flags &= static_cast<std::uint16_t>(~(kTroopLost | kTroopBurrowed));
  if (r.mode == Recovery::Reshuffle) {
    add(st.s.seats[troop.owner].deck, troop.card);
    return;
  }
  if (!st.on_grid(r.to, "recovery space") || st.s.at(r.to)) {
    st.s.at(r.space) = troop;  // stays where it was
    return;
  }
  st.s.at(r.to) = troop;
}

void on(const Step& st, const ProvisionsPaid& p) {
  for (const PaidItem& item : p.paid) {
    if (!item.space.valid()) continue;
    if (Troop* t = st.troop_at(item.space)) t->flags &= static_cast<std::uint16_t>(~kTroopUnprovisioned);
  }
  for (const PaidItem& item : p.unpaid) {
    if (!item.space.valid()) continue;
    if (Troop* t = st.troop_at(item.space)) t->flags |= kTroopUnprovisioned;
  }
}

void on(const Step& st, const CardsDiscarded& d) {
  SeatState* seat = st.actor();
  if (seat == nullptr) return;
  for (const std::string& card : d.cards) {
    if (st.take(seat->hand, card, "hand")) add(seat->discard, card);
  }
}

void on(const Step& st, const TerritoryControlTaken& c) {
  for (TerritoryState& t : st.s.territories) {
    if (t.space == c.territory) t.controller = st.ev.seat;
  }
}

void on(const Step& st, const TroopFled& f) {
  if (st.troop_at(f.space) != nullptr) defeat(st, f.space);
}

}  // namespace warlog::core::detail
