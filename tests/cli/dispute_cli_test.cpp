// warlog dispute as a judge meets it: raise, list, show, resolve, export-test;
// exit codes and one-line errors; the event stream untouched.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/cli_run.hpp"

namespace warlog {
namespace {

using ::testing::HasSubstr;
using testing::run_warlog;

const std::string kSample = std::string(WARLOG_SAMPLES_DIR) + "/tutorial/spine_first_blood.wlog";

class DisputeCli : public ::testing::Test {
 protected:
  void SetUp() override {
    store_ = "--store " + dir_.store();
    ASSERT_EQ(run_warlog("import " + store_ + " " + kSample).code, 0);
    export_before_ = run_warlog("export " + store_ + " 1 --format capnp").out;
  }
  testing::CliResult dispute(const std::string& args) { return run_warlog("dispute " + args + " " + store_); }

  testing::TempDir dir_;
  std::string store_;
  std::string export_before_;
};

TEST_F(DisputeCli, AJudgesDay) {
  auto add = dispute("add --game 1 --seq 27 --claim 'Bruno drew three cards' --by Alice --cite MUS-a.draw");
  ASSERT_EQ(add.code, 0) << add.err;
  EXPECT_EQ(add.out, "dispute 1:27:0 recorded at game 1, seq 27\n");

  auto list = dispute("list");
  EXPECT_EQ(list.code, 0);
  EXPECT_THAT(list.out, HasSubstr("1:27:0        open      Alice             Bruno drew three cards"));
  EXPECT_THAT(list.out, HasSubstr("game 1 \"First blood at the Old Mill\": no ruling yet"));

  auto show = dispute("show 1:27:0");
  EXPECT_EQ(show.code, 0) << show.err;
  EXPECT_THAT(show.out, HasSubstr("seq 27: turn 2, muster, seat 2: CardsDrawn"));
  EXPECT_THAT(show.out, HasSubstr("cites MUS-a.draw (Muster Phase › Steps › a. Draw cards)"));
  EXPECT_THAT(show.out, HasSubstr("MUS-a.draw violation (written): Bruno drew 3 cards this turn, not 2"));

  auto resolve = dispute("resolve 1:27:0 --ruling 'Two cards per Muster Phase' --by 'Judge Carla' "
                         "--cite MUS-a.draw --cite-text 'rulings R-010' --expect MUS-a.draw");
  EXPECT_EQ(resolve.code, 0) << resolve.err;
  EXPECT_THAT(resolve.out, HasSubstr("expects: the audit reports MUS-a.draw at seq 27"));

  auto again = dispute("resolve 1:27:0 --ruling 'No' --by Someone");
  EXPECT_EQ(again.code, 2);
  EXPECT_EQ(testing::count_lines(again.err), 1u) << again.err;
  EXPECT_THAT(again.err, HasSubstr("--supersede"));

  auto json = dispute("list --format json --game 1");
  ASSERT_EQ(json.code, 0);
  const auto j = nlohmann::json::parse(json.out).at("disputes");
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["id"], "1:27:0");
  EXPECT_EQ(j[0]["status"], "resolved");
  EXPECT_EQ(j[0]["rulings"][0]["expectation"]["rule"], "MUS-a.draw");
  EXPECT_EQ(j[0]["rulings"][0]["citations"][1]["kind"], "text");
  EXPECT_EQ(j[0]["title"], "First blood at the Old Mill");
  EXPECT_THAT(dispute("list").out, HasSubstr("ruled by Judge Carla: Two cards per Muster Phase"));

