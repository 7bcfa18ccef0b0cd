#pragma once
// Which outcome an error caused (issue 15, rests_on): the fold applies an
// illegal event as the log records it, so a later finding or the result may
// exist only because of it. A finding F rests on violation V when the fold
// of the game with V's event skipped does not give F at the same seq (the
// same rule there), or cannot follow the log to it (the game is decided
// before F's seq); the result rests on V when that fold does not give the
// same winner and victory decided at the same seq.
//
// "V's event" is the event the violation concerns (Finding::concerns). Only
// a violation whose event is a player's action is tried: skipping a turn or
// phase marker, the setup or a correction is not the violation undone, it is
// another game. The first kRestsOnViolations such violations are tried, so
// the cost is bounded: the game is folded once up to the last of them,
// keeping the state before each, and once more from each to the end
// (docs/performance.md › rests_on gives the figures).

#include <cstddef>
#include <span>
#include <vector>

#include "warlog/core/fold.hpp"
#include "warlog/replay/replay.hpp"

namespace warlog::replay {

inline constexpr std::size_t kRestsOnViolations = 16;

// RestsOn is declared in replay.hpp (a GameAudit may carry one).


// `events` is the whole stream (corrections included: only effective events
// are folded, as the audit does); `findings` the audit's findings of that
// stream, in order, and `final_state` its final state, both under `ctx`.
[[nodiscard]] RestsOn rests_on(const core::Context& ctx, std::span<const core::Event> events,
                               const std::vector<LocatedFinding>& findings, const core::GameState& final_state,
                               std::size_t max_violations = kRestsOnViolations);

// "the violation at seq 88", "the violations at seq 12 and 40".
[[nodiscard]] std::string violations_text(const std::vector<core::Seq>& seqs);

}  // namespace warlog::replay
