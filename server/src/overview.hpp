#pragma once
// The judges' overview (docs/server.md › 7, docs/schema/serve-overview.
// schema.json): one row per game, read from the store as it stands (the
// fold through corrections, the disputes beside it) and kept until the
// game's event or annotation count moves. Not thread-safe: the event
// loop's own.

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "warlog/replay/replay.hpp"
#include "warlog/tournament/round.hpp"

namespace warlog::server {

// What a row is computed from: a row is computed again only when one moves.
struct RowStamp {
  core::Seq events = 0;
  std::uint64_t annotations = 0;
  friend bool operator==(const RowStamp&, const RowStamp&) = default;
};

class Overview {
 public:
  explicit Overview(const replay::Archive& archive) : archive_(archive) {}

  struct Row {
    core::GameId game = 0;
    RowStamp stamp;
    std::optional<tournament::EventGame> place;  // event, round, table; none for a game of no event
    // game, title, event, round, table, players, events, turn, phase, seat,
    // last_event_ms, open_violations, newest_violation, open_disputes,
    // outcome (null while playing): everything but the call.
    nlohmann::json json;
  };

  // Every game's row in id order, each computed again if its stamp moved.
  // A game that cannot be audited is a row with `error` (one broken game
  // hides no table). Errors: only the store's.
  [[nodiscard]] Expected<std::vector<const Row*>> rows();

 private:
  [[nodiscard]] Row compute(core::GameId game, RowStamp stamp) const;

  const replay::Archive& archive_;
  std::map<core::GameId, Row> rows_;
  std::map<core::GameId, std::optional<tournament::EventGame>> places_;  // never change once created
};

}  // namespace warlog::server
