// Deck lists: "COUNT Card Name" per line, the name unquoted (or quoted when it
// holds a '#'), '#' comments. Used by deck files and by parse_deck.

#include <charconv>
#include <fmt/format.h>

#include "notation_lex.hpp"
#include "warlog/core/text.hpp"
#include "warlog/core/notation.hpp"

namespace warlog::core {

namespace notation {

namespace {

bool blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

// The word at `i` as an error message shows it.
std::string word_at(std::string_view s, std::size_t i) {
  std::size_t end = i;
  while (end < s.size() && !blank(s[end]) && s[end] != '#') ++end;
  if (end == i) return "end of line";
  return "'" + clip_for_message(s.substr(i, end - i)) + "'";
}

}  // namespace

std::vector<DeckEntry> parse_deck_entries(std::string_view text, std::vector<DeckIssue>& issues) {
  std::vector<DeckEntry> entries;
  for (const SourceLine& sl : split_lines(text)) {
    const std::string_view s = sl.text;
    auto issue_col = [&](std::uint32_t col, std::string expected, std::string found) {
      issues.push_back(DeckIssue{sl.number, col, std::move(expected), std::move(found)});
    };
    auto issue = [&](std::size_t at, std::string expected, std::string found) {
      issue_col(column(s, at), std::move(expected), std::move(found));
    };
    if (s.size() > kMaxNotationLineBytes) {
      issue_col(column(s.substr(0, kMaxNotationLineBytes), kMaxNotationLineBytes),
                fmt::format("a line of at most {} bytes", kMaxNotationLineBytes),
                fmt::format("a line of {} bytes", s.size()));
      continue;
    }
    if (const auto bad = invalid_utf8_at(s)) {
      issue(*bad, "UTF-8 text", fmt::format("the byte 0x{:02x}", static_cast<unsigned char>(s[*bad])));
      continue;
    }
    std::size_t i = 0;
    while (i < s.size() && blank(s[i])) ++i;
    if (i == s.size() || s[i] == '#') continue;

    const std::size_t count_at = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    if (i == count_at) {
      issue(count_at, "a count and a card name, as in 3 Ironclaw Lancer", word_at(s, count_at));
      continue;
    }
    int count = 0;
    const auto [p, ec] = std::from_chars(s.data() + count_at, s.data() + i, count);
    if (ec != std::errc{} || count < 1 || count > kMaxDeckCount) {
      issue(count_at, fmt::format("a count from 1 to {}", kMaxDeckCount), word_at(s, count_at));
      continue;
    }
    if (i < s.size() && !blank(s[i]) && s[i] != '#') {
      issue(i, "a space between the count and the card name", word_at(s, i));
      continue;
    }
    while (i < s.size() && blank(s[i])) ++i;
    if (i == s.size() || s[i] == '#') {
      issue(i, "a card name after the count", "end of line");
      continue;
    }

    DeckEntry e{count, {}, sl.number, column(s, i)};
    if (s[i] == '"') {
      // A quoted name: reuse the notation's lexer so escapes mean the same.
      const LexedLine lexed = lex(s.substr(i));
      if (lexed.error) {
        issue_col(e.card_col + lexed.error->col - 1, lexed.error->expected, lexed.error->found);
        continue;
      }
      if (lexed.tokens[1].kind != Tok::End) {
        issue_col(e.card_col + lexed.tokens[1].col - 1, "end of line after the card name", describe(lexed.tokens[1]));
        continue;
      }
      e.card = lexed.tokens[0].text;
    } else {
      std::size_t end = s.find('#', i);
      if (end == std::string_view::npos) end = s.size();
      while (end > i && blank(s[end - 1])) --end;
      e.card = std::string(s.substr(i, end - i));
      if (const auto fault = check_text(e.card)) {
        issue(i + fault->offset, "a card name", fault->reason);
        continue;
      }
    }
    entries.push_back(std::move(e));
  }
  return entries;
}

}  // namespace notation

Expected<std::vector<CardCount>> parse_deck(std::string_view text) {
  std::vector<notation::DeckIssue> issues;
  std::vector<notation::DeckEntry> entries = notation::parse_deck_entries(text, issues);
  if (!issues.empty()) {
    const notation::DeckIssue& first = issues.front();
    std::string more = issues.size() > 1 ? fmt::format(" (and {} more)", issues.size() - 1) : "";
    return make_error(ErrorCode::InvalidArgument, fmt::format("{}:{}: expected {}, found {}{}", first.line,
                                                              first.col, first.expected, first.found, more));
  }
  std::vector<CardCount> out;
  out.reserve(entries.size());
  for (notation::DeckEntry& e : entries) out.push_back(CardCount{std::move(e.card), e.count});
  return out;
}

}  // namespace warlog::core