  // Beside the log, never in it: the stored events are byte for byte the same.
  EXPECT_EQ(run_warlog("export " + store_ + " 1 --format capnp").out, export_before_);
  EXPECT_EQ(run_warlog("verify " + store_).code, 0);
}

TEST_F(DisputeCli, ExportTestWritesACaseThatRuns) {
  ASSERT_EQ(dispute("add --game 1 --seq 27 --claim 'Three cards' --by Alice").code, 0);
  ASSERT_EQ(dispute("resolve 1:27:0 --ruling 'Violation' --by Judge --expect MUS-a.draw").code, 0);
  const std::string out = (dir_.path() / "cases").string();
  auto r = dispute("export-test 1:27:0 --out " + out);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("first_blood_at_the_old_mill_seq27.expect"));
  EXPECT_THAT(r.out, HasSubstr("the engine agrees today"));
  EXPECT_TRUE(std::filesystem::exists(dir_.path() / "cases" / "first_blood_at_the_old_mill_seq27.wlog"));
  auto twice = dispute("export-test 1:27:0 --out " + out);
  EXPECT_EQ(twice.code, 2) << "never replaces a case without --force";
  EXPECT_EQ(dispute("export-test 1:27:0 --force --out " + out).code, 0);

  // The case imports into a new store with the data files it wrote.
  testing::TempDir other;
  const std::string wlog = out + "/first_blood_at_the_old_mill_seq27.wlog";
  auto imp = run_warlog("import --store " + other.store() + " " + wlog + " --catalog " + out +
                        "/data/catalog-*.csv --ruleset " + out + "/data/ruleset-*.toml");
  ASSERT_EQ(imp.code, 0) << imp.err;
  EXPECT_THAT(imp.out, HasSubstr("(28 events)"));
}

TEST_F(DisputeCli, ARulingTheEngineDisagreesWithIsWrittenAndFlagged) {
  ASSERT_EQ(dispute("add --game 1 --seq 27 --claim 'Fine draw' --by Bruno").code, 0);
  ASSERT_EQ(dispute("resolve 1:27:0 --ruling 'Allowed' --by Judge --expect-none MUS-a.draw").code, 0);
  auto r = dispute("export-test 1:27:0 --name allowed --out " + (dir_.path() / "cases").string());
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("the engine disagrees with the ruling"));
  EXPECT_TRUE(std::filesystem::exists(dir_.path() / "cases" / "allowed.expect"));
}

TEST_F(DisputeCli, IdsAreDensePerEventWhateverLiesBetween) {
  // Format 1 numbered every annotation at an event, so a ruling between two
  // disputes at seq 27 made the second 1:27:2. Now it is the second dispute: 1:27:1.
  ASSERT_EQ(dispute("add --game 1 --seq 27 --claim 'Three cards' --by Alice").code, 0);
  ASSERT_EQ(dispute("resolve 1:27:0 --ruling 'Violation' --by Judge").code, 0);
  ASSERT_EQ(dispute("add --game 1 --seq 20 --claim 'Elsewhere' --by Bruno").out,
            "dispute 1:20:0 recorded at game 1, seq 20\n");
  EXPECT_EQ(dispute("add --game 1 --seq 27 --claim 'Also three' --by Bruno").out,
            "dispute 1:27:1 recorded at game 1, seq 27\n");
  auto r = dispute("resolve 1:27:1 --ruling 'Also a violation' --by Judge");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(dispute("show 1:27:1").out, HasSubstr("claim: Also three"));
  EXPECT_THAT(dispute("show 1:27:0").out, HasSubstr("claim: Three cards"));
}

TEST_F(DisputeCli, RepeatingAnAddOrTheRulingInForceRecordsNothingAndExitsZero) {
  const std::string add = "add --game 1 --seq 27 --claim 'Three cards' --by Alice --cite MUS-a.draw";
  ASSERT_EQ(dispute(add).code, 0);
  auto again = dispute(add);
  EXPECT_EQ(again.code, 0) << again.err;
  EXPECT_EQ(again.out, "already recorded as 1:27:0 (game 1, seq 27); nothing written\n");
  const std::string resolve = "resolve 1:27:0 --ruling 'Violation' --by Judge --expect MUS-a.draw";
  ASSERT_EQ(dispute(resolve).code, 0);
  auto ruled_again = dispute(resolve);
  EXPECT_EQ(ruled_again.code, 0) << ruled_again.err;
  EXPECT_THAT(ruled_again.out, HasSubstr("already recorded as 1:27:0"));
  // Another ruling is still an appeal, which needs --supersede.
  EXPECT_EQ(dispute("resolve 1:27:0 --ruling 'Allowed' --by Judge").code, 2);
  const auto j = nlohmann::json::parse(dispute("list --format json").out).at("disputes");
  ASSERT_EQ(j.size(), 1u) << "one dispute";
  EXPECT_EQ(j[0]["rulings"].size(), 1u) << "one ruling";
}

