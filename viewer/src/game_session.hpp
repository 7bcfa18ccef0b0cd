#pragma once
// One open game: its events, catalog, ruleset and audit, and where the viewer
// stands in it. Every widget follows `moved`; none folds events itself.

#include <QObject>

#include <cstddef>
#include <vector>

#include "warlog/replay/replay.hpp"

namespace warlog::viewer {

// Everything the viewer reads about one game, loaded once. A value: tests
// build one from events made in code, the app loads one from a store.
struct SessionData {
  replay::GameSummary game;
  std::vector<core::Event> events;
  core::Catalog catalog;
  core::Ruleset ruleset;
  std::vector<replay::LocatedFinding> findings;  // the whole game's audit
};

// Reads a game, its catalog, ruleset and audit from the archive.
// Errors: those of the facade (NotFound for an unknown game, DataLoss).
[[nodiscard]] Expected<SessionData> load_session(const replay::Archive& archive, core::GameId id);

class GameSession : public QObject {
  Q_OBJECT

 public:
  // Starts at the first event (an empty game has no moment).
  explicit GameSession(SessionData data, QObject* parent = nullptr);

  // --- The game ----------------------------------------------------------
  [[nodiscard]] const replay::GameSummary& game() const noexcept { return data_.game; }
  [[nodiscard]] const std::vector<core::Event>& events() const noexcept { return data_.events; }
  [[nodiscard]] const core::Catalog& catalog() const noexcept { return data_.catalog; }
  [[nodiscard]] const core::Ruleset& ruleset() const noexcept { return data_.ruleset; }
  [[nodiscard]] const std::vector<replay::LocatedFinding>& findings() const noexcept { return data_.findings; }
  [[nodiscard]] bool empty() const noexcept { return data_.events.empty(); }
  [[nodiscard]] core::Seq first_seq() const noexcept;
  [[nodiscard]] core::Seq last_seq() const noexcept;

  // --- Where we stand ----------------------------------------------------
  [[nodiscard]] core::Seq seq() const noexcept { return moment_.seq; }
  [[nodiscard]] std::size_t position() const noexcept { return position_; }  // index into events()
  // The state after the current event and that event's findings.
  [[nodiscard]] const replay::Moment& moment() const noexcept { return moment_; }
  // The state before the current event (empty before the first): what the
  // current event changed is the difference to moment().state.
  [[nodiscard]] const core::GameState& before() const noexcept { return before_; }
  // The current event's findings, located and cited like the audit's.
  [[nodiscard]] std::vector<replay::LocatedFinding> findings_here() const;
  // Index into events() of the event with this seq, or of the nearest one
  // before it (clamped to the stream).
  [[nodiscard]] std::size_t position_of(core::Seq seq) const noexcept;

 public slots:
  void go_to(core::Seq seq);  // clamped to the stream
  void step(int delta);       // +1 next event, -1 previous
  void first();
  void last();
  void next_phase();      // the next PhaseStarted after the current event
  void previous_phase();  // the last PhaseStarted before the current event

 signals:
  void moved(core::Seq seq);

 private:
  void move_to_position(std::size_t position);
  // The one place that rebuilds a moment: refolds from the start today,
  // seeks through snapshots once the store keeps them.
  [[nodiscard]] replay::Moment seek(core::Seq seq) const;
  // The state before the event at `position` (one more seek).
  [[nodiscard]] core::GameState state_before(std::size_t position) const;

  SessionData data_;
  std::vector<std::size_t> phase_starts_;  // positions of PhaseStarted events
  std::size_t position_ = 0;
  replay::Moment moment_;
  core::GameState before_;
};

}  // namespace warlog::viewer
