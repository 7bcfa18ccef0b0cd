// The generator's Warfare Phase (../shared/rules, "Warfare Phase"): A. Shotte
// (the leader's shots, then the other player's), B. Charge (the leader's,
// a Burrow Charge by either player, or a decline), C. combats in Morale
// order with the splits rules/warfare.cpp expects,
// post-combat moves, and now and then a Troop that becomes Lost.

#include <fmt/format.h>

#include "generate_play.hpp"

namespace warlog::core::gen {

namespace {

bool contains(const std::vector<Space>& v, Space sp) { return std::find(v.begin(), v.end(), sp) != v.end(); }

int vitality_left(const Game& g, Space sp) {
  const Troop& t = *g.state.at(sp);
  return g.card(t.card).vitality - t.damage;
}

// Records some of the defeats the fold derived since `before` (TroopDefeated
// is a consequence, checked, never needed), and every one beside several
// Territories, with the Territory the table chose (rulings R-071).
void record_defeats(Game& g, Seat seat, std::size_t before) {
  const std::vector<Space> defeated(g.state.this_turn.defeated.begin() + static_cast<std::ptrdiff_t>(before),
                                    g.state.this_turn.defeated.end());
  for (Space sp : defeated) {
    std::vector<Space> beside;
    for (const PlacedBeneath& p : g.state.placed_this_turn) {
      if (!(p.troop == sp) || p.beside < 2 || p.chosen) continue;
      for (const TerritoryState& t : g.state.territories) {
        if (adjacent(t.space, sp)) beside.push_back(t.space);
      }
    }
    if (!beside.empty()) {
      (void)g.emit(seat, TroopDefeated{sp, beside[static_cast<std::size_t>(g.rng.below(static_cast<int>(beside.size())))]});
    } else if (g.rng.chance(35)) {
      (void)g.emit(seat, TroopDefeated{sp, Space{}});
    }
  }
}

// --- A. Shotte ------------------------------------------------------------
void fire(Game& g, Seat me) {
  std::vector<Space> shooters;
  for (Space sp : g.own_troops(me)) {
    const Troop& t = *g.state.at(sp);
    if (g.card(t.card).has(kQuirkShotte) && g.ready(t) && !t.has(kTroopShotteUsed)) shooters.push_back(sp);
  }
  g.rng.shuffle(shooters);
  for (Space from : shooters) {
    if (!g.state.at(from) || !g.rng.chance(75)) continue;
    const int vigor = g.card(g.state.at(from)->card).vigor;
    // Any enemy Troop on the field (no range is written), not Lost or
    // Burrowed; rather one it would defeat, or one beside a Territory.
    Space target{};
    int best = -1;
    for (std::size_t i = 0; i < g.state.grid.size(); ++i) {
      const auto& slot = g.state.grid[i];
      if (!slot || slot->owner == me || slot->has(kTroopLost) || slot->has(kTroopBurrowed)) continue;
      const Space sp = g.state.space_of(i);
      int score = g.rng.below(10);
      if (vitality_left(g, sp) <= vigor) score += 10;
      if (g.territory_side(sp)) score += 5;
      if (score > best) {
        best = score;
        target = sp;
      }
    }
    if (!target.valid()) return;
    const std::size_t before = g.state.this_turn.defeated.size();
    (void)g.emit(me, ShotteFired{from, target, vigor});  // damage = Vigor
    record_defeats(g, me, before);
  }
}

// --- C. Combat Resolution -------------------------------------------------

// A fighter's Vigor over the enemies it fights: every one gets at least 1
// when the Vigor allows; the rest goes where it defeats most.
std::vector<Strike> split(Game& g, int vigor, std::vector<Space> targets) {
  std::vector<Strike> out;
  if (targets.empty() || vigor <= 0) return out;
  g.rng.shuffle(targets);
  if (vigor < static_cast<int>(targets.size())) targets.resize(static_cast<std::size_t>(vigor));
  for (Space t : targets) out.push_back(Strike{t, 1});
  int rest = vigor - static_cast<int>(out.size());
  while (rest > 0) {
    std::size_t pick = static_cast<std::size_t>(g.rng.below(static_cast<int>(out.size())));
    if (g.rng.chance(70)) {
      // Finish off the weakest still standing after what it already gets.
      int least = 1 << 20;
      for (std::size_t i = 0; i < out.size(); ++i) {
        const int left = vitality_left(g, out[i].target) - out[i].damage;
        if (left > 0 && left < least) {
          least = left;
          pick = i;
        }
      }
    }
    ++out[pick].damage;
    --rest;
  }
  return out;
}

// The charger's Troops that may lead a combat now: adjacent to an enemy that
// is not Lost, not Lost or still mustering themselves, not yet fought, and
// in combat at all (a Troop, not a hidden Burrowed one: ).
std::vector<Space> fighters(const Game& g, Seat charger) {
  std::vector<Space> out;
  for (Space sp : g.own_troops(charger)) {
    const Troop& t = *g.state.at(sp);
    if (t.has(kTroopFoughtThisCharge) || t.has(kTroopLost) || still_mustering(g.state, t)) continue;
    if (!in_combat(t, g.ctx.catalog, g.ctx.rules)) continue;
    if (!g.enemies_next_to(sp, charger, false).empty()) out.push_back(sp);
  }
  return out;
}

void resolve_combats(Game& g, Seat charger) {
  for (int guard = 0; guard < 64 && !g.halted(); ++guard) {
    const std::vector<Space> ready = fighters(g, charger);
    if (ready.empty()) return;
    // Highest effective Morale first; ties in any order.
    int top = -1;
    std::vector<Space> best;
    for (Space sp : ready) {
      const int m = effective_morale(*g.state.at(sp), g.ctx.catalog);
      if (m > top) best.clear();
      if (m >= top) {
        top = m;
        best.push_back(sp);
      }
    }
    const Space attacker = g.rng.pick(best);
    CombatResolved combat;
    combat.troop = attacker;
    const std::vector<Space> enemies = g.enemies_next_to(attacker, charger, false);
    combat.strikes = split(g, g.card(g.state.at(attacker)->card).vigor, enemies);
    // Each defender strikes back once per Charge, in its first combat,
    // or in every one under defender_strikes_each_combat; a Troop still
    // mustering cannot. None is left out.
    for (Space d : enemies) {
      const Troop& def = *g.state.at(d);
      if (still_mustering(g.state, def)) continue;
      if (!g.ctx.rules.defender_strikes_each_combat && contains(g.state.this_charge.defenders_struck, d)) continue;
      combat.defenders.push_back(
          DefenderSplit{d, split(g, g.card(def.card).vigor, g.enemies_next_to(d, def.owner, false))});
    }
    const std::size_t before = g.state.this_turn.defeated.size();
    (void)g.emit(charger, std::move(combat));
    record_defeats(g, charger, before);
  }
}

// A Troop becomes Lost (the rule that makes it so is on the unpublished
// Battlefield page): rare, and its owner recovers it in the Attrition Phase.
void maybe_lose_troop(Game& g) {
  if (!g.rng.chance(5)) return;
  std::vector<Space> candidates;
  for (std::size_t i = 0; i < g.state.grid.size(); ++i) {
    const auto& slot = g.state.grid[i];
    if (slot && !slot->has(kTroopLost) && !slot->has(kTroopBurrowed)) candidates.push_back(g.state.space_of(i));
  }
  if (!candidates.empty()) (void)g.emit(g.state.active, TroopLost{g.rng.pick(candidates)});
}

// After all combats, the charger's Troops not adjacent to an enemy may move
// 1 space; not a victor into a space a defeat emptied.
void post_combat_moves(Game& g, Seat charger) {
  std::vector<Space> troops = g.own_troops(charger);
  g.rng.shuffle(troops);
  for (Space sp : troops) {
    const auto& slot = g.state.at(sp);
    if (!slot || !g.ready(*slot) || slot->has(kTroopMovedThisPhase)) continue;
    if (!g.enemies_next_to(sp, charger, true).empty() || !g.rng.chance(35)) continue;
    const Space to = g.choose_step(sp, charger, g.state.this_charge.vacated);
    if (to.valid()) (void)g.emit(charger, TroopMoved{sp, to});
  }
}

// A Burrowed Troop of `seat` that could un-Burrow and Charge into a fight,
// when the discards it might cost can be met (Troop Wages Rule, R-026).
Space burrow_charger(Game& g, Seat seat) {
  std::vector<Space> ready;
  for (Space sp : g.own_troops(seat)) {
    const Troop& t = *g.state.at(sp);
    if (!t.has(kTroopBurrowed) || t.has(kTroopLost)) continue;
    if (g.enemies_next_to(sp, seat, false).empty()) continue;
    if (discards_covered(g, seat, g.cost(t.card, seat), 1, true)) ready.push_back(sp);
  }
  return ready.empty() ? Space{} : g.rng.pick(ready);
}

}  // namespace

void play_warfare(Game& g) {
  const Seat leader = g.state.leader;
  const Seat other = other_seat(leader);
  if (!g.emit_phase(Phase::Warfare, leader)) return;
  fire(g, leader);
  fire(g, other);

  // B. One Charge decision a turn: a Burrowed Troop may Charge whoever leads.
  Seat charger = kNoSeat;
  if (const Space b = burrow_charger(g, other); b.valid() && g.rng.chance(60)) {
    charger = other;
    (void)g.emit(other, ChargeDeclared{ChargeMode::Burrow, b});
  } else if (const Space lb = burrow_charger(g, leader); lb.valid() && g.rng.chance(50)) {
    charger = leader;
    (void)g.emit(leader, ChargeDeclared{ChargeMode::Burrow, lb});
  } else if (!fighters(g, leader).empty()) {
    charger = leader;
    (void)g.emit(leader, ChargeDeclared{ChargeMode::Normal, Space{}});
  } else {
    (void)g.emit(leader, ChargeDeclined{});  // the leader gains Local Favor
  }
  if (charger != kNoSeat) resolve_combats(g, charger);
  maybe_lose_troop(g);
  if (charger != kNoSeat) post_combat_moves(g, charger);
}

}  // namespace warlog::core::gen
