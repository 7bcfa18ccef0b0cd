// docs/rules-coverage.md against the rules documents, the rule registry and
// the tests: every sentence (as scripts/rules-index --sentences, the one
// splitter, finds them) has exactly one row, every rule id a row names is in
// the registry, every gap is listed with its reason, and every rule of the
// registry has a passing and a violating test named after its section (or is
// listed, with a reason, as awaiting one). docs/rules-coverage.md explains
// the conventions read here.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "game_corpus.hpp"
#include "temp_dir.hpp"
#include "warlog/core/finding.hpp"

namespace warlog {
namespace {

namespace fs = std::filesystem;

const fs::path kSource = WARLOG_SOURCE_DIR;
const fs::path kRulesDir = WARLOG_RULES_DIR;
const fs::path kCoverage = kSource / "docs" / "rules-coverage.md";

// --- Sentences: scripts/rules-index --sentences ---------------------------

// A sentence's key: its document's BLAKE2b (first 8 hex digits), heading path
// and number within the heading.
struct SentenceKey {
  std::string doc;
  std::string heading;
  int number = 0;
  auto operator<=>(const SentenceKey&) const = default;
};

std::string to_string(const SentenceKey& k) { return k.doc + " | " + k.heading + " | " + std::to_string(k.number); }

std::vector<std::string> split(std::string_view s, std::string_view sep) {
  std::vector<std::string> out;
  std::size_t at = 0;
  for (;;) {
    const auto next = s.find(sep, at);
    out.emplace_back(s.substr(at, next == std::string_view::npos ? std::string_view::npos : next - at));
    if (next == std::string_view::npos) return out;
    at = next + sep.size();
  }
}

std::string trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\r");
  return std::string(s.substr(first, last - first + 1));
}

// The sentences the splitter finds in the documents of `rules_dir`.
std::vector<SentenceKey> sentences_of(const fs::path& rules_dir) {
  const std::string command = "cd '" + kSource.string() + "' && " WARLOG_PYTHON3 " scripts/rules-index --sentences --rules '" +
                              rules_dir.string() + "'";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  if (!pipe) throw std::runtime_error("cannot run: " + command);
  std::string out;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe.get())) > 0;) out.append(buffer, n);
  if (pclose(pipe.release()) != 0) throw std::runtime_error("failed: " + command);
  std::vector<SentenceKey> keys;
  for (const std::string& line : split(out, "\n")) {
    if (line.empty()) continue;
    const auto f = split(line, "\t");  // sentence file blake2b heading number line
    if (f.size() != 6 || f[0] != "sentence") throw std::runtime_error("not a sentence line: " + line);
    keys.push_back({f[2].substr(0, 8), f[3], std::stoi(f[4])});
  }
  return keys;
}

// --- The coverage page ----------------------------------------------------

struct CoveragePage {
  std::map<std::string, std::string> documents;  // doc (8 hex) -> full BLAKE2b
  std::map<SentenceKey, std::string> rows;       // -> mapping
  std::map<SentenceKey, std::string> gaps;       // -> reason
  std::map<std::string, std::string> awaiting;   // rule id -> reason
  std::vector<std::string> problems;             // malformed or repeated rows
};

// The cells of a table row "| a | b |", or none for any other line and for
// a table's header and rule lines.
std::vector<std::string> cells_of(std::string_view line) {
  if (!line.starts_with("|") || line.starts_with("|---") || line.starts_with("| doc |") ||
      line.starts_with("| rule |")) {
    return {};
  }
  auto cells = split(line.substr(1, line.rfind('|') - 1), "|");
  for (auto& c : cells) c = trim(c);
  return cells;
}

