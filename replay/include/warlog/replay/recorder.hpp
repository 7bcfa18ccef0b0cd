#pragma once
// Recording a game as it is played: one line of notation in, its events
// durable in the store, its findings out (issue 16; docs/recording.md). The
// one call `warlog record` makes now and the viewer's record bar later.
//
// A line is parsed in the game's context (core::NotationSession), stamped
// with the committing process's clock (header.recordedAt, ms UTC), appended
// with the expected seq and Durability::Sync, then folded on the state the
// recorder keeps, and its findings returned with citations. Nothing of a
// line is written unless all of it is: a refused line, a conflict, a held
// violation and an ended game write nothing.
//
// A resource type: movable, not copyable; it refers to the Archive it was
// made with, which must outlive it.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "warlog/core/notation.hpp"
#include "warlog/core/notation_session.hpp"
#include "warlog/replay/replay.hpp"
#include "warlog/store/signature.hpp"

namespace warlog::replay {

enum class LineStatus : std::uint8_t {
  Recorded,      // events appended
  Nothing,       // a blank line or a comment: nothing to record, nothing written
  Refused,       // the line does not parse: errors say where and why
  Conflict,      // another recorder appended first: events are its events, now known here
  NeedsConfirm,  // Violations::Hold and the line breaks a rule: nothing written
  Ended,         // a GameEnded is in the stream: message says where
  Command,       // board, hand N, state, findings, help: message is what it shows
  AlreadyRecorded,  // a retried line whose events are stored already: events are the stored ones; nothing written
};

// "ok", "nothing", "refused", "conflict", "needs-confirm", "ended", "command",
// "already-recorded": the
// `status` of docs/schema/record-line.schema.json.
[[nodiscard]] std::string_view to_string(LineStatus s) noexcept;

// What one line did.
struct LineOutcome {
  LineStatus status = LineStatus::Recorded;
  // Recorded: the events appended (with their seqs and recorded times);
  // NeedsConfirm: the events the line would append; Conflict: the events the
  // other recorder appended since this one last looked.
  std::vector<core::Event> events;
  std::vector<LocatedFinding> findings;      // of those events, with citations
  std::vector<core::NotationError> errors;   // Refused
  std::string message;                       // Ended, Command
  // A line that backs the game up (BackupTo): what the backup crosses, one
  // line each ("seq 41 Seat 2 drew Ironclaw Lancer"), shown before it is
  // recorded (NeedsConfirm) and with it (docs/rulings.md R-064).
  std::vector<std::string> crossing;
  // Recorded corrections the game refuses (a void after the end of anything
  // but the GameEnded, a target struck already, ...): in the log, as typed,
  // with no effect on the game; their LOG.correction finding says why.
  std::vector<core::Seq> no_effect;
};

// What enter() does with a line whose events find a violation.
enum class Violations : std::uint8_t {
  Record,      // record it: it is what happened at the table (the default)
  Hold,        // a violation or a backup: write nothing and answer NeedsConfirm (--strict); enter again
               // with Record to confirm
  HoldBackup,  // only a backup: NeedsConfirm with what it crosses, so a judge weighs it first
};

struct PreparedFold;  // the fold of the line on a copy (recorder_impl.hpp)

// A line parsed and checked by Recorder::prepare, nothing written yet.
struct PreparedLine {
  // The answer. When `append` is set, a Recorded outcome whose events (seqs
  // from expected_seq, recorded times stamped) and findings hold once they
  // are appended.
  LineOutcome outcome;
  bool append = false;
  core::Seq expected_seq = 0;
  // The state, findings and end with the line folded in, which committed()
  // keeps rather than fold again (one line, one fold); only while nothing
  // else was taken since prepare().
  std::shared_ptr<PreparedFold> fold;
  // The store failed while the line was prepared (signing a backup reads the
  // chain head): nothing to append; enter() returns it as its error.
  std::optional<Error> store_error;
};

// A completion: replace the bytes [start, end of the text given) by one of
// the candidates.
struct Completion {
  std::size_t start = 0;
  std::vector<std::string> candidates;
};

// What other recorders appended to the game since this one last looked
// (Recorder::follow): their events, now taken, and those events' findings.
struct Followed {
  std::vector<core::Event> events;
  std::vector<LocatedFinding> findings;
};

class Recorder;

// 16 random bytes (getrandom): the gameUuid of a game created live, by the
// recorder or by `warlog serve round open`.
[[nodiscard]] Expected<std::string> random_game_uuid();

// The answer to one line as a person reads it, newline-ended lines, the
// first saying what happened ("seq 57 recorded", "refused at column 6: ...",
// "conflict: ...", "needs-confirm: ...") and the rest its findings and what
// a backup crosses: what `warlog record` prints and the viewer's record bar
// shows, so the two never word it apart.
[[nodiscard]] std::string answer_text(const Recorder& r, const LineOutcome& o);
// What a held line (NeedsConfirm) would do, for the question a terminal asks:
// what a backup crosses and the findings, named by turn and phase, never by a
// seq the line has not been given.
[[nodiscard]] std::string held_text(const Recorder& r, const LineOutcome& o);
// The answer to a held line once it is confirmed and entered again (o),
// after held_text was shown for it (held): when it was recorded with the
// very findings and crossing shown, the first line of answer_text only,
// saying they are the ones above ("seq 27 recorded (its 1 finding is shown
// above)"); anything else (another recorder appended meanwhile) whole.
[[nodiscard]] std::string confirmed_text(const Recorder& r, const LineOutcome& held, const LineOutcome& o);
// Events another recorder appended, as a terminal prints them above its
// prompt: "another recorder recorded seq 29:", one line per event, then
// their findings; "" when there are none.
[[nodiscard]] std::string followed_text(const Recorder& r, const Followed& f);

class Recorder {
 public:
  // Creates a new game from a header file (tags only; [Catalog], [Ruleset]
  // and deck paths relative to it, as import resolves them): GameCreated,
  // with 16 random bytes of gameUuid, and the ArmyRegistered events are
  // committed at once. Errors: the header's notation errors, or as import.
  [[nodiscard]] static tl::expected<Recorder, ImportFailure> create(Archive& archive, const std::string& header_path,
                                                                    const ImportOptions& options = {});

