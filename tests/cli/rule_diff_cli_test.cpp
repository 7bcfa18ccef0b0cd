// warlog rule-diff as a designer meets it: a usage error when there is
// nothing to compare, the totals on the first screen, filters, CSV and
// JSON Lines; on the samples and on a generated archive of 300 games.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

#include "cli_run.hpp"
#include "temp_dir.hpp"

namespace warlog {
namespace {

using testing::run_warlog;
const std::string kSamples = WARLOG_SAMPLES_DIR;
const std::string kErrata = kSamples + "/catalogs/errata_burrower_vigor.csv";

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::size_t columns(const std::string& line) {
  std::size_t n = 0;
  for (char c : line) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

class RuleDiffCli : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new testing::TempDir;
    store_ = "--store " + dir_->store();
    const auto r = run_warlog("import " + store_ + " " + kSamples + "/games/*.wlog " + kSamples + "/tutorial/*.wlog");
    ASSERT_EQ(r.code, 0) << r.err;
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static inline testing::TempDir* dir_ = nullptr;
  static inline std::string store_;
};

TEST_F(RuleDiffCli, NothingToCompareIsAUsageError) {
  const auto r = run_warlog("rule-diff " + store_);
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "warlog: rule-diff: nothing to compare: give a candidate ruleset (--candidate RULES.toml) or card catalog "
            "(--candidate-catalog CARDS.csv)\n");
  // A base alone is nothing to compare either: the candidate is the change.
  EXPECT_EQ(run_warlog("rule-diff " + store_ + " --base " + kSamples + "/rulesets/standard.toml").code, 2);
}

TEST_F(RuleDiffCli, ACatalogGivenAsARulesetSaysWhichOptionTakesIt) {
  const auto r = run_warlog("rule-diff " + store_ + " --candidate " + kErrata);
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "warlog: rule-diff: " + kErrata + " is a card catalog (CSV), not a ruleset: use --candidate-catalog " +
                       kErrata + "\n");
  const std::string toml = kSamples + "/rulesets/empty_deck_penalty.toml";
  const auto back = run_warlog("rule-diff " + store_ + " --candidate-catalog " + toml);
  EXPECT_EQ(back.code, 2);
  EXPECT_NE(back.err.find("is a ruleset (TOML), not a card catalog: use --candidate " + toml), std::string::npos)
      << back.err;
}

TEST_F(RuleDiffCli, SummaryPrintsOnlyTheTotals) {
  const auto r = run_warlog("rule-diff " + store_ + " --candidate-catalog " + kErrata + " --summary");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(r.out.rfind("rule-diff: 14 games under the candidate catalog errata_burrower_vigor.csv\n", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("\n  undetermined        5  "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n  WAR-C.vigor                      6 games"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("game 1 \""), std::string::npos) << "no per-game block\n" << r.out;
  EXPECT_LE(lines_of(r.out).size(), 24u) << r.out;
}

TEST_F(RuleDiffCli, OnlyAndRuleChooseTheGamesShown) {
  const auto findings = run_warlog("rule-diff " + store_ + " --candidate-catalog " + kErrata + " --only findings");
  EXPECT_EQ(findings.code, 1);
  EXPECT_NE(findings.out.find("per game below: 1 of 6 changed games in class findings\n"), std::string::npos)
      << findings.out;
  EXPECT_NE(findings.out.find("game 4 \"Order of battle\": findings\n"), std::string::npos) << findings.out;
  EXPECT_EQ(findings.out.find(": undetermined\n"), std::string::npos) << findings.out;

  const auto defeat = run_warlog("rule-diff " + store_ + " --candidate-catalog " + kErrata + " --rule WAR-C.defeat");
  EXPECT_NE(defeat.out.find("per game below: 3 of 6 changed games whose WAR-C.defeat findings change\n"),
            std::string::npos)
      << defeat.out;
  EXPECT_NE(defeat.out.find("game 7 \"Roots and iron\""), std::string::npos) << defeat.out;
  EXPECT_EQ(defeat.out.find("game 4 \"Order of battle\""), std::string::npos) << defeat.out;

  const auto unknown = run_warlog("rule-diff " + store_ + " --candidate-catalog " + kErrata + " --rule MUS-z.nope");
  EXPECT_EQ(unknown.code, 2);
  EXPECT_EQ(unknown.err, "warlog: rule-diff: no rule 'MUS-z.nope' (warlog rules lists them)\n");
  EXPECT_EQ(run_warlog("rule-diff " + store_ + " --candidate-catalog " + kErrata + " --only changed").code, 2);
}

TEST_F(RuleDiffCli, CsvHasAHeaderAndARowPerChangedGame) {
  const auto r = run_warlog("rule-diff " + store_ + " --candidate-catalog " + kErrata + " --format csv");
  EXPECT_EQ(r.code, 1) << r.err;
  const auto rows = lines_of(r.out);
  ASSERT_EQ(rows.size(), 7u) << r.out;
  EXPECT_EQ(rows[0].rfind("game,title,class,first_seq,", 0), 0u) << rows[0];
  EXPECT_EQ(rows[1].rfind("1,Cut off at the bridge,undetermined,197,10,warfare,2,200,ATT-3.listed,", 0), 0u) << rows[1];
}

TEST_F(RuleDiffCli, JsonLinesIsAGameALineThenTheSummary) {
  const auto r = run_warlog("rule-diff " + store_ + " --candidate-catalog " + kErrata + " --format jsonl");
  EXPECT_EQ(r.code, 1) << r.err;
  const auto rows = lines_of(r.out);
  ASSERT_EQ(rows.size(), 7u) << r.out;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto j = nlohmann::json::parse(rows[i]);
    EXPECT_EQ(j.at("type"), i + 1 < rows.size() ? "game" : "summary") << rows[i];
    EXPECT_EQ(j.at("schema").at("name"), "warlog.rule-diff");
  }
  EXPECT_EQ(nlohmann::json::parse(rows.back()).at("undetermined"), 5);
  const auto first = nlohmann::json::parse(rows.front());
  EXPECT_EQ(first.at("first_divergence").at("differences").at(0),
            "the Imperial Grenadier on e2 (Seat 1, Ines) survives with 1 Vitality instead of being defeated");
}

