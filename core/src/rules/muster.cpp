// Muster Phase (../shared/rules, document "Muster Phase"): draw, Forage or
// Return, the extra Gambit, play, move, Still Mustering.

#include <algorithm>
#include <cctype>
#include <utility>

#include <fmt/format.h>

#include "rule_ids.hpp"
#include "../step.hpp"

namespace warlog::core::detail {

namespace {

std::string_view kind_of(const Step& st, const Troop& t) {
  const Card* c = st.ctx.catalog.find(t.card);
  return c == nullptr ? std::string_view("card unknown to the catalog") : to_string(c->type);
}

// Cards of the drawer's in place whose text could allow one more draw, their
// use unrecorded (rulings R-097): a Gambit in play or a Homeland card that
// arrived on an earlier turn (Card Text Timing), a Troop of theirs on the
// battlefield that entered on an earlier turn or whose text fires on its
// trigger.
std::vector<std::string> draw_text_sources(const Step& st, Seat seat) {
  std::vector<std::string> out;
  const SeatState& s = st.s.seats[seat];
  for (const auto* zone : {&s.gambits_in_play, &s.homeland}) {
    for (const HeldCard& h : *zone) {
      const Card* c = st.ctx.catalog.find(h.card);
      if (c != nullptr && h.since_turn < st.s.turn && says_draw(c->text)) out.push_back(h.card);
    }
  }
  for (const auto& t : st.s.grid) {
    if (!t || t->owner != seat) continue;
    const Card* c = st.ctx.catalog.find(t->card);
    if (c != nullptr && says_draw(c->text) && (t->entered_turn < st.s.turn || c->has(kQuirkTrigger))) {
      out.push_back(t->card);
    }
  }
  return out;
}

// "'Spore Cache'", "2 × 'Spore Cache' and 'Briar Archer'": each card once,
// with its count, in the order first found.
std::string quoted_list(const std::vector<std::string>& names) {
  std::vector<std::pair<std::string, int>> counted;
  for (const std::string& n : names) {
    auto it = std::find_if(counted.begin(), counted.end(), [&](const auto& c) { return c.first == n; });
    if (it == counted.end()) {
      counted.emplace_back(n, 1);
    } else {
      ++it->second;
    }
  }
  std::string out;
  for (std::size_t i = 0; i < counted.size(); ++i) {
    out += i == 0 ? "" : (i + 1 == counted.size() ? " and " : ", ");
    out += counted[i].second == 1 ? fmt::format("'{}'", counted[i].first)
                                  : fmt::format("{} × '{}'", counted[i].second, counted[i].first);
  }
  return out;
}

}  // namespace

bool says_draw(std::string_view text) {
  constexpr std::string_view kWord = "draw";
  if (text.size() < kWord.size()) return false;
  for (std::size_t i = 0; i + kWord.size() <= text.size(); ++i) {
    bool same = true;
    for (std::size_t k = 0; k < kWord.size() && same; ++k) {
      same = static_cast<char>(std::tolower(static_cast<unsigned char>(text[i + k]))) == kWord[k];
    }
    if (same) return true;
  }
  return false;
}

// Muster Phase › a. Draw cards: exactly draw_per_turn cards (the shortfall is
// checked when the part closes, see close_part). A recorded use of a card
// whose text draws, or of Local Favor to draw, allows one more.
void on(const Step& st, const CardsDrawn& d) {
  SeatState* seat = st.actor();
  if (seat == nullptr) return;
  if (st.in_phase(Phase::Muster, "drawing cards")) (void)st.by_active("drawing cards");
  for (const std::string& name : d.cards) {
    const Card* c = st.card(name);
    if (c == nullptr) continue;
    if (st.take(seat->deck, name, "Army Deck")) add(seat->hand, name);
    ++seat->this_turn.drawn;
    // Deck Construction › Turncoat (parked): a draw of the opponent's
    // allegiance may be taken by the opponent; its drawer draws one more.
    // The offer is recorded even with the rule parked, so that an opponent
    // playing it is reported as the parked rule (DECK.turncoat), not as a
    // card out of nowhere.
    if (c->faction == st.s.seats[other_seat(st.ev.seat)].allegiance && c->faction != seat->allegiance) {
      add(seat->this_turn.turncoat_offer, name);
      if (st.ctx.rules.turncoat) ++seat->this_turn.turncoat_draws;
    }
  }
  const int want = st.ctx.rules.draw_per_turn + seat->this_turn.turncoat_draws + seat->this_turn.text_draws;
  if (seat->this_turn.drawn <= want) return;
  const int beyond = seat->this_turn.drawn - want;
  const auto sources = draw_text_sources(st, st.ev.seat);
  if (st.ctx.rules.draws_from_card_text && beyond <= static_cast<int>(sources.size())) {
    st.report(rule_id::kMusterDrawCardText,
              fmt::format("{} drew {} cards this turn, {} beyond {}: {} could allow {}, but no use of {} is recorded",
                          seat->player, seat->this_turn.drawn, beyond, want, quoted_list(sources),
                          beyond == 1 ? "it" : "them", sources.size() == 1 ? "it" : "one"));
    return;
  }
  st.report(rule_id::kMusterDraw, fmt::format("{} drew {} card{} this turn, not {}", seat->player,
                                              seat->this_turn.drawn, seat->this_turn.drawn == 1 ? "" : "s", want));
}

// Muster Phase › a.: Forage one card from hand to the Homeland, OR Return
// one. Not both, and not twice.
namespace {

// Step a.: "Draw 2 cards. Then you may ..." (rulings R-018): a Forage,
// Return or extra Gambit before the draws is out of order, unless the Army
// Deck has run out.
void check_drawn_first(const Step& st, const SeatState& seat, std::string_view action) {
  if (seat.this_turn.drawn < st.ctx.rules.draw_per_turn && !seat.deck.empty()) {
    st.report(rule_id::kMusterSteps, fmt::format("{} {} before drawing {} cards: step a. draws first", seat.player,
                                                 action, st.ctx.rules.draw_per_turn));
  }
}

bool forage_or_return_allowed(const Step& st, SeatState& seat, std::string_view action) {
  check_drawn_first(st, seat, action);
  if (seat.this_part.acted) {
    st.report(rule_id::kMusterSteps,
              fmt::format("{} {} after playing or moving: step a. comes first", seat.player, action));
  }
  if (seat.this_turn.foraged || seat.this_turn.returned) {
    st.report(rule_id::kMusterForageOrReturn,
              fmt::format("{} {} after already {} this turn", seat.player, action,
                          seat.this_turn.foraged ? "Foraging" : "Returning a card"));
    return false;
  }
  return true;
}

}  // namespace

void on(const Step& st, const Foraged& f) {
  SeatState* seat = st.actor();
  if (seat == nullptr) return;
  if (st.in_phase(Phase::Muster, "Foraging")) (void)st.by_active("Foraging");
  (void)forage_or_return_allowed(st, *seat, "Forages");
  seat->this_turn.foraged = true;
  if (st.card(f.card) == nullptr) return;
  if (st.take(seat->hand, f.card, "hand")) seat->homeland.push_back(HeldCard{f.card, st.s.turn});
  (void)seat->this_turn.turncoat_offer.erase(f.card);
}

void on(const Step& st, const ReturnedFromHomeland& r) {
  SeatState* seat = st.actor();
  if (seat == nullptr) return;
  if (st.in_phase(Phase::Muster, "Returning a card")) (void)st.by_active("Returning a card");
  (void)forage_or_return_allowed(st, *seat, "Returns a card");
  seat->this_turn.returned = true;
  if (st.card(r.card) == nullptr) return;
  for (auto it = seat->homeland.begin(); it != seat->homeland.end(); ++it) {
    if (it->card == r.card) {
      seat->homeland.erase(it);
      add(seat->hand, r.card);
      add(seat->this_turn.not_playable, r.card);
      return;
    }
  }
  st.report(rule_id::kLogZone, fmt::format("'{}' is not in {}'s Homeland", r.card, seat->player));
}

// Muster Phase › a. › Note: one additional Gambit into the Homeland per turn.
void on(const Step& st, const GambitStocked& g) {
  SeatState* seat = st.actor();
  if (seat == nullptr) return;
  if (st.in_phase(Phase::Muster, "stocking a Gambit")) (void)st.by_active("stocking a Gambit");
  const Card* card = st.card(g.card);
  check_drawn_first(st, *seat, "stocks a Gambit");
  if (seat->this_turn.gambit_stocked) {
    st.report(rule_id::kMusterExtraGambit, fmt::format("{} stocks a second extra Gambit this turn", seat->player));
  }
  seat->this_turn.gambit_stocked = true;
  if (card == nullptr) return;
  if (card->type != CardType::Gambit) {
    st.report(rule_id::kMusterExtraGambit,
              fmt::format("'{}' is a {}; only a Gambit may be stocked this way", g.card, to_string(card->type)));
  }
  if (st.take(seat->hand, g.card, "hand")) seat->homeland.push_back(HeldCard{g.card, st.s.turn});
}

// Muster Phase › b. Play cards: from hand into the Vanguard.
void on(const Step& st, const CardPlayed& p) {
  SeatState* seat = st.actor();
  if (seat == nullptr) return;
  if (st.in_phase(Phase::Muster, "playing a card")) (void)st.by_active("playing a card");
  const Card* card = st.card(p.card);
  if (card == nullptr) return;
  if (seat->this_turn.drawn == 0 && !seat->deck.empty()) {
    st.report(rule_id::kMusterSteps, fmt::format("{} plays '{}' before drawing: step a. comes first", seat->player,
                                                 p.card));
  }
  seat->this_part.acted = true;
  // Turncoat (parked): the card comes from the opponent's hand, offered by
  // their draw, and is always surcharged.
  bool turncoat = false;
  if (seat->hand.count(p.card) == 0) {
    SeatState& drawer = st.s.seats[other_seat(st.ev.seat)];
    if (drawer.this_turn.turncoat_offer.count(p.card) != 0) {
      if (!st.ctx.rules.turncoat) {
        st.report(rule_id::kDeckTurncoat, fmt::format("{} plays '{}' from {}'s draw, but Turncoat is parked",
                                                      seat->player, p.card, drawer.player));
      }
      (void)st.take(drawer.this_turn.turncoat_offer, p.card, "Turncoat offer");
      // Moved only if it is still in the drawer's hand: a card leaves one
      // place for another, never comes from nowhere (card conservation).
      if (drawer.hand.count(p.card) != 0) {
        (void)st.take(drawer.hand, p.card, "hand");
        add(seat->hand, p.card);
        turncoat = true;
      }
    }
  }
  if (seat->this_turn.not_playable.count(p.card) != 0 && seat->hand.count(p.card) != 0 &&
      seat->hand.at(p.card) <= seat->this_turn.not_playable.at(p.card)) {
    st.report(rule_id::kMusterReturnedNotPlayable,
              fmt::format("'{}' was returned from the Homeland this turn and may not be played", p.card));
  }
  if (!st.take(seat->hand, p.card, "hand")) return;
  (void)seat->this_turn.turncoat_offer.erase(p.card);  // played by its drawer: the offer lapses
  check_renowned(st, *card);

  if (card->type == CardType::Gambit) {
    // A Gambit's place is off the grid (Card Text Timing; rulings R-024):
    // one recorded onto a space is a finding, and the card still goes into
    // play as a Gambit, owing its Provisions, never a free Troop.
    if (p.space.valid()) {
      st.report(rule_id::kMusterGambitSpace,
                fmt::format("'{}' is a Gambit, played onto {}: it is held in play, not placed on the battlefield",
                            p.card, to_string(p.space)));
    }
    seat->gambits_in_play.push_back(HeldCard{p.card, st.s.turn});
    return;
  }
  if (!stands_on_battlefield(card->type)) {
    st.report(rule_id::kMusterVanguard, fmt::format("'{}' is a {} and is not played into the Vanguard", p.card,
                                                    to_string(card->type)));
    add(seat->discard, p.card);  // it left the hand; keep the count of cards whole
    return;
  }
  if (!st.on_grid(p.space, "Vanguard space")) {
    add(seat->discard, p.card);  // it left the hand; keep the count of cards whole
    return;
  }
  const int want_row = vanguard_row(st.s, st.ev.seat);
  if (p.space.row != want_row) {
    st.report(rule_id::kMusterVanguard,
              fmt::format("'{}' played on {}, outside {}'s Vanguard (row {})", p.card, to_string(p.space),
                          seat->player, want_row + 1));
  }
  if (onto_territory(st, p.space, fmt::format("'{}' played on {}", p.card, to_string(p.space)))) {
    add(seat->discard, p.card);  // as for a space a card holds: it left the hand
    return;
  }
  auto& slot = st.s.at(p.space);
  if (slot) {
    st.report(rule_id::kMusterVanguard,
              fmt::format("'{}' played on {}, where '{}' already stands", p.card, to_string(p.space), slot->card));
    add(seat->discard, p.card);
    return;
  }
  Troop t;
  t.card = p.card;
  t.owner = st.ev.seat;
  t.entered_turn = st.s.turn;
  if (turncoat) t.flags |= kTroopTurncoat;
  slot = t;
}

// Muster Phase › Steps › c. and › Movement: one move per Troop and phase,
// one space, orthogonal, own Troops, not while still mustering.
void move_troop(const Step& st, Space from, Space to, std::string_view once_rule) {
  Troop* t = st.troop_at(from);
  if (t == nullptr || !st.on_grid(to, "destination")) return;
  const std::string what = fmt::format("'{}' moving {}→{}", t->card, to_string(from), to_string(to));
  if (t->owner != st.ev.seat) {
    st.report(rule_id::kMusterOwnTroops, fmt::format("{} moves an enemy Troop: {}", st.player(st.ev.seat), what));
  }
  if (!is_troop(*t, st.ctx.catalog)) {
    st.report(rule_id::kMusterOwnTroops, fmt::format("'{}' on {} is a {}: only Troops move", t->card, to_string(from),
                                                     kind_of(st, *t)));
  }
  if (t->has(kTroopLost) && !st.ctx.rules.lost_troops_act) {
    st.report(rule_id::kMusterLost, fmt::format("{} is Lost (since turn {}): it moves only once recovered", what,
                                                t->lost_turn));
  }
  if (still_mustering(st.s, *t)) {
    st.report(rule_id::kMusterStillMusteringMove, fmt::format("{} is still mustering (entered on turn {})", what,
                                                             t->entered_turn));
  }
  if (t->has(kTroopMovedThisPhase)) {
    st.report(once_rule, fmt::format("{} has already moved this phase", what));
  }
  if (!adjacent(from, to)) {
    // Attrition step 1 says "1 space" itself: its moves cite it, not Muster.
    st.report(once_rule == rule_id::kAttritionMove ? rule_id::kAttritionMove : rule_id::kMusterOneSpace,
              fmt::format("{} is not a move of one space horizontally or vertically", what));
  }
  if (onto_territory(st, to, what)) return;
  auto& dest = st.s.at(to);
  if (dest) {
    st.report(rule_id::kMusterOneSpace, fmt::format("{}: '{}' already stands on {}", what, dest->card, to_string(to)));
    return;  // the state keeps both cards where they were
  }
  t->flags |= kTroopMovedThisPhase;
  dest = std::move(st.s.at(from));
  st.s.at(from).reset();
}

void on(const Step& st, const TroopMoved& m) {
  switch (st.s.phase) {
    case Phase::Muster: {
      (void)st.by_active("moving a Troop");
      SeatState* seat = st.actor();
      if (seat == nullptr) return;
      if (seat->this_turn.drawn == 0 && !seat->deck.empty()) {
        st.report(rule_id::kMusterSteps, fmt::format("{} moves a Troop before drawing: step a. comes first",
                                                     seat->player));
      }
      seat->this_part.acted = true;
      move_troop(st, m.from, m.to, rule_id::kMusterOneMove);
      return;
    }
    case Phase::Warfare: post_combat_move(st, m); return;
    case Phase::Attrition: attrition_move(st, m); return;
    default: st.report(rule_id::kLogPhase, "a Troop moves outside the Muster, Warfare and Attrition phases");
  }
}

// Muster Phase › Movement: own Troops shifted among each other while playing
// cards; all moves happen at once, none is a Troop's one move, and Troops
// still mustering may be shifted (rulings R-022). Each goes one space, like
// any move; that a card was played in the same part is checked when the part
// closes (close_part), since the card may come before or after the shift.
void on(const Step& st, const TroopsShifted& sh) {
  if (st.in_phase(Phase::Muster, "shifting Troops")) (void)st.by_active("shifting Troops");
  struct Lifted {
    Space from, to;
    Troop troop;
  };
  std::vector<Lifted> lifted;
  for (const TroopMoved& m : sh.moves) {
    Troop* t = st.troop_at(m.from);
    if (t == nullptr || !st.on_grid(m.to, "destination")) continue;
    if (t->owner != st.ev.seat) {
      st.report(rule_id::kMusterOwnTroops,
                fmt::format("{} shifts an enemy Troop '{}' on {}", st.player(st.ev.seat), t->card, to_string(m.from)));
      continue;
    }
    const std::string what = fmt::format("'{}' shifted {}→{}", t->card, to_string(m.from), to_string(m.to));
    if (!is_troop(*t, st.ctx.catalog)) {
      st.report(rule_id::kMusterOwnTroops, fmt::format("'{}' on {} is a {}: only Troops are shifted", t->card,
                                                       to_string(m.from), kind_of(st, *t)));
    }
    if (!adjacent(m.from, m.to)) {
      st.report(rule_id::kMusterShift, fmt::format("{} is not one space horizontally or vertically", what));
    }
    if (t->has(kTroopLost) && !st.ctx.rules.lost_troops_act) {
      st.report(rule_id::kMusterLost, fmt::format("{} is Lost (since turn {}): it moves only once recovered", what,
                                                  t->lost_turn));
    }
    if (onto_territory(st, m.to, what)) continue;  // it stays where it was
    t->flags |= kTroopShifted;
    lifted.push_back(Lifted{m.from, m.to, std::move(*st.s.at(m.from))});
    st.s.at(m.from).reset();
  }
  for (auto& [from, to, troop] : lifted) {
    auto& dest = st.s.at(to);
    if (dest) {
      st.report(rule_id::kMusterOneSpace,
                fmt::format("shift puts '{}' on {}, where '{}' stands", troop.card, to_string(to), dest->card));
      // No card vanishes from the state (card conservation): it goes back
      // where it stood if that is empty, else on the first empty space of
      // its owner's Vanguard row, else on any empty space; never on a
      // Territory's space while one without is free. One is empty:
      // each lifted Troop left one.
      const bool territory_free = st.ctx.rules.cards_on_territory_spaces;
      auto first_empty = [&](auto&& wanted) -> std::optional<std::size_t> {
        for (std::size_t i = 0; i < st.s.grid.size(); ++i) {
          const Space sp = st.s.space_of(i);
          if (!st.s.grid[i] && wanted(sp)) return i;
        }
        return std::nullopt;
      };
      const auto off_territory = [&](Space sp) { return territory_free || territory_at(st.s, sp) == nullptr; };
      std::optional<std::size_t> put;
      if (!st.s.at(from)) put = st.s.index(from);
      if (!put) put = first_empty([&](Space sp) { return sp.row == vanguard_row(st.s, troop.owner) && off_territory(sp); });
      if (!put) put = first_empty(off_territory);
      if (!put) put = first_empty([](Space) { return true; });
      if (put) st.s.grid[*put] = std::move(troop);
      continue;
    }
    dest = std::move(troop);
  }
}



bool onto_territory(const Step& st, Space to, std::string_view what) {
  if (st.ctx.rules.cards_on_territory_spaces || !st.s.on_grid(to)) return false;
  const TerritoryState* t = territory_at(st.s, to);
  if (t == nullptr) return false;
  st.report(rule_id::kMusterTerritorySpace,
            fmt::format("{}: the Territory '{}' lies on {}, and no card stands on it", what, t->card, to_string(to)));
  return true;
}

// Muster Phase › Still Mustering: no card abilities on the turn it entered.
void on(const Step& st, const AbilityUsed& a) {
  if (!a.space.valid()) {
    off_battlefield_ability(st, a);
    return;
  }
  Troop* t = st.troop_at(a.space);
  if (t == nullptr) return;
  if (t->owner != st.ev.seat) {
    st.report(rule_id::kLogActor, fmt::format("{} uses the ability of an enemy card '{}'", st.player(st.ev.seat), t->card));
  }
  const Card* card = st.ctx.catalog.find(t->card);
  // Card Text Timing: When played / When destroyed text fires at once on its
  // trigger, so it is no ability used while still mustering (rulings R-053).
  const bool trigger = card != nullptr && card->has(kQuirkTrigger);
  if (still_mustering(st.s, *t) && !trigger) {
    st.report(rule_id::kMusterStillMusteringAbility,
              fmt::format("'{}' on {} uses an ability while still mustering", t->card, to_string(a.space)));
  }
  if (card != nullptr && card->has(kQuirkPhaseText) && !trigger && t->entered_turn == st.s.turn) {
    st.report(rule_id::kMusterPhaseTiming,
              fmt::format("'{}' uses Phase-timed text on the turn it entered", t->card));
  }
  t->flags |= kTroopAbilityUsed;
  if (card != nullptr && says_draw(card->text) && t->owner == st.ev.seat) ++st.s.seats[t->owner].this_turn.text_draws;
}

// An ability of a card off the battlefield: a Homeland card, a Gambit in
// play, or the Army Ability. `ability` is "Card Name" or "Card Name: detail".
void off_battlefield_ability(const Step& st, const AbilityUsed& a) {
  SeatState* seat = st.actor();
  if (seat == nullptr) return;
  const auto colon = a.ability.find(':');
  const std::string name = a.ability.substr(0, colon);
  std::string detail = colon == std::string::npos ? "" : a.ability.substr(colon + 1);
  while (!detail.empty() && detail.front() == ' ') detail.erase(0, 1);
  const Card* card = st.card(name);
  if (card == nullptr) return;
  if (card->type == CardType::ArmyAbility) {
    // The Paw Coalition's Rebel / Rabble token: the side it shows decides
    // whether its unprovisioned Troops are Shocked (Attrition › 3).
    if (detail == "rabble" || detail == "Rabble") seat->rabble_side = true;
    if (detail == "rebel" || detail == "Rebel") seat->rabble_side = false;
    return;
  }
  const HeldCard* held = nullptr;
  for (const auto* zone : {&seat->homeland, &seat->gambits_in_play}) {
    for (const HeldCard& h : *zone) {
      if (h.card == name) held = &h;
    }
  }
  if (held == nullptr) {
    st.report(rule_id::kLogZone, fmt::format("'{}' is not in {}'s Homeland or in play", name, seat->player));
    return;
  }
  // Muster Phase › Card Text Timing: Phase-timed text (a Gambit's by
  // default) needs the card in place since its owner's previous turn.
  const bool phase_timed = card->has(kQuirkPhaseText) || card->type == CardType::Gambit;
  if (phase_timed && held->since_turn == st.s.turn) {
    st.report(rule_id::kMusterPhaseTiming,
              fmt::format("'{}' uses Phase-timed text the turn it arrived (turn {})", name, held->since_turn));
  } else if (says_draw(card->text)) {
    ++seat->this_turn.text_draws;  // its draw is recorded next
  }
}

}  // namespace warlog::core::detail
