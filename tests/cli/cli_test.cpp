// The warlog command line as a user meets it: exit codes, one-line errors,
// nothing written on a bad import.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <sys/wait.h>

#include "cli/cli_run.hpp"
#include "temp_dir.hpp"

namespace warlog {
namespace {

struct CliRun {
  int code = -1;
  std::string out;  // stdout and stderr together
};

CliRun run(const std::string& args, const std::string& env = "") {
  const std::string cmd = env + " " + std::string(WARLOG_CLI_PATH) + " " + args + " 2>&1";
  CliRun r;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) return r;
  std::array<char, 4096> buf{};
  while (std::fgets(buf.data(), static_cast<int>(buf.size()), p) != nullptr) r.out += buf.data();
  const int status = ::pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

const std::string kSample = std::string(WARLOG_SAMPLES_DIR) + "/tutorial/spine_first_blood.wlog";

TEST(Cli, HelpListsTheVerbsAndExitsZero) {
  const CliRun r = run("--help");
  EXPECT_EQ(r.code, 0);
  for (const char* verb : {"import", "audit", "verify", "list", "rules"}) {
    EXPECT_NE(r.out.find(verb), std::string::npos) << verb;
  }
  EXPECT_EQ(run("audit --help").code, 0);
}

TEST(Cli, UnknownVerbOrOptionIsAUsageError) {
  EXPECT_EQ(run("frobnicate").code, 2);
  EXPECT_EQ(run("audit --no-such-flag").code, 2);
  EXPECT_EQ(run("").code, 2);
}

TEST(Cli, ImportAuditVerifyListOnTheSpineSample) {
  testing::TempDir dir;
  const std::string store = "--store " + dir.store();
  const CliRun imp = run("import " + store + " " + kSample);
  ASSERT_EQ(imp.code, 0) << imp.out;
  EXPECT_NE(imp.out.find("as game 1"), std::string::npos) << imp.out;

  const CliRun audit = run("audit " + store);
  EXPECT_EQ(audit.code, 1) << "a violation means exit 1\n" << audit.out;
  EXPECT_NE(audit.out.find("MUS-a.draw"), std::string::npos) << audit.out;
  EXPECT_NE(audit.out.find("Muster Phase › Steps › a. Draw cards"), std::string::npos) << audit.out;

  const CliRun verify = run("verify " + store);
  EXPECT_EQ(verify.code, 0) << verify.out;
  EXPECT_NE(verify.out.find("chain intact"), std::string::npos);

  const CliRun list = run("list " + store);
  EXPECT_EQ(list.code, 0);
  EXPECT_NE(list.out.find("First blood at the Old Mill"), std::string::npos) << list.out;
}

// Store format 2 › 3: the README's tour may run twice.
TEST(Cli, ReimportingTheSameGameSaysWhereItIsAndExitsZero) {
  testing::TempDir dir;
  const std::string store = "--store " + dir.store();
  ASSERT_EQ(run("import " + store + " " + kSample).code, 0);
  const CliRun again = run("import " + store + " " + kSample);
  EXPECT_EQ(again.code, 0) << again.out;
  EXPECT_NE(again.out.find("is already imported as game 1 (38 events): nothing written"), std::string::npos)
      << again.out;
  EXPECT_EQ(run("list " + store).out.find("    2  "), std::string::npos) << "no second game";
}

// The same GameCreated with other moves is another game, through the CLI too.
TEST(Cli, TheSameHeaderWithOtherMovesIsAnotherGame) {
  testing::TempDir dir;
  const std::string store = "--store " + dir.store();
  ASSERT_EQ(run("import " + store + " " + kSample).code, 0);
  // The tutorial beside the samples' decks, catalogs and rulesets, one damage figure changed.
  const std::filesystem::path samples(WARLOG_SAMPLES_DIR);
  for (const char* d : {"decks", "catalogs", "rulesets"}) std::filesystem::create_directory_symlink(samples / d, dir.path() / d);
  std::filesystem::create_directory(dir.path() / "tutorial");
  std::ifstream in(kSample);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string move = "combat b2 -> c2 3; c2 -> b2 3";
  const auto at = text.find(move);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, move.size(), "combat b2 -> c2 2; c2 -> b2 3");
  const auto other = dir.path() / "tutorial" / "other.wlog";
  std::ofstream(other) << text;
  const CliRun r = run("import " + store + " " + other.string());
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("as game 2"), std::string::npos) << r.out;
}

TEST(Cli, StoreFromEnvironment) {
  testing::TempDir dir;
  ASSERT_EQ(run("import --store " + dir.store() + " " + kSample).code, 0);
  const CliRun e = run("list", "WARLOG_STORE=" + dir.store());  // no --store
  EXPECT_EQ(e.code, 0);
  EXPECT_NE(e.out.find("First blood"), std::string::npos) << e.out;
}

