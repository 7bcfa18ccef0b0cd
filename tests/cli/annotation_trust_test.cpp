// Issue 14, what an attacker's trial found still open on main: the verbs that
// read disputes, rulings and signatures trust what the bytes say now.
//  - A ruling edited in place (its stored chain hash left as it was) was
//    listed and shown by `dispute list` and `dispute show` as if ruled; only
//    verify objected. Now they check the game's annotation chain as they read
//    it: "game 1: trust: BROKEN at annotation 1", none of that game's
//    disputes, exit 2; the other games' disputes are still listed.
//  - Annotations stored under a game id with no game record passed verify
//    (it looked for events only) and made `dispute list` fail for every
//    game. Now verify reports them (BROKEN, exit 2) and dispute list names
//    them and carries on.
// Each store is made as the judge's tools make it, then edited with raw LMDB
// as an attacker with write access would (store_fixtures.hpp).

#include <vector>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/cli_run.hpp"
#include "store/store_fixtures.hpp"
#include "warlog/store/annotations.hpp"

namespace warlog {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class AnnotationTrust : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const std::string title : {"First", "Second", "Third"}) {
      const auto file = testing::retitled_sample(dir_.path(), title);
      ASSERT_EQ(run("import '" + file.string() + "'").code, 0);
    }
    // Game 1: a dispute and its ruling (annotations #0, #1); game 2: a dispute.
    ASSERT_EQ(run("dispute add --game 1 --seq 27 --claim 'Bruno drew three cards' --by Alice").code, 0);
    ASSERT_EQ(run("dispute resolve 1:27:0 --ruling 'Two cards per Muster Phase' --by Carla").code, 0);
    ASSERT_EQ(run("dispute add --game 2 --seq 27 --claim 'The Archer was Lost' --by Dan").code, 0);
  }
  testing::CliResult run(const std::string& verb) { return testing::run_warlog(verb + " --store " + dir_.store()); }

  // The ruling's text edited in place, as a forger who leaves the chain be:
  // "Two cards" becomes "Six cards" (the value still decodes).
  void edit_ruling_in_place() {
    store::test::edit_raw(dir_.store(), store::kDbAnnotations, [](MDB_txn* txn, MDB_dbi dbi) {
      const auto key = store::annotation_key(1, 1);
      auto v = store::lmdb::get(txn, dbi, store::view(key));
      ASSERT_TRUE(v && *v);
      std::string value(**v);
      const auto at = value.find("Two cards");
      ASSERT_NE(at, std::string::npos);
      value.replace(at, 3, "Six");
      store::test::put_raw(txn, dbi, store::view(key), value);
    });
  }
  // Game 2's dispute copied under game id 9, which has no game record.
  void orphan_annotation() {
    store::test::edit_raw(dir_.store(), store::kDbAnnotations, [](MDB_txn* txn, MDB_dbi dbi) {
      auto v = store::lmdb::get(txn, dbi, store::view(store::annotation_key(2, 0)));
      ASSERT_TRUE(v && *v);
      store::test::put_raw(txn, dbi, store::view(store::annotation_key(9, 0)), std::string(**v));
    });
  }

  testing::TempDir dir_;
};

TEST_F(AnnotationTrust, DisputeListRefusesAGameWhoseRulingWasEditedInPlaceAndListsTheOthers) {
  edit_ruling_in_place();
  const auto r = run("dispute list");
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_EQ(testing::count_lines(r.err), 1u) << r.err;
  EXPECT_THAT(r.err, HasSubstr("warlog: game 1: trust: BROKEN at annotation 1: its stored chain hash"));
  EXPECT_THAT(r.out, Not(HasSubstr("Six cards")));
  EXPECT_THAT(r.out, Not(HasSubstr("1:27:0")));
  EXPECT_THAT(r.out, HasSubstr("2:27:0"));
  EXPECT_THAT(r.out, HasSubstr("The Archer was Lost"));

  const auto json = run("dispute list --format json");
  EXPECT_EQ(json.code, 2) << json.err;
  EXPECT_THAT(json.err, HasSubstr("game 1: trust: BROKEN at annotation 1"));
  const auto disputes = nlohmann::json::parse(json.out).at("disputes");
  ASSERT_EQ(disputes.size(), 1u);
  EXPECT_EQ(disputes[0]["id"], "2:27:0");

  // Asked for by --game, the same: the broken game refused, the other listed.
  const auto both = run("dispute list --game 1 --game 2");
  EXPECT_EQ(both.code, 2);
  EXPECT_THAT(both.err, HasSubstr("game 1: trust: BROKEN at annotation 1"));
  EXPECT_THAT(both.out, HasSubstr("2:27:0"));
}

TEST_F(AnnotationTrust, DisputeShowAndExportTestRefuseTheEditedRuling) {
  edit_ruling_in_place();
  for (const std::string& verb : std::vector<std::string>{"dispute show 1:27:0", "dispute show 1:27:0 --format json",
                                 "dispute export-test 1:27:0 --out '" + (dir_.path() / "cases").string() + "'"}) {
    const auto r = run(verb);
    EXPECT_EQ(r.code, 2) << verb << "\n" << r.out << r.err;
    EXPECT_EQ(testing::count_lines(r.err), 1u) << verb << "\n" << r.err;
    EXPECT_THAT(r.err, HasSubstr("game 1: trust: BROKEN at annotation 1")) << verb;
    EXPECT_THAT(r.out, Not(HasSubstr("Six cards"))) << verb;
  }
  // Nothing is ruled on top of a broken chain either; the sound game still shows.
  EXPECT_EQ(run("dispute resolve 1:27:0 --ruling 'Again' --by Carla --supersede").code, 2);
  const auto other = run("dispute show 2:27:0");
  EXPECT_EQ(other.code, 0) << other.err;
  EXPECT_THAT(other.out, HasSubstr("The Archer was Lost"));
}

TEST_F(AnnotationTrust, VerifyReportsAnnotationsWithNoGameRecord) {
  orphan_annotation();
  const auto r = run("verify");
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("game 9: BROKEN at seq 0: game 9: annotations (disputes, rulings or signatures) "
                               "with no game record"));
  for (const std::string ok : {"game 1: ok", "game 2: ok", "game 3: ok"}) EXPECT_THAT(r.out, HasSubstr(ok));
  // JSON: the same game, not ok.
  const auto json = run("verify --format json");
  EXPECT_EQ(json.code, 2);
  const auto games = nlohmann::json::parse(json.out).at("games");
  ASSERT_EQ(games.size(), 4u);
  EXPECT_EQ(games[3]["game"], 9);
  EXPECT_EQ(games[3]["ok"], false);
}

TEST_F(AnnotationTrust, DisputeListNamesAnnotationsWithNoGameRecordAndListsTheRest) {
  orphan_annotation();
  const auto r = run("dispute list");
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_EQ(testing::count_lines(r.err), 1u) << r.err;
  EXPECT_THAT(r.err, HasSubstr("game 9: annotations (disputes, rulings or signatures) with no game record"));
  EXPECT_THAT(r.out, HasSubstr("1:27:0"));
  EXPECT_THAT(r.out, HasSubstr("Two cards per Muster Phase"));
  EXPECT_THAT(r.out, HasSubstr("2:27:0"));
  EXPECT_THAT(r.out, Not(HasSubstr("9:27:0")));
}

}  // namespace
}  // namespace warlog
