// The game's frame: setup, turns, the Morale Check, phase order, the end.

#include <algorithm>
#include <fmt/format.h>

#include "rule_ids.hpp"
#include "../step.hpp"

namespace warlog::core::detail {

namespace {

struct Part {
  Phase phase;
  bool leader;  // the leader's part, or the next player's
};

// The parts of a turn in order (Muster Phase › Steps; Warfare Phase;
// Attrition Phase: "starting with the player Leading in Morale").
constexpr Part kParts[] = {{Phase::Muster, true},   {Phase::Muster, false},   {Phase::Warfare, true},
                           {Phase::Attrition, true}, {Phase::Attrition, false}};

std::string part_name(const Step& st, std::uint8_t part) {
  const Part& p = kParts[part - 1];
  const Seat seat = p.leader ? st.s.leader : other_seat(st.s.leader);
  return fmt::format("{}'s {} phase", st.player(seat), to_string(p.phase));
}

// Closes the parts `from` .. `to - 1` of the turn, which the log skipped, as
// if each had been taken and nothing done in it (rulings R-096): its seat
// still owed its draws and its Provisions. Found at the event that makes the
// skip certain. The Warfare part owes nothing when no Charge was declared.
void close_skipped(const Step& st, std::uint8_t from, std::uint8_t to) {
  GameState& s = st.s;
  if (s.leader >= kSeatCount) return;
  const Seat active = s.active;
  const Phase phase = s.phase;
  const Seq started = s.part_started;
  for (std::uint8_t p = from; p < to && p <= std::size(kParts); ++p) {
    const Part& part = kParts[p - 1];
    if (part.phase == Phase::Warfare) continue;
    s.active = part.leader ? s.leader : other_seat(s.leader);
    s.phase = part.phase;
    s.part_started = st.ev.seq;
    close_part(st);
  }
  s.active = active;
  s.phase = phase;
  s.part_started = started;
}

}  // namespace

void on(const Step& st, const GameCreated& g) {
  GameState& s = st.s;
  if (s.created) {
    st.report(rule_id::kLogSetup, "a second GameCreated in the same stream");
    return;
  }
  if (g.seats.size() != kSeatCount) {
    st.report(rule_id::kLogSetup, fmt::format("a game has {} seats, this one names {}", kSeatCount, g.seats.size()));
  }
  s.created = true;
  s.title = g.title;
  s.date = g.date;
  s.ruleset_hash = g.ruleset_hash;
  s.catalog_hash = g.catalog_hash;
  s.cols = g.cols > 0 && g.cols <= 26 ? g.cols : 5;
  s.rows = g.rows > 0 && g.rows <= 99 ? g.rows : 4;
  if (s.cols != g.cols || s.rows != g.rows) {
    st.report(rule_id::kLogSetup, fmt::format("battlefield {}x{} is not 1x1 to 26x99; using {}x{}",
                                              static_cast<int>(g.cols), static_cast<int>(g.rows),
                                              static_cast<int>(s.cols), static_cast<int>(s.rows)));
  }
  s.grid.assign(static_cast<std::size_t>(s.cols) * static_cast<std::size_t>(s.rows), std::nullopt);
  for (std::size_t i = 0; i < g.seats.size() && i < kSeatCount; ++i) {
    s.seats[i].player = g.seats[i].player;
    s.seats[i].allegiance = g.seats[i].allegiance;
  }
  for (const PlacedTerritory& t : g.territories) {
    const Card* c = st.card(t.card);
    if (c != nullptr && c->type != CardType::Territory) {
      st.report(rule_id::kLogSetup, fmt::format("'{}' is a {}, not a Territory", t.card, to_string(c->type)));
      continue;
    }
    if (!st.on_grid(t.space, "Territory space")) continue;
    s.territories.push_back(TerritoryState{t.card, t.space, 0});
  }
}

void on(const Step& st, const ArmyRegistered& a) {
  if (st.s.turn != 0) {
    st.report(rule_id::kLogSetup, "ArmyRegistered after the first turn started");
  }
  if (a.seat >= kSeatCount) {
    st.report(rule_id::kLogSetup, fmt::format("ArmyRegistered for seat {}, which does not exist", a.seat + 1));
    return;
  }
  SeatState& seat = st.s.seats[a.seat];
  if (seat.registered) {
    st.report(rule_id::kLogSetup, fmt::format("{} registered a second army", seat.player));
    return;
  }
  seat.registered = true;
  check_army(st, a.seat, a);
  // No army holds more than kMaxArmyCards: a hostile count (the event's
  // Int32) would overflow a pile's int, where check_invariants aborts a
  // checked build. The cards beyond it are a finding and not registered.
  constexpr int kMaxArmyCards = 10'000;
  int registered = 0;
  auto put = [&](CardPile& pile, const CardCount& cc, const char* deck) {
    if (st.card(cc.card) == nullptr || cc.count <= 0) return;
    if (cc.count > kMaxArmyCards - registered) {
      st.report(rule_id::kLogSetup, fmt::format("{} registers {} '{}' in the {}: over {} cards an army can hold; "
                                                "not registered", seat.player, cc.count, cc.card, deck, kMaxArmyCards));
      return;
    }
    registered += cc.count;
    add(pile, cc.card, cc.count);
    st.s.cards_in_game += cc.count;
  };
  for (const CardCount& cc : a.army) put(seat.deck, cc, "Army Deck");
  for (const CardCount& cc : a.orders) put(seat.orders, cc, "Orders Deck");
}

void on(const Step& st, const TurnStarted&) {
  GameState& s = st.s;
  close_part(st);
  settle_placements(st);
  if (s.turn == 0) {
    for (Seat i = 0; i < kSeatCount; ++i) {
      if (!s.seats[i].registered) {
        st.report(rule_id::kLogSetup, fmt::format("turn 1 starts before seat {} registered an army", i + 1));
      }
    }
  } else if (s.part == std::size(kParts)) {
    end_of_turn(st);
  } else if (s.part != 0) {
    // The part skipped cites where its order is written: the next player's
    // Muster (Muster Phase), an Attrition part (Attrition Phase › End of Turn).
    const std::uint8_t due = s.part + 1;
    const std::string_view rule = due == 2 ? rule_id::kMusterOrder : due >= 4 ? rule_id::kAttritionEndOfTurn
                                                                             : rule_id::kLogOrder;
    st.report(rule, fmt::format("turn {} starts before {} had its turn", st.ev.turn,
                                              s.leader == kNoSeat ? "every player" : part_name(st, s.part + 1)));
    close_skipped(st, due, static_cast<std::uint8_t>(std::size(kParts) + 1));
  }
  if (st.ev.turn != s.turn + 1) {
    st.report(rule_id::kLogOrder, fmt::format("turn {} follows turn {}", st.ev.turn, s.turn));
  }
  s.turn = st.ev.turn;
  s.phase = Phase::Muster;
  s.part = 0;
  s.active = kNoSeat;
  s.this_turn = {};
  s.this_charge = {};
  for (SeatState& seat : s.seats) seat.this_turn = {};
}

void on(const Step& st, const MoraleChecked& m) {
  GameState& s = st.s;
  if (m.leader >= kSeatCount) {
    st.report(rule_id::kLogSetup, fmt::format("the Morale Check names seat {}, which does not exist", m.leader + 1));
    return;
  }
  const int mine = morale_total(s, m.leader, st.ctx.catalog);
  const int theirs = morale_total(s, other_seat(m.leader), st.ctx.catalog);
  const bool keeps_tie = mine == theirs && (s.leader == m.leader || s.leader == kNoSeat);
  const bool disagrees = mine < theirs || (mine == theirs && !keeps_tie);
  // Under leader_from_morale the fold leads with the seat the Morale gives
  // (a tie keeps last turn's leader), and the log's is only checked.
  const Seat derived = disagrees && st.ctx.rules.leader_from_morale ? other_seat(m.leader) : m.leader;
  if (disagrees) {
    st.report(rule_id::kMoraleLeader,
              fmt::format("{} is recorded Leading in Morale with {} Morale against {}'s {}{}", st.player(m.leader), mine,
                          st.player(other_seat(m.leader)), theirs,
                          derived == m.leader ? std::string()
                                              : fmt::format("; {} leads, as the Morale gives", st.player(derived))));
  }
  if (s.part != 0) {
    st.report(rule_id::kLogOrder, fmt::format("turn {}'s Morale Check comes after its first phase began", s.turn));
  } else if (s.this_turn.morale_checked) {
    st.report(rule_id::kLogOrder, fmt::format("a second Morale Check in turn {}", s.turn));
  }
  s.this_turn.morale_checked = true;
  // By default the recorded leader is followed: the Morale Check page is
  // unpublished, so disagreeing with the log here must not cascade into
  // written-rule findings (rulings R-004). leader_from_morale lets it.
  s.leader = derived;
}

void on(const Step& st, const PhaseStarted&) {
  GameState& s = st.s;
  close_part(st);
  const Phase phase = st.ev.phase;
  const Seat seat = st.ev.seat;
  if (phase != Phase::Muster && phase != Phase::Warfare && phase != Phase::Attrition) {
    st.report(rule_id::kLogPhase, fmt::format("a phase named '{}' does not exist", to_string(phase)));
    return;
  }
  if (seat >= kSeatCount) {
    st.report(rule_id::kLogActor, fmt::format("the {} phase of seat {}, which does not exist", to_string(phase), seat + 1));
    return;
  }
  if (s.leader == kNoSeat) {
    st.report(rule_id::kLogOrder, fmt::format("the {} phase starts before any Morale Check", to_string(phase)));
    s.leader = seat;
  } else if (!s.this_turn.morale_checked && s.turn > 0) {
    // Each turn opens with its Morale Check (Attrition Phase › End of Turn:
    // play moves to the next turn's Morale Check); once per turn reported,
    // and last turn's leader is kept.
    st.report(rule_id::kLogOrder, fmt::format("turn {}'s {} phase starts without the turn's Morale Check; {} stays "
                                              "Leading in Morale",
                                              s.turn, to_string(phase), st.player(s.leader)));
  }
  s.this_turn.morale_checked = true;
  std::uint8_t found = 0;
  for (std::uint8_t i = 0; i < std::size(kParts); ++i) {
    const Seat expected = kParts[i].leader ? s.leader : other_seat(s.leader);
    if (kParts[i].phase == phase && expected == seat) found = i + 1;
  }
  const std::uint8_t next = s.part + 1;
  if (found != next) {
    // Each phase's order is written in its own document.
    // Past the turn's last part, what is due is the next turn (LOG.order).
    const std::string_view rule = next > std::size(kParts)  ? rule_id::kLogOrder
                                  : phase == Phase::Muster  ? rule_id::kMusterOrder
                                  : phase == Phase::Warfare ? rule_id::kWarfareOrder
                                                            : rule_id::kAttritionOrder;
    const std::string expected = next <= std::size(kParts) ? part_name(st, next) : "the next turn";
    st.report(rule, fmt::format("{}'s {} phase starts where {} was due", st.player(seat), to_string(phase), expected));
  }
  if (found > next) close_skipped(st, next, found);
  // A phase no part of the turn matches (a Warfare Phase of the player not
  // leading) takes the next part, but never past the last: after the fifth
  // part it would index past kParts in part_name (fuzz target "snapshot",
  // fuzz/corpus/snapshot/crash-phase-after-the-last-part).
  s.part = found != 0 ? found : static_cast<std::uint8_t>(std::min<std::size_t>(next, std::size(kParts)));
  s.phase = phase;
  s.active = seat;
  s.part_started = st.ev.seq;
  s.seats[seat].this_part = {};
  for (auto& slot : s.grid) {
    if (!slot) continue;
    slot->flags &= static_cast<std::uint16_t>(~(kTroopMovedThisPhase | kTroopShifted));
    // Failing to pay: Morale 0 lasts until the owner's next Attrition Phase.
    if (phase == Phase::Attrition && slot->owner == seat) {
      slot->flags &= static_cast<std::uint16_t>(~kTroopUnprovisioned);
    }
  }
  if (phase == Phase::Muster) s.seats[seat].this_turn.mustered = true;
}

void on(const Step& st, const GameEnded& g) {
  GameState& s = st.s;
  close_part(st);
  settle_placements(st);
  if (s.part == std::size(kParts)) end_of_turn(st);
  const auto name = [](Victory v) {
    switch (v) {
      case Victory::Supremacy: return "a Supremacy Victory";
      case Victory::Attrition: return "an Attrition Victory";
      case Victory::Concession: return "a concession";
      case Victory::Unfinished: return "no result";
    }
    return "?";
  };
  // What the log records, as a person would say it: "no result", not "no
  // result for nobody"; a result without a winner says so.
  const auto recorded = [&] {
    if (g.victory == Victory::Unfinished) return std::string("no result");
    if (g.winner >= kSeatCount) return fmt::format("{} without a winner", name(g.victory));
    if (g.victory == Victory::Concession) return fmt::format("a win by concession for {}", st.player(g.winner));
    return fmt::format("{} for {}", name(g.victory), st.player(g.winner));
  };
  if (s.victory) {
    if (g.victory != *s.victory || g.winner != s.winner) {
      st.report(rule_id::kResult, fmt::format("recorded {}, but the rules give {} to {}", recorded(),
                                              name(*s.victory), st.player(s.winner)));
    }
  } else if (g.victory == Victory::Attrition && s.final_turn != 0) {
    // Attrition › 4: the Threshold gives both players a final turn first.
    st.report(rule_id::kThreshold,
              fmt::format("recorded {} before the final turn {} was played", recorded(), s.final_turn));
  } else {
    if (g.victory == Victory::Supremacy || g.victory == Victory::Attrition) {
      // Not adopted: the outcome is what the rules derive (none), so that a
      // rule-diff shows the flip.
      st.report(rule_id::kResult, fmt::format("recorded {}, but the rules derive no victory here", recorded()));
    } else {
      // A concession or an unfinished game is taken as recorded.
      s.winner = g.winner;
      s.victory = g.victory;
    }
  }
  s.phase = Phase::End;
  s.active = kNoSeat;
}

void close_part(const Step& st) {
  GameState& s = st.s;
  if (s.active >= kSeatCount) return;
  SeatState& seat = s.seats[s.active];
  if (s.phase == Phase::Muster) {
    // Turncoat's extra draws are the drawer's to take (rulings R-019): only
    // the turn's own draws are owed.
    const int want = st.ctx.rules.draw_per_turn;
    // Drawing fewer is no violation when the Army Deck ran out; the WIP
    // empty-deck rule decides what happens then.
    if (seat.this_turn.drawn < want && !seat.deck.empty()) {
      st.report_for(s.active, s.part_started, rule_id::kMusterDraw,
                    fmt::format("{} drew {} card{} this turn, not {}", seat.player, seat.this_turn.drawn,
                                seat.this_turn.drawn == 1 ? "" : "s", want));
    }
    // Muster Phase › Movement: Troops are shifted as cards are played, so a
    // part with a shift plays a card (before or after it).
    bool shifted = false;
    bool played = std::any_of(seat.gambits_in_play.begin(), seat.gambits_in_play.end(),
                              [&](const HeldCard& g) { return g.since_turn == s.turn; });
    for (const auto& slot : s.grid) {
      if (!slot || slot->owner != s.active) continue;
      shifted = shifted || slot->has(kTroopShifted);
      played = played || slot->entered_turn == s.turn;
    }
    if (shifted && !played) {
      st.report_for(s.active, s.part_started, rule_id::kMusterShift,
                    fmt::format("{} shifted Troops in a Muster Phase without playing a card: a shift is made as "
                                "cards are played",
                                seat.player));
    }
    if (st.ctx.rules.empty_deck_penalty && seat.deck.empty() && seat.this_turn.drawn < want) {
      int troops = 0;
      for (const auto& slot : s.grid) troops += slot && slot->owner == s.active && is_troop(*slot, st.ctx.catalog);
      const int owed = std::min(want - seat.this_turn.drawn, troops + seat.this_part.fled);
      if (seat.this_part.fled < owed) {
        const int missed = want - seat.this_turn.drawn;
        st.report_for(s.active, s.part_started, rule_id::kEmptyDeck,
                  fmt::format("{} could not draw {} card{}, so {} Troop{} must flee, but {} fled", seat.player, missed,
                              missed == 1 ? "" : "s", owed, owed == 1 ? "" : "s",
                              seat.this_part.fled == 0 ? std::string("none") : fmt::format("only {}", seat.this_part.fled)));
      }
    }
  }
  if (s.phase == Phase::Warfare) check_every_combat(st);
  if (s.phase == Phase::Attrition) {
    if (s.active == s.leader) check_supremacy(st);
    bool owes = !seat.gambits_in_play.empty() || !seat.this_turn.wages_due.empty();
    for (const auto& slot : s.grid) {
      const Card* c = slot ? st.ctx.catalog.find(slot->card) : nullptr;
      owes = owes || (slot && slot->owner == s.active && c != nullptr && c->type == CardType::Troop);
    }
    if (!seat.this_turn.provisions_paid && owes && !s.decided_at) {
      st.report_for(s.active, s.part_started, rule_id::kProvisionListed,
                    fmt::format("{}'s Attrition Phase ends with no Provision costs paid", seat.player));
    }
    // A discard the hand cannot cover is owed by nobody (rulings R-060).
    int in_hand = 0;
    for (const auto& [card, n] : seat.hand) in_hand += n;
    const int owed = std::min(seat.cards_owed_discard, in_hand);
    if (owed > 0 && !s.decided_at) {
      st.report_for(s.active, s.part_started, rule_id::kUnpaidDiscard,
                    fmt::format("{} still owes {} discard{} for unpaid cards", seat.player, owed,
                                owed == 1 ? "" : "s"));
    }
    seat.cards_owed_discard = 0;
  }
}

}  // namespace warlog::core::detail
