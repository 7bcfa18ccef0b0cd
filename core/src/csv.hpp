#pragma once
// A small RFC 4180 CSV reader (quoted cells, doubled quotes, CRLF). No
// Debian-packaged C++ CSV library fits; this is the whole of it.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "warlog/core/error.hpp"

namespace warlog::core::detail {

struct CsvRow {
  std::uint32_t line = 0;  // 1-based line the row starts on
  std::vector<std::string> cells;
};

// Errors: InvalidArgument "LINE:COL: unterminated quoted cell".
[[nodiscard]] Expected<std::vector<CsvRow>> parse_csv(std::string_view text);

}  // namespace warlog::core::detail