CoveragePage parse_coverage(std::string_view text) {
  CoveragePage page;
  std::string section;
  int line_no = 0;
  for (const std::string& line : split(text, "\n")) {
    ++line_no;
    if (line.starts_with("## ")) section = line.substr(3);
    const auto cells = cells_of(line);
    if (cells.empty()) continue;
    const auto where = "line " + std::to_string(line_no) + ": ";
    const auto key = [&]() -> std::optional<SentenceKey> {
      if (cells.size() < 4) return std::nullopt;
      try {
        std::size_t used = 0;
        const int n = std::stoi(cells[2], &used);
        if (used != cells[2].size() || n < 1) return std::nullopt;
        return SentenceKey{cells[0], cells[1], n};
      } catch (const std::exception&) {
        return std::nullopt;
      }
    };
    if (section == "Documents") {
      if (cells.size() != 4) page.problems.push_back(where + "a document row has 4 cells");
      else page.documents[cells[0]] = cells[3];
    } else if (section == "Sentences") {
      const auto k = key();
      if (!k || cells.size() != 5) {
        page.problems.push_back(where + "a sentence row is | doc | heading | # | about | mapping |");
      } else if (!page.rows.emplace(*k, cells[4]).second) {
        page.problems.push_back(where + "a second row for " + to_string(*k));
      }
    } else if (section == "Gaps") {
      const auto k = key();
      if (!k || cells[3].empty()) page.problems.push_back(where + "a gap row is | doc | heading | # | reason |");
      else page.gaps.emplace(*k, cells[3]);
    } else if (section == "Rules awaiting a test") {
      if (cells.size() != 2 || cells[1].empty()) page.problems.push_back(where + "an awaiting row is | rule | reason |");
      else page.awaiting.emplace(cells[0], cells[1]);
    }
  }
  return page;
}

// Why the page does not fit the sentences, one line each; empty when it does.
std::vector<std::string> key_problems(const std::vector<SentenceKey>& sentences, const CoveragePage& page) {
  std::vector<std::string> out = page.problems;
  std::set<SentenceKey> found(sentences.begin(), sentences.end());
  for (const SentenceKey& k : sentences) {
    if (!page.rows.contains(k)) out.push_back("no row for the sentence " + to_string(k));
  }
  for (const auto& [k, mapping] : page.rows) {
    if (!found.contains(k)) out.push_back("no sentence for the row " + to_string(k) + " (did the document change?)");
    if (!page.documents.contains(k.doc)) out.push_back("the row " + to_string(k) + " names no listed document");
  }
  return out;
}

const std::regex kRuleId(R"((?:LOG|MOR|MUS|DECK|WAR|ATT)(?:-[A-Za-z0-9]+)?\.[a-z][a-z0-9]*(?:-[a-z0-9]+)*)");

// The rule ids of a mapping; why it is malformed in `problems`.
std::vector<std::string> ids_of_mapping(std::string_view mapping, std::vector<std::string>& problems) {
  std::vector<std::string> ids;
  if (trim(mapping).empty()) problems.push_back("an empty mapping");
  for (const std::string& raw : split(mapping, "; ")) {
    const std::string item = trim(raw);
    if (item.starts_with("derived: ") || item.starts_with("not normative, because ") || item.starts_with("gap: ")) {
      if (item.ends_with(": ") || item.ends_with("because ")) problems.push_back("'" + item + "' says nothing");
      continue;
    }
    for (const std::string& id : split(item, ", ")) {
      if (std::regex_match(id, kRuleId)) ids.push_back(id);
      else problems.push_back("'" + item + "' is neither rule ids nor derived:, not normative, because or gap:");
    }
  }
  return ids;
}

bool is_gap(std::string_view mapping) {
  for (const std::string& item : split(mapping, "; ")) {
    if (trim(item).starts_with("gap: ")) return true;
  }
  return false;
}

std::vector<std::string> mapping_problems(const CoveragePage& page) {
  std::vector<std::string> out;
  for (const auto& [k, mapping] : page.rows) {
    std::vector<std::string> problems;
    for (const std::string& id : ids_of_mapping(mapping, problems)) {
      const core::Rule* r = core::find_rule(id);
      if (r == nullptr) problems.push_back(id + " is no rule of the registry");
    }
    for (const auto& p : problems) out.push_back(to_string(k) + ": " + p);
    if (is_gap(mapping) && !page.gaps.contains(k)) out.push_back(to_string(k) + " is a gap the Gaps section does not list");
  }
  for (const auto& [k, reason] : page.gaps) {
    const auto row = page.rows.find(k);
    if (row == page.rows.end() || !is_gap(row->second)) {
      out.push_back("the Gaps section lists " + to_string(k) + ", whose row says no gap:");
    }
  }
  return out;
}

// --- The tests of a rule ----------------------------------------------------

