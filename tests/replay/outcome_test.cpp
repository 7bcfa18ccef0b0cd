// replay::outcome_of: a decided game's result is on the turn it was decided
// in, not the turn the fold reached. The long hedgerow's Attrition Victory
// at the end of its final turn 16 read "on turn 22" (the turn its log plays
// on to) in audit's text and JSON; the siege of the stone bridge's turn 15
// read 19. Audit text now says the result on a line of its own.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>

#include <nlohmann/json.hpp>

#include "temp_dir.hpp"
#include "warlog/replay/replay.hpp"
#include "warlog/replay/report.hpp"
#include "warlog/replay/rule_diff.hpp"

namespace warlog {
namespace {

using ::testing::HasSubstr;

const std::string kSamples = WARLOG_SAMPLES_DIR;

replay::GameAudit audit_of(const testing::TempDir& dir, const std::string& sample) {
  auto archive = replay::Archive::open(dir.store(), replay::Archive::Mode::ReadWrite);
  if (!archive) throw std::runtime_error(archive.error().message);
  auto game = archive->import_file(kSamples + "/games/" + sample, {});
  if (!game) throw std::runtime_error(sample + ": " + game.error().error.message);
  auto audit = archive->audit(game->id);
  if (!audit) throw std::runtime_error(audit.error().message);
  return std::move(*audit);
}

TEST(Outcome, TheLongHedgerowIsWonOnTurn16WhereItsLogPlaysOnTo22) {
  testing::TempDir dir;
  const replay::GameAudit a = audit_of(dir, "the_long_hedgerow.wlog");
  ASSERT_EQ(a.final_state.turn, 22) << "the log plays on to turn 22";
  const replay::Outcome o = replay::outcome_of(a.final_state);
  EXPECT_EQ(o.turn, 16);
  EXPECT_EQ(o.victory, core::Victory::Attrition);
  EXPECT_EQ(o.winner, 1);
  EXPECT_THAT(replay::audit_text(a), HasSubstr("\n  result: Seat 2 (Tamsin) wins by Attrition on turn 16\n"));
  const nlohmann::json result = replay::audit_json(a).at("result");
  EXPECT_EQ(result.at("turn"), 16);
  EXPECT_EQ(result.at("victory"), "attrition");
  EXPECT_EQ(result.at("text"), "Seat 2 (Tamsin) wins by Attrition on turn 16");
}

TEST(Outcome, TheSiegeOfTheStoneBridgeIsWonOnTurn15WhereItsLogPlaysOnTo19) {
  testing::TempDir dir;
  const replay::GameAudit a = audit_of(dir, "siege_of_stone_bridge.wlog");
  ASSERT_EQ(a.final_state.turn, 19);
  EXPECT_EQ(replay::outcome_of(a.final_state).turn, 15);
  EXPECT_THAT(replay::audit_text(a), HasSubstr("  result: Seat 2 (Irene) wins by Attrition on turn 15\n"));
}

// The result line comes right after the game's header line, also for a
// clean game decided where its log ends.
TEST(Outcome, AuditTextGivesEveryGameItsResultAfterItsHeader) {
  testing::TempDir dir;
  const replay::GameAudit a = audit_of(dir, "the_mill_road.wlog");
  const std::string text = replay::audit_text(a);
  const auto first_eol = text.find('\n');
  const std::string second_line = text.substr(first_eol + 1, text.find('\n', first_eol + 1) - first_eol);
  const nlohmann::json result = replay::audit_json(a).at("result");
  EXPECT_EQ(second_line, "  result: " + result.at("text").get<std::string>() + "\n");
  EXPECT_FALSE(result.at("victory").is_null()) << "every sample ends";
}

TEST(Outcome, AnUndecidedGameIsOnTheTurnTheFoldReached) {
  core::GameState s;
  s.turn = 12;
  EXPECT_EQ(replay::outcome_of(s), (replay::Outcome{core::kNoSeat, std::nullopt, 12}));
  // A concession is taken as recorded, with no decision of the fold's: the
  // turn of its GameEnded, where the fold stopped.
  s.winner = 0;
  s.victory = core::Victory::Concession;
  EXPECT_EQ(replay::outcome_of(s).turn, 12);
  s.victory = core::Victory::Supremacy;
  s.decided_at = 300;
  s.decided_turn = 9;
  EXPECT_EQ(replay::outcome_of(s).turn, 9);
}

}  // namespace
}  // namespace warlog
