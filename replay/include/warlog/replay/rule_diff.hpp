#pragma once
// Rule-change regression: fold the same game under a base and a candidate
// ruleset (or card catalog) in lockstep and report what changes: findings
// added and removed, the outcome, and the first event where the two folds
// diverge, with what differs in the state there.

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "warlog/replay/replay.hpp"

namespace warlog::replay {

struct Outcome {
  core::Seat winner = core::kNoSeat;
  std::optional<core::Victory> victory;  // empty: the game never ended
  std::uint16_t turn = 0;                // the turn the fold reached
  friend bool operator==(const Outcome&, const Outcome&) = default;
};

struct Divergence {
  core::Seq seq = 0;
  std::uint16_t turn = 0;
  core::Phase phase = core::Phase::Setup;
  core::Seat seat = core::kNoSeat;
  std::string event;                       // the event's payload name
  std::vector<std::string> base_only;      // lines of core::to_text only under the base
  std::vector<std::string> candidate_only; // ... only under the candidate
  bool findings_differ = false;            // the event's own findings differ
};

struct GameDiff {
  GameSummary game;
  std::vector<LocatedFinding> added;    // under the candidate only
  std::vector<LocatedFinding> removed;  // under the base only
  Outcome base;
  Outcome candidate;
  std::optional<Divergence> first;      // empty: identical at every event

  [[nodiscard]] bool outcome_changed() const noexcept { return !(base == candidate); }
  [[nodiscard]] bool changed() const noexcept { return first.has_value(); }
};

struct RuleDiffOptions {
  AuditOptions base;       // empty fields: the ruleset / catalog the game recorded
  AuditOptions candidate;
};

// Diffs one game (Audit: every rules document; rule-diff: DESIGN
// "Rule-change regression"). Streams the events once, two states in memory.
// Errors: NotFound for an unknown game, DataLoss for an undecodable event or
// a missing recorded blob.
[[nodiscard]] Expected<GameDiff> rule_diff(const Archive& archive, core::GameId id, const RuleDiffOptions& options);

// "Supremacy Victory for Alice on turn 9", "no result after turn 12".
[[nodiscard]] std::string describe(const Outcome& o, const GameSummary& g);

// Text for a person: one block per changed game, nothing for unchanged ones.
[[nodiscard]] std::string diff_text(const GameDiff& d);
[[nodiscard]] nlohmann::json diff_json(const GameDiff& d);

}  // namespace warlog::replay
