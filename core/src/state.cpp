#include "warlog/core/state.hpp"

#include <fmt/format.h>

#include "warlog/core/catalog.hpp"
#include "warlog/core/hash.hpp"
#include "warlog/core/ruleset.hpp"

namespace warlog::core {

int vanguard_row(const GameState& s, Seat seat) noexcept { return seat == 0 ? 0 : s.rows - 1; }

const TerritoryState* territory_at(const GameState& s, Space sp) noexcept {
  for (const TerritoryState& t : s.territories) {
    if (t.space == sp) return &t;
  }
  return nullptr;
}

bool still_mustering(const GameState& s, const Troop& t) noexcept { return t.entered_turn == s.turn; }

int effective_morale(const Troop& t, const Catalog& catalog) noexcept {
  if (t.has(kTroopUnprovisioned)) return 0;
  const Card* c = catalog.find(t.card);
  return c == nullptr ? 0 : c->morale;
}

int morale_total(const GameState& s, Seat seat, const Catalog& catalog) noexcept {
  int total = 0;
  for (const auto& slot : s.grid) {
    if (slot && slot->owner == seat && is_troop(*slot, catalog)) total += effective_morale(*slot, catalog);
  }
  return total;
}

bool stands_on_battlefield(CardType type) noexcept { return type == CardType::Troop || type == CardType::Dwelling; }

bool is_troop(const Troop& t, const Catalog& catalog) noexcept {
  const Card* c = catalog.find(t.card);
  return c != nullptr && c->type == CardType::Troop;
}

bool in_combat(const Troop& t, const Catalog& catalog, const Ruleset& rules) noexcept {
  return is_troop(t, catalog) && !(rules.burrowed_troops_hidden && t.has(kTroopBurrowed));
}

bool holds_side(const Troop& t, const Catalog& catalog, const Ruleset& rules) noexcept {
  if (t.has(kTroopLost)) return false;
  const Card* c = catalog.find(t.card);
  if (c == nullptr) return false;
  if (c->type == CardType::Dwelling) return rules.dwellings_hold_sides;
  return c->type == CardType::Troop && !(rules.burrowed_troops_hidden && t.has(kTroopBurrowed));
}

namespace {

// Deck Construction › The Allegiance Rule, with the Hirelings exception:
// a Hireling card in a non-Hireling army costs its printed cost.
bool surcharged(const Card& c, Allegiance declared) noexcept {
  if (c.faction == declared) return false;
  if (c.faction == Allegiance::Hirelings && declared != Allegiance::Hirelings) return false;
  return true;
}

}  // namespace

int card_cost(const Card& c, Allegiance declared, const Ruleset& rules) noexcept {
  return c.provision_cost + (surcharged(c, declared) ? rules.allegiance_surcharge : 0);
}

int troop_cost(const Troop& t, const Card& c, Allegiance declared, const Ruleset& rules) noexcept {
  const bool turncoat_surcharge = t.has(kTroopTurncoat) && !surcharged(c, declared);
  return card_cost(c, declared, rules) + (turncoat_surcharge ? rules.allegiance_surcharge : 0);
}

Neighbours neighbours(const GameState& s, Space sp) noexcept {
  Neighbours out;
  const Space around[] = {{static_cast<std::int8_t>(sp.col - 1), sp.row}, {static_cast<std::int8_t>(sp.col + 1), sp.row},
                          {sp.col, static_cast<std::int8_t>(sp.row - 1)}, {sp.col, static_cast<std::int8_t>(sp.row + 1)}};
  for (Space n : around) {
    if (s.on_grid(n)) out.spaces[out.count++] = n;
  }
  return out;
}

Seat territory_controller(const GameState& s, const TerritoryState& t, const Catalog& catalog, const Ruleset& rules,
                          std::array<int, kSeatCount>* sides) noexcept {
  std::array<int, kSeatCount> count{};
  for (Space n : neighbours(s, t.space)) {
    const auto& slot = s.at(n);
    if (slot && slot->owner < kSeatCount && holds_side(*slot, catalog, rules)) ++count[slot->owner];
  }
  if (sides != nullptr) *sides = count;
  if (count[0] > 0 && count[1] == 0) return 0;
  if (count[1] > 0 && count[0] == 0) return 1;
  return kNoSeat;
}

int provision_cost(const GameState& s, Seat seat, const Catalog& catalog, const Ruleset& rules) noexcept {
  const Allegiance declared = s.seats[seat].allegiance;
  auto cost_of = [&](const std::string& name) {
    const Card* c = catalog.find(name);
    if (c == nullptr) return 0;
    return c->provision_cost + (surcharged(*c, declared) ? rules.allegiance_surcharge : 0);
  };
  int total = 0;
  for (const auto& slot : s.grid) {
    if (!slot || slot->owner != seat) continue;
    const Card* c = catalog.find(slot->card);
    if (c != nullptr && c->type == CardType::Dwelling && rules.dwelling_allegiance_surcharge) total += cost_of(slot->card);
    if (c == nullptr || c->type != CardType::Troop) continue;
    total += troop_cost(*slot, *c, declared, rules);
  }
  for (const HeldCard& g : s.seats[seat].gambits_in_play) total += cost_of(g.card);
  for (const WageDue& w : s.seats[seat].this_turn.wages_due) total += cost_of(w.card);
  return total;
}

int provision_supply(const GameState& s, Seat seat, const Catalog& catalog, const Ruleset& rules) noexcept {
  int total = 0;
  for (const HeldCard& h : s.seats[seat].homeland) {
    const Card* c = catalog.find(h.card);
    if (c == nullptr) continue;
    // Muster Phase › Card Text Timing: a Gambit's supply is Phase-timed and
    // needs a full turn in the Homeland; a foraged card's supply counts from
    // the next turn unless the ruleset says otherwise (rulings R-010).
    const bool arrived_this_turn = h.since_turn == s.turn;
    if (arrived_this_turn && (c->type == CardType::Gambit || !rules.foraged_supply_immediate)) continue;
    total += c->provision_supply;
  }
  return total;
}

namespace {

void pile_text(std::string& out, std::string_view label, const CardPile& pile) {
  fmt::format_to(std::back_inserter(out), "  {}:", label);
  for (const auto& [card, n] : pile) fmt::format_to(std::back_inserter(out), " {}x{}", n, card);
  out += '\n';
}

void held_text(std::string& out, std::string_view label, const std::vector<HeldCard>& held) {
  fmt::format_to(std::back_inserter(out), "  {}:", label);
  for (const HeldCard& h : held) fmt::format_to(std::back_inserter(out), " {}@{}", h.card, h.since_turn);
  out += '\n';
}

}  // namespace

std::string to_text(const GameState& s) {
  std::string out;
  auto line = [&out]<typename... A>(fmt::format_string<A...> f, A&&... a) {
    fmt::format_to(std::back_inserter(out), f, std::forward<A>(a)...);
    out += '\n';
  };
  line("game: {} | {} | board {}x{}", s.title, s.date, static_cast<int>(s.cols), static_cast<int>(s.rows));
  line("turn: {} phase: {} part: {} active: {} leader: {}", s.turn, to_string(s.phase), static_cast<int>(s.part),
       s.active == kNoSeat ? 0 : s.active + 1, s.leader == kNoSeat ? 0 : s.leader + 1);
  line("warfare: charge {} declined {} charger {} last_morale {}", s.this_turn.charge_declared, s.this_turn.charge_declined,
       s.this_turn.charger == kNoSeat ? 0 : s.this_turn.charger + 1, s.this_charge.last_combat_morale);
  line("shotte: {} shots, alternation broken {}; charge defenders struck {}, vacated {}", s.this_turn.shotte_seats.size(),
       s.this_turn.shotte_alternation_broken, s.this_charge.defenders_struck.size(), s.this_charge.vacated.size());
  // "territory" is the first Territory the final turn answers, -1 for none
  // (its one Territory before R-072: the text, and so the digests, of a game
  // with one Territory at its Threshold did not change); the others follow.
  int first_due = -1;
  std::string also;
  for (std::size_t i = 0; i < s.territories.size(); ++i) {
    if (!s.territories[i].final_due) continue;
    if (first_due < 0) {
      first_due = static_cast<int>(i);
    } else {
      also += fmt::format(" also {}", i);
    }
  }
  line("end: final_turn {} territory {}{} winner {} victory {} decided_at {} in turn {} checked {}", s.final_turn,
       first_due, also, s.winner == kNoSeat ? 0 : s.winner + 1, s.victory ? to_string(*s.victory) : "undecided",
       s.decided_at ? static_cast<long long>(*s.decided_at) : -1LL, s.decided_turn, s.this_turn.win_checked);
  for (std::size_t i = 0; i < s.seats.size(); ++i) {
    const SeatState& seat = s.seats[i];
    line("seat {}: {} ({}) registered {}", i + 1, seat.player, to_string(seat.allegiance), seat.registered);
    pile_text(out, "deck", seat.deck);
    pile_text(out, "orders", seat.orders);
    pile_text(out, "hand", seat.hand);
    pile_text(out, "discard", seat.discard);
    pile_text(out, "not playable", seat.this_turn.not_playable);
    held_text(out, "homeland", seat.homeland);
    held_text(out, "gambits in play", seat.gambits_in_play);
    line("  turn: drawn {} foraged {} returned {} stocked {} mustered {} favor_until {} owed_discards {}",
         seat.this_turn.drawn, seat.this_turn.foraged, seat.this_turn.returned, seat.this_turn.gambit_stocked,
         seat.this_turn.mustered, seat.local_favor_until_turn, seat.cards_owed_discard);
    line("  attrition: recovery_spent {} paid {} rabble {} turncoat_draws {}", seat.this_turn.recovery_spent,
         seat.this_turn.provisions_paid, seat.rabble_side, seat.this_turn.turncoat_draws);
    pile_text(out, "turncoat offer", seat.this_turn.turncoat_offer);
    for (const WageDue& w : seat.this_turn.wages_due) {
      line("  wages due: {} from {}{}", w.card, to_string(w.space), w.unburrowed ? " (un-Burrowed)" : "");
    }
  }
  for (std::size_t i = 0; i < s.grid.size(); ++i) {
    if (!s.grid[i]) continue;
    const Troop& t = *s.grid[i];
    line("{}: {} seat {} damage {} flags {:#x} entered {} unburrowed {} lost {}", to_string(s.space_of(i)), t.card,
         t.owner + 1, t.damage, t.flags, t.entered_turn, t.unburrowed_turn, t.lost_turn);
  }
  for (const TerritoryState& t : s.territories) {
    line("territory {} on {}: beneath {}", t.card, to_string(t.space), t.beneath);
  }
  return out;
}

std::string digest(const GameState& s) { return to_hex(blake2b(to_text(s))); }

}  // namespace warlog::core
