#include "notation_lex.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fmt/format.h>

#include "warlog/core/text.hpp"

namespace warlog::core::notation {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_word_char(char c) { return is_alpha(c) || is_digit(c) || c == '_'; }
char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

// The character starting at `i`, whole (a UTF-8 sequence), for messages.
std::string_view char_at(std::string_view s, std::size_t i) {
  std::size_t n = 1;
  while (i + n < s.size() && (static_cast<unsigned char>(s[i + n]) & 0xC0) == 0x80) ++n;
  return s.substr(i, n);
}

// Lexes a string literal whose opening quote is at `i`; advances `i` past
// the closing quote. Returns false (with `err`) when it is broken.
bool lex_string(std::string_view line, std::size_t& i, std::string& out, LexError& err) {
  const std::size_t open = i++;
  while (i < line.size()) {
    const char c = line[i];
    if (c == '"') {
      ++i;
      return true;
    }
    if (c == '\\') {
      if (i + 1 >= line.size()) break;
      const char e = line[i + 1];
      if (e == '"' || e == '\\') {
        out += e;
      } else if (e == 'n') {
        out += '\n';
      } else {
        err = {column(line, i), "an escape \\\" \\\\ or \\n", "'\\" + clip_for_message(char_at(line, i + 1)) + "'",
               "write a backslash as \\\\"};
        return false;
      }
      i += 2;
      continue;
    }
    // What check_text refuses, refused here where it has a column: C0
    // controls but tab, DEL, and C1 controls (U+0080-U+009F, 0xC2 0x80-0x9F).
    const auto u = static_cast<unsigned char>(c);
    const bool c1 = u == 0xC2 && i + 1 < line.size() && static_cast<unsigned char>(line[i + 1]) >= 0x80 &&
                    static_cast<unsigned char>(line[i + 1]) <= 0x9F;
    if ((u < 0x20 && c != '\t') || u == 0x7F || c1) {
      const unsigned cp = c1 ? static_cast<unsigned char>(line[i + 1]) : u;
      err = {column(line, i), "text in the string", fmt::format("the control character U+{:04X}", cp),
             "write a line break as \\n"};
      return false;
    }
    out += c;
    ++i;
  }
  err = {column(line, open), "a closing '\"'", "end of line", "the string starting here is unterminated"};
  return false;
}

}  // namespace

std::vector<SourceLine> split_lines(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  std::vector<SourceLine> lines;
  std::uint32_t number = 1;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back({number++, line});
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return lines;
}

std::uint32_t column(std::string_view line, std::size_t offset) noexcept {
  std::uint32_t col = 1;
  for (std::size_t i = 0; i < offset && i < line.size(); ++i) {
    if ((static_cast<unsigned char>(line[i]) & 0xC0) != 0x80) ++col;
  }
  return col;
}

LexedLine lex(std::string_view line) {
  LexedLine out;
  std::size_t i = 0;
  // Columns are counted as the lexer goes: counting each from the line's
  // start made a long line quadratic (a 1 MB line took 6 s).
  std::size_t counted = 0;
  std::uint32_t col = 1;
  auto col_at = [&](std::size_t offset) {
    for (; counted < offset && counted < line.size(); ++counted) {
      if ((static_cast<unsigned char>(line[counted]) & 0xC0) != 0x80) ++col;
    }
    return col;
  };
  auto push = [&](Tok kind, std::size_t start, std::size_t end) {
    out.tokens.push_back(Token{kind, std::string(line.substr(start, end - start)), col_at(start), 0});
  };
  while (i < line.size()) {
    const char c = line[i];
    const std::size_t start = i;
    if (is_space(c)) {
      ++i;
    } else if (c == '#') {
      break;
    } else if (c == '"') {
      Token t{Tok::String, {}, col_at(start), 0};
      LexError err;
      if (!lex_string(line, i, t.text, err)) {
        out.error = std::move(err);
        break;
      }
      out.tokens.push_back(std::move(t));
    } else if (is_alpha(c)) {
      while (i < line.size() && is_word_char(line[i])) ++i;
      push(Tok::Word, start, i);
    } else if (is_digit(c) || (c == '-' && i + 1 < line.size() && is_digit(line[i + 1]))) {
      ++i;
      while (i < line.size() && is_digit(line[i])) ++i;
      push(Tok::Int, start, i);
      Token& t = out.tokens.back();
      const auto [p, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), t.number);
      if (ec != std::errc{}) {
        out.error = LexError{t.col, "a number", "'" + t.text + "'", "the number is too large"};
        break;
      }
    } else if (c == '-' && i + 1 < line.size() && line[i + 1] == '>') {
      i += 2;
      push(Tok::Arrow, start, i);
    } else {
      Tok kind = Tok::End;
      switch (c) {
        case '[': kind = Tok::LBracket; break;
        case ']': kind = Tok::RBracket; break;
        case ',': kind = Tok::Comma; break;
        case ';': kind = Tok::Semicolon; break;
        case ':': kind = Tok::Colon; break;
        case '>': kind = Tok::Greater; break;
        case '-': kind = Tok::Dash; break;
        default: {
          const std::string_view ch = char_at(line, i);
          out.error = LexError{col_at(i), "a verb, a space, a number or a quoted card name",
                               "'" + clip_for_message(ch) + "'",
                               c == '\'' || (ch.size() > 1 && ch[0] == '\xE2')
                                   ? "quote names with straight double quotes \"...\""
                                   : ""};
          break;
        }
      }
      if (out.error) break;
      ++i;
      push(kind, start, i);
    }
  }
  out.tokens.push_back(Token{Tok::End, {}, col_at(out.error ? line.size() : i), 0});
  return out;
}

std::string describe(const Token& t) {
  switch (t.kind) {
    case Tok::End: return "end of line";
    case Tok::String: return quote(clip_for_message(t.text));
    default: return "'" + clip_for_message(t.text) + "'";
  }
}

std::string quote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  out += '"';
  return out;
}

bool iequals(std::string_view a, std::string_view b) noexcept {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return lower(x) == lower(y); });
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      const std::size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + cost});
      diag = up;
    }
  }
  return row[b.size()];
}

std::string closest_word(std::string_view word, const std::vector<std::string_view>& candidates) {
  std::string_view best;
  std::size_t best_d = static_cast<std::size_t>(-1);
  for (std::string_view c : candidates) {
    const std::size_t d = edit_distance(word, c);
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  // A guess that changes most of the word is noise, not help.
  if (best.empty() || best_d > std::max<std::size_t>(2, word.size() / 2)) return {};
  return std::string(best);
}

}  // namespace warlog::core::notation