TEST_F(RuleDiffCli, HtmlIsOneSelfContainedWellFormedPage) {
  const auto r = run_warlog("rule-diff " + store_ + " --candidate-catalog " + kErrata + " --format html");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(r.out.rfind("<!DOCTYPE html>\n", 0), 0u);
  EXPECT_NE(r.out.find("<tr class=\"undetermined\"><td>undetermined</td><td class=\"n\">5</td>"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("<svg "), std::string::npos) << "the chart of where games diverge";
  EXPECT_NE(r.out.find("<title>turn 9: 2 games</title>"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("<li>the Imperial Grenadier on e2 (Seat 1, Ines) survives with 1 Vitality instead of being "
                       "defeated</li>"),
            std::string::npos)
      << r.out;
  for (const char* outside : {"<script", "src=", "href=", "<link"}) {
    EXPECT_EQ(r.out.find(outside), std::string::npos) << "self-contained: " << outside;
  }
  testing::TempDir dir;
  const auto page = dir.path() / "rule-diff.html";
  std::ofstream(page) << r.out;
  const auto lint = testing::run_warlog_command("xmllint --noout '" + page.string() + "'");
  EXPECT_EQ(lint.code, 0) << lint.err;
  EXPECT_EQ(lint.err, "");
}

// At archive size the first screen (24 lines of 80 columns) holds the
// answer: the totals, then the per-game blocks.
TEST(RuleDiffArchive, ThreeHundredGeneratedGamesAnswerOnTheFirstScreen) {
  testing::TempDir dir;
  const std::string store = "--store " + dir.store();
  // generate finds the sample catalog and decks from the checkout.
  const auto g = run_warlog("generate " + store + " --games 300 --seed 1", std::string("cd '") + WARLOG_SOURCE_DIR + "' &&");
  ASSERT_EQ(g.code, 0) << g.err;
  const auto r = run_warlog("rule-diff " + store + " --candidate-catalog " + kErrata + " -j 2");
  EXPECT_EQ(r.code, 1) << r.err;
  const auto rows = lines_of(r.out);
  std::size_t screen = 0;
  while (screen < rows.size() && rows[screen].rfind("per game below: ", 0) != 0) ++screen;
  ASSERT_LT(screen, rows.size()) << r.out.substr(0, 4000);
  EXPECT_LE(screen + 1, 24u) << r.out.substr(0, 4000);
  for (std::size_t i = 0; i <= screen; ++i) EXPECT_LE(columns(rows[i]), 80u) << rows[i];
  EXPECT_EQ(rows[0], "rule-diff: 300 games under the candidate catalog errata_burrower_vigor.csv");
  for (const char* klass : {"unchanged", "findings", "outcome", "undetermined"}) {
    EXPECT_NE(r.out.find(std::string("\n  ") + klass + " "), std::string::npos) << klass;
  }
  EXPECT_NE(r.out.find("\nfirst divergence: earliest turn "), std::string::npos);
  EXPECT_GT(rows.size(), screen + 100) << "the changed games follow";
  const auto summary = run_warlog("rule-diff " + store + " --candidate-catalog " + kErrata + " --summary -j 2");
  EXPECT_EQ(summary.out + rows[screen] + "\n", r.out.substr(0, summary.out.size() + rows[screen].size() + 1))
      << "--summary is the first screen";
}

}  // namespace
}  // namespace warlog