  // Continues a stored game: folds it and rebuilds the notation's context.
  // Errors: NotFound, DataLoss (as audit).
  [[nodiscard]] static Expected<Recorder> open(Archive& archive, core::GameId game);

  Recorder(Recorder&&) noexcept;
  Recorder& operator=(Recorder&&) noexcept;
  ~Recorder();

  // One line, as typed (no newline). Errors: only the store's (I/O, a
  // broken chain, a full disk): the outcome of a line is never an error.
  [[nodiscard]] Expected<LineOutcome> enter(std::string_view line, Violations violations = Violations::Record);

  // --- For a writer that commits many games' lines in one transaction ----
  // (warlog serve, docs/server.md › 2). enter() is prepare(), the store's
  // append, then committed() or conflicted().
  //
  // The line parsed and checked as enter() does, nothing written and the
  // kept state untouched.
  [[nodiscard]] PreparedLine prepare(std::string_view line, Violations violations = Violations::Record);
  // The store appended p's events at p.expected_seq: the kept state moves on.
  void committed(const PreparedLine& p);
  // The store refused p's append with Conflict: the Conflict outcome, with
  // the events the other recorder appended, now known here. Errors: the
  // store's.
  [[nodiscard]] Expected<LineOutcome> conflicted();
  // A line sent again with the expected seq it was first sent with, now
  // behind next_seq() (its answer was lost): AlreadyRecorded, with the stored
  // events and their findings, when the events stored from `expected` are
  // the ones the line gives when parsed there (canonical bytes equal with
  // recordedAt cleared: the time is the only field the recorder stamps);
  // nullopt when they are not (another recorder's events: a conflict).
  [[nodiscard]] std::optional<LineOutcome> already_recorded(std::string_view line, core::Seq expected) const;

  // --- Following the store -------------------------------------------------
  // What other recorders appended since this one last looked (the viewer's
  // record bar, another terminal, a pipe, the server), taken as conflicted()
  // takes them: next_seq() moves past them, so the next line entered is no
  // conflict. Cheap when there is nothing new: one read-only transaction
  // and the game's record (its event count). Errors: the store's.
  [[nodiscard]] Expected<Followed> follow();

  // What might come next at the end of `line`: verbs and commands first;
  // the acting seat's hand for play/forage/stock/discard; occupied spaces for
  // move/fire/combat and the other verbs that name a Troop; the catalog's
  // cards in any other quoted place.
  [[nodiscard]] Completion complete(std::string_view line) const;

  // From now on every backup line is signed with `key` as it is recorded
  // (backup_signature.hpp): the judge at the recorder signs their backups.
  void sign_backups_with(const store::KeyPair& key);

  // --- Facts ---------------------------------------------------------------
  [[nodiscard]] core::GameId game() const noexcept;
  [[nodiscard]] core::Seq next_seq() const noexcept;
  [[nodiscard]] const core::GameState& state() const noexcept;
  [[nodiscard]] const std::vector<LocatedFinding>& findings() const noexcept;  // of the whole game
  [[nodiscard]] std::optional<core::Seq> ended_at() const noexcept;            // the GameEnded's seq
  [[nodiscard]] core::NotationPlace place() const noexcept;
  [[nodiscard]] const std::vector<core::SeatSetup>& seats() const noexcept;
  // What the game is judged by: what derived facts (Control) are derived with.
  [[nodiscard]] const core::Catalog& catalog() const noexcept;
  [[nodiscard]] const core::Ruleset& ruleset() const noexcept;
  // "turn 3 warfare 1" (or "setup"), for a prompt.
  [[nodiscard]] std::string where() const;

 private:
  friend struct PreparedFold;
  struct Impl;
  explicit Recorder(std::unique_ptr<Impl> impl) noexcept;
  std::unique_ptr<Impl> impl_;
};

}  // namespace warlog::replay
