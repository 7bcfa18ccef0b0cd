// Attrition Phase (../shared/rules, document "Attrition Phase"): 1. Recover
// Troops, 2. Check Win Condition, 3. Pay Provision Costs (priority,
// failing to pay, Shocked), 4. Territory Threshold, End of Turn.

#include <algorithm>
#include <variant>
#include <fmt/format.h>

#include "rule_ids.hpp"
#include "../step.hpp"

namespace warlog::core::detail {

// --- 1. Recover Troops -------------------------------------------------------
void attrition_move(const Step& st, const TroopMoved& m) {
  const GameState& s = st.s;
  (void)st.by_active("moving a Troop");
  if (!st.ctx.rules.attrition_moves_both_players && st.ev.seat != s.leader) {
    st.report(rule_id::kAttritionMove, fmt::format("{} moves a Troop in the Attrition Phase; only {} (Leading in "
                                                   "Morale) may",
                                                   st.player(st.ev.seat), st.player(s.leader)));
  }
  if (st.ev.seat < kSeatCount && st.s.seats[st.ev.seat].this_turn.provisions_paid) {
    st.report(rule_id::kAttritionMove, "a Troop moves after Provision costs were paid: moves belong to step 1");
  } else if (st.ev.seat < kSeatCount && st.s.seats[st.ev.seat].this_turn.recovered) {
    // Step 1: "may move each Troop 1 space. Then any Lost Troops may be
    // recovered" (rulings R-051).
    st.report(rule_id::kAttritionMove, fmt::format("{} moves a Troop after recovering a Lost Troop: the moves of "
                                                   "step 1 come first",
                                                   st.player(st.ev.seat)));
  }
  move_troop(st, m.from, m.to, rule_id::kAttritionMove);
}

void on(const Step& st, const LostTroopRecovered& r) {
  GameState& s = st.s;
  if (s.phase == Phase::Warfare) {
    st.report(rule_id::kCombatReconnect, fmt::format("a Lost Troop on {} is recovered during the Warfare Phase",
                                                     to_string(r.space)));
  } else if (st.in_phase(Phase::Attrition, "recovering a Lost Troop")) {
    (void)st.by_active("recovering a Lost Troop");
  }
  SeatState* seat = st.actor();
  Troop* t = st.troop_at(r.space);
  if (seat == nullptr || t == nullptr) return;
  if (t->owner != st.ev.seat) {
    st.report(rule_id::kLogActor, fmt::format("{} recovers '{}', which is not theirs", seat->player, t->card));
    return;
  }
  if (!t->has(kTroopLost)) {
    st.report(rule_id::kRecoverLost, fmt::format("'{}' on {} is recovered but is not Lost", t->card, to_string(r.space)));
  }
  if (seat->this_turn.provisions_paid) {
    st.report(rule_id::kRecoverLost, "a Troop is recovered after Provision costs were paid: recovery is step 1");
  }
  seat->this_turn.recovered = true;
  Troop troop = *t;
  const bool burrowed = troop.has(kTroopBurrowed);
  troop.flags &= static_cast<std::uint16_t>(~(kTroopLost | kTroopBurrowed | kTroopUnprovisioned));
  if (r.mode == Recovery::Reshuffle) {
    s.at(r.space).reset();
    add(seat->deck, troop.card);
    return;
  }
  // A Lost Burrowed Troop costs 0 and returns un-Burrowed.
  seat->this_turn.recovery_spent += burrowed ? 0 : st.ctx.rules.recovery_cost;
  if (burrowed) troop.unburrowed_turn = s.turn;
  if (!st.on_grid(r.to, "recovery space")) return;
  if (!(r.to == r.space) &&
      onto_territory(st, r.to, fmt::format("'{}' recovered to {}", troop.card, to_string(r.to)))) {
    *t = troop;  // stays where it was, no longer Lost
    return;
  }
  if (r.to.row != vanguard_row(s, troop.owner) || (s.at(r.to) && !(r.to == r.space))) {
    st.report(rule_id::kRecoverSpace, fmt::format("'{}' is recovered to {}, not an empty space of {}'s Vanguard",
                                                  troop.card, to_string(r.to), seat->player));
    if (s.at(r.to) && !(r.to == r.space)) {
      *t = troop;  // stays where it was, no longer Lost
      return;
    }
  }
  s.at(r.space).reset();
  s.at(r.to) = troop;
}

// --- 2. Check Win Condition --------------------------------------------------
void check_supremacy(const Step& st) {
  GameState& s = st.s;
  if (s.this_turn.win_checked || s.decided_at || s.leader >= kSeatCount || s.territories.empty()) return;
  s.this_turn.win_checked = true;
  for (const TerritoryState& t : s.territories) {
    if (territory_controller(s, t, st.ctx.catalog, st.ctx.rules) != s.leader) return;
  }
  s.winner = s.leader;
  s.victory = Victory::Supremacy;
  s.decided_at = st.ev.seq;
  s.decided_turn = s.turn;
}

// --- 3. Pay Provision Costs --------------------------------------------------
// One payment in named steps: what the seat owes (owed_costs), what the log
// says of each (listed_as), whether the supply covers what it paid
// (check_supply), Payment priority (check_priority), Failing to pay
// (apply_failures).
namespace {

// Payment priority's three classes, paid in this order (Attrition › 3.).
enum class PaymentClass : std::uint8_t {
  Gambits,           // Gambits (and, under R-023's option, an off-faction Dwelling)
  UnBurrowedWages,   // defeated Burrowed Troops that un-Burrowed this turn
  Troops,            // all other Troops: on the battlefield, or destroyed and owed wages
};

// What owes the cost.
enum class Owing : std::uint8_t {
  TroopOnBattlefield,
  Dwelling,  // off-faction, under dwelling_allegiance_surcharge
  Gambit,
  Wages,     // a Troop destroyed this turn (Troop Wages)
};

// What the log's payment says of it.
enum class Listed : std::uint8_t { Unlisted, Paid, Unpaid };

struct Due {
  PaidItem item;
  std::string card;
  int cost = 0;
  PaymentClass cls = PaymentClass::Troops;
  Owing owing = Owing::TroopOnBattlefield;
  Listed listed = Listed::Unlisted;
};

std::string describe(const Due& d) {
  return d.owing == Owing::TroopOnBattlefield || d.owing == Owing::Dwelling
             ? fmt::format("'{}' on {}", d.card, to_string(d.item.space))
             : fmt::format("'{}'", d.card);
}

// Failing to pay: an unpaid card of these classes owes a discard.
bool owes_discard_if_unpaid(PaymentClass c) { return c != PaymentClass::Troops; }

std::vector<Due> owed_costs(const Step& st, const SeatState& seat) {
  const GameState& s = st.s;
  const Catalog& catalog = st.ctx.catalog;
  const Ruleset& rules = st.ctx.rules;
  std::vector<Due> due;
  for (std::size_t i = 0; i < s.grid.size(); ++i) {
    const auto& slot = s.grid[i];
    if (!slot || slot->owner != st.ev.seat) continue;
    const Card* c = catalog.find(slot->card);
    if (c == nullptr || c->type != CardType::Troop) continue;
    due.push_back(Due{PaidItem{s.space_of(i), slot->card}, slot->card, troop_cost(*slot, *c, seat.allegiance, rules),
                      PaymentClass::Troops, Owing::TroopOnBattlefield});
  }
  // R-023's option: an off-faction Dwelling on the battlefield owes its cost
  // with the surcharge, first, as a card in play that is no Troop (a Gambit).
  for (std::size_t i = 0; rules.dwelling_allegiance_surcharge && i < s.grid.size(); ++i) {
    const auto& slot = s.grid[i];
    if (!slot || slot->owner != st.ev.seat) continue;
    const Card* c = catalog.find(slot->card);
    if (c == nullptr || c->type != CardType::Dwelling) continue;
    const int cost = card_cost(*c, seat.allegiance, rules);
    if (cost > 0) {
      due.push_back(Due{PaidItem{s.space_of(i), slot->card}, slot->card, cost, PaymentClass::Gambits, Owing::Dwelling});
    }
  }
  for (const HeldCard& g : seat.gambits_in_play) {
    const Card* c = catalog.find(g.card);
    if (c != nullptr) {
      due.push_back(Due{PaidItem{Space{}, g.card}, g.card, card_cost(*c, seat.allegiance, rules), PaymentClass::Gambits,
                        Owing::Gambit});
    }
  }
  for (const WageDue& w : seat.this_turn.wages_due) {
    const Card* c = catalog.find(w.card);
    if (c != nullptr) {
      due.push_back(Due{PaidItem{w.space, w.card}, w.card, card_cost(*c, seat.allegiance, rules),
                        w.unburrowed ? PaymentClass::UnBurrowedWages : PaymentClass::Troops, Owing::Wages});
    }
  }
  return due;
}

// Matches each listed item to an owed card: a space names a Troop on the
// battlefield (or a destroyed one owed wages), a name a Gambit or wage. What
// the payment does not mention counts as unpaid, and is a finding.
void listed_as(const Step& st, const SeatState& seat, const ProvisionsPaid& p, std::vector<Due>& due) {
  auto match = [&](const PaidItem& item, Listed how) {
    auto it = std::find_if(due.begin(), due.end(), [&](const Due& d) {
      if (d.listed != Listed::Unlisted) return false;
      if (item.space.valid()) return d.item.space == item.space && (item.card.empty() || item.card == d.card);
      return d.card == item.card;
    });
    if (it == due.end()) {
      st.report(rule_id::kProvisionListed,
                fmt::format("{} lists {} {}, which owes no Provisions now (or is listed twice)", seat.player,
                            item.space.valid() ? to_string(item.space) : "'" + item.card + "'",
                            how == Listed::Paid ? "as paid" : "as unpaid"));
      return;
    }
    it->listed = how;
  };
  for (const PaidItem& item : p.paid) match(item, Listed::Paid);
  for (const PaidItem& item : p.unpaid) match(item, Listed::Unpaid);
  for (Due& d : due) {
    if (d.listed != Listed::Unlisted) continue;
    st.report(d.owing == Owing::Wages && d.item.space.valid() ? rule_id::kTroopWages : rule_id::kProvisionListed,
              fmt::format("{}'s Provisions payment does not say whether {} is paid; it counts as unpaid", seat.player,
                          describe(d)));
    d.listed = Listed::Unpaid;
  }
}

// The cost of what was paid against the supply left after recovery.
void check_supply(const Step& st, const SeatState& seat, const std::vector<Due>& due) {
  const Catalog& catalog = st.ctx.catalog;
  const int supply = provision_supply(st.s, st.ev.seat, catalog, st.ctx.rules) - seat.this_turn.recovery_spent;
  int paid = 0;
  std::string surcharged;
  for (const Due& d : due) {
    if (d.listed != Listed::Paid) continue;
    paid += d.cost;
    const Card* c = catalog.find(d.card);
    if (c != nullptr && d.cost > c->provision_cost) {
      surcharged += fmt::format("{}{} +{}", surcharged.empty() ? "" : ", ", describe(d), d.cost - c->provision_cost);
    }
  }
  if (paid > 0 && paid > supply && !st.ctx.rules.overspend_provisions) {
    st.report(rule_id::kProvisionSupply,
              fmt::format("{} provisions cards costing {} with {} supply left{}{}", seat.player, paid, supply,
                          surcharged.empty() ? "" : "; Allegiance surcharge included: ", surcharged));
  }
}

// Payment priority: nothing of a later class paid while an earlier one is not.
void check_priority(const Step& st, const SeatState& seat, const std::vector<Due>& due) {
  for (const Due& unpaid : due) {
    if (unpaid.listed != Listed::Unpaid) continue;
    for (const Due& other : due) {
      if (other.listed == Listed::Paid && other.cls > unpaid.cls) {
        st.report(rule_id::kPaymentPriority, fmt::format("{} pays {} but leaves {} unpaid, which must be paid first",
                                                         seat.player, describe(other), describe(unpaid)));
        break;
      }
    }
  }
}

// Failing to pay (and Shocked Troops): discards owed, Morale 0, flight.
void apply_failures(const Step& st, SeatState& seat, const std::vector<Due>& due) {
  GameState& s = st.s;
  const Catalog& catalog = st.ctx.catalog;
  bool discard_owed = false;
  for (const Due& d : due) {
    if (d.listed != Listed::Unpaid) continue;
    if (owes_discard_if_unpaid(d.cls)) {
      ++seat.cards_owed_discard;
      discard_owed = true;
    }
    if (d.owing != Owing::TroopOnBattlefield) continue;
    Troop& t = *s.at(d.item.space);
    t.flags |= kTroopUnprovisioned;
    const Card* c = catalog.find(t.card);
    const bool shocked = (c != nullptr && c->has(kQuirkShocked)) ||
                         (seat.allegiance == Allegiance::PawCoalition && seat.rabble_side);
    if (shocked) flee(st, d.item.space);
  }
  // "On top of the Morale penalty" read as the owner's (rulings R-012's
  // option): a card that owes a discard also puts every Troop of its owner
  // at Morale 0, those the log paid included. By default a Gambit has no
  // Morale to lose, and the payment priority leaves the Troops unpaid anyway.
  if (discard_owed && st.ctx.rules.unpaid_gambit_morale_penalty) {
    for (auto& slot : s.grid) {
      if (slot && slot->owner == st.ev.seat && is_troop(*slot, catalog)) slot->flags |= kTroopUnprovisioned;
    }
  }
}

}  // namespace

void on(const Step& st, const ProvisionsPaid& p) {
  GameState& s = st.s;
  if (!st.in_phase(Phase::Attrition, "paying Provisions")) return;
  (void)st.by_active("paying Provisions");
  SeatState* seat = st.actor();
  if (seat == nullptr) return;
  if (st.ev.seat == s.leader) check_supremacy(st);
  if (seat->this_turn.provisions_paid) {
    st.report(rule_id::kProvisionListed, fmt::format("{} pays Provision costs a second time this turn", seat->player));
  }
  seat->this_turn.provisions_paid = true;
  std::vector<Due> due = owed_costs(st, *seat);
  listed_as(st, *seat, p, due);
  check_supply(st, *seat, due);
  check_priority(st, *seat, due);
  apply_failures(st, *seat, due);
  seat->this_turn.wages_due.clear();
}

void on(const Step& st, const CardsDiscarded& d) {
  SeatState* seat = st.actor();
  if (seat == nullptr) return;
  for (const CardName& card : d.cards) {
    if (st.card(card) == nullptr) continue;  // an unknown card is named as such, not as a zone error
    if (st.take(seat->hand, card, "hand")) {
      add(seat->discard, card);
      if (seat->cards_owed_discard > 0) --seat->cards_owed_discard;
    }
  }
}

void on(const Step& st, const TerritoryControlTaken& c) {
  for (const TerritoryState& t : st.s.territories) {
    if (!(t.space == c.territory)) continue;
    const Seat derived = territory_controller(st.s, t, st.ctx.catalog, st.ctx.rules);
    if (derived != st.ev.seat) {
      st.report(rule_id::kSupremacy, fmt::format("{} is recorded taking Control of '{}', but {}", st.player(st.ev.seat),
                                                 t.card, derived == kNoSeat ? std::string("nobody controls it")
                                                                            : st.player(derived) + " controls it"));
    }
    return;
  }
  st.report(rule_id::kLogSpace, fmt::format("no Territory stands on {}", to_string(c.territory)));
}

void on(const Step& st, const TroopFled& f) {
  if (std::find(st.s.this_turn.fled.begin(), st.s.this_turn.fled.end(), f.space) != st.s.this_turn.fled.end()) return;
  Troop* t = st.troop_at(f.space);
  if (t == nullptr) return;
  SeatState& seat = st.s.seats[t->owner];
  // WIP — running out of cards: a Troop flees for each card not drawn.
  if (st.ctx.rules.empty_deck_penalty && st.s.phase == Phase::Muster && seat.deck.empty()) {
    ++seat.this_part.fled;
    flee(st, f.space);
    return;
  }
  st.report(rule_id::kShockedFlee, fmt::format("'{}' on {} is recorded as fleeing, but nothing made it flee", t->card,
                                               to_string(f.space)));
}

// --- 4. Territory Threshold and End of Turn ----------------------------------

// A Troop destroyed beside several Territories whose Territory the log never
// named: counted beneath the first in setup order, and said. Checked
// when the turn ends, where the Threshold is counted.
void settle_placements(const Step& st) {
  GameState& s = st.s;
  for (const PlacedBeneath& p : s.placed_this_turn) {
    if (p.beside < 2 || p.chosen || st.ctx.rules.beneath_first_territory) continue;
    if (p.territory < 0 || static_cast<std::size_t>(p.territory) >= s.territories.size()) continue;
    st.report_for(kNoSeat, p.at, rule_id::kLogBeneath,
                  fmt::format("'{}' destroyed on {} lay beside {} Territories and the log does not say beneath "
                              "which; counted beneath '{}', the first in setup order",
                              p.card, to_string(p.troop), p.beside,
                              s.territories[static_cast<std::size_t>(p.territory)].card));
  }
  s.placed_this_turn.clear();
}

namespace {

std::string names(const GameState& s, const std::vector<std::size_t>& which) {
  std::string out;
  for (std::size_t k = 0; k < which.size(); ++k) {
    out += fmt::format("{}'{}'", k == 0 ? "" : k + 1 == which.size() ? " and " : ", ", s.territories[which[k]].card);
  }
  return out;
}

}  // namespace

void answer_by_control(const Step& st) {
  GameState& s = st.s;
  if (!st.ctx.rules.final_control_any_moment || s.final_turn == 0 || s.turn != s.final_turn || s.decided_at) return;
  for (TerritoryState& t : s.territories) {
    if (t.final_due && territory_controller(s, t, st.ctx.catalog, st.ctx.rules) != kNoSeat) t.final_due = false;
  }
}

// Attrition › 4, read for several Territories (rulings ): every
// Territory at its Threshold when a turn ends makes the next turn final, once,
// for all of them. The final turn answers a Territory by its Control when the
// turn ends (no rule lowers a count, R-073), or under final_control_any_moment
// by Control at any moment of it. If one is left unanswered the
// game ends: the most sides held of the unanswered Territories wins (or,
// under threshold_most_territories, the most of them won on their own sides),
// a tie going to the leader.
void end_of_turn(const Step& st) {
  GameState& s = st.s;
  if (s.decided_at) return;
  const Catalog& catalog = st.ctx.catalog;
  const Ruleset& rules = st.ctx.rules;
  if (s.final_turn != 0 && s.turn >= s.final_turn) {
    std::vector<std::size_t> unanswered;
    std::array<int, kSeatCount> sides{};
    std::array<int, kSeatCount> won{};
    for (std::size_t i = 0; i < s.territories.size(); ++i) {
      TerritoryState& t = s.territories[i];
      if (!t.final_due) continue;
      std::array<int, kSeatCount> own{};
      if (territory_controller(s, t, catalog, rules, &own) != kNoSeat) {
        t.final_due = false;  // answered by Control
        continue;
      }
      unanswered.push_back(i);
      for (std::size_t seat = 0; seat < kSeatCount; ++seat) sides[seat] += own[seat];
      ++won[own[0] > own[1] ? 0 : own[1] > own[0] ? 1 : s.leader < kSeatCount ? s.leader : 0];
    }
    if (!unanswered.empty()) {
      // The final turn and the Territories left unanswered stay marked:
      // they are what ended the game.
      const auto& count = rules.threshold_most_territories ? won : sides;
      s.winner = count[0] > count[1] ? Seat{0} : count[1] > count[0] ? Seat{1} : s.leader;
      s.victory = Victory::Attrition;
      s.decided_at = st.ev.seq;
      // The turn that ended, not the TurnStarted's next one.
      s.decided_turn = s.turn;
      // Derived at a TurnStarted: the log plays a turn the rules do not
      // grant. Report it here, once, under this rule rather than as a
      // generic LOG.result on the next event.
      if (std::holds_alternative<TurnStarted>(st.ev.payload)) {
        st.report(rule_id::kAttritionVictory,
                  fmt::format("turn {} starts after the final turn: the game ended in an Attrition Victory for {} "
                              "({} not Controlled; {} {} to {})",
                              st.ev.turn, st.player(s.winner), names(s, unanswered),
                              rules.threshold_most_territories ? "Territories" : "sides", count[0], count[1]));
        s.play_after_end_reported = true;
      }
      return;
    }
    // Every one was answered: play goes on, and a Territory still
    // at its Threshold gives a final turn again below.
    s.final_turn = 0;
  }
  if (s.final_turn != 0) return;
  for (TerritoryState& t : s.territories) {
    const Card* c = catalog.find(t.card);
    if (c != nullptr && c->threshold > 0 && t.beneath >= c->threshold) {
      t.final_due = true;
      s.final_turn = static_cast<std::uint16_t>(s.turn + 1);
    }
  }
}

}  // namespace warlog::core::detail
