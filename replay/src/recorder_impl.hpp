#pragma once
// Recorder's state, shared by recorder.cpp (entering lines) and
// recorder_view.cpp (the commands and completion that record nothing).

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "warlog/core/fold.hpp"
#include "warlog/core/notation_session.hpp"
#include "warlog/replay/recorder.hpp"

namespace warlog::replay {

struct Recorder::Impl {
  Archive* archive = nullptr;
  core::GameId game = 0;
  std::shared_ptr<const core::Catalog> catalog;
  std::shared_ptr<const core::Ruleset> ruleset;
  core::NotationSession session;
  core::GameState state{};
  std::vector<LocatedFinding> findings{};  // of the whole game, in event order
  std::optional<core::Seq> ended_at{};
  std::vector<core::SeatSetup> seats{};
  // The whole stream as stored, and whether it holds a correction: from the
  // first Voided or BackupTo on, the state is the corrected fold of it
  // (core/corrections.hpp), refolded per event (O(events) each).
  std::vector<core::Event> events{};
  bool corrected = false;

  // The state and the findings `more` would give if appended now, the kept
  // state untouched (a held or conflicting line must leave it as it was).
  struct Preview {
    core::GameState state;
    std::vector<LocatedFinding> found;
  };
  [[nodiscard]] Preview preview(std::span<const core::Event> more) const;

  // Folds one stored event into the state, the findings and the notation's
  // context; appends its findings to *out too when given.
  void take(const core::Event& ev, std::vector<LocatedFinding>* out);
  // After a correction: state, findings, the notation's context (a backup
  // returns it to before its target) and ended_at from the corrected fold.
  // `last` receives the findings of the last event as of its recording.
  void refold(std::vector<core::Finding>* last, bool context);

  // The text a command shows (board, hand N, state, findings, help), or
  // nullopt when the line is not a command (recorder_view.cpp).
  [[nodiscard]] std::optional<std::string> command(std::string_view line) const;
};

}  // namespace warlog::replay