struct TestCase {
  std::string file;
  std::string suite;
  std::string name;
  std::string body;
};

// The end of the brace block that opens at `at`, skipping comments and
// string, character and raw string literals.
std::size_t block_end(std::string_view s, std::size_t at) {
  int depth = 0;
  for (std::size_t i = at; i < s.size(); ++i) {
    const char c = s[i];
    if (s.substr(i, 2) == "//") {
      i = s.find('\n', i);
      if (i == std::string_view::npos) return s.size();
    } else if (s.substr(i, 2) == "/*") {
      i = s.find("*/", i);
      if (i == std::string_view::npos) return s.size();
      ++i;
    } else if (c == 'R' && s.substr(i, 2) == "R\"" && (i == 0 || !std::isalnum(static_cast<unsigned char>(s[i - 1])))) {
      const auto open = s.find('(', i);
      if (open == std::string_view::npos) return s.size();
      const std::string close = ")" + std::string(s.substr(i + 2, open - i - 2)) + "\"";
      i = s.find(close, open);
      if (i == std::string_view::npos) return s.size();
      i += close.size() - 1;
    } else if (c == '"' || c == '\'') {
      for (++i; i < s.size() && s[i] != c; ++i) i += s[i] == '\\';
    } else if (c == '{') {
      ++depth;
    } else if (c == '}' && --depth == 0) {
      return i + 1;
    }
  }
  return s.size();
}

// A rule id in quotes, the id its first group.
const std::string kQuotedId = R"re("((?:LOG|MOR|MUS|DECK|WAR|ATT)(?:-[A-Za-z0-9]+)?\.[a-z][a-z0-9-]*)")re";
const std::regex kQuotedRuleId(kQuotedId);

// The TEST and TEST_F cases of a source file, and the cases of a table-driven
// TEST_P: instantiated as INSTANTIATE_TEST_SUITE_P(Prefix, Suite,
// ::testing::ValuesIn(kTable)), each TEST_P of Suite is read once for each
// rule id of kTable's rows, as suite Prefix_Suite, with its `row.rule` (any
// `NAME.rule`) read as that id.
std::vector<TestCase> test_cases(std::string_view source, const std::string& file) {
  static const std::regex kTest(R"((?:^|\n)TEST(?:_F|_P)?\((\w+), *(\w+)\))");
  static const std::regex kInstantiate(R"(INSTANTIATE_TEST_SUITE_P\((\w+), *(\w+), *::testing::ValuesIn\((\w+)\))");
  static const std::regex kRowRule(R"(\b\w+\.rule\b)");
  const std::string text(source);
  std::map<std::string, std::pair<std::string, std::vector<std::string>>> tables;  // suite -> prefix, ids
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kInstantiate); it != std::sregex_iterator(); ++it) {
    const std::regex table_start("\\b" + (*it)[3].str() + R"((?:\[\])? *= *\{)");
    std::smatch start;
    if (!std::regex_search(text, start, table_start)) continue;
    const auto open = static_cast<std::size_t>(start.position(0) + start.length(0) - 1);
    const std::string rows = text.substr(open, block_end(text, open) - open);
    std::vector<std::string> ids;
    for (auto id = std::sregex_iterator(rows.begin(), rows.end(), kQuotedRuleId); id != std::sregex_iterator(); ++id) {
      if (std::find(ids.begin(), ids.end(), (*id)[1].str()) == ids.end()) ids.push_back((*id)[1]);
    }
    tables[(*it)[2]] = {(*it)[1], std::move(ids)};
  }
  std::vector<TestCase> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kTest); it != std::sregex_iterator(); ++it) {
    const auto open = text.find('{', static_cast<std::size_t>(it->position(0) + it->length(0)));
    if (open == std::string::npos) continue;
    std::string body = text.substr(open, block_end(text, open) - open);
    if (it->str().find("TEST_P") == std::string::npos) {
      out.push_back({file, (*it)[1], (*it)[2], std::move(body)});
      continue;
    }
    const auto table = tables.find((*it)[1]);
    if (table == tables.end()) continue;
    for (const std::string& id : table->second.second) {
      out.push_back({file, table->second.first + "_" + (*it)[1].str(), (*it)[2].str() + "/" + id,
                     std::regex_replace(body, kRowRule, "\"" + id + "\"")});
    }
  }
  return out;
}

