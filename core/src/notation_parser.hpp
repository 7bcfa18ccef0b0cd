#pragma once
// The game parser's working state, shared by notation.cpp (the line loop and
// the token helpers), notation_header.cpp (tags, decks) and
// notation_body.cpp (turns, phases, verbs). See docs/notation.md.

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "notation_lex.hpp"
#include "warlog/core/notation.hpp"

namespace warlog::core::notation {

// Thrown after a syntax error has been recorded: the rest of the line is
// skipped and parsing recovers at the next line. Bad input is logistics, so
// an exception is the house-style tool here; it never leaves the parser.
struct SyntaxStop {};

// Reads the tokens of one line.
class Cursor {
 public:
  explicit Cursor(const std::vector<Token>& tokens) : tokens_(tokens) {}
  [[nodiscard]] const Token& peek(std::size_t ahead = 0) const {
    const std::size_t i = pos_ + ahead;
    return i < tokens_.size() ? tokens_[i] : tokens_.back();
  }
  const Token& next() {
    const Token& t = peek();
    if (pos_ + 1 < tokens_.size()) ++pos_;
    return t;
  }
  [[nodiscard]] bool at(Tok kind) const { return peek().kind == kind; }
  [[nodiscard]] bool at_word(std::string_view word) const {
    return peek().kind == Tok::Word && iequals(peek().text, word);
  }
  bool accept(Tok kind) {
    if (!at(kind)) return false;
    next();
    return true;
  }

 private:
  const std::vector<Token>& tokens_;
  std::size_t pos_ = 0;
};

// Where the body is: every event takes its turn and phase from here, and its
// seat unless the line names another.
struct BodyContext {
  bool in_turn = false;  // a Turn marker has been seen
  std::uint16_t turn = 0;
  Phase phase = Phase::Setup;
  Seat seat = kNoSeat;
};

// The context after `events` (a stream from seq 0) as the game stands: the
// markers that still count, moved over in order, so a backup returns the
// turn, phase and acting seat to before its target and a voided marker no
// longer counts (docs/notation.md › Corrections, docs/rulings.md R-080). The
// whole-file parser, export and the recorder all move the context with it
// after a correction, so a line means the same wherever it is typed.
[[nodiscard]] BodyContext context_after(std::span<const Event> events);

struct Parser {
  Parser(std::string_view file, const Catalog& catalog, const std::string& ruleset_hash,
         const DeckLoader& load_deck);

  void feed(const SourceLine& line);
  [[nodiscard]] ParseResult finish();

  // --- Errors (notation.cpp) ----------------------------------------------
  void report(std::uint32_t col, std::string expected, std::string found, std::string hint = {});
  void report_at(const std::string& file, std::uint32_t line, std::uint32_t col, std::string expected,
                 std::string found, std::string hint = {});
  [[noreturn]] void fail(const Token& at, std::string expected, std::string hint = {});

  // --- Token helpers (notation.cpp): each fails on bad syntax and reports
  // (without failing) a well-formed name or space that does not exist.
  Space space(Cursor& c);
  std::string card(Cursor& c);
  std::string text(Cursor& c, std::string_view what);
  long long integer(Cursor& c, std::string_view what, long long lo, long long hi);
  Seat seat(Cursor& c);  // 1, 2 or '-' (no seat)
  void end_of_line(Cursor& c, std::string_view hint = {});
  void check_card(const Token& name_token);
  [[nodiscard]] bool on_board(Space s) const noexcept;
  [[nodiscard]] std::string board_expectation() const;

  // --- Header (notation_header.cpp) ---------------------------------------
  void tag(Cursor& c);
  void deck_tag(Cursor& c, Seat seat, bool orders);
  void finish_header(const Token* first_body_token);

  // --- Body (notation_body.cpp) -------------------------------------------
  void body(Cursor& c);
  void emit(Payload payload, Seat seat, std::uint16_t turn, Phase phase, std::uint32_t line);

  // --- Data ----------------------------------------------------------------
  std::string file;
  const Catalog& catalog;
  const std::string& ruleset_hash;
  const DeckLoader& load_deck;

  std::uint32_t line_no = 0;  // the line being parsed
  std::int64_t line_time = 0;  // its @TIME as ms UTC; 0 = none
  std::uint32_t last_line = 0;
  std::uint32_t last_line_end_col = 1;
  std::vector<NotationError> errors;
  ParsedGame game;

  // Header
  bool header_done = false;
  std::uint32_t first_tag_line = 0;
  GameCreated created;
  std::int64_t header_time = 0;  // [Recorded]: the header's events' time, ms UTC; 0 = none
  bool have_board = false;
  std::vector<std::string> single_tags_seen;  // Title, Date, ... (lowercase)
  std::array<bool, kSeatCount> have_seat{};
  std::array<std::uint32_t, kSeatCount> seat_line{};
  std::array<std::uint32_t, kSeatCount> army_line{};
  std::array<ArmyRegistered, kSeatCount> armies{};
  struct TerritoryAt {
    std::uint32_t line = 0;
    Token token;
  };
  std::vector<TerritoryAt> territory_spaces;  // checked against [Board] at the header's end

  BodyContext ctx;
  std::size_t corrections = 0;  // Voided and BackupTo lines so far
};

}  // namespace warlog::core::notation
