#pragma once
// One open game and where the viewer stands in it. Every widget follows
// `moved`; none folds events itself.
//
// The session never holds the game's events: it keeps a survey (findings,
// the turn/phase outline, per-turn figures: replay/survey.hpp) and seeks
// each moment through snapshots (replay/seek.hpp), so a step costs one
// snapshot decode and a short fold at any position of any game.
//
// Ownership: the session shares the Archive (std::shared_ptr) and owns the
// Seeker that refers to it. archive_ is declared before seeker_, so the
// Seeker is destroyed first, and the Archive stays open while any session on
// it lives, whoever else lets go of it.

#include <QObject>

#include <cstddef>
#include <memory>
#include <vector>

#include "warlog/replay/seek.hpp"
#include "warlog/replay/survey.hpp"

namespace warlog::viewer {

class GameSession : public QObject {
  Q_OBJECT

 public:
  // Surveys the game (one fold) and stands at its first event. `overrides`
  // folds it under another ruleset or catalog (compare mode); the session
  // never writes snapshots. Errors: NotFound for an unknown game, DataLoss,
  // those of the facade otherwise.
  [[nodiscard]] static Expected<std::unique_ptr<GameSession>> open(std::shared_ptr<const replay::Archive> archive,
                                                                   core::GameId id,
                                                                   const replay::AuditOptions& overrides = {});
  ~GameSession() override;

  // --- The game ----------------------------------------------------------
  [[nodiscard]] const replay::GameSummary& game() const noexcept { return survey_->game; }
  [[nodiscard]] const core::Catalog& catalog() const noexcept { return *survey_->catalog; }
  [[nodiscard]] const core::Ruleset& ruleset() const noexcept { return *survey_->ruleset; }
  // The whole game's findings, in seq order, compact (a long game may hold
  // hundreds of thousands). The list only grows: refresh() appends to it in
  // place, so a model sharing it keeps the row count it was given until it
  // is told of more (FindingsModel::share_findings).
  [[nodiscard]] const replay::FindingList& findings() const noexcept { return survey_->findings; }
  [[nodiscard]] std::shared_ptr<const replay::FindingList> shared_findings() const noexcept {
    return {survey_, &survey_->findings};  // shares the survey's ownership
  }
  // What each finding and the result rest on (replay/rests_on.hpp), for
  // findings() row by row; nullptr for a game longer than
  // kRestsOnMaxEvents (up to 17 more folds: `warlog audit --rests-on` gives
  // it for any game). Computed when the game opens and after each refresh.
  [[nodiscard]] std::shared_ptr<const replay::RestsOn> rests_on() const noexcept { return rests_on_; }
  static constexpr core::Seq kRestsOnMaxEvents = 20'000;
  [[nodiscard]] const std::vector<replay::PhaseSpan>& spans() const noexcept { return survey_->spans; }
  // The events the fold skips (corrections), for the timeline to strike through.
  [[nodiscard]] const std::vector<replay::StruckEvent>& struck() const noexcept { return survey_->struck; }
  [[nodiscard]] const std::vector<replay::TurnFigures>& turns() const noexcept { return survey_->turns; }
  // The recorded time of each turn and phase part, for slow-play claims;
  // empty when no event carries a time (an imported game).
  [[nodiscard]] std::vector<replay::PartTime> times() const { return survey_->times.parts(); }
  // The state after the last event surveyed, the log ended where it ends
  // the result the game list shows is the audit's, and the one its
  // rests_on was weighed against.
  [[nodiscard]] const core::GameState& final_state() const noexcept { return survey_->closed; }
  [[nodiscard]] const std::shared_ptr<const replay::Archive>& archive() const noexcept { return archive_; }
  [[nodiscard]] bool empty() const noexcept { return survey_->events == 0; }
  [[nodiscard]] core::Seq event_count() const noexcept { return survey_->events; }
  [[nodiscard]] core::Seq first_seq() const noexcept { return 0; }
  [[nodiscard]] core::Seq last_seq() const noexcept { return empty() ? 0 : survey_->events - 1; }
  // The events with from <= seq < to, read from the store (the timeline's rows).
  [[nodiscard]] Expected<std::vector<core::Event>> events(core::Seq from, core::Seq to) const;

  // --- Where we stand ----------------------------------------------------
  [[nodiscard]] core::Seq seq() const noexcept { return here_.moment.seq; }
  // The state after the current event, that event and its findings.
  [[nodiscard]] const replay::Moment& moment() const noexcept { return here_.moment; }
  // The state before the current event: what it changed is the difference.
  [[nodiscard]] const core::GameState& before() const noexcept { return here_.before; }
  // How the last move was made (snapshot used, events folded).
  [[nodiscard]] const replay::SeekResult& last_seek() const noexcept { return here_; }
  // The current event's findings, located and cited like the survey's.
  [[nodiscard]] std::vector<replay::LocatedFinding> findings_here() const;
  // The span holding `seq` (index into spans()); 0 for an empty game.
  [[nodiscard]] std::size_t span_of(core::Seq seq) const noexcept;

 public slots:
  void go_to(core::Seq seq);  // clamped to the stream
  void step(int delta);       // +1 next event, -1 previous
  void first();
  void last();
  void next_phase();      // the first event of the next span
  void previous_phase();  // the first event of this span, or of the one before when there already
  void next_turn();       // the first event of the next turn
  void previous_turn();   // the first event of this turn, or of the one before when there already

 public:
  // Live follow: folds events appended since the last look into the survey.
  // Emits grew() when there were any; the current moment stays.
  Expected<core::Seq> refresh();

 signals:
  void moved(core::Seq seq);
  void grew(core::Seq old_count, core::Seq new_count);
  void failed(const QString& message);  // a seek or refresh failed; the moment stays

 private:
  GameSession(std::shared_ptr<const replay::Archive> archive, replay::GameSurvey survey, replay::Seeker seeker);
  void compute_rests_on();

  std::shared_ptr<const replay::Archive> archive_;  // before seeker_: outlives it
  replay::Seeker seeker_;
  // Shared with the findings models (shared_findings()); a refresh folds
  // only the new events into it.
  std::shared_ptr<replay::GameSurvey> survey_;
  replay::SeekResult here_;
  std::shared_ptr<const replay::RestsOn> rests_on_;
};

}  // namespace warlog::viewer