// What a test asserts about findings.
struct Asserted {
  std::set<std::string> present;  // a finding of this rule is expected
  std::set<std::string> absent;   // no finding of this rule is expected
  bool clean = false;             // no finding at all is expected
};

Asserted asserted_by(const std::string& body) {
  const std::string& id = kQuotedId;
  static const std::regex single(R"(expect_single\([^,;]*, *)" + id);
  static const std::regex none(R"(expect_none\([^,;]*, *)" + id + R"( *\))");
  static const std::regex sized(R"(\.of\()" + id + R"(\)\.size\(\), *([0-9]+)u?\))");
  static const std::regex empty(R"((?:EXPECT|ASSERT)_(TRUE|FALSE)\([^;]*?\.of\()" + id + R"(\)\.empty\(\)\))");
  Asserted a;
  const auto each = [&](const std::regex& re, auto&& take) {
    for (auto it = std::sregex_iterator(body.begin(), body.end(), re); it != std::sregex_iterator(); ++it) take(*it);
  };
  each(single, [&](const std::smatch& m) { a.present.insert(m[1]); });
  each(none, [&](const std::smatch& m) { a.absent.insert(m[1]); });
  each(sized, [&](const std::smatch& m) { (std::stoi(m[2]) > 0 ? a.present : a.absent).insert(m[1]); });
  each(empty, [&](const std::smatch& m) { (m[1] == "FALSE" ? a.present : a.absent).insert(m[2]); });
  a.clean = body.find("expect_clean(") != std::string::npos;
  return a;
}

// The suite stems of an id's document and section (docs/rules-coverage.md ›
// How a rule's tests are named and found). A new section needs its stem here.
const std::map<std::string, std::string, std::less<>> kIdStems = {
    {"LOG", "Log"},
    {"MOR", "Morale"},
    {"DECK", "DeckConstruction"},
    {"MUS", "Muster"},
    {"MUS-a", "MusterStepA"},
    {"MUS-b", "MusterStepB"},
    {"MUS-c", "MusterStepC"},
    {"MUS-movement", "MusterMovement"},
    {"MUS-mustering", "MusterStillMustering"},
    {"MUS-timing", "MusterCardTextTiming"},
    {"WAR", "Warfare"},
    {"WAR-A", "WarfareA"},
    {"WAR-B", "WarfareB"},
    {"WAR-C", "WarfareC"},
    {"ATT", "Attrition"},
    {"ATT-end", "AttritionEndOfTurn"},
    {"ATT-1", "AttritionStep1"},
    {"ATT-2", "AttritionStep2"},
    {"ATT-3", "AttritionStep3"},
    {"ATT-4", "AttritionStep4"},
    {"ATT-wip", "AttritionWip"},
};

// The stem of a heading path: its document's word ("Attrition Phase"
// Attrition, "warlog rules" Log), then its section's: "1. Recover Troops"
// Step1, "A. Shotte Subphase" A, "Combat Rulings" CombatRulings. "" for an
// unpublished page.
std::string citation_stem(std::string_view citation) {
  if (citation.ends_with("(not yet published)")) return {};
  const auto titles = split(citation, " › ");
  const auto camel = [](std::string_view words) {
    std::string out;
    bool up = true;
    for (const char c : words) {
      if (!std::isalnum(static_cast<unsigned char>(c))) {
        up = true;
      } else {
        out += up ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
        up = false;
      }
    }
    return out;
  };
  std::string doc = titles[0] == "warlog rules" ? "Log" : titles[0];
  if (doc.ends_with(" Phase")) doc.resize(doc.size() - 6);
  std::string stem = camel(doc);
  if (titles.size() < 2) return stem;
  const std::string& section = titles[1];
  if (section.size() > 2 && section[1] == '.' && std::isdigit(static_cast<unsigned char>(section[0]))) {
    return stem + "Step" + section.substr(0, 1);
  }
  if (section.size() > 2 && section[1] == '.' && std::isupper(static_cast<unsigned char>(section[0]))) {
    return stem + section.substr(0, 1);
  }
  return stem + camel(section);
}