TEST_F(DisputeCli, TheReadmesTourRunsTwice) {
  // README step 6, on the game it names (samples/games/cut_off.wlog as game 1).
  testing::TempDir tour;
  const std::string store = " --store " + tour.store();
  ASSERT_EQ(run_warlog("import" + store + " " + std::string(WARLOG_SAMPLES_DIR) + "/games/cut_off.wlog").code, 0);
  for (int run = 0; run < 2; ++run) {
    auto add = run_warlog("dispute add --game 1 --seq 122 --claim \"the Archer on e3 was Lost and fought\" --by Ines" +
                          store);
    EXPECT_EQ(add.code, 0) << "run " << run << ": " << add.err;
    auto resolve = run_warlog(
        "dispute resolve 1:122:0 --ruling \"Upheld: a Lost Troop cannot fight\" --by Judge --expect WAR-C.lost" +
        store);
    EXPECT_EQ(resolve.code, 0) << "run " << run << ": " << resolve.err;
    EXPECT_EQ(run_warlog("dispute list" + store).code, 0);
  }
  EXPECT_THAT(run_warlog("dispute list" + store).out, HasSubstr("ruled by Judge: Upheld: a Lost Troop cannot fight"));
}

TEST_F(DisputeCli, CiteTakesOnlyRuleIdsThatExist) {
  auto typo = dispute("add --game 1 --seq 27 --claim x --by Alice --cite MUS-a.Drwa");
  EXPECT_EQ(typo.code, 2);
  EXPECT_EQ(testing::count_lines(typo.err), 1u) << typo.err;
  EXPECT_THAT(typo.err, HasSubstr("--cite MUS-a.Drwa: no such rule"));
  EXPECT_EQ(dispute("resolve 1:27:0 --ruling x --by y --cite 'rulings R-010'").code, 2);
  auto free_text = dispute("add --game 1 --seq 27 --claim x --by Alice --cite-text 'rulings R-010' --cite MUS-a.draw");
  ASSERT_EQ(free_text.code, 0) << free_text.err;
  const auto j = nlohmann::json::parse(dispute("list --format json").out).at("disputes");
  ASSERT_EQ(j[0]["citations"].size(), 2u);
  EXPECT_EQ(j[0]["citations"][0]["kind"], "rule");
  EXPECT_EQ(j[0]["citations"][1]["kind"], "text");
  EXPECT_EQ(j[0]["citations"][1]["text"], "rulings R-010");
}

TEST_F(DisputeCli, MistakesAreOneLineAndExitTwo) {
  for (const std::string args : {"show 1:27", "show 1:27:0", "resolve 9:0:0 --ruling x --by y",
                                 "add --game 1 --seq 99 --claim x --by y", "add --game 7 --seq 0 --claim x --by y",
                                 "export-test 1:27:0", "list --game 5"}) {
    auto r = dispute(args);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.out << r.err;
    EXPECT_EQ(testing::count_lines(r.err), 1u) << args << "\n" << r.err;
  }
  EXPECT_EQ(dispute("add --game 1 --seq 27 --by Alice").code, 2) << "--claim is required";
  EXPECT_EQ(dispute("resolve 1:27:0 --ruling x --by y --expect A --expect-none B").code, 2);
  EXPECT_EQ(run_warlog("dispute").code, 2);
}

}  // namespace
}  // namespace warlog
