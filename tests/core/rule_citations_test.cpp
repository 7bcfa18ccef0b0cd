// Every citation in the rule registry is a real heading (docs/rules-index.tsv)
// of the document its basis names, and every rule id the repository names
// (samples, tests, the dispute cases, the README and docs) still resolves:
// ids are never renamed away, a renamed one stays an alias.

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <set>
#include <string>

#include "game_corpus.hpp"
#include "warlog/core/finding.hpp"
#include "warlog/core/rules_index.hpp"

namespace warlog {
namespace {

namespace fs = std::filesystem;

const fs::path kSource = WARLOG_SOURCE_DIR;

// The pages the rules README says the documents refer to but that do not
// exist yet; an assumed rule may cite one of them as "<page> (not yet published)".
const std::set<std::string, std::less<>> kUnpublished = {"The Battlefield", "Morale Check", "Card lists"};

core::RulesIndex committed_index() {
  auto index = core::RulesIndex::load((kSource / "docs" / "rules-index.tsv").string());
  if (!index) throw std::runtime_error(index.error().message);
  return *std::move(index);
}

// Why `citation` is not a fit for a rule of this basis, "" when it is.
std::string misfit(const core::RulesIndex& index, core::Basis basis, std::string_view citation) {
  const core::RulesHeading* h = index.find(citation);
  const auto source = [&] { return index.document_of(*h).source; };
  switch (basis) {
    case core::Basis::Written:
      if (h == nullptr) return "no heading of a rules document";
      return source() == core::DocumentSource::Rules ? "" : "a written rule cites warlog's own page";
    case core::Basis::Warlog:
      if (h == nullptr) return "no heading of docs/warlog-rules.md";
      return source() == core::DocumentSource::Warlog ? "" : "a warlog rule cites a rules document";
    case core::Basis::Assumed: {
      if (h != nullptr) return source() == core::DocumentSource::Rules ? "" : "an assumed rule cites warlog's own page";
      constexpr std::string_view kSuffix = " (not yet published)";
      if (citation.ends_with(kSuffix) && kUnpublished.contains(citation.substr(0, citation.size() - kSuffix.size()))) {
        return "";
      }
      return "neither a heading nor a page the rules README lists as unpublished";
    }
  }
  return "an unknown basis";
}

TEST(RuleCitations, EveryCitationIsAHeadingOfTheDocumentItsBasisNames) {
  const core::RulesIndex index = committed_index();
  for (const core::Rule& r : core::all_rules()) {
    EXPECT_EQ(misfit(index, r.basis, r.citation), "") << r.id << " cites \"" << r.citation << "\"";
  }
}

// The citations the second pass of the rules issue found wrong, each fixed
// to the heading it rests on; and the check above catches each old one.
TEST(RuleCitations, TheCitationsFoundWrongAreFixed) {
  const core::RulesIndex index = committed_index();
  EXPECT_NE(misfit(index, core::Basis::Written, "Attrition Phase › 2. and 4."), "");
  EXPECT_NE(misfit(index, core::Basis::Written, "warlog › Event stream › Order"), "");
  EXPECT_NE(misfit(index, core::Basis::Assumed, "Burrow rules (not yet published)"), "");
  EXPECT_NE(misfit(index, core::Basis::Warlog, "Attrition Phase › 2. Check Win Condition"), "");

  const auto rule = [](std::string_view id) {
    const core::Rule* r = core::find_rule(id);
    if (r == nullptr) throw std::runtime_error("no rule " + std::string(id));
    return *r;
  };
  EXPECT_EQ(rule("LOG.result").citation, "warlog rules › The result");
  EXPECT_EQ(rule("LOG.result").basis, core::Basis::Warlog);
  for (std::string_view id : {"LOG.order", "LOG.setup", "LOG.zone", "LOG.actor", "LOG.phase"}) {
    EXPECT_EQ(rule(id).basis, core::Basis::Warlog) << id;
    EXPECT_TRUE(rule(id).citation.starts_with("warlog rules › ")) << id;
  }
  // Burrow bypasses this says nothing of a Burrow Quirk: the Quirk is a card's.
  EXPECT_EQ(rule("WAR-B.burrow-quirk").citation, "Card lists (not yet published)");
  EXPECT_EQ(rule("WAR-B.burrow-quirk").basis, core::Basis::Assumed);
  EXPECT_EQ(rule("WAR-B.unburrow").citation, "Warfare Phase › B. Charge Subphase › Burrow bypasses this");
  EXPECT_EQ(rule("ATT-3.shocked").citation, "Attrition Phase › 3. Pay Provision Costs › Failing to pay › Shocked Troops");
}

TEST(RuleCitations, BasisNamesAreTheOnesReportsPrint) {
  EXPECT_EQ(core::to_string(core::Basis::Written), "written");
  EXPECT_EQ(core::to_string(core::Basis::Assumed), "assumed");
  EXPECT_EQ(core::to_string(core::Basis::Warlog), "warlog");
}

// --- Aliases ------------------------------------------------------------

TEST(RuleAliases, AnOldIdResolvesToTheRuleOfItsNewId) {
  // Ids of a made-up registry (not of warlog's, so the scan below skips them).
  using enum core::Severity;
  using enum core::Basis;
  const core::Rule rules[] = {{"T-1.move", "c", "s", Violation, Written, "", ""},
                              {"T-2.step", "c", "s", Violation, Written, "", ""}};
  const core::RuleAlias aliases[] = {{"T-1.moves", "T-1.move"}, {"T-9.gone", "T-9.never-was"}};
  EXPECT_EQ(core::find_rule_in(rules, aliases, "T-1.move"), &rules[0]);
  EXPECT_EQ(core::find_rule_in(rules, aliases, "T-1.moves"), &rules[0]);
  EXPECT_EQ(core::find_rule_in(rules, aliases, "T-2.step"), &rules[1]);
  EXPECT_EQ(core::find_rule_in(rules, aliases, "T-9.gone"), nullptr) << "an alias of no rule resolves to none";
  EXPECT_EQ(core::find_rule_in(rules, aliases, "T-1"), nullptr);
  EXPECT_EQ(core::find_rule_in(rules, {}, "T-1.moves"), nullptr);
}

TEST(RuleAliases, EveryAliasNamesALiveRuleAndNoLiveId) {
  std::set<std::string_view> old_ids;
  for (const core::RuleAlias& a : core::rule_aliases()) {
    EXPECT_TRUE(old_ids.insert(a.old_id).second) << a.old_id << " is an alias twice";
    const core::Rule* r = core::find_rule(a.id);
    ASSERT_NE(r, nullptr) << a.old_id << " is an alias of " << a.id << ", which is no rule";
    EXPECT_EQ(r->id, a.id) << a.old_id << " is an alias of another alias";
    EXPECT_EQ(core::find_rule(a.old_id), r) << a.old_id;
    for (const core::Rule& live : core::all_rules()) {
      EXPECT_NE(live.id, a.old_id) << a.old_id << " was reused for another rule";
    }
  }
}

// --- Every id the repository names resolves ------------------------------

// Ids the tests name on purpose because no rule has them.
const std::set<std::string, std::less<>> kDeliberatelyUnknown = {"MUS-a.draws", "MUS-z.nope"};

TEST(RuleIds, EveryIdNamedInSamplesTestsReadmeAndDocsResolves) {
  // A rule id: a document prefix, an optional section, a dot, the check.
  const std::regex id_pattern(R"(\b(?:LOG|MOR|MUS|DECK|WAR|ATT)(?:-[A-Za-z0-9]+)?\.[a-z][a-z0-9]*(?:-[a-z0-9]+)*)");
  std::vector<fs::path> files = {kSource / "README.md"};
  for (const char* dir : {"samples", "tests", "docs"}) {
    for (const auto& e : fs::recursive_directory_iterator(kSource / dir)) {
      static const std::set<std::string> kText = {".cpp", ".hpp", ".md",  ".wlog", ".expect",
                                                  ".txt", ".toml", ".csv", ".deck"};
      if (e.is_regular_file() && kText.contains(e.path().extension().string())) files.push_back(e.path());
    }
  }
  std::set<std::string> named;
  std::size_t expect_files = 0;
  for (const fs::path& file : files) {
    expect_files += file.extension() == ".expect";
    const std::string text = testing::read_text_file(file);
    for (auto it = std::sregex_iterator(text.begin(), text.end(), id_pattern); it != std::sregex_iterator(); ++it) {
      const std::string id = it->str();
      named.insert(id);
      if (kDeliberatelyUnknown.contains(id)) continue;
      EXPECT_NE(core::find_rule(id), nullptr) << fs::relative(file, kSource).string() << " names " << id
                                              << ", which is no rule and no alias";
    }
  }
  EXPECT_GE(expect_files, 4u) << "the dispute cases in tests/disputes were read";
  EXPECT_GE(named.size(), core::all_rules().size() / 2) << "the pattern finds the ids";
  for (const auto& id : kDeliberatelyUnknown) {
    EXPECT_EQ(core::find_rule(id), nullptr) << id << " became a rule: take it off the list of unknown ids";
  }
}

}  // namespace
}  // namespace warlog
