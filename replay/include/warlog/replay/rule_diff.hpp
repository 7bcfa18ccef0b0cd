#pragma once
// Rule-change regression: fold the same game under a base and a candidate
// ruleset (or card catalog) in lockstep and report what changes, in the
// game's terms: findings added and removed, the outcome, the first event
// where the two folds diverge with what differs there, and the event from
// which the recording can no longer be followed under the candidate.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "warlog/replay/replay.hpp"

namespace warlog::replay {

struct Outcome {
  core::Seat winner = core::kNoSeat;
  std::optional<core::Victory> victory;  // empty: the game never ended
  std::uint16_t turn = 0;                // the turn it was decided in; undecided: the turn the fold reached
  friend bool operator==(const Outcome&, const Outcome&) = default;
};

// The game's result as the fold derives it: a decided game's turn is the turn
// it was decided in (an Attrition Victory at the end of the final turn 16 is
// "on turn 16" even when the log plays on to 22), a concession's the turn of
// its GameEnded, an undecided game's the turn the fold reached. What audit,
// rule-diff, the viewer and serve results all print.
[[nodiscard]] Outcome outcome_of(const core::GameState& s);

// Every compared game falls in exactly one class (issue 15), used alike by
// the text, CSV and JSON reports:
//   unchanged     both folds agree at every event;
//   findings      they diverge (findings new or gone, or the state), same outcome;
//   outcome       they diverge and the outcome changes;
//   undetermined  the recording cannot be followed under the candidate from
//                 some event on: there the candidate raises a violation the
//                 base does not, about a space, card or player whose folded
//                 value already differs (a Troop the recording had defeated
//                 is still there when another moves onto its space). From
//                 there the candidate's findings and outcome mean nothing.
enum class DiffClass : std::uint8_t { Unchanged, Findings, Outcome, Undetermined };
[[nodiscard]] std::string_view to_string(DiffClass c) noexcept;  // "unchanged", ...
[[nodiscard]] std::optional<DiffClass> diff_class_from_string(std::string_view s) noexcept;

// An event of the game: where in the game it is.
struct DiffEvent {
  core::Seq seq = 0;
  std::uint16_t turn = 0;
  core::Phase phase = core::Phase::Setup;
  core::Seat seat = core::kNoSeat;
  std::string event;  // the event's payload name, "CombatResolved"
};

// The DiffEvent is the first event after which the two folds differ.
struct Divergence : DiffEvent {
  // What differs in the state after the event, candidate against base, one
  // sentence each in the game's terms ("the Imperial Grenadier on e2 (Seat
  // 1, Ines) survives with 1 Vitality instead of being defeated"); empty
  // when only the event's findings differ.
  std::vector<std::string> differences;
  bool findings_differ = false;  // the event's own findings differ
};

struct Unfollowable {
  DiffEvent at;
  LocatedFinding because;  // the candidate's violation there
};

struct GameDiff {
  GameSummary game;
  std::vector<LocatedFinding> added;    // under the candidate only (up to `undetermined`)
  std::vector<LocatedFinding> removed;  // under the base only (up to `undetermined`)
  Outcome base;
  Outcome candidate;                    // meaningless when undetermined
  std::optional<Divergence> first;      // empty: identical at every event
  std::optional<Unfollowable> undetermined;

  [[nodiscard]] bool outcome_changed() const noexcept { return !(base == candidate); }
  [[nodiscard]] bool changed() const noexcept { return first.has_value(); }
  [[nodiscard]] DiffClass klass() const noexcept;
};

struct RuleDiffOptions {
  AuditOptions base;       // empty fields: the ruleset / catalog the game recorded
  AuditOptions candidate;
};

// Diffs one game (Audit: every rules document; rule-diff: DESIGN
// "Rule-change regression"). Streams the events once, two states in memory;
// once undetermined, only the base is folded on (for its outcome).
// Errors: NotFound for an unknown game, DataLoss for an undecodable event or
// a missing recorded blob.
[[nodiscard]] Expected<GameDiff> rule_diff(const Archive& archive, core::GameId id, const RuleDiffOptions& options);

// "Supremacy Victory for Alice on turn 9", "no result after turn 12" (the
// viewer's result column).
[[nodiscard]] std::string describe(const Outcome& o, const GameSummary& g);
// "Seat 1 (Bruno) wins by Supremacy on turn 7", "no one wins by turn 12".
[[nodiscard]] std::string outcome_words(const Outcome& o, const GameSummary& g);
// "Seat 1 (Bruno) wins by Supremacy on turn 7 instead of Seat 2 (Irene) by
// Attrition on turn 19".
[[nodiscard]] std::string flip_words(const GameDiff& d);
// "seq 197, turn 10 Warfare Phase, Seat 2 (Lukas), combat resolved".
[[nodiscard]] std::string moment_words(const DiffEvent& m, const GameSummary& g);
// "Seat 1 (Ines)", "no seat".
[[nodiscard]] std::string seat_words(const GameSummary& g, core::Seat seat);

// {"winner": seat (0: none), "player", "victory" ("supremacy", ...; null:
// the game never ended), "turn", "text": outcome_words}.
[[nodiscard]] nlohmann::json outcome_json(const Outcome& o, const GameSummary& g);

// Text for a person: one block per changed game, nothing for unchanged ones.
[[nodiscard]] std::string diff_text(const GameDiff& d);
// One game as an object of the rule-diff schema's "game" (docs/schema/).
[[nodiscard]] nlohmann::json diff_json(const GameDiff& d);
// The CSV header, and one game as a row of it (RFC 4180 quoting).
[[nodiscard]] std::string diff_csv_header();
[[nodiscard]] std::string diff_csv_row(const GameDiff& d);

}  // namespace warlog::replay
