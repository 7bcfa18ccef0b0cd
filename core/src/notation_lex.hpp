#pragma once
// The notation's lexical layer, shared by the game parser, the deck parser
// and the exporter: lines, tokens, quoting, and 1-based columns.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warlog::core::notation {

// One source line without its terminator ("\n" or "\r\n"); a UTF-8 byte
// order mark at the start of the text is dropped.
struct SourceLine {
  std::uint32_t number = 0;  // 1-based
  std::string_view text;
};
[[nodiscard]] std::vector<SourceLine> split_lines(std::string_view text);

// The 1-based column of byte `offset` in `line`, counted in characters
// (UTF-8 code points), as an editor shows it.
[[nodiscard]] std::uint32_t column(std::string_view line, std::size_t offset) noexcept;

enum class Tok : std::uint8_t {
  Word,       // letters, digits, '_', starting with a letter: verbs, spaces, keywords
  Int,        // an optional '-' and digits
  String,     // "..." with \" \\ \n escapes; `text` holds the unescaped value
  LBracket,   // [
  RBracket,   // ]
  Comma,      // ,
  Semicolon,  // ;
  Colon,      // :
  Greater,    // >
  Arrow,      // ->
  Dash,       // - (no seat)
  End,        // end of line (or the start of a comment)
};

struct Token {
  Tok kind = Tok::End;
  std::string text;         // the source text; for a String, its value
  std::uint32_t col = 0;    // 1-based column of the first character
  long long number = 0;     // for Int
};

// What went wrong while lexing a line: an unterminated string, a bad escape,
// a character the notation has no use for.
struct LexError {
  std::uint32_t col = 0;
  std::string expected;
  std::string found;
  std::string hint;
};

struct LexedLine {
  std::vector<Token> tokens;  // always ends with a Tok::End
  std::optional<LexError> error;
};

// Tokenizes one line; '#' outside a string starts a comment.
[[nodiscard]] LexedLine lex(std::string_view line);

// How an error message shows a token: 'b2', "Ironclaw Lancer", end of line;
// at most kMaxQuotedChars characters of it.
[[nodiscard]] std::string describe(const Token& t);

// A string literal for `s`, escaping '"', '\\' and newlines.
[[nodiscard]] std::string quote(std::string_view s);

[[nodiscard]] bool iequals(std::string_view a, std::string_view b) noexcept;

// Case-insensitive Levenshtein distance, for "did you mean" hints.
[[nodiscard]] std::size_t edit_distance(std::string_view a, std::string_view b);
// The candidate closest to `word`, or "" when none is close enough to help.
[[nodiscard]] std::string closest_word(std::string_view word, const std::vector<std::string_view>& candidates);

// A line's recording time (docs/notation.md › Times): `@16:04:31` or
// `@16:04:31.250` on the game's [Date] (ISO 8601, "2026-03-14"), or a full
// UTC stamp `@2026-03-14T16:04:31Z` / `@2026-03-14T16:04:31.250Z`. `text` is
// what follows the '@'. Returns ms since the Unix epoch UTC, or nullopt with
// `why` set (what was expected).
[[nodiscard]] std::optional<std::int64_t> parse_stamp(std::string_view text, std::string_view date,
                                                      std::string& why);
// The stamp export writes for `ms` (> 0): the time of day when it falls on
// `date`, else the full stamp; milliseconds only when not zero. With '@'.
[[nodiscard]] std::string format_stamp(std::int64_t ms, std::string_view date);

// One entry of a deck list ("3 Ironclaw Lancer"), with where its parts start.
struct DeckEntry {
  int count = 0;
  std::string card;
  std::uint32_t line = 0;
  std::uint32_t card_col = 0;
};
struct DeckIssue {
  std::uint32_t line = 0;
  std::uint32_t col = 0;
  std::string expected;
  std::string found;
};
inline constexpr int kMaxDeckCount = 999;

// Parses a deck list; every bad line yields one issue, the rest still parse.
[[nodiscard]] std::vector<DeckEntry> parse_deck_entries(std::string_view text, std::vector<DeckIssue>& issues);

}  // namespace warlog::core::notation