TEST(Cli, MissingStoreIsOneClearLineAndExitTwo) {
  const CliRun r = run("audit --store /nonexistent/warlog-store");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("no warlog store"), std::string::npos) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
}

TEST(Cli, UnknownGameIsOneClearLineAndExitTwo) {
  testing::TempDir dir;
  ASSERT_EQ(run("import --store " + dir.store() + " " + kSample).code, 0);
  const CliRun r = run("audit --store " + dir.store() + " --game 99");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("game 99 does not exist"), std::string::npos) << r.out;
  EXPECT_EQ(run("verify --store " + dir.store() + " --game 99").code, 2);
}

TEST(Cli, NotationErrorReportsFileLineColumnAndWritesNothing) {
  testing::TempDir dir;
  const std::string bad = (dir.path() / "bad.wlog").string();
  {
    std::ifstream in(kSample);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto at = text.find("play \"Ironclaw Lancer\" b1");
    text.replace(at, 26, "play \"Ironclaw Lancr\" b1");
    // Deck paths are relative to the game file: point them at the samples.
    for (std::string tag : {"../decks/", "../rulesets/", "../catalogs/"}) {
      for (auto p = text.find(tag); p != std::string::npos; p = text.find(tag, p + 1)) {
        text.replace(p, 3, std::string(WARLOG_SAMPLES_DIR) + "/");
      }
    }
    std::ofstream(bad) << text;
  }
  const CliRun r = run("import --store " + dir.store() + " " + bad);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("bad.wlog:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Ironclaw Lancer"), std::string::npos) << "the hint names the closest card\n" << r.out;
  EXPECT_NE(r.out.find("nothing imported"), std::string::npos) << r.out;
  const CliRun list = run("list --store " + dir.store() + " --format json");
  EXPECT_EQ(list.code, 0);
  EXPECT_EQ(list.out, "{\"schema\": {\"name\":\"warlog.list\",\"version\":3}, \"games\": []}\n")
      << "a failed import writes no game";
}

TEST(Cli, ExportReimportsAsTheSameEvents) {
  testing::TempDir dir;
  const std::string store = "--store " + dir.store();
  ASSERT_EQ(run("import " + store + " " + kSample).code, 0);
  // stdout alone: export says who attests the game on stderr.
  CliRun exported;
  {
    const auto r = testing::run_warlog("export " + store + " 1");
    exported.code = r.code;
    exported.out = r.out;
  }
  ASSERT_EQ(exported.code, 0) << exported.out;
  EXPECT_NE(exported.out.find("[Title \"First blood at the Old Mill\"]"), std::string::npos) << exported.out;

  // Into a second store: the recorded hashes name blobs it lacks, so the
  // catalog and ruleset files are given; the events must come out the same.
  const std::string file = (dir.path() / "exported.wlog").string();
  std::ofstream(file) << exported.out;
  testing::TempDir other;
  const std::string samples = std::string(WARLOG_SAMPLES_DIR);
  const CliRun missing = run("import --store " + other.store() + " " + file);
  EXPECT_EQ(missing.code, 2) << "a hash the store lacks is an error\n" << missing.out;
  const std::string files = " --catalog " + samples + "/catalogs/sample_cards.csv --ruleset " + samples +
                            "/rulesets/standard.toml ";
  const CliRun wrong = run("import --store " + other.store() + " --catalog " + samples + "/rulesets/standard.toml" +
                           " --ruleset " + samples + "/rulesets/standard.toml " + file);
  EXPECT_EQ(wrong.code, 2) << "a file whose hash differs from the recorded one is refused\n" << wrong.out;
  const CliRun imported = run("import --store " + other.store() + files + file);
  ASSERT_EQ(imported.code, 0) << imported.out;
  const auto again = testing::run_warlog("export --store " + other.store() + " 1");
  EXPECT_EQ(again.out, exported.out);
}

TEST(Cli, AuditAsJunitHasOneTestCasePerGame) {
  testing::TempDir dir;
  const std::string store = "--store " + dir.store();
  ASSERT_EQ(run("import " + store + " " + kSample).code, 0);
  const CliRun r = run("audit " + store + " --format junit --jobs 2");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("<testsuites name=\"warlog audit\" tests=\"1\" failures=\"1\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("<testcase classname=\"warlog\" name=\"game 1: First blood at the Old Mill\">"),
            std::string::npos) << r.out;
  EXPECT_NE(r.out.find("<failure type=\"violation\""), std::string::npos) << r.out;
}

