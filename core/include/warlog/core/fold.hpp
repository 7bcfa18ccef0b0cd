#pragma once
// The fold: apply(state, event) updates the state and records findings.
// A pure function of its inputs: no clock, no I/O, no randomness. It never
// stops at a violation and never throws for game logic.

#include <span>
#include <string>
#include <vector>

#include "warlog/core/catalog.hpp"
#include "warlog/core/event.hpp"
#include "warlog/core/finding.hpp"
#include "warlog/core/ruleset.hpp"
#include "warlog/core/state.hpp"

namespace warlog::core {

// What the fold reads besides the state. Both must outlive the call.
struct Context {
  const Catalog& catalog;
  const Ruleset& rules;
};

// Applies one event. Appends any findings to `out` (each with ev.seq).
// Preconditions: none: an out-of-order seq, an unknown card, a space off the
// grid are findings, not crashes.
void apply(const Context& ctx, GameState& state, const Event& ev, std::vector<Finding>& out);

// Folds a whole stream from the empty state. Returns the final state;
// findings are appended to `out` in event order.
[[nodiscard]] GameState fold(const Context& ctx, std::span<const Event> events,
                             std::vector<Finding>& out);

// Checks the state's internal consistency (like Stockfish's pos_is_ok()):
// counts never negative, grid size matches, no Troop of an unknown seat.
// Returns "" when consistent, else what is wrong. Tests run it after every apply.
[[nodiscard]] std::string check_invariants(const GameState& state);

// The cards in the game's places: both seats' piles, Homelands and Gambits in
// play, the battlefield, and beneath the Territories. Card conservation is
// cards_in_places(s) == s.cards_in_game (check_invariants).
[[nodiscard]] std::int64_t cards_in_places(const GameState& state);

// Bumped whenever a change to the fold could change a state or a finding:
// snapshots made by another engine version are discarded, never trusted.
// 5: every Territory at its Threshold shares one final turn, and the log
// says which Territory a Troop beside several goes beneath.
// 6: a draw card text allows, an unfought combat concerns its
// ChargeDeclared, and the Dwelling surcharge option.
inline constexpr std::uint32_t kEngineVersion = 8;

}  // namespace warlog::core
