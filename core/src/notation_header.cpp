// The notation's header: [Tag value ...] lines before the first Turn, which
// become GameCreated (seq 0) and one ArmyRegistered per seat.

#include <algorithm>
#include <fmt/format.h>

#include "notation_lex.hpp"
#include "notation_parser.hpp"
#include "warlog/core/text.hpp"
#include "warlog/core/notation.hpp"

namespace warlog::core::notation {

namespace {

const std::vector<std::string_view> kTagNames = {"Title",   "Date",    "Ruleset",   "Catalog",  "Board",
                                                  "Seat1",   "Seat2",   "Army1",     "Army2",    "Orders1",
                                                  "Orders2", "Territory", "GameUuid", "Recorded", "Event",
                                                  "Round",   "Table"};
constexpr std::string_view kTagList =
    "a tag: Title, Date, Ruleset, Catalog, Board, Seat1, Seat2, Territory, Army1, Army2, Orders1, Orders2, GameUuid, "
    "Recorded, Event, Round or Table";

int hex_digit(char ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
  return -1;
}

std::string lowercase(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return out;
}

// "5x4" -> cols 5, rows 4; nullopt when malformed or out of range.
std::optional<std::pair<int, int>> board_size(std::string_view s) {
  const std::size_t x = s.find_first_of("xX");
  if (x == std::string_view::npos || x == 0 || x + 1 == s.size()) return std::nullopt;
  auto number = [](std::string_view d) -> int {
    if (d.size() > 3) return -1;
    int v = 0;
    for (char ch : d) {
      if (ch < '0' || ch > '9') return -1;
      v = v * 10 + (ch - '0');
    }
    return v;
  };
  const int cols = number(s.substr(0, x));
  const int rows = number(s.substr(x + 1));
  if (cols < 1 || cols > 26 || rows < 1 || rows > 99) return std::nullopt;
  return std::pair{cols, rows};
}

}  // namespace

void Parser::tag(Cursor& c) {
  c.next();  // '['
  if (first_tag_line == 0) first_tag_line = line_no;
  const Token name = c.peek();
  if (name.kind != Tok::Word) fail(name, "a tag name such as Title");
  c.next();
  const std::string key = lowercase(name.text);

  // Seat-numbered tags: Seat1, Army2, Orders1. `base` drops the digit.
  std::string base = key;
  Seat seat = kNoSeat;
  for (std::string_view prefix : {"seat", "army", "orders"}) {
    if (key.size() != prefix.size() + 1 || !key.starts_with(prefix) || key.back() < '0' || key.back() > '9') continue;
    base = std::string(prefix);
    const int n = key.back() - '0';
    const std::string shown = name.text.substr(0, prefix.size());
    if (n < 1 || n > kSeatCount) fail(name, fmt::format("{}1 or {}2", shown, shown), "a game has two seats (rulings R-001)");
    seat = static_cast<Seat>(n - 1);
  }

  const bool single = key == "title" || key == "date" || key == "ruleset" || key == "catalog" || key == "board" ||
                      key == "gameuuid" || key == "recorded" || key == "event" || key == "round" ||
                      key == "table";
  if (single) {
    if (std::find(single_tags_seen.begin(), single_tags_seen.end(), key) != single_tags_seen.end()) {
      fail(name, "each tag once", fmt::format("[{}] is already set above", name.text));
    }
    single_tags_seen.push_back(key);
  }

  if (key == "title") {
    created.title = text(c, "the title");
  } else if (key == "date") {
    created.date = text(c, "the date, as in \"2026-03-14\",");
  } else if (key == "event") {
    // An event's game (warlog serve round open): [Event "Old Mill Open"],
    // [Round 2], [Table 7]; docs/notation.md › Header tags.
    created.event = text(c, "the event's name");
  } else if (key == "round") {
    created.round = static_cast<std::uint16_t>(integer(c, "the round, a number from 1", 1, 65535));
  } else if (key == "table") {
    created.table = static_cast<std::uint16_t>(integer(c, "the table, a number from 1", 1, 65535));
  } else if (key == "ruleset") {
    game.ruleset_ref = text(c, "a ruleset path or hash");
  } else if (key == "catalog") {
    game.catalog_ref = text(c, "a catalog path or hash");
  } else if (key == "gameuuid") {
    // A live game's identity (GameCreated.gameUuid), as export writes it.
    const Token& t = c.peek();
    bool ok = t.kind == Tok::String && !t.text.empty() && t.text.size() % 2 == 0 && t.text.size() <= 64;
    std::string bytes;
    for (std::size_t i = 0; ok && i < t.text.size(); i += 2) {
      const int hi = hex_digit(t.text[i]), lo = hex_digit(t.text[i + 1]);
      ok = hi >= 0 && lo >= 0;
      bytes.push_back(static_cast<char>(hi << 4 | lo));
    }
    if (!ok) fail(t, "the game's uuid as quoted hex, as in \"3f9a...\" (whole bytes, at most 32)");
    c.next();
    created.game_uuid = std::move(bytes);
  } else if (key == "recorded") {
    // When the header's events were recorded (warlog record commits them at once).
    const Token& t = c.peek();
    if (t.kind != Tok::String) fail(t, "the time in double quotes, as in \"2026-03-14T16:04:31Z\"");
    std::string why;
    const auto ms = parse_stamp(t.text, created.date, why);
    if (!ms || *ms <= 0) fail(t, why.empty() ? std::string("a UTC stamp such as 2026-03-14T16:04:31Z") : why);
    c.next();
    header_time = *ms;
  } else if (key == "board") {
    const Token& t = c.peek();
    if (t.kind != Tok::String) fail(t, "the board size in double quotes, as in \"5x4\"");
    const auto size = board_size(t.text);
    if (!size) fail(t, "COLSxROWS, 1 to 26 columns by 1 to 99 rows, as in \"5x4\"");
    c.next();
    created.cols = static_cast<std::int8_t>(size->first);
    created.rows = static_cast<std::int8_t>(size->second);
    have_board = true;
  } else if (base == "seat" && seat != kNoSeat) {
    if (have_seat[seat]) fail(name, "each seat once", fmt::format("[{}] is already set above", name.text));
    have_seat[seat] = true;  // even if malformed: one error, not a second "missing" one
    seat_line[seat] = line_no;
    SeatSetup setup;
    setup.player = text(c, "the player's name");
    const Token& a = c.peek();
    if (a.kind != Tok::String) fail(a, "the allegiance in double quotes, as in \"Claw Empire\"");
    if (const auto allegiance = allegiance_from_string(a.text)) {
      setup.allegiance = *allegiance;
    } else {
      report(a.col, "an allegiance", describe(a),
             "one of \"Claw Empire\", \"Paw Coalition\", \"The Weald\", \"Hirelings\"");
    }
    c.next();
    if (created.seats.size() <= seat) created.seats.resize(seat + 1);
    created.seats[seat] = std::move(setup);
  } else if (key == "territory") {
    PlacedTerritory t;
    t.card = card(c);
    const Token& sp = c.peek();
    if (sp.kind != Tok::Word) fail(sp, "the Territory's space, as in c2");
    const auto s = space_from_string(sp.text);
    if (!s) fail(sp, "a space such as c2", "a space is a column letter then a row number");
    territory_spaces.push_back({line_no, sp});  // checked when [Board] is surely known
    t.space = *s;
    c.next();
    created.territories.push_back(std::move(t));
  } else if ((base == "army" || base == "orders") && seat != kNoSeat) {
    deck_tag(c, seat, base == "orders");
  } else {
    const std::string best = closest_word(name.text, kTagNames);
    fail(name, std::string(kTagList),
         best.empty() ? std::string{} : fmt::format("did you mean [{}]?", best));
  }
  if (!c.accept(Tok::RBracket)) fail(c.peek(), "']' to close the tag");
  end_of_line(c);
}

// [Army1 "decks/claw.deck"] loads a deck file; [Army1 3 "Ironclaw Lancer"]
// is one inline entry. Entries accumulate in the order written.
void Parser::deck_tag(Cursor& c, Seat seat, bool orders) {
  std::vector<CardCount>& out = orders ? armies[seat].orders : armies[seat].army;
  if (army_line[seat] == 0) army_line[seat] = line_no;
  const Token& t = c.peek();
  if (t.kind == Tok::Int) {
    const int count = static_cast<int>(integer(c, "a card count", 1, kMaxDeckCount));
    out.push_back(CardCount{card(c), count});
    return;
  }
  if (t.kind != Tok::String) fail(t, "a deck file in double quotes, or a count and a quoted card name");
  const Token ref = t;
  c.next();
  const std::string where = fmt::format("deck named at {}:{}:{}", file, line_no, ref.col);
  if (!load_deck) {
    report(ref.col, "an inline deck entry such as [Army1 3 \"Ironclaw Lancer\"]", describe(ref),
           "deck files cannot be loaded here");
    return;
  }
  Expected<std::string> deck_text = load_deck(ref.text);
  if (!deck_text) {
    report(ref.col, "a readable deck file", describe(ref), deck_text.error().message);
    return;
  }
  std::vector<DeckIssue> issues;
  std::vector<DeckEntry> entries = parse_deck_entries(*deck_text, issues);
  // A tag can name any file ([Army1 "/etc/passwd"]): a deck file yields one
  // error, quoting (clipped) at most the one line it is about, and counts
  // the rest, so a file that is not a deck is never echoed line by line.
  struct DeckError {
    std::uint32_t line = 0;
    std::uint32_t col = 0;
    std::string expected, found, hint;
  };
  std::vector<DeckError> deck_errors;
  for (DeckIssue& i : issues) deck_errors.push_back({i.line, i.col, std::move(i.expected), std::move(i.found), {}});
  for (DeckEntry& e : entries) {
    if (catalog.find(e.card) == nullptr) {
      const std::string best = catalog.closest(e.card);
      deck_errors.push_back({e.line, e.card_col, "a card of the catalog", quote(clip_for_message(e.card)),
                             best.empty() ? std::string{} : fmt::format("did you mean {}? ", quote(best))});
    }
    out.push_back(CardCount{std::move(e.card), e.count});
  }
  if (deck_errors.empty()) return;
  std::stable_sort(deck_errors.begin(), deck_errors.end(), [](const DeckError& a, const DeckError& b) {
    return a.line != b.line ? a.line < b.line : a.col < b.col;
  });
  DeckError& first = deck_errors.front();
  std::string hint = first.hint + where;
  if (deck_errors.size() > 1) {
    hint += fmt::format("; {} more error{} in this deck file", deck_errors.size() - 1,
                        deck_errors.size() == 2 ? "" : "s");
  }
  report_at(ref.text, first.line, first.col, std::move(first.expected), std::move(first.found), std::move(hint));
}

void Parser::finish_header(const Token* first_body_token) {
  header_done = true;
  const std::uint32_t at_line = first_body_token != nullptr ? line_no : std::max<std::uint32_t>(last_line, 1);
  const std::uint32_t at_col = first_body_token != nullptr ? first_body_token->col : last_line_end_col;
  const std::string found = first_body_token != nullptr ? describe(*first_body_token) : "end of file";
  auto missing = [&](std::string_view tag) {
    report_at(file, at_line, at_col, fmt::format("a {} tag", tag), found,
              "[Seat1], [Seat2] and [Board] are required before the first Turn");
  };
  if (!have_seat[0]) missing("[Seat1 \"Player\" \"Allegiance\"]");
  if (!have_seat[1]) missing("[Seat2 \"Player\" \"Allegiance\"]");
  if (std::find(single_tags_seen.begin(), single_tags_seen.end(), "board") == single_tags_seen.end()) {
    missing("[Board \"5x4\"]");
  }
  for (const TerritoryAt& t : territory_spaces) {
    const auto s = space_from_string(t.token.text);
    if (s && !on_board(*s)) report_at(file, t.line, t.token.col, board_expectation(), describe(t.token));
  }

  created.ruleset_hash = ruleset_hash;
  created.catalog_hash = catalog.hash();
  const std::uint32_t created_line = first_tag_line != 0 ? first_tag_line : at_line;
  const std::int64_t body_time = line_time;
  line_time = header_time;  // [Recorded], else none: tags take no time of their own
  emit(created, kNoSeat, 0, Phase::Setup, created_line);  // a copy: the body still reads the board
  for (Seat s = 0; s < kSeatCount; ++s) {
    const std::uint32_t line = army_line[s] != 0 ? army_line[s] : seat_line[s] != 0 ? seat_line[s] : created_line;
    emit(std::move(armies[s]), s, 0, Phase::Setup, line);
  }
  line_time = body_time;
}

}  // namespace warlog::core::notation

namespace warlog::core {

NotationRefs notation_refs(std::string_view text) {
  NotationRefs refs;
  for (const notation::SourceLine& line : notation::split_lines(text)) {
    if (line.text.size() > kMaxNotationLineBytes) continue;  // parse_notation refuses it
    const notation::LexedLine lexed = notation::lex(line.text);
    if (lexed.error) continue;
    const auto& tk = lexed.tokens;
    if (tk.front().kind == notation::Tok::Word && notation::iequals(tk.front().text, "Turn")) break;
    if (tk.size() != 5 || tk[0].kind != notation::Tok::LBracket || tk[1].kind != notation::Tok::Word ||
        tk[2].kind != notation::Tok::String || tk[3].kind != notation::Tok::RBracket) {
      continue;
    }
    std::string* slot = notation::iequals(tk[1].text, "Ruleset")   ? &refs.ruleset_ref
                        : notation::iequals(tk[1].text, "Catalog") ? &refs.catalog_ref
                                                                    : nullptr;
    if (slot != nullptr && slot->empty()) *slot = tk[2].text;
  }
  return refs;
}

}  // namespace warlog::core