std::vector<std::string> stems_of(const core::Rule& r) {
  std::vector<std::string> out;
  const std::string_view prefix = r.id.substr(0, r.id.find('.'));
  if (const auto it = kIdStems.find(prefix); it != kIdStems.end()) out.push_back(it->second);
  if (std::string s = citation_stem(r.citation); !s.empty()) out.push_back(std::move(s));
  return out;
}

struct RuleTests {
  std::vector<std::string> passing;
  std::vector<std::string> violating;
};

std::map<std::string, RuleTests> tests_by_rule(std::span<const core::Rule> rules, const std::vector<TestCase>& cases) {
  std::map<std::string, Asserted> asserted;                 // by "Suite.Name"
  std::map<std::string, std::set<std::string>> suite_rules;  // the rules a suite's tests name
  for (const TestCase& t : cases) {
    Asserted a = asserted_by(t.body);
    suite_rules[t.suite].insert(a.present.begin(), a.present.end());
    suite_rules[t.suite].insert(a.absent.begin(), a.absent.end());
    asserted[t.suite + "." + t.name] = std::move(a);
  }
  std::map<std::string, RuleTests> out;
  for (const core::Rule& r : rules) {
    const std::string id(r.id);
    RuleTests& found = out[id];
    for (const TestCase& t : cases) {
      bool named = false;
      for (const std::string& stem : stems_of(r)) named = named || t.suite.starts_with(stem);
      if (!named) continue;
      const std::string full = t.suite + "." + t.name;
      const Asserted& a = asserted[full];
      if (a.present.contains(id)) found.violating.push_back(full);
      if (a.absent.contains(id) || (a.clean && suite_rules[t.suite].contains(id))) found.passing.push_back(full);
    }
  }
  return out;
}

std::vector<TestCase> repository_tests() {
  std::vector<TestCase> out;
  for (const auto& e : fs::recursive_directory_iterator(kSource / "tests")) {
    if (!e.is_regular_file() || e.path().extension() != ".cpp") continue;
    auto cases = test_cases(testing::read_text_file(e.path()), fs::relative(e.path(), kSource).string());
    out.insert(out.end(), std::make_move_iterator(cases.begin()), std::make_move_iterator(cases.end()));
  }
  return out;
}

std::string lines(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += "  " + s + "\n";
  return out;
}

// --- The page against the documents, the registry and the tests -------------

TEST(RulesCoverage, EverySentenceHasOneRowAndEveryRowASentence) {
  const auto sentences = sentences_of(kRulesDir);
  EXPECT_GE(sentences.size(), 100u) << "the four documents hold about 1,800 words";
  const CoveragePage page = parse_coverage(testing::read_text_file(kCoverage));
  const auto problems = key_problems(sentences, page);
  EXPECT_TRUE(problems.empty()) << "docs/rules-coverage.md:\n"
                                << lines(problems)
                                << "(scripts/rules-index --sentences --text prints the sentences)";
}

TEST(RulesCoverage, TheDocumentsListedAreTheOnesIndexed) {
  const CoveragePage page = parse_coverage(testing::read_text_file(kCoverage));
  const std::string index = testing::read_text_file(kSource / "docs" / "rules-index.tsv");
  EXPECT_EQ(page.documents.size(), 4u);
  for (const auto& [doc, hash] : page.documents) {
    EXPECT_TRUE(hash.starts_with(doc)) << doc;
    EXPECT_NE(index.find("\t" + hash + "\t"), std::string::npos) << hash << " is not a document of docs/rules-index.tsv";
  }
}

TEST(RulesCoverage, EveryMappingIsWellFormedAndNamesOnlyRegistryRules) {
  const CoveragePage page = parse_coverage(testing::read_text_file(kCoverage));
  const auto problems = mapping_problems(page);
  EXPECT_TRUE(problems.empty()) << "docs/rules-coverage.md:\n" << lines(problems);
}

