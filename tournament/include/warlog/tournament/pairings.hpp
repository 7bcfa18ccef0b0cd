#pragma once
// A round's pairings, as a tournament tool exports them (CSV): a table and
// two players per row, found by the header's names in any order, every
// other column ignored. Strict about what a game needs: a row without a
// table or a player, a table twice, a player twice, is refused with its
// line (docs/server.md § 7; rulings R-092, R-093).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace warlog::tournament {

struct Pairing {
  std::uint32_t line = 0;  // in the CSV, 1-based (the header is line 1)
  std::uint16_t table = 0;
  std::string player1;
  std::string player2;     // empty for a bye
  [[nodiscard]] bool bye() const noexcept { return player2.empty(); }
};

struct PairingsResult {
  std::vector<Pairing> pairings;    // in the file's order
  std::vector<std::string> errors;  // "FILE:LINE: ...", every one found; pairings is empty when any
  [[nodiscard]] bool ok() const noexcept { return errors.empty(); }
};

// Columns (header names compared without case, blanks, '#', '.', '_' or
// '-'): the table: "table", "table no", "table number", "tbl"; player 1:
// "player 1", "player1 name", "player a", "player"; player 2: "player 2",
// "player2 name", "player b", "opponent". A comma, semicolon or tab
// separates (the header's first), RFC 4180 quotes, a UTF-8 BOM and CRLF
// ends are taken. A player 2 of "BYE" (any case) is a bye: no game.
[[nodiscard]] PairingsResult parse_pairings(std::string_view csv, const std::string& file);

}  // namespace warlog::tournament
