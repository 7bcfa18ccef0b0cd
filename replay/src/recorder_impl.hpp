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

namespace warlog::store {
class Reader;
}  // namespace warlog::store

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
  // (core/corrections.hpp): a line then costs one corrected fold of the
  // game (O(events)), done once by preview() and kept by commit().
  std::vector<core::Event> events{};
  bool corrected = false;
  std::optional<store::KeyPair> backup_key{};  // sign_backups_with

  // What the game would be with `more` appended, the kept state untouched
  // (a held or conflicting line must leave it as it was). Once `more` is
  // committed, commit() keeps this result: one line costs one fold.
  struct Preview {
    core::GameState state;
    std::vector<LocatedFinding> found;  // of `more`, as of its recording
    // With a correction in the game: the corrected fold's whole findings and
    // end, which a correction may revise anywhere; else found is appended.
    bool whole = false;
    std::vector<LocatedFinding> all;
    std::optional<core::Seq> ended_at;
    std::vector<core::Seq> refused;  // corrections of `more` the game refuses (LOG.correction)
  };
  [[nodiscard]] Preview preview(std::span<const core::Event> more) const;
  // `more` is in the store: the kept state becomes the preview's.
  void commit(std::span<const core::Event> more, Preview&& p);

  // Folds stored events (another recorder's) into the state, the findings
  // and the notation's context; appends their findings to *out too when given.
  void take(std::span<const core::Event> more, std::vector<LocatedFinding>* out);

  // The events stored from next_seq on (another recorder's), read with
  // `reader`, folded in as take() does; their findings to *out when given.
  [[nodiscard]] Expected<std::vector<core::Event>> take_stored(const store::Reader& reader,
                                                               std::vector<LocatedFinding>* out);

  // The text a command shows (board, hand N, state, findings, help), or
  // nullopt when the line is not a command (recorder_view.cpp).
  [[nodiscard]] std::optional<std::string> command(std::string_view line) const;
};

// What prepare() folded, kept for committed().
struct PreparedFold {
  Recorder::Impl::Preview preview;
};

}  // namespace warlog::replay