TEST(RulesCoverage, EveryRuleHasAPassingAndAViolatingTestNamedAfterItsSection) {
  const CoveragePage page = parse_coverage(testing::read_text_file(kCoverage));
  const auto cases = repository_tests();
  ASSERT_GE(cases.size(), 500u) << "the scan finds the repository's tests";
  for (const auto& [id, found] : tests_by_rule(core::all_rules(), cases)) {
    const bool both = !found.passing.empty() && !found.violating.empty();
    const auto listed = page.awaiting.find(id);
    if (listed == page.awaiting.end()) {
      EXPECT_FALSE(found.passing.empty()) << id << " has no passing test named after its section";
      EXPECT_FALSE(found.violating.empty()) << id << " has no violating test named after its section";
    } else {
      EXPECT_FALSE(both) << id << " has both tests now: take it off 'Rules awaiting a test'";
    }
  }
  for (const auto& [id, reason] : page.awaiting) {
    EXPECT_NE(core::find_rule(id), nullptr) << "'Rules awaiting a test' lists " << id << ", which is no rule";
  }
}

TEST(RulesCoverage, NoRulingIsOpen) {
  static const std::regex open(R"(\| *\**Open\b)");
  const std::string rulings = testing::read_text_file(kSource / "docs" / "rulings.md");
  int line_no = 0;
  for (const std::string& line : split(rulings, "\n")) {
    ++line_no;
    EXPECT_FALSE(std::regex_search(line, open)) << "docs/rulings.md:" << line_no << " is Open: " << line.substr(0, 80);
  }
}

// --- The checks themselves, on small inputs ----------------------------------

constexpr std::string_view kPage =
    "## Documents\n\n| doc | file | title | blake2b-256 |\n|---|---|---|---|\n| 0123abcd | a.txt | A | 0123abcdef |\n\n"
    "## Sentences\n\n| doc | heading | # | about | mapping |\n|---|---|---|---|---|\n"
    "| 0123abcd | A | 1 | draws | MUS-a.draw |\n"
    "| 0123abcd | A › B | 1 | a header | not normative, because it is a header row |\n"
    "| 0123abcd | A › B | 2 | favor | gap: nothing checks it |\n\n"
    "## Gaps\n\n| doc | heading | # | why nothing checks it |\n|---|---|---|---|\n"
    "| 0123abcd | A › B | 2 | a reason |\n\n"
    "## Rules awaiting a test\n\n| rule | why |\n|---|---|\n| LOG.time | a reason |\n";

const std::vector<SentenceKey> kSentences = {{"0123abcd", "A", 1}, {"0123abcd", "A › B", 1}, {"0123abcd", "A › B", 2}};

TEST(RulesCoverageCheck, APageThatFitsItsSentencesHasNoProblem) {
  const CoveragePage page = parse_coverage(kPage);
  EXPECT_TRUE(key_problems(kSentences, page).empty()) << lines(key_problems(kSentences, page));
  EXPECT_TRUE(mapping_problems(page).empty()) << lines(mapping_problems(page));
  EXPECT_EQ(page.awaiting.at("LOG.time"), "a reason");
}

TEST(RulesCoverageCheck, ASentenceWithNoRowAndARowWithNoSentenceAreProblems) {
  auto sentences = kSentences;
  sentences.back().number = 3;  // the document changed: A › B has a third sentence, not a second
  const auto problems = key_problems(sentences, parse_coverage(kPage));
  ASSERT_EQ(problems.size(), 2u) << lines(problems);
  EXPECT_EQ(problems[0], "no row for the sentence 0123abcd | A › B | 3");
  EXPECT_EQ(problems[1], "no sentence for the row 0123abcd | A › B | 2 (did the document change?)");
}

TEST(RulesCoverageCheck, ADocumentWhoseHashChangedMatchesNoRow) {
  std::vector<SentenceKey> sentences = kSentences;
  for (auto& k : sentences) k.doc = "99999999";
  EXPECT_EQ(key_problems(sentences, parse_coverage(kPage)).size(), 6u) << "three sentences unmapped, three rows stale";
}

TEST(RulesCoverageCheck, ARepeatedRowIsAProblem) {
  const std::string page = std::string(kPage).replace(std::string(kPage).find("## Gaps"), 0,
                                                       "| 0123abcd | A | 1 | again | MUS-a.draw |\n");
  const auto problems = key_problems(kSentences, parse_coverage(page));
  ASSERT_EQ(problems.size(), 1u) << lines(problems);
  EXPECT_NE(problems[0].find("a second row for 0123abcd | A | 1"), std::string::npos);
}

