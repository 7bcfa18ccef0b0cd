#pragma once
// A game surveyed in one fold, for a front end that must not hold the game's
// events (the viewer of a 1,000,000-event game): every finding, the outline
// of turns and phases by seq, and each seat's Morale and Provision figures at
// the end of every turn (for charts). The fold's state is kept, so a survey
// extends over events appended since (live follow) without refolding.
// Moments themselves come from a Seeker (seek.hpp); events for a visible
// stretch of the timeline from read_events.

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "warlog/replay/corrections.hpp"
#include "warlog/replay/finding_list.hpp"
#include "warlog/replay/replay.hpp"
#include "warlog/replay/times.hpp"

namespace warlog::replay {

enum class SpanKind : std::uint8_t {
  Setup,      // turn 0, before the first TurnStarted
  TurnStart,  // from TurnStarted to the first phase (the Morale Check)
  Phase,      // a phase, or one seat's part of it
};

// A run of events shown as one phase group: a new span starts at each
// PhaseStarted (so each seat's part of a phase is its own), and wherever the
// recorded turn or phase changes. Seqs are inclusive; spans tile the stream.
struct PhaseSpan {
  core::Seq first = 0;
  core::Seq last = 0;
  std::uint16_t turn = 0;
  core::Phase phase = core::Phase::Setup;
  core::Seat seat = core::kNoSeat;  // PhaseStarted's seat; kNoSeat otherwise
  SpanKind kind = SpanKind::Phase;
  friend bool operator==(const PhaseSpan&, const PhaseSpan&) = default;
};

// One seat's figures from core's derived values (core::morale_total,
// core::provision_supply, core::provision_cost), in Morale points and
// Provisions. Provisions are what the Homeland would produce and what is owed
// at the next Attrition Phase (Attrition Phase › 3. Pay Provision Costs).
struct SeatFigures {
  int morale_total = 0;
  int provision_supply = 0;
  int provision_cost = 0;
  friend bool operator==(const SeatFigures&, const SeatFigures&) = default;
};

// The figures after the last event of a turn (the latest turn: after the
// last event surveyed, until it ends).
struct TurnFigures {
  std::uint16_t turn = 0;  // 1.. (setup has none)
  core::Seq last = 0;      // the event they were taken after
  std::array<SeatFigures, core::kSeatCount> seats{};
  friend bool operator==(const TurnFigures&, const TurnFigures&) = default;
};

struct GameSurvey {
  GameSummary game;                      // as listed when the survey was (last) extended
  FindingList findings;                  // in seq order, compact (finding_list.hpp)
  std::vector<PhaseSpan> spans;          // in seq order, tiling 0..events-1
  std::vector<TurnFigures> turns;        // one per turn reached, in order
  core::Seq events = 0;                  // events surveyed: seqs 0..events-1
  core::GameState state;                 // the fold after event events-1, the log still open (to extend)
  std::size_t closing = 0;               // the last `closing` findings end the log: taken
                                         // from a core::LogFold's finish, dropped when it grows
  core::GameState closed;                // that finish's state: the log ended where it ends,
                                         // what a verdict weighs (the viewer's rests_on)
  std::vector<StruckEvent> struck;       // events the fold skips (corrections.hpp); empty for most games
  TimeLog times;                         // the recorded times, as the audit reads them: its LOG.time notes
                                         // are among the findings, times.parts() the time of each part
  std::shared_ptr<const core::Catalog> catalog;  // what it was folded under
  std::shared_ptr<const core::Ruleset> ruleset;
};

// Folds the game once under its recorded ruleset and catalog (or the
// overrides). Streams the events: memory is the state, the findings, one
// span per phase part and one figure row per turn. Errors: NotFound for an
// unknown game; DataLoss for an undecodable event or a missing recorded blob.
[[nodiscard]] Expected<GameSurvey> survey_game(const Archive& archive, core::GameId id,
                                               const AuditOptions& options = {});

// Folds the events appended to the game since `survey` was taken (each call
// one read transaction) and returns how many; 0 when none. Appends in place
// (findings already pushed stay where they are, so a list shared with a model
// is not copied); on error the survey is put back as it was. Except after a
// correction (a Voided or BackupTo among the new events): it may revise the
// findings of events before it, so the survey is taken again from the start
// and the findings list rebuilt in place (a model sharing it must re-read it
// whole: the viewer's on_grew re-shares it). Errors: as survey_game.
[[nodiscard]] Expected<core::Seq> extend_survey(const Archive& archive, GameSurvey& survey);

// The events with from <= seq < to (clamped to the stream), decoded, for the
// rows a timeline shows. Errors: NotFound for an unknown game; DataLoss.
[[nodiscard]] Expected<std::vector<core::Event>> read_events(const Archive& archive, core::GameId id,
                                                             core::Seq from, core::Seq to);

}  // namespace warlog::replay
