// Pairings CSV: lenient about the columns a tournament tool exports (order,
// names, separators, extra columns), strict about what a game needs, every
// refusal with its line.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "warlog/tournament/pairings.hpp"

namespace warlog::tournament {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string sample(const std::string& name) {
  std::ifstream in(std::string(WARLOG_SAMPLES_DIR) + "/event/" + name, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

TEST(Pairings, TheSampleRoundOneExportReadsItsTablesAndBye) {
  auto r = parse_pairings(sample("round1.csv"), "round1.csv");
  ASSERT_TRUE(r.ok()) << r.errors.front();
  ASSERT_EQ(r.pairings.size(), 3U);
  EXPECT_EQ(r.pairings[0].table, 1);
  EXPECT_EQ(r.pairings[0].player1, "Alice");
  EXPECT_EQ(r.pairings[0].player2, "Bruno");
  EXPECT_EQ(r.pairings[1].line, 3U);
  EXPECT_TRUE(r.pairings[2].bye());
  EXPECT_EQ(r.pairings[2].player1, "Emil");
}

TEST(Pairings, ColumnsAreFoundByTheirNamesInAnyOrderWithQuotes) {
  auto r = parse_pairings(sample("round2.csv"), "round2.csv");
  ASSERT_TRUE(r.ok()) << r.errors.front();
  ASSERT_EQ(r.pairings.size(), 3U);
  EXPECT_EQ(r.pairings[1].table, 2);
  EXPECT_EQ(r.pairings[1].player1, "Dara");
  EXPECT_EQ(r.pairings[1].player2, "Emil");
}

TEST(Pairings, SemicolonsABomAndCrlfFromASpreadsheetAreTaken) {
  auto r = parse_pairings("\xEF\xBB\xBFTable No;Player A;Player B;Points\r\n 4 ; Alice ;Bruno;3\r\n", "r.csv");
  ASSERT_TRUE(r.ok()) << r.errors.front();
  ASSERT_EQ(r.pairings.size(), 1U);
  EXPECT_EQ(r.pairings[0].table, 4);
  EXPECT_EQ(r.pairings[0].player1, "Alice");
  EXPECT_EQ(r.pairings[0].player2, "Bruno");
}

TEST(Pairings, AMissingPlayerIsRefusedWithItsLine) {
  auto r = parse_pairings("Table,Player 1,Player 2\n1,Alice,Bruno\n2,Chen,\n", "r1.csv");
  EXPECT_THAT(r.errors, ElementsAre("r1.csv:3: expected player 2's name at table 2, found none (a bye is written BYE)"));
  EXPECT_TRUE(r.pairings.empty());
  auto short_row = parse_pairings("Table,Player 1,Player 2\n1,Alice\n", "r1.csv");
  EXPECT_THAT(short_row.errors, ElementsAre(HasSubstr("r1.csv:2: expected player 2's name at table 1")));
}

TEST(Pairings, ADuplicateTableIsRefusedNamingBothLines) {
  auto r = parse_pairings("Table,Player 1,Player 2\n1,Alice,Bruno\n1,Chen,Dara\n", "r1.csv");
  EXPECT_THAT(r.errors, ElementsAre("r1.csv:3: expected each table once, found table 1 again (first at line 2)"));
}

TEST(Pairings, APlayerAtTwoTablesOrAgainstThemselfIsRefused) {
  auto r = parse_pairings("Table,Player 1,Player 2\n1,Alice,Bruno\n2,alice,Dara\n3,Chen,CHEN\n", "r1.csv");
  EXPECT_THAT(r.errors, ElementsAre("r1.csv:3: expected each player once, found 'alice' again (first at line 2)",
                                    "r1.csv:4: expected two players at table 3, found 'Chen' against themself"));
}

TEST(Pairings, AMissingColumnOrABadTableNumberIsRefused) {
  auto no_table = parse_pairings("Round,Player 1,Player 2\n1,Alice,Bruno\n", "r.csv");
  EXPECT_THAT(no_table.errors, ElementsAre(HasSubstr("r.csv:1: expected a table column (\"Table\") in the header")));
  auto bad = parse_pairings("Table,Player 1,Player 2\nA1,Alice,Bruno\n0,Chen,Dara\n", "r.csv");
  EXPECT_THAT(bad.errors, ElementsAre("r.csv:2: expected a table number from 1 to 65535, found 'A1'",
                                      "r.csv:3: expected a table number from 1 to 65535, found '0'"));
  auto empty = parse_pairings("Table,Player 1,Player 2\n", "r.csv");
  EXPECT_THAT(empty.errors, ElementsAre("r.csv:1: expected a pairing after the header, found none"));
}

TEST(Pairings, AControlCharacterIsRefusedBeforeAnyRowIsRead) {
  auto r = parse_pairings(std::string("Table,Player 1,Player 2\n1,Al\x1b[2Jice,Bruno\n"), "r.csv");
  ASSERT_EQ(r.errors.size(), 1U);
  EXPECT_THAT(r.errors[0], HasSubstr("r.csv: expected text, found a control character"));
}

}  // namespace
}  // namespace warlog::tournament
