#include "warlog/core/close_log.hpp"
#include "warlog/core/fold_log.hpp"

#include <utility>

namespace warlog::core {

// A recorded log as a whole record: folded, then ended where it ends.

GameState fold_log(const Context& ctx, std::span<const Event> events, std::vector<Finding>& out) {
  GameState state = fold(ctx, events, out);
  (void)close_log(ctx, state, out);
  return state;
}

LogFold::LogFold(const Context& ctx, GameState from) : ctx_(ctx), state_(std::move(from)) {}

void LogFold::apply(const Event& ev, std::vector<Finding>& out) { core::apply(ctx_, state_, ev, out); }

GameState LogFold::finish(std::vector<Finding>& out) && {
  (void)close_log(ctx_, state_, out);
  return std::move(state_);
}

}  // namespace warlog::core
