// The notation parser's driver: the line loop, error collection, and the
// token helpers the header and body parsers share. Grammar: docs/notation.md.

#include "warlog/core/notation.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "notation_parser.hpp"
#include "warlog/core/text.hpp"

namespace warlog::core {

std::string NotationError::to_string() const {
  std::string out = fmt::format("{}:{}:{}: expected {}, found {}", file, line, col, expected, found);
  if (!hint.empty()) out += fmt::format(" ({})", hint);
  return out;
}

namespace notation {

Parser::Parser(std::string_view file_name, const Catalog& cat, const std::string& ruleset,
               const DeckLoader& loader)
    : file(file_name), catalog(cat), ruleset_hash(ruleset), load_deck(loader) {
  for (Seat s = 0; s < kSeatCount; ++s) armies[s].seat = s;
}

void Parser::feed(const SourceLine& line) {
  line_no = line.number;
  last_line = line.number;
  if (line.text.size() > kMaxNotationLineBytes) {
    // Refused unread: only the first kMaxNotationLineBytes are looked at,
    // to find the column where the line goes over.
    const std::uint32_t col = column(line.text.substr(0, kMaxNotationLineBytes), kMaxNotationLineBytes);
    last_line_end_col = col;
    report(col, fmt::format("a line of at most {} bytes", kMaxNotationLineBytes),
           fmt::format("a line of {} bytes", line.text.size()), "no line of a game comes near; is this a notation file?");
    return;
  }
  last_line_end_col = column(line.text, line.text.size());
  if (const auto bad = invalid_utf8_at(line.text)) {
    // The store refuses such text anyway; here it has a line and a column.
    report(column(line.text, *bad), "UTF-8 text",
           fmt::format("the byte 0x{:02x}", static_cast<unsigned char>(line.text[*bad])),
           "save the file as UTF-8");
    return;
  }
  // A leading @TIME is the line's recording time: read here and blanked
  // out (spaces keep every later column), so the lexer never sees '@'.
  line_time = 0;
  std::int64_t stamp = 0;
  std::string timed;
  std::string_view text = line.text;
  if (const std::size_t at = text.find_first_not_of(" \t"); at != std::string_view::npos && text[at] == '@') {
    const std::size_t end = std::min(text.find_first_of(" \t", at), text.size());
    std::string why;
    const auto ms = notation::parse_stamp(text.substr(at + 1, end - at - 1), created.date, why);
    if (!ms) {
      report(column(text, at), why, fmt::format("'{}'", text.substr(at, std::min<std::size_t>(end - at, 40))));
      return;
    }
    if (const std::size_t next = text.find_first_not_of(" \t", end); next != std::string_view::npos && text[next] == '[') {
      report(column(text, at), "a time before an action or marker, not a tag", "'@'");
      return;
    }
    stamp = *ms;
    timed.assign(text);
    std::fill(timed.begin() + static_cast<std::ptrdiff_t>(at), timed.begin() + static_cast<std::ptrdiff_t>(end), ' ');
    text = timed;
  }
  const LexedLine lexed = lex(text);
  if (lexed.error) {
    report(lexed.error->col, lexed.error->expected, lexed.error->found, lexed.error->hint);
    // A line that does not lex still tells whether the header is over.
    if (!header_done && !lexed.tokens.empty() && lexed.tokens.front().kind != Tok::LBracket &&
        lexed.tokens.front().kind != Tok::End) {
      finish_header(&lexed.tokens.front());
    }
    return;
  }
  Cursor c(lexed.tokens);
  if (c.at(Tok::End)) {  // blank or comment
    if (stamp != 0) report(1, "an action or marker after the time", "end of line");
    return;
  }
  try {
    if (!header_done && c.at(Tok::LBracket)) {
      tag(c);
    } else {
      if (!header_done) finish_header(&c.peek());  // the header's events take no time
      line_time = stamp;
      body(c);
    }
  } catch (const SyntaxStop&) {
    // Recorded already; recover at the next line.
  }
}

ParseResult Parser::finish() {
  if (!header_done) finish_header(nullptr);
  ParseResult r;
  if (!errors.empty()) {
    r.errors = std::move(errors);
    return r;
  }
  r.game = std::move(game);
  return r;
}

void Parser::report(std::uint32_t col, std::string expected, std::string found, std::string hint) {
  report_at(file, line_no, col, std::move(expected), std::move(found), std::move(hint));
}

void Parser::report_at(const std::string& in_file, std::uint32_t line, std::uint32_t col, std::string expected,
                       std::string found, std::string hint) {
  errors.push_back(NotationError{in_file, line, col, std::move(expected), std::move(found), std::move(hint)});
}

void Parser::fail(const Token& at, std::string expected, std::string hint) {
  report(at.col, std::move(expected), describe(at), std::move(hint));
  throw SyntaxStop{};
}

bool Parser::on_board(Space s) const noexcept {
  return !have_board || (s.col < created.cols && s.row < created.rows);
}

std::string Parser::board_expectation() const {
  const Space last{static_cast<std::int8_t>(created.cols - 1), static_cast<std::int8_t>(created.rows - 1)};
  return fmt::format("a space on the {}x{} battlefield (a1 to {})", static_cast<int>(created.cols),
                     static_cast<int>(created.rows), core::to_string(last));
}

Space Parser::space(Cursor& c) {
  const Token& t = c.peek();
  if (t.kind != Tok::Word) fail(t, "a space such as b2");
  const std::optional<Space> s = space_from_string(t.text);
  if (!s) fail(t, "a space such as b2", "a space is a column letter then a row number");
  if (!on_board(*s)) report(t.col, board_expectation(), describe(t));
  c.next();
  return *s;
}

void Parser::check_card(const Token& t) {
  if (catalog.find(t.text) != nullptr) return;
  const std::string best = catalog.closest(t.text);
  report(t.col, "a card of the catalog", describe(t),
         best.empty() ? std::string("the catalog has no cards") : "did you mean " + quote(best) + "?");
}

std::string Parser::card(Cursor& c) {
  const Token& t = c.peek();
  if (t.kind != Tok::String) {
    fail(t, "a quoted card name", t.kind == Tok::Word ? "card names are quoted, as in \"Ironclaw Lancer\"" : "");
  }
  check_card(t);
  c.next();
  return t.text;
}

std::string Parser::text(Cursor& c, std::string_view what) {
  const Token& t = c.peek();
  if (t.kind != Tok::String) fail(t, fmt::format("{} in double quotes", what));
  c.next();
  return t.text;
}

long long Parser::integer(Cursor& c, std::string_view what, long long lo, long long hi) {
  const Token& t = c.peek();
  if (t.kind != Tok::Int) fail(t, std::string(what));
  if (t.number < lo || t.number > hi) fail(t, fmt::format("{} from {} to {}", what, lo, hi));
  c.next();
  return t.number;
}

Seat Parser::seat(Cursor& c) {
  if (c.accept(Tok::Dash)) return kNoSeat;
  return static_cast<Seat>(integer(c, "a seat number", 1, kSeatCount) - 1);
}

void Parser::end_of_line(Cursor& c, std::string_view hint) {
  if (!c.at(Tok::End)) fail(c.peek(), "end of line", std::string(hint));
}

}  // namespace notation

ParseResult parse_notation(std::string_view text, const std::string& file, const Catalog& catalog,
                           const std::string& ruleset_hash, const DeckLoader& load_deck) {
  notation::Parser p(file, catalog, ruleset_hash, load_deck);
  for (const notation::SourceLine& line : notation::split_lines(text)) p.feed(line);
  return p.finish();
}

}  // namespace warlog::core
