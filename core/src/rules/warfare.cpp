// Warfare Phase (../shared/rules, document "Warfare Phase"): A. Shotte,
// B. Charge (Burrow, Local Favor), C. Combat Resolution, the Combat Rulings
// table, post-combat moves and the Troop Wages Rule.

#include <algorithm>
#include <climits>
#include <fmt/format.h>

#include "rule_ids.hpp"
#include "../step.hpp"

namespace warlog::core::detail {

namespace {

bool contains(const std::vector<Space>& v, Space sp) { return std::find(v.begin(), v.end(), sp) != v.end(); }

const Card& card_of(const Step& st, const Troop& t) {
  static const Card kUnknown{};
  const Card* c = st.ctx.catalog.find(t.card);
  return c == nullptr ? kUnknown : *c;
}

// Enemy Troops (of the other seat) orthogonally adjacent to `sp` that take
// part in combat: Troop cards, not hidden Burrowed ones.
std::vector<Space> adjacent_enemies(const Step& st, Space sp, Seat owner, bool include_lost) {
  std::vector<Space> out;
  for (Space n : neighbours(st.s, sp)) {
    const auto& slot = st.s.at(n);
    if (slot && slot->owner != owner && (include_lost || !slot->has(kTroopLost)) &&
        in_combat(*slot, st.ctx.catalog, st.ctx.rules)) {
      out.push_back(n);
    }
  }
  return out;
}

// Why the card on `sp` cannot be in a combat or under fire, reported under
// `rule` for a card that is no Troop (a Dwelling: R-043) and under
// WAR-B.burrowed-hidden for a hidden Burrowed Troop; `role` says
// what the log made it do. False when it is a Troop in reach.
bool out_of_reach(const Step& st, Space sp, const Troop& t, std::string_view rule, std::string_view role) {
  if (!is_troop(t, st.ctx.catalog)) {
    const Card* c = st.ctx.catalog.find(t.card);
    st.report(rule, fmt::format("'{}' on {} {}, but it is a {}: only Troops fight and are fought", t.card,
                                to_string(sp), role,
                                c == nullptr ? std::string_view("card unknown to the catalog") : to_string(c->type)));
    return true;
  }
  if (st.ctx.rules.burrowed_troops_hidden && t.has(kTroopBurrowed)) {
    st.report(rule_id::kBurrowedHidden,
              fmt::format("'{}' on {} {}, but it is Burrowed: hidden until it un-Burrows", t.card, to_string(sp), role));
    return true;
  }
  return false;
}

bool can_fire(const GameState& s, const Troop& t, const Catalog& catalog, const Ruleset& rules) {
  const Card* c = catalog.find(t.card);
  return c != nullptr && c->has(kQuirkShotte) && !still_mustering(s, t) && !t.has(kTroopShotteUsed) &&
         (!t.has(kTroopLost) || rules.lost_troops_act);
}

bool has_eligible_shooter(const GameState& s, Seat seat, const Catalog& catalog, const Ruleset& rules) {
  return std::any_of(s.grid.begin(), s.grid.end(), [&](const auto& slot) {
    return slot && slot->owner == seat && can_fire(s, *slot, catalog, rules);
  });
}

// Burrowing and un-Burrowing outside a Burrow Charge (rulings R-045): the
// owner's act, in the owner's own Muster part.
void check_burrow_action(const Step& st, Space sp, const Troop& t, std::string_view verb, std::string_view action) {
  if (t.owner != st.ev.seat) {
    st.report(rule_id::kLogActor, fmt::format("{} {} '{}' on {}, which is {}'s", st.player(st.ev.seat), verb, t.card,
                                              to_string(sp), st.player(t.owner)));
  }
  if (st.s.phase != Phase::Muster) {
    st.report(rule_id::kBurrowTiming, fmt::format("'{}' on {} {} in the {} phase: outside a Burrow Charge, only in its "
                                                  "owner's Muster Phase",
                                                  t.card, to_string(sp), verb, to_string(st.s.phase)));
    return;
  }
  (void)st.by_active(action);
}

// Damage lands only on a card in combat: a Dwelling has no Vitality to lose
// and a hidden Burrowed Troop cannot be reached; the strike
// itself is a finding where it was recorded.
void hit(const Step& st, Space target, int damage, std::vector<Space>& defeated) {
  Troop* t = st.troop_at(target);
  if (t == nullptr || !in_combat(*t, st.ctx.catalog, st.ctx.rules)) return;
  t->damage = static_cast<std::int16_t>(std::min(999, t->damage + std::max(0, damage)));
  if (t->damage >= card_of(st, *t).vitality && !contains(defeated, target)) defeated.push_back(target);
}

// Checks one fighter's split (Warfare › C.): the strikes total its Vigor,
// hit only adjacent enemies, and reach every adjacent enemy.
void check_split(const Step& st, Space fighter_space, const Troop& fighter, const std::vector<Strike>& strikes) {
  const Card& c = card_of(st, fighter);
  int total = 0;
  std::vector<Space> struck;
  for (const Strike& s : strikes) {
    total += s.damage;
    struck.push_back(s.target);
    if (!st.s.on_grid(s.target) || !adjacent(fighter_space, s.target) || !st.s.at(s.target) ||
        st.s.at(s.target)->owner == fighter.owner) {
      st.report(rule_id::kCombatEligible, fmt::format("'{}' on {} strikes {}, which holds no adjacent enemy Troop",
                                                      fighter.card, to_string(fighter_space), to_string(s.target)));
    } else if (!out_of_reach(st, s.target, *st.s.at(s.target), rule_id::kCombatEligible, "is struck") &&
               st.s.at(s.target)->has(kTroopLost)) {
      st.report(rule_id::kCombatLost, fmt::format("'{}' on {} is Lost and out of the combat, but is struck",
                                                  st.s.at(s.target)->card, to_string(s.target)));
    }
  }
  if (total != c.vigor) {
    st.report(rule_id::kCombatVigor, fmt::format("'{}' on {} deals {} damage; its Vigor is {}", fighter.card,
                                                 to_string(fighter_space), total, c.vigor));
  }
  const auto enemies = adjacent_enemies(st, fighter_space, fighter.owner, false);
  if (st.ctx.rules.combat_split_all && static_cast<int>(enemies.size()) <= c.vigor) {
    for (Space e : enemies) {
      if (!contains(struck, e)) {
        st.report(rule_id::kCombatSplit, fmt::format("'{}' on {} fights every adjacent enemy but gives '{}' on {} no "
                                                     "damage",
                                                     fighter.card, to_string(fighter_space), st.s.at(e)->card,
                                                     to_string(e)));
      }
    }
  }
}

// The damage a fighter deals is its Vigor (Warfare › C.): the recorded
// split says where it goes, the card says how much. A split that totals
// more is cut in recorded order; one that totals less gives the rest to its
// last target (rulings R-041). So a card errata changes the consequences.
void derive_split(const std::vector<Strike>& strikes, int vigor, std::vector<std::pair<Space, int>>& out) {
  int left = std::max(0, vigor);
  for (std::size_t i = 0; i < strikes.size(); ++i) {
    const bool last = i + 1 == strikes.size();
    const int dealt = last ? left : std::min(left, std::max(0, strikes[i].damage));
    out.emplace_back(strikes[i].target, dealt);
    left -= dealt;
  }
}

// Can this Troop fight at all (Warfare › C. and the Combat Rulings)?
void check_fighter(const Step& st, Space sp, const Troop& t) {
  if (out_of_reach(st, sp, t, rule_id::kCombatEligible, "fights")) return;
  if (t.has(kTroopLost)) {
    st.report(rule_id::kCombatLost, fmt::format("'{}' on {} is Lost (since turn {}) and cannot fight", t.card,
                                                to_string(sp), t.lost_turn));
  }
  if (still_mustering(st.s, t)) {
    st.report(rule_id::kCombatMustering, fmt::format("'{}' on {} is still mustering and cannot fight", t.card,
                                                     to_string(sp)));
  }
  if (adjacent_enemies(st, sp, t.owner, false).empty()) {
    st.report(rule_id::kCombatEligible, fmt::format("'{}' on {} is adjacent to no enemy Troop", t.card, to_string(sp)));
  }
}

bool card_allows_charge(const Step& st, Seat seat) {
  const auto allows = [&](std::string_view name) {
    const Card* c = st.ctx.catalog.find(name);
    return c != nullptr && c->has(kQuirkCharge);
  };
  for (const auto& slot : st.s.grid) {
    if (slot && slot->owner == seat && allows(slot->card)) return true;
  }
  const SeatState& own = st.s.seats[seat];
  for (const auto* zone : {&own.homeland, &own.gambits_in_play}) {
    for (const HeldCard& h : *zone) {
      if (allows(h.card)) return true;
    }
  }
  return false;
}

// A defender the attacker strikes deals its damage back at the same time
// (Warfare › C.: "attackers and defenders alike"). An eligible one the log
// leaves out is a finding (rulings R-038); when the attacker is the only
// enemy beside it, where its Vigor goes is no choice, so the fold deals it.
void check_strike_backs(const Step& st, const CombatResolved& c, const Troop& attacker,
                        std::vector<std::pair<Space, int>>& damage) {
  GameState& s = st.s;
  // An attacker that cannot fight is a finding of its own (check_fighter):
  // its combat is no combat to strike back in.
  if (st.ctx.rules.strike_back_optional || attacker.has(kTroopLost) || still_mustering(s, attacker) ||
      !in_combat(attacker, st.ctx.catalog, st.ctx.rules)) {
    return;
  }
  std::vector<Space> seen;
  for (const Strike& k : c.strikes) {
    if (contains(seen, k.target) || !s.on_grid(k.target) || !s.at(k.target) || !adjacent(k.target, c.troop)) continue;
    seen.push_back(k.target);
    const Troop& d = *s.at(k.target);
    if (d.owner == attacker.owner || d.has(kTroopLost) || still_mustering(s, d) ||
        !in_combat(d, st.ctx.catalog, st.ctx.rules)) {
      continue;
    }
    const bool listed = std::any_of(c.defenders.begin(), c.defenders.end(),
                                    [&](const DefenderSplit& x) { return x.defender == k.target; });
    if (listed || (!st.ctx.rules.defender_strikes_each_combat && contains(s.this_charge.defenders_struck, k.target))) continue;
    const auto enemies = adjacent_enemies(st, k.target, d.owner, false);
    const bool only_attacker = enemies.size() == 1 && enemies[0] == c.troop;
    st.report(rule_id::kCombatStrikeBack,
              fmt::format("'{}' on {} is struck by '{}' on {} but its strike back is not recorded{}", d.card,
                          to_string(k.target), attacker.card, to_string(c.troop),
                          only_attacker ? fmt::format(": it deals its Vigor {} to '{}'", card_of(st, d).vigor,
                                                      attacker.card)
                                        : std::string(": it stands beside several enemies, so no damage is derived")));
    if (only_attacker) {
      damage.emplace_back(c.troop, card_of(st, d).vigor);
      s.this_charge.defenders_struck.push_back(k.target);
    }
  }
}

}  // namespace

// Every Troop of the charger's that could fight, did (Warfare › C.: the
// subphase ends once all eligible combats are resolved; rulings R-049).
void check_every_combat(const Step& st) {
  const GameState& s = st.s;
  if (!s.this_turn.charge_declared || s.this_turn.charger >= kSeatCount || st.ctx.rules.charge_combats_optional) return;
  for (const auto& slot : s.grid) {
    if (slot && slot->owner == s.this_turn.charger && slot->has(kTroopMovedThisPhase)) return;  // checked at the first move
  }
  for (std::size_t i = 0; i < s.grid.size(); ++i) {
    const auto& t = s.grid[i];
    const Space sp = s.space_of(i);
    if (!t || t->owner != s.this_turn.charger || t->has(kTroopFoughtThisCharge) || t->has(kTroopLost) ||
        still_mustering(s, *t) || !in_combat(*t, st.ctx.catalog, st.ctx.rules)) {
      continue;
    }
    const auto enemies = adjacent_enemies(st, sp, t->owner, false);
    if (enemies.empty()) continue;
    st.report_for(s.this_turn.charger, s.this_charge.declared_at, rule_id::kCombatEveryEligible,
              fmt::format("{}'s Charge leaves '{}' on {} unfought beside '{}' on {}: every eligible combat is resolved",
                          st.player(s.this_turn.charger), t->card, to_string(sp), s.at(enemies[0])->card,
                          to_string(enemies[0])));
  }
}

void defeat(const Step& st, Space sp) {
  auto& slot = st.s.at(sp);
  if (!slot) return;
  // Warfare › The Troop Wages Rule: destroyed the turn it was Mustered or
  // un-Burrowed, it is still provisioned this turn.
  const bool mustered = slot->entered_turn == st.s.turn;
  const bool unburrowed = slot->unburrowed_turn == st.s.turn && slot->unburrowed_turn != 0;
  const bool troop = is_troop(*slot, st.ctx.catalog);
  if ((mustered || unburrowed) && troop) {
    st.s.seats[slot->owner].this_turn.wages_due.push_back(WageDue{slot->card, sp, unburrowed});
  }
  st.s.this_turn.defeated.push_back(sp);
  // Attrition › 4: a Troop destroyed next to a Territory goes beneath it.
  // Next to several, the table chooses and the log says which (a later
  // TroopDefeated's `beneath`, rulings R-071); until then, and under
  // beneath_first_territory for good, the first in setup order holds it.
  // Only a Troop counts toward the Threshold.
  PlacedBeneath placed{slot->card, sp, -1, 0, false, st.ev.seq};
  for (std::size_t i = 0; troop && i < st.s.territories.size() && i < 127; ++i) {
    if (!adjacent(st.s.territories[i].space, sp)) continue;
    if (placed.territory < 0) placed.territory = static_cast<std::int8_t>(i);
    ++placed.beside;
  }
  if (placed.territory >= 0) {
    ++st.s.territories[static_cast<std::size_t>(placed.territory)].beneath;
    st.s.placed_this_turn.push_back(std::move(placed));
  } else {
    add(st.s.seats[slot->owner].discard, slot->card);
  }
  slot.reset();
}

namespace {

// The Territory the log chose for a Troop destroyed this turn.
void place_beneath(const Step& st, const TroopDefeated& d) {
  GameState& s = st.s;
  const auto territory = std::find_if(s.territories.begin(), s.territories.end(),
                                      [&](const TerritoryState& t) { return t.space == d.beneath; });
  if (territory == s.territories.end()) {
    st.report(rule_id::kLogSpace, fmt::format("no Territory stands on {}", to_string(d.beneath)));
    return;
  }
  const auto placed = std::find_if(s.placed_this_turn.rbegin(), s.placed_this_turn.rend(),
                                   [&](const PlacedBeneath& p) { return p.troop == d.space; });
  if (placed == s.placed_this_turn.rend() || !adjacent(territory->space, d.space)) {
    st.report(rule_id::kThresholdBeneath,
              fmt::format("the Troop destroyed on {} is recorded beneath '{}' on {}, which it was not beside",
                          to_string(d.space), territory->card, to_string(d.beneath)));
    return;
  }
  const auto chosen = static_cast<std::int8_t>(territory - s.territories.begin());
  if (chosen == placed->territory) {
    placed->chosen = true;
    return;
  }
  // The index comes from a snapshot's bytes too: checked, not trusted.
  if (placed->territory < 0 || static_cast<std::size_t>(placed->territory) >= s.territories.size()) return;
  TerritoryState& first = s.territories[static_cast<std::size_t>(placed->territory)];
  if (st.ctx.rules.beneath_first_territory) {
    st.report(rule_id::kThresholdBeneath,
              fmt::format("'{}' destroyed on {} is recorded beneath '{}', but goes beneath '{}', the first "
                          "Territory in setup order beside it (rulings R-071)",
                          placed->card, to_string(d.space), territory->card, first.card));
    return;
  }
  --first.beneath;
  ++territory->beneath;
  placed->territory = chosen;
  placed->chosen = true;
}

}  // namespace

void flee(const Step& st, Space sp) {
  auto& slot = st.s.at(sp);
  if (!slot) return;
  st.s.this_turn.fled.push_back(sp);
  add(st.s.seats[slot->owner].discard, slot->card);
  slot.reset();
}

// --- A. Shotte Subphase -----------------------------------------------------
void on(const Step& st, const ShotteFired& f) {
  GameState& s = st.s;
  if (!st.in_phase(Phase::Warfare, "Shotte fire")) return;
  if (s.this_turn.charge_declared || s.this_turn.charge_declined) {
    st.report(rule_id::kShotteSubphase, "Shotte fire after the Charge Subphase began");
  }
  Troop* shooter = st.troop_at(f.shooter);
  if (shooter == nullptr) return;
  const Card& c = card_of(st, *shooter);
  if (shooter->owner != st.ev.seat) {
    st.report(rule_id::kLogActor, fmt::format("{} fires '{}', which is not theirs", st.player(st.ev.seat), shooter->card));
  }
  if (!c.has(kQuirkShotte)) {
    st.report(rule_id::kShotteQuirk, fmt::format("'{}' has no Shotte Quirk", shooter->card));
  }
  if (c.has(kQuirkShotte)) (void)out_of_reach(st, f.shooter, *shooter, rule_id::kShotteQuirk, "fires");
  if (still_mustering(s, *shooter)) {
    st.report(rule_id::kShotteMustering, fmt::format("'{}' on {} fires while still mustering (entered turn {})",
                                                     shooter->card, to_string(f.shooter), shooter->entered_turn));
  }
  if (shooter->has(kTroopLost) && !st.ctx.rules.lost_troops_act) {
    st.report(rule_id::kShotteLost, fmt::format("'{}' on {} is Lost (since turn {}): it fires only once recovered",
                                                shooter->card, to_string(f.shooter), shooter->lost_turn));
  }
  if (shooter->has(kTroopShotteUsed)) {
    st.report(rule_id::kShotteOnce, fmt::format("'{}' on {} has already fired since it was played", shooter->card,
                                                to_string(f.shooter)));
  }
  if (st.ctx.rules.shotte_damage_is_vigor && f.damage != c.vigor) {
    st.report(rule_id::kShotteDamage, fmt::format("'{}' deals {} Shotte damage; its Vigor is {}", shooter->card,
                                                  f.damage, c.vigor));
  }
  // Order: leader first then the next player, or strict alternation while
  // both can fire.
  const Seat x = st.ev.seat;
  if (!s.this_turn.shotte_seats.empty() && x < kSeatCount) {
    const Seat prev = s.this_turn.shotte_seats.back();
    const bool other_could_fire = has_eligible_shooter(s, other_seat(x), st.ctx.catalog, st.ctx.rules);
    const bool next_fired = std::find(s.this_turn.shotte_seats.begin(), s.this_turn.shotte_seats.end(), other_seat(s.leader)) !=
                            s.this_turn.shotte_seats.end();
    // Alternating fire starts with the leader, like the blocks do.
    const bool next_started = s.this_turn.shotte_seats.front() != s.leader;
    if (x == s.leader && next_fired &&
        (next_started || s.this_turn.shotte_alternation_broken || (prev == x && other_could_fire))) {
      // "Again" only when the leader has fired before this turn: after a
      // pass, the next player's fire ends the leader's turn to fire.
      const bool fired_before = std::find(s.this_turn.shotte_seats.begin(), s.this_turn.shotte_seats.end(), x) != s.this_turn.shotte_seats.end();
      st.report(rule_id::kShotteOrder,
                fired_before ? fmt::format("{} fires again after {} fired, outside alternating fire", st.player(x),
                                           st.player(other_seat(x)))
                             : fmt::format("{} fires after {} fired first: Leading in Morale, {} fires first or not at all",
                                           st.player(x), st.player(other_seat(x)), st.player(x)));
    }
    if (prev == x && other_could_fire) s.this_turn.shotte_alternation_broken = true;
  }
  s.this_turn.shotte_seats.push_back(x);
  shooter->flags |= kTroopShotteUsed;
  if (!st.troop_at(f.target)) return;
  if (s.at(f.target)->owner == shooter->owner) {
    st.report(rule_id::kShotteQuirk, fmt::format("'{}' fires at its own side's '{}'", shooter->card, s.at(f.target)->card));
  }
  if (out_of_reach(st, f.target, *s.at(f.target), rule_id::kShotteQuirk, "is fired at")) return;
  std::vector<Space> defeated;
  // Damage is a consequence of Vigor: a changed card changes it.
  hit(st, f.target, st.ctx.rules.shotte_damage_is_vigor ? c.vigor : f.damage, defeated);
  for (Space sp : defeated) defeat(st, sp);
}

// --- B. Charge Subphase -----------------------------------------------------
void on(const Step& st, const ChargeDeclared& c) {
  GameState& s = st.s;
  if (!st.in_phase(Phase::Warfare, "declaring a Charge")) return;
  // A Charge by no seat of this game (a LOG.actor finding) charges nothing:
  // the charger must be a seat (found by fuzzing the event decoder).
  if (st.actor() == nullptr) return;
  if (s.this_turn.charge_declared || s.this_turn.charge_declined) {
    st.report(rule_id::kChargeOnce, "a second Charge decision this turn");
  }
  switch (c.mode) {
    case ChargeMode::Normal:
      if (st.ev.seat != s.leader) {
        st.report(rule_id::kChargeLeader, fmt::format("{} declares a Charge but {} is Leading in Morale",
                                                      st.player(st.ev.seat), st.player(s.leader)));
      }
      break;
    case ChargeMode::Burrow: {
      Troop* t = st.troop_at(c.from);
      if (t == nullptr || t->owner != st.ev.seat || !t->has(kTroopBurrowed)) {
        st.report(rule_id::kChargeBurrow, fmt::format("a Burrow Charge from {}, where {} has no Burrowed Troop",
                                                      to_string(c.from), st.player(st.ev.seat)));
        break;
      }
      t->flags &= static_cast<std::uint16_t>(~kTroopBurrowed);
      t->unburrowed_turn = s.turn;
      break;
    }
    case ChargeMode::Card:
      // "Unless a card states otherwise": a card of the charger's in play
      // (on the battlefield, in the Homeland, a Gambit in play) says so.
      if (!card_allows_charge(st, st.ev.seat)) {
        st.report(rule_id::kCardCharge, fmt::format("{} declares a Charge by a card's leave, but no card of {}'s in "
                                                    "play allows one",
                                                    st.player(st.ev.seat), st.player(st.ev.seat)));
      }
      break;
  }
  // Local Favor goes to a leader who declines (rulings R-050); one pre-empted
  // by a Burrow Charge has no decision left, and gains it only under
  // favor_when_preempted.
  if (c.mode == ChargeMode::Burrow && st.ev.seat != s.leader && s.leader < kSeatCount &&
      st.ctx.rules.favor_when_preempted && !s.this_turn.charge_declared && !s.this_turn.charge_declined) {
    s.seats[s.leader].local_favor_until_turn = static_cast<std::uint16_t>(s.turn + 1);
  }
  s.this_turn.charge_declared = true;
  s.this_turn.charger = st.ev.seat;
  s.this_charge = {};
  s.this_charge.declared_at = st.ev.seq;
  s.this_charge.last_combat_morale = INT_MAX;  // no combat yet: any Morale may lead
  for (auto& slot : s.grid) {
    if (slot) slot->flags &= static_cast<std::uint16_t>(~kTroopFoughtThisCharge);
  }
}

void on(const Step& st, const ChargeDeclined&) {
  GameState& s = st.s;
  if (!st.in_phase(Phase::Warfare, "declining a Charge")) return;
  if (s.this_turn.charge_declared || s.this_turn.charge_declined) {
    // A decline after a Charge (a Burrow Charge pre-empting the leader)
    // declines nothing: no Local Favor (rulings R-050).
    st.report(rule_id::kChargeOnce, s.this_turn.charge_declared ? "a decline after a Charge was declared this turn"
                                                      : "a second Charge decision this turn");
    return;
  }
  if (st.ev.seat != s.leader) {
    st.report(rule_id::kChargeLeader, fmt::format("{} declines a Charge, a choice that belongs to {}",
                                                  st.player(st.ev.seat), st.player(s.leader)));
    return;
  }
  s.this_turn.charge_declined = true;
  // › Local Favor: until the end of the leader's next Muster Phase.
  s.seats[st.ev.seat].local_favor_until_turn = static_cast<std::uint16_t>(s.turn + 1);
}

void on(const Step& st, const LocalFavorUsed& u) {
  SeatState* seat = st.actor();
  if (seat == nullptr) return;
  const std::uint16_t until = seat->local_favor_until_turn;
  // It ends with the holder's own Muster part, not with the opponent's, and
  // serves from the turn after it was gained (rulings R-050).
  const bool own_muster_over = seat->this_turn.mustered && st.s.active != st.ev.seat;
  const bool next_muster = st.s.turn == until && st.s.phase == Phase::Muster && !own_muster_over;
  const bool same_turn = until != 0 && st.s.turn + 1 == until;
  if (same_turn && !st.ctx.rules.favor_same_turn) {
    st.report(rule_id::kLocalFavor, fmt::format("{} uses Local Favor ('{}') in the turn it was gained: it serves in "
                                                "{}'s next Muster Phase",
                                                seat->player, u.option, seat->player));
    seat->local_favor_until_turn = 0;
    return;
  }
  const bool live = until != 0 && (next_muster || same_turn);
  if (!live) {
    st.report(rule_id::kLocalFavor, fmt::format("{} uses Local Favor ('{}') without holding it", seat->player,
                                                u.option));
  } else if (says_draw(u.option)) {
    ++seat->this_turn.text_draws;  // "draw one more card": the draw is recorded next
  }
  seat->local_favor_until_turn = 0;
}

// --- C. Combat Resolution ---------------------------------------------------
void on(const Step& st, const CombatResolved& c) {
  GameState& s = st.s;
  if (!st.in_phase(Phase::Warfare, "a combat")) return;
  if (!s.this_turn.charge_declared) st.report(rule_id::kCombatResolver, "a combat without a declared Charge");
  if (st.ev.seat != s.this_turn.charger && s.this_turn.charge_declared) {
    st.report(rule_id::kCombatResolver, fmt::format("{} resolves a combat of {}'s Charge", st.player(st.ev.seat),
                                                    st.player(s.this_turn.charger)));
  }
  Troop* attacker = st.troop_at(c.troop);
  if (attacker == nullptr) return;
  if (s.this_turn.charge_declared && attacker->owner != s.this_turn.charger) {
    st.report(rule_id::kCombatResolver, fmt::format("'{}' on {} leads a combat but belongs to {}, not the charger",
                                                    attacker->card, to_string(c.troop), st.player(attacker->owner)));
  }
  check_fighter(st, c.troop, *attacker);
  if (attacker->has(kTroopFoughtThisCharge)) {
    st.report(rule_id::kCombatOrder, fmt::format("'{}' on {} leads a second combat this Charge", attacker->card,
                                                 to_string(c.troop)));
  }
  // Highest Morale first: no eligible charger Troop still waiting may have
  // more Morale than this one (ties in any order, rulings R-006).
  const int morale = effective_morale(*attacker, st.ctx.catalog);
  for (std::size_t i = 0; i < s.grid.size(); ++i) {
    const auto& other = s.grid[i];
    const Space sp = s.space_of(i);
    if (!other || sp == c.troop || other->owner != attacker->owner || other->has(kTroopFoughtThisCharge) ||
        other->has(kTroopLost) || still_mustering(s, *other) || !in_combat(*other, st.ctx.catalog, st.ctx.rules) ||
        adjacent_enemies(st, sp, other->owner, false).empty()) {
      continue;
    }
    if (const int m = effective_morale(*other, st.ctx.catalog); m > morale) {
      st.report(rule_id::kCombatOrder, fmt::format("'{}' (Morale {}) fights before '{}' on {} (Morale {})",
                                                   attacker->card, morale, other->card, to_string(sp), m));
      break;
    }
  }
  s.this_charge.last_combat_morale = morale;
  attacker->flags |= kTroopFoughtThisCharge;
  check_split(st, c.troop, *attacker, c.strikes);

  std::vector<std::pair<Space, int>> damage;
  derive_split(c.strikes, card_of(st, *attacker).vigor, damage);
  for (const DefenderSplit& d : c.defenders) {
    Troop* def = st.troop_at(d.defender);
    if (def == nullptr) continue;
    if (def->owner == attacker->owner || !adjacent(d.defender, c.troop)) {
      st.report(rule_id::kCombatEligible, fmt::format("'{}' on {} strikes back but is no enemy adjacent to {}",
                                                      def->card, to_string(d.defender), to_string(c.troop)));
    }
    check_fighter(st, d.defender, *def);
    const bool struck_before = !st.ctx.rules.defender_strikes_each_combat && contains(s.this_charge.defenders_struck, d.defender);
    // `; c2` with no arrow (docs/notation.md § 5): a defender that already
    // dealt its damage this Charge is in this combat and deals none.
    if (struck_before && d.strikes.empty()) continue;
    if (struck_before) {
      st.report(rule_id::kCombatVigor, fmt::format("'{}' on {} already dealt its damage this Charge (rulings R-008)",
                                                   def->card, to_string(d.defender)));
    }
    s.this_charge.defenders_struck.push_back(d.defender);
    check_split(st, d.defender, *def, d.strikes);
    derive_split(d.strikes, card_of(st, *def).vigor, damage);
  }
  check_strike_backs(st, c, *attacker, damage);
  // Damage is simultaneous: every strike lands, then the defeated leave.
  std::vector<Space> defeated;
  for (const auto& [sp, dmg] : damage) hit(st, sp, dmg, defeated);
  for (Space sp : defeated) {
    // Only an enemy's emptied space is barred to the charger's victors.
    if (s.at(sp) && s.at(sp)->owner != s.this_turn.charger) s.this_charge.vacated.push_back(sp);
    defeat(st, sp);
  }
}

void on(const Step& st, const TroopLost& l) {
  Troop* t = st.troop_at(l.space);
  if (t == nullptr) return;
  t->flags |= kTroopLost;
  t->lost_turn = st.s.turn;
}

void on(const Step& st, const TroopDefeated& d) {
  if (contains(st.s.this_turn.defeated, d.space)) {  // the fold agrees
    if (d.beneath.valid()) place_beneath(st, d);
    return;
  }
  if (!st.on_grid(d.space, "defeated Troop's space")) return;
  const auto& slot = st.s.at(d.space);
  if (!slot) {
    st.report(rule_id::kCombatDefeat, fmt::format("recorded defeat on {}, where no Troop stands", to_string(d.space)));
    return;
  }
  const int left = card_of(st, *slot).vitality - slot->damage;
  st.report(rule_id::kCombatDefeat, fmt::format("'{}' on {} is recorded as defeated but has {} Vitality left",
                                                slot->card, to_string(d.space), left));
}

void on(const Step& st, const TroopBurrowed& b) {
  Troop* t = st.troop_at(b.space);
  if (t == nullptr) return;
  check_burrow_action(st, b.space, *t, "Burrows", "Burrowing");
  if (!card_of(st, *t).has(kQuirkBurrow)) {
    st.report(rule_id::kBurrowQuirk, fmt::format("'{}' has no Burrow Quirk", t->card));
  }
  if (still_mustering(st.s, *t) && !st.ctx.rules.burrow_while_mustering) {
    st.report(rule_id::kBurrowMustering, fmt::format("'{}' on {} is still mustering (entered turn {}): it may not "
                                                     "Burrow yet",
                                                     t->card, to_string(b.space), t->entered_turn));
  }
  t->flags |= kTroopBurrowed;
}

void on(const Step& st, const TroopUnburrowed& u) {
  Troop* t = st.troop_at(u.space);
  if (t == nullptr) return;
  check_burrow_action(st, u.space, *t, "un-Burrows", "un-Burrowing");
  if (!t->has(kTroopBurrowed)) {
    st.report(rule_id::kUnburrow, fmt::format("'{}' on {} un-Burrows but is not Burrowed", t->card, to_string(u.space)));
  }
  t->flags &= static_cast<std::uint16_t>(~kTroopBurrowed);
  t->unburrowed_turn = st.s.turn;
}

// After all combats, Troops of the charger's side not adjacent to an enemy
// may move 1 space; no victor advances into a space its defeat emptied.
void post_combat_move(const Step& st, const TroopMoved& m) {
  const GameState& s = st.s;
  Troop* t = st.troop_at(m.from);
  if (t == nullptr) return;
  if (!s.this_turn.charge_declared) {
    st.report(rule_id::kCombatPostMove, fmt::format("'{}' moves in the Warfare Phase without a Charge", t->card));
  } else if (st.ev.seat != s.this_turn.charger) {
    st.report(rule_id::kCombatPostMove, fmt::format("{} moves '{}' after {}'s Charge: only the charger's Troops move "
                                                    "after combat",
                                                    st.player(st.ev.seat), t->card, st.player(s.this_turn.charger)));
  } else if (!adjacent_enemies(st, m.from, t->owner, true).empty()) {
    st.report(rule_id::kCombatPostMove, fmt::format("'{}' on {} moves while adjacent to an enemy Troop", t->card,
                                                    to_string(m.from)));
  }
  if (s.this_turn.charge_declared) check_every_combat(st);
  if (t->has(kTroopFoughtThisCharge) && st.ctx.rules.fought_troops_stay) {
    st.report(rule_id::kCombatFoughtMove, fmt::format("'{}' on {} fought this Charge and moves: Allied Troops either "
                                                      "fight or move",
                                                      t->card, to_string(m.from)));
  }
  if (t->has(kTroopFoughtThisCharge) && contains(s.this_charge.vacated, m.to)) {
    st.report(rule_id::kCombatNoAdvance, fmt::format("'{}' advances into {}, emptied by a defeat this Charge", t->card,
                                                     to_string(m.to)));
  }
  move_troop(st, m.from, m.to, rule_id::kCombatPostMove);
}

}  // namespace warlog::core::detail
