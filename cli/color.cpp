#include "color.hpp"

#include <fmt/color.h>
#include <fmt/format.h>
#include <unistd.h>

#include <array>
#include <cstdlib>
#include <utility>

namespace warlog::cli {

bool use_color(std::string_view flag) {
  if (flag == "always") return true;
  if (flag == "never") return false;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color != nullptr && *no_color != '\0') return false;
  return ::isatty(STDOUT_FILENO) == 1;
}

namespace {

// "  seq  122  turn  7 warfare   Lukas      WAR-C.lost violation (written)":
// the severity is the word before the basis in parentheses at the end.
// record's finding of a line not recorded (a held or needs-confirm line)
// begins "  not recorded  turn ..." instead.
std::string paint_line(std::string_view line) {
  static const std::array<std::pair<std::string_view, fmt::text_style>, 3> kSeverities{{
      {" violation (", fmt::fg(fmt::terminal_color::bright_red) | fmt::emphasis::bold},
      {" warning (", fmt::fg(fmt::terminal_color::yellow) | fmt::emphasis::bold},
      {" note (", fmt::fg(fmt::terminal_color::cyan)},
  }};
  if ((line.starts_with("  seq ") || line.starts_with("  not recorded ")) && line.ends_with(")")) {
    for (const auto& [word, style] : kSeverities) {
      const auto at = line.rfind(word);
      if (at == std::string_view::npos) continue;
      const std::string_view severity = word.substr(1, word.size() - 3);
      return fmt::format("{} {}{}", line.substr(0, at), fmt::styled(severity, style),
                         line.substr(at + word.size() - 2));
    }
  }
  const auto text = line.find_first_not_of(' ');
  if (text != std::string_view::npos && text >= 8 && line[text] == '[' && line.ends_with("]")) {
    return fmt::format("{}{}", line.substr(0, text), fmt::styled(line.substr(text), fmt::fg(fmt::terminal_color::blue)));
  }
  return std::string(line);
}

}  // namespace

std::string paint_findings(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  while (!text.empty()) {
    const auto nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    out += paint_line(line);
    if (nl == std::string_view::npos) break;
    out += '\n';
    text.remove_prefix(nl + 1);
  }
  return out;
}

}  // namespace warlog::cli
