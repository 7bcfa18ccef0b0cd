#include "warlog/core/fold.hpp"
#include "warlog/core/close_log.hpp"

#include <fmt/format.h>

#include "rules/rule_ids.hpp"
#include "step.hpp"
#include "warlog/core/corrections.hpp"

namespace warlog::core {

std::string_view payload_name(const Payload& p) noexcept {
  static constexpr std::string_view kNames[] = {
      "GameCreated",   "ArmyRegistered", "TurnStarted",     "MoraleChecked",  "PhaseStarted",
      "GameEnded",     "CardsDrawn",     "Foraged",         "ReturnedFromHomeland",
      "GambitStocked", "CardPlayed",     "TroopMoved",      "TroopsShifted",  "AbilityUsed",
      "TroopBurrowed", "TroopUnburrowed", "ShotteFired",    "ChargeDeclared", "ChargeDeclined",
      "LocalFavorUsed", "CombatResolved", "TroopLost",      "TroopDefeated",  "LostTroopRecovered",
      "ProvisionsPaid", "CardsDiscarded", "TerritoryControlTaken", "TroopFled",
      "Voided",        "BackupTo"};
  static_assert(std::size(kNames) == std::variant_size_v<Payload>);
  return kNames[p.index()];
}

std::string_view to_string(Victory v) noexcept {
  switch (v) {
    case Victory::Supremacy: return "supremacy";
    case Victory::Attrition: return "attrition";
    case Victory::Concession: return "concession";
    case Victory::Unfinished: return "unfinished";
  }
  return "?";
}

void apply(const Context& ctx, GameState& state, const Event& ev, std::vector<Finding>& out) {
  const detail::Step step{ctx, state, ev, out, out.size(), 0, {}};
  if (ev.seq != state.next_seq) {
    step.report(rule_id::kLogOrder,
                fmt::format("event {} follows event {}: expected sequence {}", ev.seq,
                            state.next_seq == 0 ? 0 : state.next_seq - 1, state.next_seq));
  }
  state.next_seq = ev.seq + 1;
  // A correction needs the stream before it: fold() and CorrectedFold
  // (corrections.cpp) read it; apply() alone passes over it.
  if (is_correction(ev.payload)) return;

  if (!state.created && !std::holds_alternative<GameCreated>(ev.payload)) {
    step.report(rule_id::kLogSetup, fmt::format("{} before GameCreated", payload_name(ev.payload)));
    return;
  }
  if (state.decided_at && !state.play_after_end_reported && !std::holds_alternative<GameEnded>(ev.payload)) {
    step.report(rule_id::kResult, fmt::format("play goes on after the game was decided at event {}", *state.decided_at));
    state.play_after_end_reported = true;
  }
  if (state.phase == Phase::End) {
    step.report(rule_id::kLogOrder, fmt::format("{} after the game ended", payload_name(ev.payload)));
    return;
  }
  std::visit(
      [&]<class P>(const P& payload) {
        if constexpr (!std::is_same_v<P, Voided> && !std::is_same_v<P, BackupTo>) detail::on(step, payload);
      },
      ev.payload);
  detail::answer_by_control(step);
  if (step.dropped != 0) {
    // The cap is lifted for this one line, which names what was left out.
    const detail::Step summary{ctx, state, ev, out, out.size(), 0, {}};
    summary.report(step.dropped_rule, fmt::format("{} more findings of this event are not listed (the first {} are; "
                                                  "the next is {})",
                                                  step.dropped, detail::kMaxFindingsPerEvent, step.dropped_rule));
  }

#if defined(WARLOG_CHECK_INVARIANTS)
  if (const std::string why = check_invariants(state); !why.empty()) {
    // A broken invariant is a bug in the fold, not in the log: fail loudly in
    // checked builds so that tests catch it.
    fmt::print(stderr, "warlog: invariant broken after seq {}: {}\n", ev.seq, why);
    std::abort();
  }
#endif
}

GameState fold(const Context& ctx, std::span<const Event> events, std::vector<Finding>& out) {
  if (has_corrections(events)) {
    CorrectedFold f(ctx, events);
    std::vector<Finding> scratch;
    while (!f.done()) f.step(scratch);
    const std::vector<Finding> all = f.findings();
    out.insert(out.end(), all.begin(), all.end());
    return f.state();
  }
  GameState state;
  for (const Event& ev : events) apply(ctx, state, ev, out);
  return state;
}

std::string log_end_place(const GameState& state) {
  if (!state.created || state.phase == Phase::End || state.next_seq == 0) return "";
  if (state.turn == 0) return "during setup";
  if (state.active >= kSeatCount) return fmt::format("turn {}, before its first phase", state.turn);
  std::string phase(to_string(state.phase));
  if (!phase.empty()) phase[0] = static_cast<char>(phase[0] - 'a' + 'A');
  return fmt::format("turn {}, {} {}", state.turn, phase, state.active + 1);
}

std::string close_log(const Context& ctx, GameState& state, std::vector<Finding>& out) {
  const std::string where = log_end_place(state);
  if (where.empty()) return where;
  // The last event's seq, turn and phase: the findings are located there.
  const Event end{0, state.next_seq - 1, state.turn, state.phase, kNoSeat, GameEnded{}};
  const detail::Step step{ctx, state, end, out, out.size(), 0, {}};
  const std::optional<Seq> decided = state.decided_at;
  detail::close_part(step);
  detail::settle_placements(step);
  if (state.part == 5) detail::end_of_turn(step);
  if (state.victory && (state.victory == Victory::Supremacy || state.victory == Victory::Attrition)) {
    const char* kind = *state.victory == Victory::Supremacy ? "a Supremacy Victory" : "an Attrition Victory";
    const Seat winner = state.winner;
    // No seat broke it, and no action: it concerns the part the log ends
    // in (so rests_on never tries the last event as its cause).
    step.report_for(kNoSeat, state.part_started, rule_id::kResult,
                    fmt::format("the log records no result, but the rules give {} to {} {}", kind,
                                winner < kSeatCount ? state.seats[winner].player : std::string("nobody"),
                                decided ? fmt::format("at event {}", *decided)
                                        : fmt::format("in turn {}", state.decided_turn != 0 ? state.decided_turn
                                                                                             : state.turn)));
  }
  for (std::size_t i = step.first; i < out.size(); ++i) out[i].message += " (the log ends here)";
  return where;
}

std::int64_t cards_in_places(const GameState& s) {
  std::int64_t placed = 0;
  for (const SeatState& seat : s.seats) {
    for (const CardPile* pile : {&seat.deck, &seat.orders, &seat.hand, &seat.discard}) {
      for (const auto& [card, n] : *pile) placed += n;
    }
    placed += static_cast<std::int64_t>(seat.homeland.size() + seat.gambits_in_play.size());
  }
  placed += std::count_if(s.grid.begin(), s.grid.end(), [](const auto& slot) { return slot.has_value(); });
  for (const auto& t : s.territories) placed += t.beneath;
  return placed;
}

std::string check_invariants(const GameState& s) {
  // Indices the handlers use without a further check: a snapshot's state
  // comes from bytes, and decode_snapshot refuses what fails here (fuzz
  // target "snapshot", fuzz/corpus/snapshot/crash-part-out-of-range: part 33
  // indexed frame.cpp's five parts of a turn).
  if (s.part > 5) return fmt::format("part of the turn {} is not 0..5", s.part);
  if (s.active != kNoSeat && s.active >= kSeatCount) return "active seat out of range";
  if (s.leader != kNoSeat && s.leader >= kSeatCount) return "leader out of range";
  if (s.this_turn.charger != kNoSeat && s.this_turn.charger >= kSeatCount) return "charging seat out of range";
  for (const auto& t : s.territories) {
    if (s.created && !s.on_grid(t.space)) return "a Territory is off the battlefield";
    if (t.beneath < 0) return "a Territory has fewer than no cards beneath it";
    if (t.final_due && s.final_turn == 0) return "a Territory is due in a final turn that is not granted";
  }
  // Set together where the fold decides the game (attrition.cpp).
  if (!s.decided_at && s.decided_turn != 0) return fmt::format("decided in turn {} but at no event", s.decided_turn);
  // A placement names a Territory: its index is used as given.
  for (const PlacedBeneath& p : s.placed_this_turn) {
    if (p.territory < 0 || static_cast<std::size_t>(p.territory) >= s.territories.size()) {
      return "a Troop lies beneath no Territory of the game";
    }
  }
  if (!s.created) return s.grid.empty() ? "" : "grid exists before GameCreated";
  if (s.cols <= 0 || s.rows <= 0) return "battlefield has no spaces";
  if (s.grid.size() != static_cast<std::size_t>(s.cols) * static_cast<std::size_t>(s.rows)) {
    return "grid size does not match cols x rows";
  }
  for (const auto& slot : s.grid) {
    if (slot && slot->owner >= kSeatCount) return "a card on the battlefield belongs to no seat";
    if (slot && slot->damage < 0) return "negative damage on " + slot->card;
  }
  for (const SeatState& seat : s.seats) {
    for (const CardPile* pile : {&seat.deck, &seat.orders, &seat.hand, &seat.discard}) {
      for (const auto& [card, n] : *pile) {
        if (n <= 0) return fmt::format("pile holds {} of '{}'", n, card);
      }
    }
    if (seat.this_turn.drawn < 0) return "negative draw count";
  }
  // Card conservation: every registered card is in exactly one place.
  if (const std::int64_t placed = cards_in_places(s); placed != s.cards_in_game) {
    return fmt::format("{} cards are in the game's places, but the armies registered {}", placed, s.cards_in_game);
  }
  return "";
}

}  // namespace warlog::core
