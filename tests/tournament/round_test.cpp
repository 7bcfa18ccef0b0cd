// serve round open and serve results: one game per table with event, round
// and table in its GameCreated and the registered decks in its
// ArmyRegistered events; a round opened twice, an unknown player and bad
// pairings write nothing; results read the games (corrections applied,
// disputes, signatures).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include <nlohmann/json.hpp>

#include "event_fixture.hpp"
#include "warlog/core/notation.hpp"
#include "warlog/replay/disputes.hpp"
#include "warlog/replay/recorder.hpp"
#include "warlog/tournament/round.hpp"

namespace warlog::tournament {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::EventStore;
using testing::event_samples;

constexpr std::int64_t kNow = 1'764'000'000'000;  // 2025-11-24, any fixed time

std::string sample(const std::string& name) {
  std::ifstream in(event_samples() + "/" + name, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

struct RoundStore : EventStore {
  RoundStore() { register_samples(); }
  OpenedRound open(std::uint16_t round, const std::string& csv_name) {
    auto r = open_round(archive, round, sample(csv_name), csv_name, kNow);
    EXPECT_TRUE(r.has_value()) << (r ? "" : r.error().error.message);
    return r ? *r : OpenedRound{};
  }
  std::size_t games() const { return archive.game_ids()->size(); }
};

TEST(Round, OpeningRoundOneCreatesAGamePerTableWithTheEventRoundTableAndDecks) {
  RoundStore s;
  OpenedRound r = s.open(1, "round1.csv");
  ASSERT_EQ(r.games.size(), 2U);
  ASSERT_EQ(r.byes.size(), 1U);
  EXPECT_EQ(r.byes[0].player1, "Emil");
  EXPECT_EQ(r.games[0].table, 1);
  EXPECT_EQ(r.games[0].game, 1U);
  EXPECT_EQ(r.games[1].game, 2U);

  auto events = s.archive.events(r.games[0].game);
  ASSERT_TRUE(events.has_value());
  ASSERT_EQ(events->size(), 3U);  // GameCreated, two ArmyRegistered
  const auto& created = std::get<core::GameCreated>(events->front().payload);
  EXPECT_EQ(created.event, "Old Mill Open");
  EXPECT_EQ(created.round, 1);
  EXPECT_EQ(created.table, 1);
  EXPECT_EQ(created.title, "Old Mill Open, round 1, table 1");
  EXPECT_EQ(created.game_uuid.size(), 16U);
  EXPECT_EQ(created.seats[0].player, "Alice");
  EXPECT_EQ(created.seats[1].player, "Bruno");
  EXPECT_EQ(created.territories.size(), 2U);
  EXPECT_EQ(events->front().recorded_at_ms, kNow);

  auto reg = load_registry(s.archive);
  ASSERT_TRUE(reg && *reg);
  const auto& army = std::get<core::ArmyRegistered>((*events)[1].payload);
  EXPECT_EQ(army.army, (*reg)->find("Alice")->army);
  EXPECT_EQ(army.orders, (*reg)->find("Alice")->orders);

  // What round open wrote is what verify checks, and its setup is sound.
  for (const auto& g : r.games) {
    auto v = s.archive.verify(g.game);
    ASSERT_TRUE(v.has_value());
    EXPECT_TRUE(v->ok) << v->detail;
    auto audit = s.archive.audit(g.game);
    ASSERT_TRUE(audit.has_value());
    EXPECT_EQ(audit->violations(), 0U);
  }
  // The notation says it back: export, as any game.
  EXPECT_THAT(core::export_notation(*events), HasSubstr("[Event \"Old Mill Open\"]\n[Round 1]\n[Table 1]\n"));

  auto listed = event_games(s.archive, "Old Mill Open");
  ASSERT_TRUE(listed.has_value());
  ASSERT_EQ(listed->size(), 2U);
  EXPECT_EQ((*listed)[1].table, 2);
}

TEST(Round, ARoundOpenedTwiceIsRefusedAndWritesNothing) {
  RoundStore s;
  s.open(1, "round1.csv");
  auto again = open_round(s.archive, 1, sample("round1.csv"), "round1.csv", kNow);
  ASSERT_FALSE(again.has_value());
  EXPECT_EQ(again.error().error.code, ErrorCode::Conflict);
  EXPECT_EQ(again.error().error.message, "round 1 of Old Mill Open is open already: games 1-2");
  EXPECT_EQ(s.games(), 2U);
  // Round 2 is another round.
  OpenedRound two = s.open(2, "round2.csv");
  EXPECT_EQ(two.games.size(), 2U);
  EXPECT_EQ(s.games(), 4U);
}

TEST(Round, APlayerWithoutADecklistIsRefusedWithTheLineAndWritesNothing) {
  RoundStore s;
  auto r = open_round(s.archive, 1, "Table,Player 1,Player 2\n1,Alice,Bruno\n2,Chen,Zed\n", "r1.csv", kNow);
  ASSERT_FALSE(r.has_value());
  EXPECT_THAT(r.error().details,
              ElementsAre("r1.csv:3: expected a registered decklist for 'Zed' (table 2), found none"));
  EXPECT_EQ(s.games(), 0U);
}

TEST(Round, BadPairingsAreRefusedWithEveryLineAndWriteNothing) {
  RoundStore s;
  auto r = open_round(s.archive, 1, "Table,Player 1,Player 2\n1,Alice,\n1,Chen,Dara\n", "r1.csv", kNow);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().error.code, ErrorCode::InvalidArgument);
  EXPECT_THAT(r.error().details, ElementsAre(HasSubstr("r1.csv:2: expected player 2's name at table 1"),
                                             HasSubstr("r1.csv:3: expected each table once")));
  EXPECT_EQ(s.games(), 0U);
}

TEST(Round, WithoutARegistryNoRoundOpens) {
  EventStore s;
  auto r = open_round(s.archive, 1, sample("round1.csv"), "round1.csv", kNow);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().error.code, ErrorCode::NotFound);
}

// Results come from the games: at table 1 Alice draws three cards (Muster
// Phase › a. Draw cards) and concedes, a win for Bruno; a ruling on the draw
// closes its violation. At table 2 the end is voided, so the
// game is still being played, and a dispute there is open.
TEST(Results, TheRoundsResultsFollowTheFoldThroughCorrectionsAndTheDisputes) {
  RoundStore s;
  OpenedRound r = s.open(1, "round1.csv");
  auto enter = [&](core::GameId game, std::initializer_list<const char*> lines) {
    auto rec = replay::Recorder::open(s.archive, game);
    ASSERT_TRUE(rec.has_value()) << rec.error().message;
    for (const char* line : lines) {
      auto o = rec->enter(line);
      ASSERT_TRUE(o.has_value()) << o.error().message;
      ASSERT_EQ(o->status, replay::LineStatus::Recorded) << line << ": " << o->message;
    }
  };
  enter(r.games[0].game, {"Turn 1", "Morale 1", "Muster 1", "draw \"Supply Wagon\", \"Ironclaw Lancer\", \"Claw Musketeer\"",
                          "end 2 concession"});
  enter(r.games[1].game, {"Turn 1", "Morale 1", "end 1 concession", "void 5 \"wrong table\" by \"Ana\""});
  replay::NewDispute d;
  d.game = r.games[1].game;
  d.seq = 1;
  d.claim = "Chen's deck was not the one registered";
  d.raised_by = "Dara";
  d.created_at = "2026-12-05T10:00:00Z";
  ASSERT_TRUE(replay::add_dispute(s.archive, d).has_value());

  auto results = round_results(s.archive, "Old Mill Open", 1, replay::Keyring{});
  ASSERT_TRUE(results.has_value()) << results.error().message;
  ASSERT_EQ(results->size(), 2U);
  const TableResult& t1 = (*results)[0];
  EXPECT_EQ(t1.table, 1);
  EXPECT_EQ(t1.outcome.winner, 1);
  EXPECT_EQ(t1.outcome.victory, core::Victory::Concession);
  EXPECT_EQ(t1.outcome.turn, 1);
  EXPECT_EQ(t1.open_violations, 1U);  // MUS-a.draw at seq 6
  EXPECT_EQ(t1.open_disputes, 0U);
  EXPECT_EQ(t1.trust, replay::GameTrust::Verdict::Unsigned);
  const TableResult& t2 = (*results)[1];
  EXPECT_FALSE(t2.outcome.victory.has_value());  // the void struck the end
  EXPECT_EQ(t2.open_violations, 0U);
  EXPECT_EQ(t2.open_disputes, 1U);

  const std::string csv = results_csv(*results);
  EXPECT_EQ(csv,
            "table,game,player_1,player_2,result,winner,victory,turn,open_violations,open_disputes,signed\n"
            "1,1,Alice,Bruno,won,Bruno,concession,1,1,0,unsigned\n"
            "2,2,Chen,Dara,playing,,,1,0,1,unsigned\n");
  const nlohmann::json j = results_json("Old Mill Open", 1, *results);
  EXPECT_EQ(j["tables"][0]["outcome"]["player"], "Bruno");
  EXPECT_EQ(j["tables"][1]["result"], "playing");

  // A judge rules on the draw: no violation of table 1 is open any more.
  replay::NewDispute draw;
  draw.game = r.games[0].game;
  draw.seq = 6;
  draw.claim = "three cards drawn";
  draw.raised_by = "Bruno";
  draw.created_at = "2026-12-05T10:05:00Z";
  auto id = replay::add_dispute(s.archive, draw);
  ASSERT_TRUE(id.has_value()) << id.error().message;
  replay::NewRuling ruling;
  ruling.ruling = "Upheld: a warning";
  ruling.ruled_by = "Head Judge";
  ruling.ruled_at = "2026-12-05T10:07:00Z";
  ASSERT_TRUE(replay::resolve_dispute(s.archive, *id, ruling).has_value());
  auto after = round_results(s.archive, "Old Mill Open", 1, replay::Keyring{});
  ASSERT_TRUE(after.has_value());
  EXPECT_EQ((*after)[0].open_violations, 0U);
  EXPECT_EQ((*after)[0].open_disputes, 0U);

  auto none = round_results(s.archive, "Old Mill Open", 3, replay::Keyring{});
  ASSERT_FALSE(none.has_value());
  EXPECT_EQ(none.error().code, ErrorCode::NotFound);
}

// A table's result is on the turn the game was decided in: the long
// hedgerow, played at an event, is won by Tamsin's Attrition Victory at the
// end of its final turn 16, not on turn 22, the turn its log plays on to.
TEST(Results, AResultIsOnTheTurnTheGameWasDecidedInNotTheLastTurnPlayed) {
  EventStore s;
  const std::string samples = WARLOG_SAMPLES_DIR;
  std::ifstream in(samples + "/games/the_long_hedgerow.wlog", std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (auto at = text.find("\"../"); at != std::string::npos; at = text.find("\"../", at)) {
    text.replace(at, 4, "\"" + samples + "/");
  }
  const std::string title = "[Title \"The long hedgerow\"]\n";
  const auto at = text.find(title);
  ASSERT_NE(at, std::string::npos);
  text.insert(at + title.size(), "[Event \"Hedgerow Cup\"]\n[Round 1]\n[Table 3]\n");
  auto game = s.archive.import_file(s.file("hedgerow.wlog", text), {});
  ASSERT_TRUE(game.has_value()) << game.error().error.message;

  auto results = round_results(s.archive, "Hedgerow Cup", 1, replay::Keyring{});
  ASSERT_TRUE(results.has_value()) << results.error().message;
  ASSERT_EQ(results->size(), 1U);
  EXPECT_EQ((*results)[0].outcome.turn, 16);
  EXPECT_EQ((*results)[0].outcome.victory, core::Victory::Attrition);
  EXPECT_THAT(results_csv(*results), HasSubstr("\n3,1,Wren,Tamsin,won,Tamsin,attrition,16,"));
  EXPECT_EQ(results_json("Hedgerow Cup", 1, *results)["tables"][0]["outcome"]["turn"], 16);
}

}  // namespace
}  // namespace warlog::tournament
