#pragma once
// A whole recorded log (rulings R-095): the fold of fold.hpp, and the end of
// the log of close_log.hpp, in one call, so no consumer that gives a verdict
// on a log can forget the end.

#include <span>
#include <vector>

#include "warlog/core/fold.hpp"

namespace warlog::core {

// Folds a whole recorded log from the empty state and ends it where it ends
// (close_log): a log without GameEnded gets the checks of the part it ends
// in. Every consumer that gives a verdict on a log (audit, rests_on,
// rule-diff, the viewer's survey) folds through this or LogFold; a live
// recorder answering line by line uses apply: its game is not over.
[[nodiscard]] GameState fold_log(const Context& ctx, std::span<const Event> events,
                                 std::vector<Finding>& out);

// The streaming form of fold_log: apply() per event, then finish() once. The
// final state is only had from finish(), so a consumer cannot take a verdict
// without ending the log. state() is the state so far (the log still open),
// for a consumer that compares as it goes.
class LogFold {
 public:
  // From the empty state, or from `from` (a log folded up to some event:
  // rests_on folds the rest of it). `ctx` must outlive the LogFold.
  explicit LogFold(const Context& ctx, GameState from = {});
  void apply(const Event& ev, std::vector<Finding>& out);
  [[nodiscard]] const GameState& state() const noexcept { return state_; }
  // Ends the log (close_log): appends its end-of-log findings to `out`,
  // located at the last event, and returns the final state.
  [[nodiscard]] GameState finish(std::vector<Finding>& out) &&;

 private:
  const Context& ctx_;
  GameState state_;
};

}  // namespace warlog::core
