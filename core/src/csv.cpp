#include "csv.hpp"

#include <fmt/format.h>

namespace warlog::core::detail {

Expected<std::vector<CsvRow>> parse_csv(std::string_view text) {
  std::vector<CsvRow> rows;
  std::uint32_t line = 1;
  std::size_t i = 0;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") i = 3;  // spreadsheets write a BOM
  while (i < text.size()) {
    CsvRow row;
    row.line = line;
    std::string cell;
    bool row_done = false;
    while (!row_done) {
      if (i < text.size() && text[i] == '"') {
        const std::uint32_t open_line = line;
        const std::size_t open = i;
        ++i;
        for (;;) {
          if (i >= text.size()) {
            return make_error(ErrorCode::InvalidArgument,
                              fmt::format("{}:{}: unterminated quoted cell", open_line, open + 1));
          }
          const char c = text[i++];
          if (c == '"') {
            if (i < text.size() && text[i] == '"') {
              cell += '"';
              ++i;
            } else {
              break;
            }
          } else {
            if (c == '\n') ++line;
            cell += c;
          }
        }
      }
      // Unquoted part (or what follows a closing quote up to the separator).
      while (i < text.size() && text[i] != ',' && text[i] != '\n' && text[i] != '\r') cell += text[i++];
      row.cells.push_back(std::move(cell));
      cell.clear();
      if (i >= text.size()) {
        row_done = true;
      } else if (text[i] == ',') {
        ++i;
      } else {
        if (text[i] == '\r') ++i;
        if (i < text.size() && text[i] == '\n') ++i;
        ++line;
        row_done = true;
      }
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace warlog::core::detail
