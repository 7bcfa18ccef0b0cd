// warlog serve decks | round open | results | cert as the head judge runs
// them: exit codes, one line per problem on stderr, what stdout says.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "cli/cli_run.hpp"
#include "event_fixture.hpp"

namespace warlog::tournament {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using warlog::testing::CliResult;
using warlog::testing::run_warlog;
using warlog::testing::run_warlog_command;

struct Cli {
  warlog::testing::TempDir dir;
  std::string store = dir.store();
  std::string ev = testing::event_samples();
  CliResult run(const std::string& args) {
    return run_warlog(args, "WARLOG_KEYRING='" + (dir.path() / "keyring").string() + "'");
  }
};

std::size_t lines(const std::string& s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

TEST(ServeCli, DecksRoundAndResultsOnTheSampleEvent) {
  Cli c;
  auto decks = c.run("serve decks '" + c.store + "' '" + c.ev + "'");
  ASSERT_EQ(decks.code, 0) << decks.err;
  EXPECT_THAT(decks.out, HasSubstr("Old Mill Open: 5 decklists registered (5 new, 0 replaced)"));
  EXPECT_THAT(decks.out, HasSubstr("  Alice (Claw Empire): 30 + 10 Orders cards\n"));

  auto open = c.run("serve round open '" + c.store + "' --round 1 --pairings '" + c.ev + "/round1.csv'");
  ASSERT_EQ(open.code, 0) << open.err;
  EXPECT_THAT(open.out, HasSubstr("table 1: game 1 (Alice vs Bruno)\ntable 2: game 2 (Chen vs Dara)\n"));
  EXPECT_THAT(open.out, HasSubstr("table 3: Emil has a bye (no game)"));

  auto twice = c.run("serve round open '" + c.store + "' --round 1 --pairings '" + c.ev + "/round1.csv'");
  EXPECT_EQ(twice.code, 2);
  EXPECT_EQ(twice.err, "warlog: round 1 of Old Mill Open is open already: games 1-2\n");

  auto csv = c.run("serve results '" + c.store + "' --round 1");
  ASSERT_EQ(csv.code, 0) << csv.err;
  EXPECT_EQ(lines(csv.out), 3U);
  EXPECT_THAT(csv.out, HasSubstr("\n1,1,Alice,Bruno,playing,,,0,0,0,unsigned\n"));

  const auto json_file = c.dir.path() / "results.json";
  auto json = c.run("serve results '" + c.store + "' --round 1 --format json");
  ASSERT_EQ(json.code, 0) << json.err;
  testing::write_file(json_file, json.out);
  auto valid = run_warlog_command(std::string(WARLOG_PYTHON3) + " " + WARLOG_SOURCE_DIR +
                                  "/scripts/check-json-schema serve-results '" + json_file.string() + "'");
  EXPECT_EQ(valid.code, 0) << valid.out << valid.err;

  // The games verify like any other.
  auto verify = c.run("verify --store '" + c.store + "'");
  EXPECT_EQ(verify.code, 0) << verify.out << verify.err;
}

TEST(ServeCli, ADeckBreakingDeckConstructionExitsOneNamingItsRule) {
  Cli c;
  auto r = c.run("serve decks '" + c.store + "' --event '" + c.ev + "/event.wlog' '" + c.ev + "/refused/greedy.decklist'");
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.err, HasSubstr("greedy.decklist:4: Gus's decklist breaks Deck Construction › Card Rarity & Deck Limits "
                               "(DECK.rarity)"));
  EXPECT_THAT(r.err, HasSubstr("warlog: nothing registered: 2 decklist faults\n"));
  EXPECT_TRUE(r.out.empty());
  EXPECT_FALSE(std::filesystem::exists(std::filesystem::path(c.store) / "event.wlog"));
}

TEST(ServeCli, PairingsWithAMissingPlayerExitTwoWithTheLine) {
  Cli c;
  ASSERT_EQ(c.run("serve decks '" + c.store + "' '" + c.ev + "'").code, 0);
  const auto csv = c.dir.path() / "r1.csv";
  testing::write_file(csv, "Table,Player 1,Player 2\n1,Alice,Bruno\n2,,Dara\n");
  auto r = c.run("serve round open '" + c.store + "' --round 1 --pairings '" + csv.string() + "'");
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("r1.csv:3: expected player 1's name at table 2, found none\n"));
  EXPECT_THAT(r.err, HasSubstr("r1.csv: pairings refused\n"));
  auto results = c.run("serve results '" + c.store + "' --round 1");
  EXPECT_EQ(results.code, 2);
  EXPECT_EQ(results.err, "warlog: round 1 of Old Mill Open has no game (open it with warlog serve round open)\n");
}

TEST(ServeCli, CertPrintsTheCaFingerprintAndKeepsTheCaOnASecondRun) {
  Cli c;
  const std::string out = (c.dir.path() / "tls").string();
  auto first = c.run("serve cert --host 192.168.4.1 --out '" + out + "'");
  ASSERT_EQ(first.code, 0) << first.err;
  EXPECT_THAT(first.out, HasSubstr("made the certificate authority"));
  EXPECT_THAT(first.out, HasSubstr("CA SHA-256 fingerprint: "));
  auto second = c.run("serve cert --host 192.168.4.2 --out '" + out + "'");
  ASSERT_EQ(second.code, 0) << second.err;
  EXPECT_THAT(second.out, HasSubstr("kept the certificate authority"));
  const auto fp = [](const std::string& s) { return s.substr(s.find("fingerprint: "), 13 + 95); };
  EXPECT_EQ(fp(first.out), fp(second.out));
  auto bad = c.run("serve cert --host 'not a host' --out '" + out + "'");
  EXPECT_EQ(bad.code, 2);
  EXPECT_EQ(lines(bad.err), 1U);
  EXPECT_THAT(bad.out, Not(HasSubstr("fingerprint")));
}

}  // namespace
}  // namespace warlog::tournament
