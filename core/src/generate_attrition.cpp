// The generator's Attrition Phase (../shared/rules, "Attrition Phase"):
// 1. the leader's moves and the recovery of Lost Troops, 2. Control (the
// fold decides Supremacy), 3. Provisions within the supply left and in
// priority order, the discards owed, the Shocked who flee.

#include <fmt/format.h>

#include "generate_play.hpp"

namespace warlog::core::gen {

int hand_size(const SeatState& seat) {
  int n = 0;
  for (const auto& [card, count] : seat.hand) n += count;
  return n;
}

bool discards_covered(const Game& g, Seat seat, int extra_cost, int extra_items, bool hand_counts) {
  const SeatState& s = g.state.seats[seat];
  int cost = g.gambit_costs(seat) + extra_cost;
  int items = static_cast<int>(s.gambits_in_play.size()) + extra_items;
  for (Space sp : g.own_troops(seat)) {
    const Troop& t = *g.state.at(sp);
    if (t.unburrowed_turn == g.state.turn && t.unburrowed_turn != 0) {
      cost += g.cost(t.card, seat);
      ++items;
    }
  }
  for (const WageDue& w : s.this_turn.wages_due) {
    if (!w.unburrowed) continue;
    cost += g.cost(w.card, seat);
    ++items;
  }
  const int supply = provision_supply(g.state, seat, g.ctx.catalog, g.ctx.rules) - s.this_turn.recovery_spent;
  return supply >= cost || (hand_counts && hand_size(s) >= items);
}

int hand_reserve(const Game& g, Seat seat) {
  if (discards_covered(g, seat, 0, 0, false)) return 0;
  int items = static_cast<int>(g.state.seats[seat].gambits_in_play.size());
  for (Space sp : g.own_troops(seat)) {
    const Troop& t = *g.state.at(sp);
    items += t.unburrowed_turn == g.state.turn && t.unburrowed_turn != 0;
  }
  for (const WageDue& w : g.state.seats[seat].this_turn.wages_due) items += w.unburrowed;
  return items;
}

namespace {

bool contains(const std::vector<Space>& v, Space sp) { return std::find(v.begin(), v.end(), sp) != v.end(); }

// 1. The player Leading in Morale may move each Troop 1 space.
void step_one_moves(Game& g, Seat me) {
  std::vector<Space> troops = g.own_troops(me);
  g.rng.shuffle(troops);
  for (Space sp : troops) {
    const auto& slot = g.state.at(sp);
    if (!slot || !g.ready(*slot) || slot->has(kTroopMovedThisPhase) || !g.rng.chance(30)) continue;
    if (!g.enemies_next_to(sp, me, false).empty()) continue;
    const Space to = g.choose_step(sp, me);
    if (to.valid()) (void)g.emit(me, TroopMoved{sp, to});
  }
}

// 1. Lost Troops come back: pay 3 (0 if Burrowed) to an empty Vanguard
// space, or go back into the deck. Paying only while the Gambits stay paid
// and the supply left stays at least 0.
void recover(Game& g, Seat me) {
  for (Space sp : g.own_troops(me)) {
    const auto& slot = g.state.at(sp);
    if (!slot || !slot->has(kTroopLost)) continue;
    const int price = slot->has(kTroopBurrowed) ? 0 : g.ctx.rules.recovery_cost;
    Space to{};
    const int row = vanguard_row(g.state, me);
    if (sp.row == row) {
      to = sp;
    } else {
      std::vector<Space> free;
      for (std::int8_t col = 0; col < g.state.cols; ++col) {
        const Space v{col, static_cast<std::int8_t>(row)};
        if (!g.state.at(v) && !g.territory_on(v) && !contains(g.state.this_turn.defeated, v) &&
            !contains(g.state.this_turn.fled, v)) {
          free.push_back(v);
        }
      }
      if (!free.empty()) to = g.rng.pick(free);
    }
    if (to.valid() && discards_covered(g, me, price, 0, false) && g.rng.chance(65)) {
      (void)g.emit(me, LostTroopRecovered{sp, Recovery::Pay, to});
    } else {
      (void)g.emit(me, LostTroopRecovered{sp, Recovery::Reshuffle, Space{}});
    }
  }
}

struct Owed {
  PaidItem item;
  int cost = 0;
  int priority = 2;  // 0 Gambits, 1 defeated un-Burrowed Troops, 2 other Troops
  int morale = 0;
};

// 3. What the seat owes, as rules/attrition.cpp lists it: Troops on the
// field by space, Gambits in play by name, wages by space and card.
std::vector<Owed> owed(const Game& g, Seat me) {
  std::vector<Owed> out;
  for (Space sp : g.own_troops(me)) {
    const Troop& t = *g.state.at(sp);
    const Card& c = g.card(t.card);
    if (c.type == CardType::Troop) out.push_back(Owed{PaidItem{sp, {}}, g.cost(t.card, me), 2, c.morale});
  }
  for (const HeldCard& h : g.state.seats[me].gambits_in_play) {
    out.push_back(Owed{PaidItem{Space{}, h.card}, g.cost(h.card, me), 0, 0});
  }
  for (const WageDue& w : g.state.seats[me].this_turn.wages_due) {
    out.push_back(Owed{PaidItem{w.space, w.card}, g.cost(w.card, me), w.unburrowed ? 1 : 2, 0});
  }
  return out;
}

// 3. Pay within the supply left, Gambits first, then un-Burrowed defeated
// Troops, then the rest (R-025: no later class paid while an earlier one is
// not); within a class the higher Morale first, and now and then a Troop
// left unpaid on purpose.
void pay(Game& g, Seat me) {
  std::vector<Owed> due = owed(g, me);
  if (due.empty()) return;
  g.rng.shuffle(due);
  std::stable_sort(due.begin(), due.end(), [](const Owed& a, const Owed& b) {
    return a.priority != b.priority ? a.priority < b.priority : a.morale > b.morale;
  });
  const SeatState& seat = g.state.seats[me];
  int left = provision_supply(g.state, me, g.ctx.catalog, g.ctx.rules) - seat.this_turn.recovery_spent;
  ProvisionsPaid p;
  bool blocked = false;
  int blocked_from = 3;
  for (const Owed& d : due) {
    if (blocked && d.priority > blocked_from) {
      p.unpaid.push_back(d.item);
      continue;
    }
    const bool skip = d.priority == 2 && g.rng.chance(4);
    if (d.cost <= left && !skip) {
      left -= d.cost;
      p.paid.push_back(d.item);
    } else {
      p.unpaid.push_back(d.item);
      if (d.priority < 2 && !blocked) {
        blocked = true;
        blocked_from = d.priority;
      }
    }
  }
  const std::size_t fled_before = g.state.this_turn.fled.size();
  (void)g.emit(me, std::move(p));
  // Failing to pay: one discard per unpaid Gambit or un-Burrowed Troop.
  const int owed_discards = g.state.seats[me].cards_owed_discard;
  if (owed_discards > 0) {
    CardPile hand = g.state.seats[me].hand;
    CardsDiscarded d;
    for (int i = 0; i < owed_discards && !hand.empty(); ++i) {
      std::string card = draw_from(g.rng, hand);
      if (--hand[card] == 0) hand.erase(card);
      d.cards.push_back(std::move(card));
    }
    (void)g.emit(me, std::move(d));
  }
  // Unprovisioned Shocked Troops fled as the payment was recorded.
  const std::vector<Space> fled(g.state.this_turn.fled.begin() + static_cast<std::ptrdiff_t>(fled_before),
                                g.state.this_turn.fled.end());
  for (Space sp : fled) {
    if (g.rng.chance(50)) (void)g.emit(me, TroopFled{sp});
  }
}

}  // namespace

void play_attrition(Game& g, Seat me) {
  if (!g.emit_phase(Phase::Attrition, me)) return;
  if (me == g.state.leader || g.ctx.rules.attrition_moves_both_players) step_one_moves(g, me);
  recover(g, me);
  // Control of a Territory is a consequence the fold checks; record it now
  // and then, and always before a Supremacy the leader is about to win.
  const bool supreme = me == g.state.leader && leader_supreme(g);
  for (const TerritoryState& t : g.state.territories) {
    if (territory_controller(g.state, t, g.ctx.catalog, g.ctx.rules) == me && g.rng.chance(supreme ? 80 : 20)) {
      (void)g.emit(me, TerritoryControlTaken{t.space});
    }
  }
  // Supremacy is decided at the leader's payment or at the end of their part
  // the caller records GameEnded. Not at the payment: discards owed
  // for unpaid cards could then never be made (the game is over), yet
  // close_part still reports them (ATT-3.discard; see the report).
  if (supreme) return;
  pay(g, me);
}

}  // namespace warlog::core::gen
