#pragma once
// The notation, one line at a time: how `warlog record` (and later the
// viewer's record bar and the server) parse a game as it is played. The
// same parser as parse_notation, fed line by line in the context of the game
// so far (turn, phase, acting seat, board size), so both give the same
// events for the same lines (tests/core/notation_session_test.cpp holds every
// sample to it).
//
// A resource type (it owns a parser that refers to its catalog): movable,
// not copyable.

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "warlog/core/catalog.hpp"
#include "warlog/core/event.hpp"
#include "warlog/core/notation.hpp"

namespace warlog::core {

// What one line yields: its events (seqs following the game's), or why it
// was refused. A refused line changes nothing in the session.
struct LineResult {
  std::vector<Event> events;          // empty for a blank line or a comment
  std::vector<NotationError> errors;  // non-empty: refused
  [[nodiscard]] bool ok() const noexcept { return errors.empty(); }
};

// Where the body stands: what the next line is parsed against.
struct NotationPlace {
  bool in_turn = false;  // a Turn marker has been seen
  std::uint16_t turn = 0;
  Phase phase = Phase::Setup;
  Seat seat = kNoSeat;   // the acting seat of the current phase part
};

class NotationSession {
 public:
  // A new game from a header: tag lines only (seats, decks, board,
  // Territories, [Ruleset]/[Catalog] references), comments and blank lines.
  // setup_events() then holds GameCreated and one ArmyRegistered per seat,
  // exactly as parse_notation makes them. Errors: every error of the header,
  // file:line:col each, as parse_notation reports them; a body line (Turn, an
  // action) is an error too: the moves are what the session is fed.
  [[nodiscard]] static tl::expected<NotationSession, std::vector<NotationError>> from_header(
      std::string_view header, const std::string& file, std::shared_ptr<const Catalog> catalog,
      const std::string& ruleset_hash, const DeckLoader& load_deck);

  // A stored game continued: the parser's context (board, turn, phase,
  // acting seat, next seq) rebuilt from its events. Error: InvalidArgument
  // when events is empty or does not start with GameCreated.
  [[nodiscard]] static Expected<NotationSession> resume(std::span<const Event> events, const std::string& file,
                                                        std::shared_ptr<const Catalog> catalog);

  NotationSession(NotationSession&&) noexcept;
  NotationSession& operator=(NotationSession&&) noexcept;
  ~NotationSession();

  // Parses one line (without its newline) and takes its events in (as
  // observe). Line numbers count on from the header's last line (from 1 for
  // a resumed game).
  [[nodiscard]] LineResult feed(std::string_view line);

  // Parses one line in the current context and leaves the context as it
  // was: observe() the events once they are recorded (a line that is parsed
  // but then not recorded, a conflict or a held violation, changes nothing).
  [[nodiscard]] LineResult parse(std::string_view line);

  // Takes events recorded elsewhere (another recorder of the same game) into
  // the context, as if their lines had been fed. Their seqs must follow on.
  // A correction moves the context as the whole-file parser does: a backup
  // back to before its target, a void as if the voided marker had not been
  // typed (docs/rulings.md R-080).
  void observe(const Event& ev);

  // --- Facts -----------------------------------------------------------------
  [[nodiscard]] const std::vector<Event>& setup_events() const noexcept;  // from_header only
  [[nodiscard]] Seq next_seq() const noexcept;
  [[nodiscard]] std::uint32_t next_line() const noexcept;
  [[nodiscard]] NotationPlace place() const noexcept;
  [[nodiscard]] const Catalog& catalog() const noexcept;
  [[nodiscard]] const GameCreated& created() const noexcept;

 private:
  struct Impl;
  explicit NotationSession(std::unique_ptr<Impl> impl) noexcept;
  std::unique_ptr<Impl> impl_;
};

}  // namespace warlog::core