TEST(RulesCoverageCheck, AnUnknownRuleIdAndAMalformedMappingAreProblems) {
  std::string page(kPage);
  page.replace(page.find("| MUS-a.draw |"), 14, "| MUS-a.draws, WAR-C.vigor; derived |");
  const auto problems = mapping_problems(parse_coverage(page));
  ASSERT_EQ(problems.size(), 2u) << lines(problems);
  EXPECT_EQ(problems[0], "0123abcd | A | 1: 'derived' is neither rule ids nor derived:, not normative, because or gap:");
  EXPECT_EQ(problems[1], "0123abcd | A | 1: MUS-a.draws is no rule of the registry");
}

TEST(RulesCoverageCheck, AGapNotListedWithItsReasonIsAProblem) {
  std::string page(kPage);
  page.erase(page.find("| 0123abcd | A › B | 2 | a reason |\n"), 35);
  const auto problems = mapping_problems(parse_coverage(page));
  ASSERT_EQ(problems.size(), 1u) << lines(problems);
  EXPECT_EQ(problems[0], "0123abcd | A › B | 2 is a gap the Gaps section does not list");
}

TEST(RulesCoverageCheck, AListedGapWhoseRowIsNoGapIsAProblem) {
  std::string page(kPage);
  page.replace(page.find("gap: nothing checks it"), 22, "WAR-C.vigor");
  const auto problems = mapping_problems(parse_coverage(page));
  ASSERT_EQ(problems.size(), 1u) << lines(problems);
  EXPECT_EQ(problems[0], "the Gaps section lists 0123abcd | A › B | 2, whose row says no gap:");
}

