// One JSON contract: every verb's --format json (and jsonl) output on the
// samples validates against its JSON Schema in docs/schema/, with Debian's
// python3-jsonschema (scripts/check-json-schema), and names its schema.

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>

#include "cli_run.hpp"
#include "temp_dir.hpp"

namespace warlog {
namespace {

using testing::run_warlog;
const std::string kSamples = WARLOG_SAMPLES_DIR;
const std::string kChecker = std::string(WARLOG_PYTHON3) + " " + WARLOG_SOURCE_DIR + "/scripts/check-json-schema";

class JsonContract : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new testing::TempDir;
    store_ = "--store " + dir_->store();
    // A failure here would only skip the tests (gtest), so it is kept and
    // each test fails on it in SetUp.
    const auto r = run_warlog("import " + store_ + " " + kSamples + "/games/*.wlog " + kSamples + "/tutorial/*.wlog");
    if (r.code != 0) setup_error_ = "import: " + r.err;
    // A dispute with a ruling that expects a rule: every field of the dispute shapes filled.
    // Game 14 is the tutorial spine (after the 13 games of samples/games).
    const auto added = run_warlog("dispute add " + store_ + " --game 14 --seq 27 --claim 'three cards' --by Ines");
    if (setup_error_.empty() && added.code != 0) setup_error_ = "dispute add: " + added.err;
    const auto ruled = run_warlog("dispute resolve " + store_ +
                                  " 14:27:0 --ruling 'Two a turn' --by Judge --cite MUS-a.draw --cite-text 'R-010' "
                                  "--expect MUS-a.draw");
    if (setup_error_.empty() && ruled.code != 0) setup_error_ = "dispute resolve: " + ruled.err;
  }
  void SetUp() override { ASSERT_TRUE(setup_error_.empty()) << setup_error_; }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }

  // Runs `warlog ARGS` and validates its stdout against docs/schema/SCHEMA.schema.json.
  static void expect_valid(const std::string& args, const std::string& schema, bool lines = false) {
    SCOPED_TRACE("warlog " + args);
    const auto r = run_warlog(args);
    ASSERT_NE(r.code, 2) << r.err;
    ASSERT_FALSE(r.out.empty());
    const auto file = dir_->path() / (schema + (lines ? ".jsonl" : ".json"));
    std::ofstream(file, std::ios::binary) << r.out;
    const auto check = testing::run_warlog_command(kChecker + " " + schema + " '" + file.string() + "'" +
                                                   (lines ? " --lines" : ""));
    EXPECT_EQ(check.code, 0) << check.out << check.err;
  }

  static inline testing::TempDir* dir_ = nullptr;
  static inline std::string store_;
  static inline std::string setup_error_;
};

TEST_F(JsonContract, AuditJsonAndJsonLines) {
  expect_valid("audit " + store_ + " --format json", "audit");
  expect_valid("audit " + store_ + " --format jsonl -j 2", "audit-line", true);
  expect_valid("audit " + store_ + " --format json --summary", "audit");
}

TEST_F(JsonContract, RuleDiffJsonAndJsonLinesForBothSampleChanges) {
  for (const std::string& change : {"--candidate " + kSamples + "/rulesets/empty_deck_penalty.toml",
                                   "--candidate-catalog " + kSamples + "/catalogs/errata_burrower_vigor.csv"}) {
    expect_valid("rule-diff " + store_ + " " + change + " --format json", "rule-diff");
    expect_valid("rule-diff " + store_ + " " + change + " --format jsonl", "rule-diff-line", true);
  }
}

TEST_F(JsonContract, ListRulesAndDisputes) {
  expect_valid("list " + store_ + " --format json", "list");
  expect_valid("rules --format json", "rules");
  expect_valid("dispute list " + store_ + " --format json", "dispute-list");
  expect_valid("dispute show " + store_ + " 14:27:0 --format json", "dispute");
  expect_valid("verify " + store_ + " --format json --require-signed", "verify");
}

// The partial reports of --shard K/N, which warlog merge reads: every line
// (header, games, end) of an audit's and of a rule-diff's part.
TEST_F(JsonContract, ShardPartsOfAuditAndRuleDiff) {
  expect_valid("audit " + store_ + " --shard 0/2", "part", true);
  expect_valid("audit " + store_ + " --shard 1/2 --quiet --severity warning", "part", true);
  expect_valid("rule-diff " + store_ + " --candidate " + kSamples + "/rulesets/burrowed_hidden.toml --shard 0/1",
               "part", true);
  expect_valid("rule-diff " + store_ + " --candidate-catalog " + kSamples +
                   "/catalogs/errata_burrower_vigor.csv --only outcome --shard 1/3",
               "part", true);
}

// A part whose end line lost its count is refused: the part schema checks
// the lines after the header too.
TEST_F(JsonContract, ThePartSchemaRefusesAnEndLineWithoutItsCount) {
  const auto r = run_warlog("audit " + store_ + " --shard 0/1");
  ASSERT_EQ(r.code, 0) << r.err;
  std::string broken = r.out;
  const auto at = broken.rfind("{\"games\":");
  ASSERT_NE(at, std::string::npos) << r.out;
  broken.replace(at, 9, "{\"gams\":");
  const auto file = dir_->path() / "broken-part.jsonl";
  std::ofstream(file, std::ios::binary) << broken;
  const auto check = testing::run_warlog_command(kChecker + " part '" + file.string() + "' --lines");
  EXPECT_EQ(check.code, 1);
  EXPECT_NE(check.out.find("broken-part.jsonl:" + std::to_string(std::count(broken.begin(), broken.end(), '\n'))),
            std::string::npos)
      << "the error names the end line: " << check.out << check.err;
}

// The checker is no check that cannot fail: an audit game without its
// players is refused.
TEST_F(JsonContract, TheCheckerRefusesAShapeThatBreaksTheSchema) {
  const auto r = run_warlog("audit " + store_ + " --game 14 --format json");
  std::string broken = r.out;
  const auto at = broken.find("\"players\":");
  ASSERT_NE(at, std::string::npos) << r.out;
  broken.replace(at, 10, "\"plyers\":");
  const auto file = dir_->path() / "broken.json";
  std::ofstream(file, std::ios::binary) << broken;
  const auto check = testing::run_warlog_command(kChecker + " audit '" + file.string() + "'");
  EXPECT_EQ(check.code, 1);
  EXPECT_NE(check.out.find("'players' is a required property"), std::string::npos) << check.out << check.err;
}

}  // namespace
}  // namespace warlog
