// One malformed `games` record ("Trust the store", one bad record, item 1):
// a value that does not decode, or one a newer warlog wrote. verify, list
// and audit report that game in one line naming it and why, and carry on
// with the others. Exit codes: verify 1 for a record that does not decode
// (damage, like a broken chain) and 2 for a newer encoding (it cannot tell);
// list and audit 2 for either (a game they could not read).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/cli_run.hpp"
#include "store/store_fixtures.hpp"
#include "warlog/store/game_meta.hpp"

namespace warlog {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class BadGameRecord : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string store = "--store " + dir_.store();
    for (const std::string title : {"First", "Second", "Third"}) {
      const auto file = testing::retitled_sample(dir_.path(), title);
      const auto r = testing::run_warlog("import " + store + " '" + file.string() + "'");
      ASSERT_EQ(r.code, 0) << r.err;
    }
  }
  // Replaces game 2's `games` value with edit(value).
  template <class Edit>
  void damage(Edit&& edit) {
    store::test::edit_raw(dir_.store(), store::kDbGames, [&](MDB_txn* txn, MDB_dbi dbi) {
      const auto key = store::game_key(2);
      auto v = store::lmdb::get(txn, dbi, store::view(key));
      ASSERT_TRUE(v && *v);
      std::string bytes(**v);
      edit(bytes);
      store::test::put_raw(txn, dbi, store::view(key), bytes);
    });
  }
  void truncate_record() {
    damage([](std::string& b) { b.resize(b.size() / 2); });
  }
  void newer_record() {
    damage([](std::string& b) { b[0] = static_cast<char>(store::kGameMetaVersion + 1); });
  }
  testing::CliResult run(const std::string& verb) { return testing::run_warlog(verb + " --store " + dir_.store()); }

  testing::TempDir dir_;
};

TEST_F(BadGameRecord, ListNamesAnUndecodableRecordAndListsTheOthers) {
  truncate_record();
  const auto r = run("list");
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_EQ(testing::count_lines(r.err), 1u) << r.err;
  EXPECT_THAT(r.err, HasSubstr("game 2: the game record"));
  EXPECT_THAT(r.err, HasSubstr("is corrupt: 57 bytes, a version-2 record has 114"));
  EXPECT_THAT(r.out, HasSubstr("First"));
  EXPECT_THAT(r.out, HasSubstr("Third"));
  EXPECT_THAT(r.out, Not(HasSubstr("Second")));
}

TEST_F(BadGameRecord, ListJsonHasTheOtherGames) {
  newer_record();
  const auto r = testing::run_warlog("list --format json --store " + dir_.store());
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(testing::count_lines(r.err), 1u) << r.err;
  EXPECT_THAT(r.err, HasSubstr("game 2: game record version 3 is newer than this warlog reads (2)"));
  const auto games = nlohmann::json::parse(r.out).at("games");
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(games[0]["game"], 1);
  EXPECT_EQ(games[1]["game"], 3);
}

TEST_F(BadGameRecord, VerifyCallsAnUndecodableRecordBrokenAndChecksTheOthers) {
  truncate_record();
  const auto r = run("verify");
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_THAT(r.out, HasSubstr("game 1: ok"));
  EXPECT_THAT(r.out, HasSubstr("game 2: BROKEN at seq 0: game 2: the game record"));
  EXPECT_THAT(r.out, HasSubstr("game 3: ok"));
  EXPECT_EQ(testing::count_lines(r.out), 5u) << r.out;
}

TEST_F(BadGameRecord, VerifyCannotTellANewerRecordAndSaysSo) {
  newer_record();
  const auto r = run("verify");
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_EQ(testing::count_lines(r.err), 1u) << r.err;
  EXPECT_THAT(r.err, HasSubstr("game 2: game record version 3 is newer"));
  EXPECT_THAT(r.out, HasSubstr("game 1: ok"));
  EXPECT_THAT(r.out, HasSubstr("game 3: ok"));
  EXPECT_THAT(r.out, Not(HasSubstr("game 2")));
}

TEST_F(BadGameRecord, AuditReportsTheGameAndAuditsTheOthers) {
  truncate_record();
  const auto r = run("audit");
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_EQ(testing::count_lines(r.err), 1u) << r.err;
  EXPECT_THAT(r.err, HasSubstr("data loss: game 2: the game record"));
  EXPECT_THAT(r.out, HasSubstr("game 1  \"First\""));
  EXPECT_THAT(r.out, HasSubstr("game 3  \"Third\""));
  EXPECT_THAT(r.out, HasSubstr("summary: 3 games"));
  EXPECT_THAT(r.out, HasSubstr("1 game(s) could not be audited"));
}

TEST_F(BadGameRecord, AuditOfANewerRecordInEveryFormat) {
  newer_record();
  const auto json = testing::run_warlog("audit --format json --store " + dir_.store());
  EXPECT_EQ(json.code, 2) << json.err;
  EXPECT_EQ(testing::count_lines(json.err), 1u) << json.err;
  EXPECT_THAT(json.err, HasSubstr("game 2: game record version 3 is newer"));
  const auto games = nlohmann::json::parse(json.out).at("games");
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(games[1]["game"], 3);
  const auto junit = testing::run_warlog("audit --format junit --store " + dir_.store());
  EXPECT_EQ(junit.code, 2);
  EXPECT_THAT(junit.out, HasSubstr("errors=\"1\""));
  EXPECT_THAT(junit.out, HasSubstr("name=\"game 3: Third\""));
}

// --game names the bad game alone: the same report, for that game only.
TEST_F(BadGameRecord, AskingForTheBadGameAloneReportsIt) {
  truncate_record();
  const auto audit = testing::run_warlog("audit --game 2 --store " + dir_.store());
  EXPECT_EQ(audit.code, 2);
  EXPECT_EQ(testing::count_lines(audit.err), 1u) << audit.err;
  EXPECT_THAT(audit.err, HasSubstr("game 2: the game record"));
  EXPECT_THAT(audit.out, HasSubstr("summary: 1 game, 0 events"));
  const auto verify = testing::run_warlog("verify --game 2 --store " + dir_.store());
  EXPECT_EQ(verify.code, 1);
  EXPECT_EQ(verify.err, "");
  EXPECT_EQ(testing::count_lines(verify.out), 1u) << verify.out;
  EXPECT_THAT(verify.out, HasSubstr("game 2: BROKEN at seq 0: game 2: the game record"));
}

}  // namespace
}  // namespace warlog
