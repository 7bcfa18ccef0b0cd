#pragma once
// The tag lines of an event file, a decklist and the registry: `[Name arg
// ...]` one per line, args quoted ("...", with \" \\ escapes, as the
// notation writes them) or bare (2, a2, 5x3), '#' comments, blank lines.
// The notation's own header syntax, read without a game around it.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace warlog::tournament::detail {

struct TagArg {
  std::string text;
  bool quoted = false;
  std::uint32_t col = 0;
};

struct TagLine {
  std::uint32_t line = 0;
  std::uint32_t col = 0;  // of the name
  std::string name;       // as written
  std::vector<TagArg> args;
};

struct TagFile {
  std::vector<TagLine> tags;
  std::vector<std::string> errors;  // "FILE:LINE:COL: expected ..., found ..."
};

[[nodiscard]] TagFile read_tags(std::string_view text, const std::string& file);

// "text" with \" and \\ escaped: what read_tags reads back as one argument.
[[nodiscard]] std::string quote(std::string_view s);

// "FILE:LINE:COL: expected WHAT, found FOUND".
[[nodiscard]] std::string at(const std::string& file, std::uint32_t line, std::uint32_t col, std::string_view what,
                             std::string_view found);

[[nodiscard]] bool iequals(std::string_view a, std::string_view b) noexcept;

}  // namespace warlog::tournament::detail
