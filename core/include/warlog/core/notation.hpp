#pragma once
// The transcript notation (.wlog): how games typed up at a table enter
// warlog. Grammar and a complete example: docs/notation.md.
//
// Parsing is all-or-nothing: a file with any error yields no events, and
// every error found is reported (not just the first), each with
// file:line:col, what was expected, what was found, and a hint.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "warlog/core/catalog.hpp"
#include "warlog/core/event.hpp"

namespace warlog::core {

// The longest line a notation or deck file may have, in bytes. A longer
// line is refused with its file:line:col before it is lexed; the longest
// line of a real game is a few hundred bytes (a GameCreated of 330 bytes
// encoded is the largest event seen), and an event over 64 KiB could not be
// stored anyway.
inline constexpr std::size_t kMaxNotationLineBytes = 64 * 1024;

struct NotationError {
  std::string file;
  std::uint32_t line = 0;  // 1-based
  std::uint32_t col = 0;   // 1-based
  std::string expected;
  std::string found;
  std::string hint;        // "did you mean 'Ironclaw Lancer'?", may be empty

  // "file:line:col: expected X, found Y (hint)"
  [[nodiscard]] std::string to_string() const;
};

struct ParsedGame {
  std::vector<Event> events;             // seq 0..n-1, game id 0 (the store assigns it)
  std::vector<std::uint32_t> lines;      // source line of each event, parallel to events
  std::string ruleset_ref;               // the [Ruleset "..."] tag: a path or a hash
  std::string catalog_ref;               // the [Catalog "..."] tag
};

// Resolves a deck reference ([Deck1 "decks/claw.deck"]) relative to the game
// file to the deck file's text; returns an Error when it cannot be read.
using DeckLoader = std::function<Expected<std::string>(const std::string& ref)>;

struct ParseResult {
  ParsedGame game;                       // empty when errors is not
  std::vector<NotationError> errors;
  [[nodiscard]] bool ok() const noexcept { return errors.empty(); }
};

// Parses one game. `file` names the source in error messages. Card names are
// checked against `catalog` (a misspelt name is an error with the closest
// name as hint). Ruleset and catalog hashes in GameCreated are taken from the
// arguments, so the events record what the game is replayed under.
[[nodiscard]] ParseResult parse_notation(std::string_view text, const std::string& file,
                                         const Catalog& catalog, const std::string& ruleset_hash,
                                         const DeckLoader& load_deck);

// The header's [Ruleset "..."] and [Catalog "..."] values, read before the
// game is parsed (parsing needs the catalog they name). Only tag lines before
// the first `Turn` count; comments and quoting follow the notation's lexer
// (docs/notation.md › Header tags). A tag that is absent or malformed is
// empty here; parse_notation reports it properly.
struct NotationRefs {
  std::string ruleset_ref;  // a path relative to the game file, or a content hash
  std::string catalog_ref;
};
[[nodiscard]] NotationRefs notation_refs(std::string_view text);

// Prints events back as canonical notation (decks inline). Parsing the output
// yields the same events: the round trip the tests check over every sample.
[[nodiscard]] std::string export_notation(const std::vector<Event>& events);

// A deck file: one "COUNT Card Name" per line, '#' comments.
// Errors: InvalidArgument "LINE:COL: message".
[[nodiscard]] Expected<std::vector<CardCount>> parse_deck(std::string_view text);

}  // namespace warlog::core
