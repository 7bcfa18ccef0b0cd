// The notation fed line by line (core/notation_session.hpp) gives the events
// the whole-file parser gives: every sample game, from its header and
// resumed from the stored events of its first half; a refused line leaves
// nothing behind.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "warlog/core/notation.hpp"
#include "warlog/core/notation_session.hpp"
#include "warlog/core/text_file.hpp"

namespace warlog::core {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::shared_ptr<const Catalog> sample_catalog() {
  static const auto catalog = [] {
    auto c = load_catalog((fs::path(WARLOG_SAMPLES_DIR) / "catalogs" / "sample_cards.csv").string());
    EXPECT_TRUE(c.has_value());
    return std::make_shared<const Catalog>(std::move(*c));
  }();
  return catalog;
}

std::vector<fs::path> sample_games() {
  std::vector<fs::path> out;
  for (const char* dir : {"games", "tutorial"}) {
    for (const auto& e : fs::directory_iterator(fs::path(WARLOG_SAMPLES_DIR) / dir)) {
      if (e.path().extension() == ".wlog") out.push_back(e.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

DeckLoader loader_for(const fs::path& game) {
  return [dir = game.parent_path()](const std::string& ref) {
    return read_text_file((dir / ref).string(), kMaxDeckFileBytes, "deck file");
  };
}

// A sample split where the header ends: tag lines, comments and blank lines
// before the first body line.
struct Split {
  std::string header;
  std::vector<std::string> body;
};
Split split(const std::string& text) {
  Split s;
  std::istringstream in(text);
  std::string line;
  bool in_header = true;
  while (std::getline(in, line)) {
    const auto first = line.find_first_not_of(" \t");
    const bool tagish = first == std::string::npos || line[first] == '#' || line[first] == '[';
    if (in_header && !tagish) in_header = false;
    if (in_header) {
      s.header += line + "\n";
    } else {
      s.body.push_back(line);
    }
  }
  return s;
}

std::string errors_of(const std::vector<NotationError>& errors) {
  std::string out;
  for (const auto& e : errors) out += e.to_string() + "\n";
  return out;
}

constexpr const char* kRuleset = "ruleset-hash";

TEST(NotationSession, EverySampleLineByLineFromItsHeaderGivesTheWholeFileEvents) {
  for (const fs::path& game : sample_games()) {
    SCOPED_TRACE(game.filename().string());
    const std::string text = slurp(game);
    const ParseResult whole = parse_notation(text, game.string(), *sample_catalog(), kRuleset, loader_for(game));
    ASSERT_TRUE(whole.ok()) << errors_of(whole.errors);
    const Split parts = split(text);
    auto session = NotationSession::from_header(parts.header, game.string(), sample_catalog(), kRuleset, loader_for(game));
    ASSERT_TRUE(session.has_value()) << errors_of(session.error());
    std::vector<Event> events = session->setup_events();
    for (const std::string& line : parts.body) {
      LineResult r = session->feed(line);
      ASSERT_TRUE(r.ok()) << line << "\n" << errors_of(r.errors);
      events.insert(events.end(), r.events.begin(), r.events.end());
    }
    ASSERT_EQ(events.size(), whole.game.events.size());
    for (std::size_t i = 0; i < events.size(); ++i) ASSERT_EQ(events[i], whole.game.events[i]) << "seq " << i;
    EXPECT_EQ(session->next_seq(), events.size());
  }
}

TEST(NotationSession, EverySampleResumedFromTheEventsOfItsFirstHalfGivesTheRest) {
  for (const fs::path& game : sample_games()) {
    SCOPED_TRACE(game.filename().string());
    const std::string text = slurp(game);
    const ParseResult whole = parse_notation(text, game.string(), *sample_catalog(), kRuleset, loader_for(game));
    ASSERT_TRUE(whole.ok()) << errors_of(whole.errors);
    const auto& all = whole.game.events;
    const std::size_t half = all.size() / 2;
    auto session = NotationSession::resume(std::span(all).first(half), game.string(), sample_catalog());
    ASSERT_TRUE(session.has_value()) << session.error().message;
    // Every line after the one that made event half-1 (one event per body line).
    std::istringstream in(text);
    std::string line;
    for (std::uint32_t n = 1; n <= whole.game.lines[half - 1] && std::getline(in, line); ++n) {
    }
    std::vector<Event> rest;
    while (std::getline(in, line)) {
      LineResult r = session->feed(line);
      ASSERT_TRUE(r.ok()) << line << "\n" << errors_of(r.errors);
      rest.insert(rest.end(), r.events.begin(), r.events.end());
    }
    ASSERT_EQ(rest.size(), all.size() - half);
    for (std::size_t i = 0; i < rest.size(); ++i) ASSERT_EQ(rest[i], all[half + i]) << "seq " << half + i;
  }
}

constexpr std::string_view kHeader =
    "[Title \"Session\"]\n"
    "[Board \"5x4\"]\n"
    "[Seat1 \"Alice\" \"Claw Empire\"]\n"
    "[Seat2 \"Bruno\" \"Paw Coalition\"]\n";

NotationSession header_session() {
  auto s = NotationSession::from_header(kHeader, "live", sample_catalog(), kRuleset, {});
  EXPECT_TRUE(s.has_value()) << errors_of(s.error());
  return std::move(*s);
}

TEST(NotationSession, ARefusedLineChangesNothing) {
  NotationSession s = header_session();
  ASSERT_TRUE(s.feed("Turn 1").ok());
  ASSERT_TRUE(s.feed("Muster 1").ok());
  const Seq before = s.next_seq();
  // A misspelt card is reported without stopping the line: its event must not stay.
  LineResult bad = s.feed("play \"Ironclaw Lancr\" b1");
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(bad.events.empty());
  EXPECT_EQ(bad.errors.front().col, 6u);
  EXPECT_NE(bad.errors.front().hint.find("Ironclaw Lancer"), std::string::npos);
  EXPECT_EQ(s.next_seq(), before);
  // A phase marker with a bad seat must not move the context.
  ASSERT_FALSE(s.feed("Warfare 3").ok());
  EXPECT_EQ(s.place().phase, Phase::Muster);
  EXPECT_EQ(s.place().seat, 0);
  // A turn marker off the grid of its own line: "Turn 2 extra" is refused whole.
  ASSERT_FALSE(s.feed("Turn 2 extra").ok());
  EXPECT_EQ(s.place().turn, 1);
  LineResult good = s.feed("play \"Ironclaw Lancer\" b1");
  ASSERT_TRUE(good.ok()) << errors_of(good.errors);
  ASSERT_EQ(good.events.size(), 1u);
  EXPECT_EQ(good.events.front().seq, before);
  EXPECT_EQ(good.events.front().seat, 0);
}

TEST(NotationSession, ASpaceOffTheBoardIsRefusedWithTheBoardSize) {
  NotationSession s = header_session();
  ASSERT_TRUE(s.feed("Turn 1").ok());
  ASSERT_TRUE(s.feed("Muster 2").ok());
  LineResult r = s.feed("play \"Coalition Pikeman\" f1");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.errors.front().expected.find("5x4"), std::string::npos) << errors_of(r.errors);
}

TEST(NotationSession, AResumedGameKnowsItsBoardAndActingSeat) {
  NotationSession first = header_session();
  std::vector<Event> events = first.setup_events();
  for (const char* line : {"Turn 1", "Morale 1", "Muster 2"}) {
    LineResult r = first.feed(line);
    ASSERT_TRUE(r.ok());
    events.insert(events.end(), r.events.begin(), r.events.end());
  }
  auto s = NotationSession::resume(events, "live", sample_catalog());
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->next_seq(), events.size());
  EXPECT_EQ(s->place().seat, 1);
  EXPECT_FALSE(s->feed("play \"Coalition Pikeman\" e5").ok());  // a 5x4 board: no row 5
  LineResult r = s->feed("play \"Coalition Pikeman\" e4");
  ASSERT_TRUE(r.ok()) << errors_of(r.errors);
  EXPECT_EQ(r.events.front().seat, 1);
  EXPECT_EQ(r.events.front().turn, 1);
}

TEST(NotationSession, AHeaderWithMovesOrMissingSeatsIsRefused) {
  const std::string with_moves = std::string(kHeader) + "Turn 1\n";
  auto a = NotationSession::from_header(with_moves, "h.wlog", sample_catalog(), kRuleset, {});
  ASSERT_FALSE(a.has_value());
  EXPECT_EQ(a.error().front().line, 5u);
  auto b = NotationSession::from_header("[Board \"5x4\"]\n", "h.wlog", sample_catalog(), kRuleset, {});
  ASSERT_FALSE(b.has_value());
  EXPECT_NE(errors_of(b.error()).find("[Seat1"), std::string::npos);
}

TEST(NotationSession, ResumeNeedsAGameCreated) {
  EXPECT_FALSE(NotationSession::resume({}, "x", sample_catalog()).has_value());
}

}  // namespace
}  // namespace warlog::core