TEST(Cli, AShardIsAGameFilter) {
  testing::TempDir dir;
  const std::string store = "--store " + dir.store();
  ASSERT_EQ(run("import " + store + " " + kSample).code, 0);  // game 1, which hashes to shard 0 of 2
  const CliRun mine = run("audit " + store + " --shard 0/2");
  EXPECT_EQ(mine.code, 0) << "a shard exits 0 once its part is written";
  EXPECT_NE(mine.out.find("{\"game\":1,"), std::string::npos) << mine.out;
  const CliRun other = run("audit " + store + " --shard 1/2");
  EXPECT_EQ(other.code, 0) << other.out;
  EXPECT_EQ(other.out.find("\"type\":\"game\""), std::string::npos) << other.out;
  EXPECT_NE(other.out.find("{\"games\":0,\"schema\":{\"name\":\"warlog.part\",\"version\":1},\"type\":\"end\"}"),
            std::string::npos)
      << other.out;
  EXPECT_EQ(run("audit " + store + " --shard 2/2").code, 2);
  EXPECT_EQ(run("audit " + store + " --shard x").code, 2);
}

TEST(Cli, RuleDiffReportsTheGamesARuleChangeAffects) {
  testing::TempDir dir;
  const std::string store = "--store " + dir.store();
  ASSERT_EQ(run("import " + store + " " + kSample).code, 0);
  const std::string toml = (dir.path() / "three.toml").string();
  std::ofstream(toml) << "[muster]\ndraw_per_turn = 3\n";
  const CliRun r = run("rule-diff " + store + " --candidate " + toml);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("rule-diff: 1 game under the candidate ruleset three.toml\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("first divergence: seq"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("- seq 27, turn 2 Muster Phase, Seat 2 (Bruno): MUS-a.draw"), std::string::npos) << r.out;
  const CliRun j = run("rule-diff " + store + " --candidate " + toml + " --format json");
  EXPECT_NE(j.out.find("\"outcome\":0"), std::string::npos) << j.out;
}

TEST(Cli, RulesListsEveryRuleWithItsCitation) {
  const CliRun r = run("rules");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("MUS-a.draw"), std::string::npos);
  EXPECT_NE(r.out.find("Attrition Phase › 3. Pay Provision Costs › Payment priority"), std::string::npos);
}

TEST(Cli, RulesShowsOnlyTheIdsAskedForWithEachBasis) {
  const CliRun r = run("rules WAR-C.lost LOG.order WAR-C.lost");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("WAR-C.lost"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("warlog  warlog rules › Event order"), std::string::npos) << "basis warlog\n" << r.out;
  EXPECT_EQ(r.out.find("MUS-a.draw"), std::string::npos) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 4) << "each rule once, two lines each\n" << r.out;
  const CliRun j = run("rules MOR.leader --format json");
  EXPECT_EQ(j.code, 0) << j.out;
  EXPECT_NE(j.out.find("\"basis\": \"assumed\""), std::string::npos) << j.out;
  EXPECT_NE(j.out.find("\"aliases\": []"), std::string::npos) << j.out;
}

TEST(Cli, RulesWithAnUnknownIdIsAUsageErrorOnOneLine) {
  const CliRun r = run("rules MUS-z.nope");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "warlog: no rule 'MUS-z.nope' (warlog rules lists them)\n");
}

// #6's "done means", end to end through the CLI on the sample library: the
// WIP empty-deck rule switched on is reported with the games and first events
// it changes (exit 1); the unchanged ruleset changes nothing (exit 0).
TEST(Cli, RuleDiffOnTheSamplesNamesTheGamesTheEmptyDeckRuleChanges) {
  testing::TempDir dir;
  const std::string store = "--store " + dir.store();
  const std::string samples = std::string(WARLOG_SAMPLES_DIR);
  ASSERT_EQ(run("import " + store + " " + samples + "/games/*.wlog").code, 0);
  const CliRun changed = run("rule-diff " + store + " --candidate " + samples + "/rulesets/empty_deck_penalty.toml");
  EXPECT_EQ(changed.code, 1) << changed.out;
  EXPECT_NE(changed.out.find("\"The long hedgerow\""), std::string::npos) << changed.out;
  EXPECT_NE(changed.out.find("\"Siege of the Stone Bridge\""), std::string::npos) << changed.out;
  EXPECT_NE(changed.out.find("first divergence: seq "), std::string::npos) << changed.out;
  EXPECT_NE(changed.out.find(", turn 16 Muster Phase, "), std::string::npos) << changed.out;
  EXPECT_NE(changed.out.find("ATT-wip.empty-deck"), std::string::npos) << changed.out;
  EXPECT_EQ(changed.out.rfind("rule-diff: 13 games under the candidate ruleset empty_deck_penalty.toml\n", 0), 0u)
      << "the totals come first\n" << changed.out;
  EXPECT_NE(changed.out.find("\n  findings            2  "), std::string::npos) << changed.out;
  const CliRun same = run("rule-diff " + store + " --candidate " + samples + "/rulesets/standard.toml");
  EXPECT_EQ(same.code, 0) << same.out;
  EXPECT_NE(same.out.find("\n  unchanged          13  "), std::string::npos) << same.out;
}

}  // namespace
}  // namespace warlog
