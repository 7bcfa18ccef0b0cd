#include "tags.hpp"

#include <cctype>

#include <fmt/format.h>

#include "warlog/core/text.hpp"

namespace warlog::tournament::detail {

bool iequals(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

std::string quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  out += '"';
  return out;
}

std::string at(const std::string& file, std::uint32_t line, std::uint32_t col, std::string_view what,
               std::string_view found) {
  return fmt::format("{}:{}:{}: expected {}, found {}", file, line, col, what, found);
}

namespace {

std::string shown(std::string_view s) { return "'" + core::clip_for_message(s) + "'"; }

// One line's tag, or an error; `i` walks the line.
void read_line(std::string_view text, std::uint32_t line_no, const std::string& file, TagFile& out) {
  std::size_t i = 0;
  auto col = [&] { return static_cast<std::uint32_t>(i + 1); };
  auto blank = [&] { return i < text.size() && (text[i] == ' ' || text[i] == '\t'); };
  while (blank()) ++i;
  if (i == text.size() || text[i] == '#') return;
  if (text[i] != '[') {
    out.errors.push_back(at(file, line_no, col(), "a tag such as [Player \"Alice\"]", shown(text.substr(i))));
    return;
  }
  ++i;
  TagLine tag;
  tag.line = line_no;
  tag.col = col();
  while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) != 0)) tag.name += text[i++];
  if (tag.name.empty()) {
    out.errors.push_back(at(file, line_no, col(), "a tag name after '['", shown(text.substr(i))));
    return;
  }
  for (;;) {
    while (blank()) ++i;
    if (i == text.size()) {
      out.errors.push_back(at(file, line_no, col(), "']' to close the tag", "end of line"));
      return;
    }
    if (text[i] == ']') {
      ++i;
      break;
    }
    TagArg arg;
    arg.col = col();
    if (text[i] == '"') {
      arg.quoted = true;
      ++i;
      bool closed = false;
      while (i < text.size()) {
        const char c = text[i++];
        if (c == '"') {
          closed = true;
          break;
        }
        if (c == '\\' && i < text.size() && (text[i] == '"' || text[i] == '\\')) {
          arg.text += text[i++];
          continue;
        }
        arg.text += c;
      }
      if (!closed) {
        out.errors.push_back(at(file, line_no, arg.col, "a closing '\"'", "end of line"));
        return;
      }
    } else {
      while (i < text.size() && !blank() && text[i] != ']' && text[i] != '"') arg.text += text[i++];
    }
    tag.args.push_back(std::move(arg));
  }
  while (blank()) ++i;
  if (i < text.size() && text[i] != '#') {
    out.errors.push_back(at(file, line_no, col(), "one tag a line (or a # comment)", shown(text.substr(i))));
    return;
  }
  out.tags.push_back(std::move(tag));
}

}  // namespace

TagFile read_tags(std::string_view text, const std::string& file) {
  TagFile out;
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);  // a BOM from a Windows editor
  std::uint32_t line_no = 0;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    read_line(line, line_no, file, out);
  }
  return out;
}

}  // namespace warlog::tournament::detail
