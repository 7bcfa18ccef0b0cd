// The heading index of the rules documents (docs/rules-index.tsv): the
// committed index against the documents themselves, its reader's sections,
// and the reader's refusals of a malformed index.

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "game_corpus.hpp"
#include "warlog/core/hash.hpp"
#include "warlog/core/rules_index.hpp"

namespace warlog {
namespace {

namespace fs = std::filesystem;

const fs::path kSource = WARLOG_SOURCE_DIR;
const fs::path kRulesDir = WARLOG_RULES_DIR;
const fs::path kIndex = kSource / "docs" / "rules-index.tsv";

core::RulesIndex committed_index() {
  auto index = core::RulesIndex::load(kIndex.string());
  if (!index) throw std::runtime_error(index.error().message);
  return *std::move(index);
}

fs::path file_of(const core::RulesDocument& d) {
  return d.source == core::DocumentSource::Rules ? kRulesDir / d.file : kSource / d.file;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at < text.size()) {
    const auto nl = text.find('\n', at);
    out.push_back(text.substr(at, nl == std::string::npos ? std::string::npos : nl - at));
    at = nl == std::string::npos ? text.size() : nl + 1;
  }
  return out;
}

std::string trimmed(std::string s) {
  const std::string_view pilcrow = "¶";
  for (bool again = true; again;) {
    again = false;
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.pop_back(), again = true;
    if (s.ends_with(pilcrow)) s.resize(s.size() - pilcrow.size()), again = true;
  }
  const auto first = s.find_first_not_of(" \t");
  return first == std::string::npos ? std::string() : s.substr(first);
}

// --- The committed index against the documents --------------------------

TEST(RulesIndex, EveryDocumentIsTheOneIndexedByHashAndLineCount) {
  const core::RulesIndex index = committed_index();
  for (const core::RulesDocument& d : index.documents()) {
    const std::string text = testing::read_text_file(file_of(d));
    EXPECT_EQ(core::to_hex(core::blake2b(text)), d.blake2b)
        << d.file << " changed since the index was made: run scripts/rules-index, review the diff and the citations";
    EXPECT_EQ(static_cast<int>(lines_of(text).size()), d.lines) << d.file;
  }
}

TEST(RulesIndex, EveryRulesDocumentAndWarlogsOwnPageIsIndexed) {
  std::set<std::string> indexed;
  const core::RulesIndex index = committed_index();
  for (const core::RulesDocument& d : index.documents()) indexed.insert(file_of(d).filename().string());
  std::size_t documents = 0;
  for (const auto& e : fs::directory_iterator(kRulesDir)) {
    if (e.path().extension() != ".txt") continue;
    ++documents;
    EXPECT_TRUE(indexed.contains(e.path().filename().string())) << e.path() << " is not in the index";
  }
  EXPECT_EQ(documents, 4u) << "the rules README lists four documents";
  EXPECT_TRUE(indexed.contains("warlog-rules.md"));
}

TEST(RulesIndex, EveryHeadingStandsOnItsLine) {
  const core::RulesIndex index = committed_index();
  for (const core::RulesDocument& d : index.documents()) {
    const auto lines = lines_of(testing::read_text_file(file_of(d)));
    for (const core::RulesHeading& h : index.headings()) {
      if (&index.document_of(h) != &d) continue;
      ASSERT_LE(h.line, static_cast<int>(lines.size())) << h.path;
      const std::string line = trimmed(lines[static_cast<std::size_t>(h.line - 1)]);
      const std::string title(h.title());
      if (d.source == core::DocumentSource::Warlog) {
        EXPECT_EQ(line, std::string(static_cast<std::size_t>(h.level), '#') + " " + title) << d.file << ":" << h.line;
      } else if (h.kind == core::HeadingKind::RunIn) {
        EXPECT_TRUE(line.starts_with(title + ". ")) << d.file << ":" << h.line << " does not open with " << title;
      } else {
        EXPECT_EQ(line, title) << d.file << ":" << h.line;
      }
    }
  }
}

// The generator and the committed index agree: a document edited, or the
// generator changed, without regenerating fails here.
TEST(RulesIndex, TheGeneratorWritesTheCommittedIndex) {
  const std::string command = "cd '" + kSource.string() + "' && " WARLOG_PYTHON3 " scripts/rules-index --check --rules '" +
                              kRulesDir.string() + "'";
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
}

// The headings the rules README names, in the outline the documents have.
TEST(RulesIndex, HeadingsOfBothStylesOfDocument) {
  const core::RulesIndex index = committed_index();
  for (const char* path : {"Attrition Phase › 3. Pay Provision Costs › Payment priority",          // pilcrow heading
                           "Attrition Phase › 3. Pay Provision Costs › Failing to pay › Shocked Troops",  // callout
                           "Muster Phase › Steps › a. Draw cards",                                 // run-in
                           "Muster Phase › Steps › a. Draw cards › Note",
                           "Warfare Phase › B. Charge Subphase › Local Favor",                     // unmarked
                           "Deck Construction › Card Rarity & Deck Limits", "warlog rules › The result"}) {
    EXPECT_NE(index.find(path), nullptr) << path;
  }
  // The Warfare document opens with web navigation, not its title.
  ASSERT_NE(index.find("Warfare Phase"), nullptr);
  EXPECT_EQ(index.find("Warfare Phase")->line, 3);
  EXPECT_EQ(index.find("Skip to content"), nullptr);
  // A table's header row is no heading ("Question Ruling" under Combat Rulings).
  for (const core::RulesHeading& h : index.headings()) EXPECT_EQ(h.path.find("Question"), std::string::npos) << h.path;
}

// --- Sections -----------------------------------------------------------

TEST(RulesIndex, ASectionRunsToTheNextHeadingOfTheSameOrAHigherLevel) {
  const core::RulesIndex index = committed_index();
  // Level 2 with level-3 and level-4 headings inside: runs to 4. (line 31).
  EXPECT_EQ(index.section("Attrition Phase › 3. Pay Provision Costs"), (core::LineRange{16, 30}));
  // Level 3 followed by a level 3.
  EXPECT_EQ(index.section("Attrition Phase › 3. Pay Provision Costs › Payment priority"), (core::LineRange{19, 23}));
  // Level 3 holding a level-4 callout, followed by a level 2.
  EXPECT_EQ(index.section("Attrition Phase › 3. Pay Provision Costs › Failing to pay"), (core::LineRange{24, 30}));
  // A run-in step holding its Note, up to step b.
  EXPECT_EQ(index.section("Muster Phase › Steps › a. Draw cards"), (core::LineRange{7, 15}));
  // The last section and the title's run to the document's last line.
  EXPECT_EQ(index.section("Attrition Phase › WIP — running out of cards"), (core::LineRange{39, 40}));
  EXPECT_EQ(index.section("Attrition Phase"), (core::LineRange{1, 40}));
  EXPECT_EQ(index.section("Deck Construction › Card Rarity & Deck Limits"), (core::LineRange{51, 56}));
  // Not a heading: the citation the registry used to give LOG.result.
  EXPECT_EQ(index.section("Attrition Phase › 2. and 4."), std::nullopt);
}

// --- The reader refuses a malformed index, naming the line --------------

constexpr std::string_view kHash = "b396fbc0491e7995abacc8d31a42ffd60ace72014bb63b073b0d6746011ad94d";

std::string doc(int lines = 10) { return fmt::format("document\trules\ta.txt\t{}\t{}\n", kHash, lines); }

TEST(RulesIndexParse, AMinimalIndexAndItsSections) {
  auto index = core::RulesIndex::parse("# comment\n" + doc() + "heading\t1\t1\theading\tA\nheading\t2\t3\tcallout\tA › B\n"
                                       "heading\t3\t4\trun-in\tA › B › c. C\nheading\t2\t7\theading\tA › D\n");
  ASSERT_TRUE(index) << index.error().message;
  ASSERT_EQ(index->headings().size(), 4u);
  EXPECT_EQ(index->headings()[2].title(), "c. C");
  EXPECT_EQ(index->headings()[2].kind, core::HeadingKind::RunIn);
  EXPECT_EQ(index->section("A › B"), (core::LineRange{3, 6}));
  EXPECT_EQ(index->section("A › D"), (core::LineRange{7, 10}));
}

TEST(RulesIndexParse, MalformedLinesAreRefusedWithTheirLineNumber) {
  const std::string title = "heading\t1\t1\theading\tA\n";
  const struct {
    std::string tsv;
    std::string_view says;
  } cases[] = {
      {"heading\t1\t1\theading\tA\n", "line 1: a heading before any document"},
      {doc() + title + "heading\t3\t2\theading\tA › B › C\n", "line 3: a heading skips a level"},
      {doc() + title + "heading\t2\t2\theading\tX › B\n", "line 3: 'X › B' is not under 'A'"},
      {doc() + title + "heading\t2\t2\theading\tA › B › C\n", "line 3: a level-N heading's path has N titles"},
      {doc() + title + "heading\t2\t11\theading\tA › B\n", "line 3: a heading's line is 1 to 10"},
      {doc() + title + "heading\t2\t1\theading\tA › B\n", "line 3: headings go in line order"},
      {doc() + title + "heading\t2\t2\tbox\tA › B\n", "line 3: kind 'box'"},
      {doc() + "heading\t2\t1\theading\tA\n", "line 2: a level-N heading's path has N titles"},
      {fmt::format("document\trules\ta.txt\t{}\t10\n", kHash.substr(1)), "line 1: a document's blake2b"},
      {"document\telsewhere\ta.txt\t" + std::string(kHash) + "\t10\n", "line 1: source 'elsewhere'"},
      {doc() + doc(), "line 2: the document before this one has no headings"},
      {doc() + title + doc() + title, "two headings are 'A'"},
      {doc(), "the last document has no headings"},
      {"", "no documents"},
      {doc() + title + "chapter\tA\n", "line 3: 'chapter' is neither"},
  };
  for (const auto& c : cases) {
    auto index = core::RulesIndex::parse(c.tsv);
    ASSERT_FALSE(index) << c.tsv;
    EXPECT_EQ(index.error().code, ErrorCode::InvalidArgument);
    EXPECT_NE(index.error().message.find(c.says), std::string::npos) << index.error().message;
  }
}

TEST(RulesIndexParse, AMissingFileIsNotFound) {
  auto index = core::RulesIndex::load((kSource / "docs" / "no-such-index.tsv").string());
  ASSERT_FALSE(index);
  EXPECT_EQ(index.error().code, ErrorCode::NotFound);
}

}  // namespace
}  // namespace warlog
