// Issue 14, a deleted game record hides the game. What main did with game
// 2's record deleted (its blocks and its dispute left): verify reported the
// events as an orphan (BROKEN, exit 1), but `list` and an all-games `audit`
// left the game out and exited 0, and `warlog backup` said "3 games
// verified" of a copy holding it. Now verify, list, audit and backup all say
// "game 2: events with no game record" and exit 2; backup refuses to put the
// copy in place, naming it, and leaves nothing at DIR.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/cli_run.hpp"
#include "store/store_fixtures.hpp"

namespace warlog {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
namespace fs = std::filesystem;

class DeletedGameRecord : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const std::string title : {"First", "Second", "Third"}) {
      const auto file = testing::retitled_sample(dir_.path(), title);
      ASSERT_EQ(run("import '" + file.string() + "'").code, 0);
    }
    store::test::edit_raw(dir_.store(), store::kDbGames, [](MDB_txn* txn, MDB_dbi dbi) {
      ASSERT_TRUE(store::lmdb::del(txn, dbi, store::view(store::game_key(2))).value());
    });
  }
  testing::CliResult run(const std::string& verb) { return testing::run_warlog(verb + " --store " + dir_.store()); }

  testing::TempDir dir_;
};

constexpr const char* kSaid = "game 2: events with no game record";

TEST_F(DeletedGameRecord, VerifyReportsTheEventsAsAGameItCannotCheck) {
  const auto r = run("verify");
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr(std::string("game 2: BROKEN at seq 0: ") + kSaid));
  EXPECT_THAT(r.out, HasSubstr("game 1: ok"));
  EXPECT_THAT(r.out, HasSubstr("game 3: ok"));
}

TEST_F(DeletedGameRecord, ListNamesTheGameAndListsTheOthers) {
  const auto r = run("list");
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_EQ(testing::count_lines(r.err), 1u) << r.err;
  EXPECT_THAT(r.err, HasSubstr(kSaid));
  EXPECT_THAT(r.out, HasSubstr("First"));
  EXPECT_THAT(r.out, HasSubstr("Third"));
  const auto json = run("list --format json");
  EXPECT_EQ(json.code, 2);
  EXPECT_THAT(json.err, HasSubstr(kSaid));
  EXPECT_EQ(nlohmann::json::parse(json.out).at("games").size(), 2u);
}

TEST_F(DeletedGameRecord, AnAuditOfEveryGameNamesItAndAuditsTheOthers) {
  const auto r = run("audit");
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_EQ(testing::count_lines(r.err), 1u) << r.err;
  EXPECT_THAT(r.err, HasSubstr(kSaid));
  EXPECT_THAT(r.out, HasSubstr("game 1  \"First\""));
  EXPECT_THAT(r.out, HasSubstr("game 3  \"Third\""));
  EXPECT_THAT(r.out, HasSubstr("summary: 3 games"));
  EXPECT_THAT(r.out, HasSubstr("1 game(s) could not be audited"));
  const auto game = run("audit --game 2");
  EXPECT_EQ(game.code, 2);
  EXPECT_THAT(game.err, HasSubstr(kSaid));
}

TEST_F(DeletedGameRecord, BackupRefusesToPutTheCopyInPlaceAndSaysWhy) {
  const std::string backup = (dir_.path() / "backup").string();
  const auto r = testing::run_warlog("backup --store " + dir_.store() + " " + backup);
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(testing::count_lines(r.err), 1u) << r.err;
  EXPECT_THAT(r.err, HasSubstr(std::string("warlog: backup: the copy does not verify: ") + kSaid));
  EXPECT_THAT(r.err, HasSubstr("nothing written at " + backup));
  EXPECT_THAT(r.err, Not(HasSubstr("verified")));
  EXPECT_FALSE(fs::exists(backup));
}

// A game with a dispute: its record deleted leaves both its events and its
// annotations, and the dispute listing says so too.
TEST_F(DeletedGameRecord, ADisputedGamesRecordDeletedLeavesEventsAndAnnotations) {
  testing::TempDir dir;
  const auto store = " --store " + dir.store();
  for (const std::string title : {"First", "Second"}) {
    ASSERT_EQ(testing::run_warlog("import '" + testing::retitled_sample(dir.path(), title).string() + "'" + store).code,
              0);
  }
  for (const std::string game : {"1", "2"}) {
    ASSERT_EQ(testing::run_warlog("dispute add --game " + game + " --seq 27 --claim 'Game " + game +
                                  " drew three' --by Alice" + store)
                  .code,
              0);
  }
  store::test::edit_raw(dir.store(), store::kDbGames, [](MDB_txn* txn, MDB_dbi dbi) {
    ASSERT_TRUE(store::lmdb::del(txn, dbi, store::view(store::game_key(2))).value());
  });
  const std::string said = "game 2: events and annotations (disputes, rulings, signatures) with no game record";
  const auto verify = testing::run_warlog("verify" + store);
  EXPECT_EQ(verify.code, 2);
  EXPECT_THAT(verify.out, HasSubstr(said));
  const auto list = testing::run_warlog("dispute list" + store);
  EXPECT_EQ(list.code, 2) << list.out << list.err;
  EXPECT_THAT(list.err, HasSubstr(said));
  EXPECT_THAT(list.out, HasSubstr("Game 1 drew three"));
  EXPECT_THAT(list.out, Not(HasSubstr("Game 2 drew three")));
}

}  // namespace
}  // namespace warlog
