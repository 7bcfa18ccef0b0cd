#pragma once
// The end of the log (rulings R-095): a log is the whole record of a game,
// so where it ends is where the game, as recorded, ends.

#include <string>
#include <vector>

#include "warlog/core/fold.hpp"

namespace warlog::core {

// When the stream folded into `state` ends without a GameEnded, closes the
// part it ends in as a PhaseStarted would (a short draw, a shift with no card
// played, a Charge's unfought combats, unpaid Provisions, an owed discard),
// and ends a turn whose five parts were played as a TurnStarted would (a
// final turn's Attrition Victory is derived). Findings are appended at the
// last event, each saying "(the log ends here)"; a result the rules give
// that the log does not record is a LOG.result finding. Returns
// log_end_place(state), "" when the log ends with GameEnded (nothing is
// done then). The implementation of fold_log and LogFold::finish (fold_log.hpp):
// a consumer that reports a verdict on a log uses those, not this, so it
// cannot forget the end; a live recorder answering line by line does
// neither: its game is not over.
std::string close_log(const Context& ctx, GameState& state, std::vector<Finding>& out);

// Where a log folded into `state` ends open ("turn 4, Muster 2", "turn 4,
// before its first phase", "during setup"), or "" when it ended with
// GameEnded or has no GameCreated.
[[nodiscard]] std::string log_end_place(const GameState& state);

}  // namespace warlog::core
