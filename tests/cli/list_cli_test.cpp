// warlog list: a result column, the result each game's log records (its
// 'end' line), as the JSON's "result" has it; the text list had none.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/cli_run.hpp"
#include "temp_dir.hpp"

namespace warlog {
namespace {

using ::testing::HasSubstr;

std::string line_with(const std::string& text, const std::string& what) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.find(what) != std::string::npos) return line;
  }
  return "";
}

TEST(ListCli, EachGameShowsTheResultItsLogRecords) {
  testing::TempDir dir;
  const std::string store = " --store " + dir.store();
  // The spine sample without its 'end' line: a game still being played.
  const auto playing = testing::retitled_sample(dir.path(), "Still at the Old Mill");
  std::string text = testing::slurp(playing);
  const std::string end = "end 1 supremacy\n";
  ASSERT_NE(text.find(end), std::string::npos);
  text.erase(text.find(end), end.size());
  std::ofstream(playing) << text;
  const std::string hedgerow = std::string(WARLOG_SAMPLES_DIR) + "/games/the_long_hedgerow.wlog";
  ASSERT_EQ(testing::run_warlog("import" + store + " " + hedgerow + " '" + playing.string() + "'").code, 0);

  const auto r = testing::run_warlog("list" + store);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(line_with(r.out, "game  date"), HasSubstr("  title  "));
  EXPECT_THAT(line_with(r.out, "game  date"), HasSubstr("  result (recorded)  "));
  // Recorded as a Supremacy on turn 22: the log's word (audit gives the
  // Attrition Victory of turn 16 the rules derive).
  EXPECT_THAT(line_with(r.out, "The long hedgerow"), HasSubstr("  Supremacy Victory for Tamsin on turn 22  "));
  EXPECT_THAT(line_with(r.out, "Still at the Old Mill"), HasSubstr("  none recorded  "));
  // The column lines up under its header.
  EXPECT_EQ(line_with(r.out, "The long hedgerow").find("Supremacy"), line_with(r.out, "game  date").find("result"));

  const auto j = testing::run_warlog("list --format json" + store);
  ASSERT_EQ(j.code, 0) << j.err;
  const auto games = nlohmann::json::parse(j.out).at("games");
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(games[0].at("result").at("text"), "Seat 2 (Tamsin) wins by Supremacy on turn 22");
  EXPECT_TRUE(games[1].at("result").is_null());
}

}  // namespace
}  // namespace warlog
