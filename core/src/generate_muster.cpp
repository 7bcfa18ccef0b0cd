// The generator's Muster Phase (../shared/rules, "Muster Phase"): a. draw 2,
// Forage or Return, the extra Gambit; b. play; c. move; Burrow. Every
// choice is one the handlers in rules/muster.cpp accept.

#include <fmt/format.h>

#include "generate_play.hpp"

namespace warlog::core::gen {

namespace {

constexpr const char* kFavors[] = {"a guide from the village", "the miller's cart", "fresh scouting reports",
                                   "the ford is shown"};

std::vector<std::string> cards_of(const Game& g, const CardPile& pile, CardType type) {
  std::vector<std::string> out;
  for (const auto& [name, n] : pile) {
    if (g.card(name).type == type) out.insert(out.end(), static_cast<std::size_t>(n), name);
  }
  return out;
}

// A card returned from the Homeland this turn may not be played: only the
// copies in hand beyond those returned are playable.
bool playable(const SeatState& seat, const std::string& name) {
  const auto held = seat.hand.find(name);
  if (held == seat.hand.end()) return false;
  const auto returned = seat.this_turn.not_playable.find(name);
  return returned == seat.this_turn.not_playable.end() || held->second > returned->second;
}

// A card may leave the hand without leaving too few for the discards owed.
bool can_spend_card(const Game& g, Seat me) { return hand_size(g.state.seats[me]) > hand_reserve(g, me); }

// a. Draw 2, at random among the cards left (fewer when the deck runs out:
// Under the parked Turncoat rule a card of the opponent's allegiance
// lets its drawer draw one more; under the WIP empty-deck rule a
// Troop flees for each card that cannot be drawn.
void draw(Game& g, Seat me) {
  const SeatState& seat = g.state.seats[me];
  const Allegiance theirs = g.state.seats[other_seat(me)].allegiance;
  CardPile deck = seat.deck;
  CardsDrawn d;
  int want = g.ctx.rules.draw_per_turn;
  for (int i = 0; i < want && !deck.empty(); ++i) {
    std::string card = draw_from(g.rng, deck);
    if (--deck[card] == 0) deck.erase(card);
    const Card& c = g.card(card);
    if (g.ctx.rules.turncoat && c.faction == theirs && c.faction != seat.allegiance) ++want;
    d.cards.push_back(std::move(card));
  }
  const int missing = want - static_cast<int>(d.cards.size());
  if (!d.cards.empty()) (void)g.emit(me, std::move(d));
  if (!g.ctx.rules.empty_deck_penalty || missing <= 0) return;
  std::vector<Space> troops = g.own_troops(me);
  g.rng.shuffle(troops);
  for (int i = 0; i < missing && i < static_cast<int>(troops.size()); ++i) {
    (void)g.emit(me, TroopFled{troops[static_cast<std::size_t>(i)]});
  }
}

// Local Favor lasts to the end of its holder's next Muster Phase.
void use_favor(Game& g, Seat me) {
  const std::uint16_t until = g.state.seats[me].local_favor_until_turn;
  if (until == 0 || g.state.turn > until || !g.rng.chance(70)) return;
  (void)g.emit(me, LocalFavorUsed{kFavors[g.rng.below(static_cast<int>(std::size(kFavors)))]});
}

// a. Forage one card (a Dwelling by preference) OR Return one, then perhaps
// stock the extra Gambit. All before any play or move.
void provision(Game& g, Seat me) {
  const SeatState& seat = g.state.seats[me];
  const auto dwellings = cards_of(g, seat.hand, CardType::Dwelling);
  if (!can_spend_card(g, me)) return;
  if (!dwellings.empty() && g.rng.chance(85)) {
    (void)g.emit(me, Foraged{g.rng.pick(dwellings)});
  } else if (!seat.hand.empty() && g.rng.chance(12)) {
    // Anything else foraged supplies too: an Army Ability card, a spare Troop.
    std::vector<std::string> spare = cards_of(g, seat.hand, CardType::ArmyAbility);
    if (spare.empty()) spare = cards_of(g, seat.hand, CardType::Troop);
    if (!spare.empty()) (void)g.emit(me, Foraged{g.rng.pick(spare)});
  } else if (!seat.homeland.empty() && g.rng.chance(6)) {
    // Return a card only when the Gambits in play stay provisioned without it.
    const HeldCard& h = seat.homeland[static_cast<std::size_t>(g.rng.below(static_cast<int>(seat.homeland.size())))];
    const int loss = h.since_turn < g.state.turn ? g.card(h.card).provision_supply : 0;
    if (discards_covered(g, me, loss, 0, false)) (void)g.emit(me, ReturnedFromHomeland{h.card});
  }
  const auto gambits = cards_of(g, g.state.seats[me].hand, CardType::Gambit);
  if (!gambits.empty() && g.rng.chance(70) && can_spend_card(g, me)) {
    (void)g.emit(me, GambitStocked{g.rng.pick(gambits)});
  }
}

// b. A Gambit held in play owes its cost every Attrition Phase, before any
// Troop, or a discard: played last, so that the hand it may
// have to discard from is the hand the Attrition Phase will see.
void play_gambit(Game& g, Seat me) {
  const auto gambits = cards_of(g, g.state.seats[me].hand, CardType::Gambit);
  if (gambits.empty() || !g.rng.chance(12) || !can_spend_card(g, me)) return;
  const std::string& gambit = g.rng.pick(gambits);
  if (playable(g.state.seats[me], gambit) && discards_covered(g, me, g.cost(gambit, me), 2, true)) {
    (void)g.emit(me, CardPlayed{gambit, Space{}});
  }
}

// The Paw Coalition's token, now and then turned to its Rabble side and back.
void rabble(Game& g, Seat me) {
  const SeatState& seat = g.state.seats[me];
  if (seat.allegiance != Allegiance::PawCoalition) return;
  if (!seat.rabble_side && g.rng.chance(4)) (void)g.emit(me, AbilityUsed{Space{}, "Rebel Rabble Token: rabble"});
  else if (seat.rabble_side && g.rng.chance(40)) (void)g.emit(me, AbilityUsed{Space{}, "Rebel Rabble Token: rebel"});
}

// c. Each eligible Troop may move one space (Movement, R-003).
void move_troops(Game& g, Seat me) {
  std::vector<Space> troops = g.own_troops(me);
  g.rng.shuffle(troops);
  for (Space sp : troops) {
    const auto& slot = g.state.at(sp);
    if (!slot || !g.ready(*slot) || slot->has(kTroopMovedThisPhase)) continue;
    if (!g.enemies_next_to(sp, me, false).empty() && g.rng.chance(90)) continue;  // it stays to fight
    const Space to = g.choose_step(sp, me);
    if (!to.valid()) continue;
    // A step that contests a Territory the enemy Controls is always taken.
    if (g.side_value(to, me) >= 40 || g.rng.chance(g.bold(me) ? 75 : 35)) (void)g.emit(me, TroopMoved{sp, to});
  }
}

// An empty Vanguard space for a new Troop, or an invalid Space for none.
Space vanguard_space(Game& g, Seat me) {
  const int row = vanguard_row(g.state, me);
  Space best{};
  int best_score = -1000;
  for (std::int8_t col = 0; col < g.state.cols; ++col) {
    const Space sp{col, static_cast<std::int8_t>(row)};
    if (g.state.at(sp) || g.territory_on(sp)) continue;
    int score = g.rng.below(10);
    score += g.side_value(sp, me);
    if (!g.enemies_next_to(sp, me, true).empty()) score += g.bold(me) ? 5 : -5;
    if (score > best_score) {
      best_score = score;
      best = sp;
    }
  }
  return best_score < 0 ? Space{} : best;
}

// b. Play Troops into empty Vanguard spaces: no second copy of an own
// Renowned card on the battlefield, not a card returned this turn,
// and mostly within what the Homeland will supply.
void play_troops(Game& g, Seat me) {
  std::vector<std::string> hand = cards_of(g, g.state.seats[me].hand, CardType::Troop);
  g.rng.shuffle(hand);
  const int supply = provision_supply(g.state, me, g.ctx.catalog, g.ctx.rules);
  const int slack = g.rng.between(0, 3);
  for (const std::string& name : hand) {
    if (!playable(g.state.seats[me], name) || !can_spend_card(g, me)) continue;
    const Card& c = g.card(name);
    if (c.rarity == Rarity::Renowned && c.type == CardType::Troop) {
      // One copy on the battlefield: per player, or across both.
      const bool both = !g.ctx.rules.renowned_unique_per_player;
      if (std::any_of(g.state.grid.begin(), g.state.grid.end(), [&](const auto& slot) {
            return slot && slot->card == name && (both || slot->owner == me);
          })) {
        continue;
      }
    }
    const int owed = provision_cost(g.state, me, g.ctx.catalog, g.ctx.rules) + g.cost(name, me);
    if (owed > supply + slack && !g.rng.chance(30)) continue;
    if (!g.rng.chance(85)) continue;
    const Space sp = vanguard_space(g, me);
    if (!sp.valid()) return;
    (void)g.emit(me, CardPlayed{name, sp});
  }
}

// Own Troops shifted among each other while playing cards: a swap
// of two neighbouring Troops, in a part that played a card.
void shift(Game& g, Seat me) {
  if (!g.rng.chance(6)) return;
  bool played = false;
  for (Space a : g.own_troops(me)) played = played || g.state.at(a)->entered_turn == g.state.turn;
  if (!played) return;
  const auto shiftable = [&](const std::optional<Troop>& slot) {
    return slot && slot->owner == me && !slot->has(kTroopLost) && g.card(slot->card).type == CardType::Troop;
  };
  for (Space a : g.own_troops(me)) {
    for (Space b : g.neighbours(a)) {
      if (!shiftable(g.state.at(b)) || !shiftable(g.state.at(a))) continue;
      (void)g.emit(me, TroopsShifted{{TroopMoved{a, b}, TroopMoved{b, a}}});
      return;
    }
  }
}

// Weald Burrowers Burrow near the enemy, to Charge later whoever leads
// (Warfare › B. Burrow bypasses this); now and then one un-Burrows.
void burrow(Game& g, Seat me) {
  for (Space sp : g.own_troops(me)) {
    const Troop& t = *g.state.at(sp);
    if (!g.card(t.card).has(kQuirkBurrow) || t.has(kTroopLost) || still_mustering(g.state, t)) continue;
    if (t.has(kTroopBurrowed)) {
      // Un-Burrowed this turn and then defeated, it is paid before other
      // Troops or costs a discard: only when that can be met.
      if (g.rng.chance(5) && discards_covered(g, me, g.cost(t.card, me), 1, true)) {
        (void)g.emit(me, TroopUnburrowed{sp});
      }
      continue;
    }
    // Rather when an enemy is within two steps, to Charge it soon.
    bool near = !g.enemies_next_to(sp, me, false).empty();
    for (Space n : g.neighbours(sp)) near = near || !g.enemies_next_to(n, me, false).empty();
    if (g.rng.chance(near ? 50 : 12)) (void)g.emit(me, TroopBurrowed{sp});
  }
}

}  // namespace

void play_muster(Game& g, Seat me) {
  if (!g.emit_phase(Phase::Muster, me)) return;
  draw(g, me);
  use_favor(g, me);
  provision(g, me);
  rabble(g, me);
  // Steps b and c in either order: moving first opens Vanguard spaces.
  move_troops(g, me);
  play_troops(g, me);
  play_gambit(g, me);
  shift(g, me);
  burrow(g, me);
}

}  // namespace warlog::core::gen
