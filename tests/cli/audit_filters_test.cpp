// warlog audit's filters and streams: --quiet, --severity, --rule,
// --summary, and --format jsonl (a game a line, then the summary line).

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <sstream>

#include "cli_run.hpp"
#include "temp_dir.hpp"

namespace warlog {
namespace {

using testing::run_warlog;
const std::string kSamples = WARLOG_SAMPLES_DIR;

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

class AuditFilters : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new testing::TempDir;
    store_ = "--store " + dir_->store();
    // Games 1..12 the library in name order, 13 the spine tutorial.
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

TEST_F(AuditFilters, QuietShowsOnlyTheGamesWithFindings) {
  const auto all = run_warlog("audit " + store_);
  const auto quiet = run_warlog("audit " + store_ + " --quiet");
  EXPECT_EQ(quiet.code, 1);
  EXPECT_EQ(count_of(all.out, "\ngame ") + 1, 14u) << all.out;
  EXPECT_EQ(count_of(quiet.out, "  clean: no findings"), 0u) << quiet.out;
  EXPECT_EQ(count_of(quiet.out, "events\n"), 11u) << "the ten games with a violation, and the_mill_road_appeal with its correction notes\n" << quiet.out;
  EXPECT_NE(quiet.out.find("summary: 14 games, 3499 events, 15 violations in 10 games"), std::string::npos) << quiet.out;
}

TEST_F(AuditFilters, RuleChoosesTheFindingsReportedCountedAndExitedOn) {
  const auto draw = run_warlog("audit " + store_ + " --rule MUS-a.draw -q");
  EXPECT_EQ(draw.code, 1);
  EXPECT_EQ(draw.out.rfind("game 14  \"First blood at the Old Mill\"", 0), 0u) << draw.out;
  EXPECT_NE(draw.out.find("summary: 14 games, 3499 events, 1 violation in 1 game, 0 other findings"), std::string::npos)
      << draw.out;
  const auto none = run_warlog("audit " + store_ + " --rule ATT-wip.empty-deck");
  EXPECT_EQ(none.code, 0) << "no game breaks that rule\n" << none.out;
  const auto unknown = run_warlog("audit " + store_ + " --rule MUS-z.nope");
  EXPECT_EQ(unknown.code, 2);
  EXPECT_EQ(unknown.err, "warlog: audit: no rule 'MUS-z.nope' (warlog rules lists them)\n");
}

// Under the Burrower errata, roots_and_iron (game 7) records Nils Leading in
// Morale with less than Moira: MOR.leader, a warning (rulings R-004).
TEST_F(AuditFilters, SeverityKeepsFindingsAtLeastThatSevere) {
  const std::string errata = " --game 7 --catalog " + kSamples + "/catalogs/errata_burrower_vigor.csv";
  const auto all = run_warlog("audit " + store_ + errata);
  ASSERT_NE(all.out.find("MOR.leader warning"), std::string::npos) << all.out;
  const auto violations = run_warlog("audit " + store_ + errata + " --severity violation");
  EXPECT_EQ(violations.out.find("MOR.leader"), std::string::npos) << violations.out;
  EXPECT_NE(violations.out.find(", 0 other findings;"), std::string::npos) << violations.out;
  const auto warnings = run_warlog("audit " + store_ + errata + " --severity warning");
  EXPECT_NE(warnings.out.find("MOR.leader warning"), std::string::npos) << warnings.out;
  EXPECT_EQ(run_warlog("audit " + store_ + " --severity loud").code, 2);
}

TEST_F(AuditFilters, SummaryIsOnlyTheTotals) {
  const auto r = run_warlog("audit " + store_ + " --summary");
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out,
            "summary: 14 games, 3499 events, 15 violations in 10 games, 3 other findings; 0 of 14 signed as they stand "
            "by a trusted key\n");
  const auto j = run_warlog("audit " + store_ + " --summary --format json");
  const auto report = nlohmann::json::parse(j.out);
  EXPECT_TRUE(report.at("games").empty());
  EXPECT_EQ(report.at("summary").at("violations"), 15);
}

TEST_F(AuditFilters, JsonLinesIsOneGameALineThenTheSummary) {
  const auto r = run_warlog("audit " + store_ + " --format jsonl -j 2");
  EXPECT_EQ(r.code, 1) << r.err;
  std::istringstream in(r.out);
  std::vector<nlohmann::json> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(lines.size(), 15u) << r.out;
  for (std::size_t i = 0; i < 14; ++i) {
    EXPECT_EQ(lines[i].at("type"), "game");
    EXPECT_EQ(lines[i].at("game"), i + 1) << "in game order";
    EXPECT_EQ(lines[i].at("players").size(), 2u);
    EXPECT_EQ(lines[i].at("schema").at("name"), "warlog.audit");
  }
  EXPECT_EQ(lines[0].at("players").at(0).at("player"), "Ines");
  EXPECT_EQ(lines[0].at("result").at("text"), "Seat 1 (Ines) wins by Attrition on turn 12");
  EXPECT_EQ(lines[14].at("type"), "summary");
  EXPECT_EQ(lines[14].at("games_with_violations"), 10);  // siege_of_stone_bridge too since R-072
}

}  // namespace
}  // namespace warlog