// The splitter itself, on a document of its own: the numbering restarts
// under each heading, a run-in title is no sentence, a list item and a table
// row are units, "e.g." ends none.
TEST(RulesCoverageCheck, TheSplitterNumbersSentencesWithinEachHeading) {
  const testing::TempDir dir;
  {
    std::FILE* f = std::fopen((dir.path() / "doc.txt").c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs("Title¶\nOne. Two? Three!\nSteps¶\na. Run in. Four (e.g. five). Six\n- item\nCallout\nSeven.\n"
               "| x | y |\n|---|---|\n| eight. | nine |\n",
               f);
    std::fclose(f);
  }
  const auto keys = sentences_of(dir.path());
  const std::vector<SentenceKey> heads = [&] {
    std::vector<SentenceKey> out;
    for (auto k : keys) out.push_back({"", k.heading, k.number});
    return out;
  }();
  const std::vector<SentenceKey> expected = {
      {"", "Title", 1},        {"", "Title", 2},        {"", "Title", 3},        {"", "Title › Steps › a. Run in", 1},
      {"", "Title › Steps › a. Run in", 2}, {"", "Title › Steps › a. Run in", 3},
      {"", "Title › Steps › a. Run in › Callout", 1}, {"", "Title › Steps › a. Run in › Callout", 2},
      {"", "Title › Steps › a. Run in › Callout", 3}, {"", "Title › Steps › a. Run in › Callout", 4}};
  EXPECT_EQ(heads, expected);
}

// A rule of a made-up registry, for the scan's own tests.
constexpr core::Rule test_rule(std::string_view id, std::string_view citation) {
  return {id, citation, "s", core::Severity::Violation, core::Basis::Written, "", ""};
}

TEST(RulesCoverageCheck, TheScanTellsPassingFromViolatingTests) {
  const std::string source =
      "TEST(WarfareA_ShotteOrder, LeaderFirstIsClean) {\n  expect_clean(f);\n}\n"
      "TEST(WarfareA_ShotteOrder, OutOfTurnIsAViolation) {\n  expect_single(b.fold(), \"WAR-A.order\", 7, \"}\");\n}\n"
      "TEST(WarfareC_Order, SizedAndEmpty) {\n  ASSERT_EQ(f.of(\"WAR-C.order\").size(), 1u);\n"
      "  EXPECT_TRUE(fold(x).of(\"WAR-C.vigor\").empty());\n  expect_none(f, \"WAR-C.split\");\n}\n"
      "TEST(Elsewhere, NamesTheRuleOutsideItsSection) {\n  expect_single(f, \"WAR-C.split\", 1, \"x\");\n}\n";
  const auto cases = test_cases(source, "x.cpp");
  ASSERT_EQ(cases.size(), 4u);
  EXPECT_EQ(cases[1].name, "OutOfTurnIsAViolation");
  const Asserted sized = asserted_by(cases[2].body);
  EXPECT_EQ(sized.present, (std::set<std::string>{"WAR-C.order"}));
  EXPECT_EQ(sized.absent, (std::set<std::string>{"WAR-C.vigor", "WAR-C.split"}));

  const core::Rule rules[] = {test_rule("WAR-A.order", "Warfare Phase › A. Shotte Subphase"),
                              test_rule("WAR-C.split", "Warfare Phase › C. Combat Resolution")};
  const auto found = tests_by_rule(rules, cases);
  EXPECT_EQ(found.at("WAR-A.order").passing, (std::vector<std::string>{"WarfareA_ShotteOrder.LeaderFirstIsClean"}));
  EXPECT_EQ(found.at("WAR-A.order").violating,
            (std::vector<std::string>{"WarfareA_ShotteOrder.OutOfTurnIsAViolation"}));
  EXPECT_EQ(found.at("WAR-C.split").passing, (std::vector<std::string>{"WarfareC_Order.SizedAndEmpty"}));
  EXPECT_TRUE(found.at("WAR-C.split").violating.empty()) << "a suite not named after the rule's section does not count";
}

TEST(RulesCoverageCheck, ATableDrivenTestIsReadOnceForEachRuleOfItsRows) {
  const std::string source =
      "const Row kRows[] = {\n  {\"lost\", \"WAR-C.lost\", [] { return 1; }},\n  {\"advance\", \"WAR-C.no-advance\"},\n};\n"
      "TEST_P(RowTable, RuledOut) {\n  const Row& row = GetParam();\n  expect_single(f, row.rule, p.at, row.words);\n}\n"
      "TEST_P(RowTable, Allowed) {\n  expect_clean(GetParam().allowed());\n}\n"
      "TEST_P(Unused, NotInstantiated) {\n  expect_clean(f);\n}\n"
      "INSTANTIATE_TEST_SUITE_P(WarfareCombatRulings, RowTable, ::testing::ValuesIn(kRows));\n";
  const auto cases = test_cases(source, "x.cpp");
  ASSERT_EQ(cases.size(), 4u);
  EXPECT_EQ(cases[0].suite, "WarfareCombatRulings_RowTable");
  EXPECT_EQ(cases[0].name, "RuledOut/WAR-C.lost");
  EXPECT_EQ(cases[3].name, "Allowed/WAR-C.no-advance");
  EXPECT_EQ(asserted_by(cases[1].body).present, (std::set<std::string>{"WAR-C.no-advance"}));

  const core::Rule rules[] = {test_rule("WAR-C.lost", "Warfare Phase › Combat Rulings")};
  const auto found = tests_by_rule(rules, cases);
  EXPECT_EQ(found.at("WAR-C.lost").violating, (std::vector<std::string>{"WarfareCombatRulings_RowTable.RuledOut/WAR-C.lost"}));
  EXPECT_EQ(found.at("WAR-C.lost").passing.size(), 2u) << "the clean counterpart, once per row of the suite";
}

TEST(RulesCoverageCheck, StemsComeFromTheIdAndTheCitation) {
  EXPECT_EQ(citation_stem("Attrition Phase › 3. Pay Provision Costs › Payment priority"), "AttritionStep3");
  EXPECT_EQ(citation_stem("Warfare Phase › Combat Rulings"), "WarfareCombatRulings");
  EXPECT_EQ(citation_stem("Warfare Phase › B. Charge Subphase"), "WarfareB");
  EXPECT_EQ(citation_stem("warlog rules › Corrections"), "LogCorrections");
  EXPECT_EQ(citation_stem("Deck Construction › Card Rarity & Deck Limits"), "DeckConstructionCardRarityDeckLimits");
  EXPECT_EQ(citation_stem("The Battlefield (not yet published)"), "");
  for (const core::Rule& r : core::all_rules()) {
    EXPECT_FALSE(stems_of(r).empty()) << r.id << ": give its id's section a stem in kIdStems";
    const std::string_view prefix = r.id.substr(0, r.id.find('.'));
    EXPECT_TRUE(kIdStems.contains(prefix)) << r.id << ": give its id's section a stem in kIdStems";
  }
}

}  // namespace
}  // namespace warlog
