#include "warlog/tournament/pairings.hpp"

#include <cctype>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "warlog/core/text.hpp"
#include "warlog/tournament/decklists.hpp"

namespace warlog::tournament {

namespace {

struct Row {
  std::uint32_t line = 0;
  std::vector<std::string> cells;
};

// RFC 4180 with the given separator; a quoted cell may span lines.
std::vector<Row> split_csv(std::string_view text, char sep, std::vector<std::string>& errors, const std::string& file) {
  std::vector<Row> rows;
  Row row;
  std::string cell;
  std::uint32_t line = 1;
  row.line = 1;
  bool quoted = false, was_quoted = false, any = false;
  auto end_cell = [&] {
    if (!was_quoted) {
      while (!cell.empty() && (cell.back() == ' ' || cell.back() == '\t')) cell.pop_back();
      std::size_t i = 0;
      while (i < cell.size() && (cell[i] == ' ' || cell[i] == '\t')) ++i;
      cell.erase(0, i);
    }
    row.cells.push_back(std::move(cell));
    cell.clear();
    was_quoted = false;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        cell += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        if (c == '\n') ++line;
        cell += c;
      }
      continue;
    }
    if (c == '"' && cell.find_first_not_of(" \t") == std::string::npos) {
      cell.clear();
      quoted = was_quoted = any = true;
    } else if (c == sep) {
      end_cell();
      any = true;
    } else if (c == '\n') {
      end_cell();
      if (any || row.cells.size() > 1 || !row.cells.front().empty()) rows.push_back(std::move(row));
      row = Row{};
      row.line = ++line;
      any = false;
    } else {
      cell += c;
      any = true;
    }
  }
  if (quoted) errors.push_back(fmt::format("{}:{}: expected a closing '\"', found the end of the file", file, row.line));
  if (any || !cell.empty()) {
    end_cell();
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string normal(std::string_view s) {
  std::string out;
  for (unsigned char c : s) {
    if (c == ' ' || c == '\t' || c == '#' || c == '.' || c == '_' || c == '-') continue;
    out += static_cast<char>(std::tolower(c));
  }
  return out;
}

enum class Column { Table, Player1, Player2 };

std::optional<Column> column_of(std::string_view header) {
  const std::string n = normal(header);
  for (const char* t : {"table", "tableno", "tablenumber", "tbl"}) {
    if (n == t) return Column::Table;
  }
  for (const char* p : {"player1", "player1name", "playera", "player", "playeraname"}) {
    if (n == p) return Column::Player1;
  }
  for (const char* p : {"player2", "player2name", "playerb", "opponent", "playerbname", "opponentname"}) {
    if (n == p) return Column::Player2;
  }
  return std::nullopt;
}

std::string shown(std::string_view s) { return "'" + core::clip_for_message(s) + "'"; }

}  // namespace

PairingsResult parse_pairings(std::string_view csv, const std::string& file) {
  PairingsResult out;
  if (csv.starts_with("\xEF\xBB\xBF")) csv.remove_prefix(3);
  // CRLF line ends (a spreadsheet's export) are taken as LF; any other
  // control character or invalid UTF-8 is refused.
  std::string text;
  text.reserve(csv.size());
  for (std::size_t i = 0; i < csv.size(); ++i) {
    if (csv[i] == '\r' && i + 1 < csv.size() && csv[i + 1] == '\n') continue;
    text += csv[i];
  }
  if (auto fault = core::check_text(text)) {
    out.errors.push_back(fmt::format("{}: expected text, found {} at byte {}", file, fault->reason, fault->offset));
    return out;
  }
  csv = text;
  const std::string_view first_line = csv.substr(0, csv.find('\n'));
  char sep = ',';
  std::size_t best = std::string_view::npos;
  for (char c : {',', ';', '\t'}) {
    const std::size_t at = first_line.find(c);
    if (at < best) {
      best = at;
      sep = c;
    }
  }
  std::vector<Row> rows = split_csv(csv, sep, out.errors, file);
  if (rows.empty()) {
    out.errors.push_back(fmt::format("{}:1: expected a header row (table, player 1, player 2), found an empty file", file));
    return out;
  }
  std::map<Column, std::size_t> at;
  const Row& header = rows.front();
  for (std::size_t i = 0; i < header.cells.size(); ++i) {
    const auto col = column_of(header.cells[i]);
    if (!col) continue;  // points, standings, decks...: not ours
    if (at.count(*col) != 0) {
      out.errors.push_back(fmt::format("{}:{}: expected one column for {}, found {} and {}", file, header.line,
                                       *col == Column::Table ? "the table" : *col == Column::Player1 ? "player 1" : "player 2",
                                       shown(header.cells[at[*col]]), shown(header.cells[i])));
      continue;
    }
    at[*col] = i;
  }
  for (auto [col, name] : {std::pair{Column::Table, "a table column (\"Table\")"},
                           std::pair{Column::Player1, "a player 1 column (\"Player 1\")"},
                           std::pair{Column::Player2, "a player 2 column (\"Player 2\")"}}) {
    if (at.count(col) == 0) {
      out.errors.push_back(fmt::format("{}:{}: expected {} in the header, found none among {} column{}", file,
                                       header.line, name, header.cells.size(), header.cells.size() == 1 ? "" : "s"));
    }
  }
  if (!out.errors.empty()) return out;

  std::map<std::uint16_t, std::uint32_t> tables;
  std::map<std::string, std::uint32_t> players;
  for (std::size_t r = 1; r < rows.size(); ++r) {
    const Row& row = rows[r];
    auto cell = [&](Column c) -> std::string { return at[c] < row.cells.size() ? row.cells[at[c]] : std::string(); };
    Pairing p;
    p.line = row.line;
    const std::string table = cell(Column::Table);
    p.player1 = cell(Column::Player1);
    p.player2 = cell(Column::Player2);
    bool ok = true;
    auto fail = [&](std::string msg) {
      out.errors.push_back(fmt::format("{}:{}: {}", file, row.line, msg));
      ok = false;
    };
    unsigned long n = 0;
    bool digits = !table.empty() && table.size() <= 5;
    for (char c : table) digits = digits && c >= '0' && c <= '9';
    if (digits) n = std::stoul(table);
    if (table.empty()) {
      fail("expected a table number, found none");
    } else if (!digits || n < 1 || n > 65535) {
      fail(fmt::format("expected a table number from 1 to 65535, found {}", shown(table)));
    } else {
      p.table = static_cast<std::uint16_t>(n);
    }
    const bool bye = player_key(p.player2) == "bye";
    if (player_key(p.player1).empty()) fail(fmt::format("expected player 1's name at table {}, found none", table));
    if (player_key(p.player2).empty()) {
      fail(fmt::format("expected player 2's name at table {}, found none (a bye is written BYE)", table));
    }
    if (bye) p.player2.clear();
    if (ok && !bye && player_key(p.player1) == player_key(p.player2)) {
      fail(fmt::format("expected two players at table {}, found {} against themself", table, shown(p.player1)));
    }
    // A table is taken by its row even when the row lacks a player, so a
    // second row with its number is named too.
    if (p.table != 0) {
      if (auto [it, fresh] = tables.emplace(p.table, row.line); !fresh) {
        fail(fmt::format("expected each table once, found table {} again (first at line {})", p.table, it->second));
      }
    }
    for (const std::string* name : {&p.player1, &p.player2}) {
      if (!ok || name->empty()) continue;
      if (auto [it, fresh] = players.emplace(player_key(*name), row.line); !fresh) {
        fail(fmt::format("expected each player once, found {} again (first at line {})", shown(*name), it->second));
      }
    }
    if (ok) out.pairings.push_back(std::move(p));
  }
  if (out.errors.empty() && out.pairings.empty()) {
    out.errors.push_back(fmt::format("{}:{}: expected a pairing after the header, found none", file, header.line));
  }
  if (!out.errors.empty()) out.pairings.clear();
  return out;
}

}  // namespace warlog::tournament
