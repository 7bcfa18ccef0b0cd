// Store::import_games: many games in one transaction, each all or nothing;
// a store error writes nothing of the batch.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "store/store_fixtures.hpp"
#include "warlog/events/codec.hpp"

namespace warlog::store {
namespace {

using test::as_stored;
using test::make_game;
using test::open_store;
using test::read_all;
using test::TempDir;
using ::testing::HasSubstr;

using Games = std::vector<std::vector<core::Event>>;

std::vector<std::span<const core::Event>> spans(const Games& games) {
  return {games.begin(), games.end()};
}

TEST(StoreImportBatch, ImportsEveryGameWithConsecutiveIdsAndIntactChains) {
  TempDir dir;
  auto store = open_store(dir.store());
  ASSERT_TRUE(store.import_game(make_game("Before", 2)));
  const Games games = {make_game("North", 30), make_game("South", 1), make_game("East", 70)};
  auto ids = store.import_games(spans(games));
  ASSERT_TRUE(ids) << ids.error().message;
  ASSERT_EQ(ids->size(), 3u);
  for (std::size_t i = 0; i < games.size(); ++i) {
    ASSERT_TRUE((*ids)[i]) << (*ids)[i].error().message;
    const core::GameId id = 2 + i;
    EXPECT_EQ((*ids)[i]->id, id);
    EXPECT_EQ(read_all(store, id), as_stored(games[i], id));
    EXPECT_TRUE(store.reader()->verify(id)->ok());
  }
  // The next single import continues after the batch.
  EXPECT_EQ(store.import_game(make_game("After", 1)).value(), 5u);
}

// Store format 2 › 3: the same stream again is "already imported as game N",
// written nowhere, consuming no id; the same GameCreated with other moves is
// another game.
TEST(StoreImportBatch, AGameAlreadyStoredIsReportedWithItsIdAndSkippedWhole) {
  TempDir dir;
  auto store = open_store(dir.store());
  ASSERT_TRUE(store.import_game(make_game("Twice", 4)));
  const Games games = {make_game("One", 3), make_game("Twice", 4), make_game("Two", 3), make_game("Twice", 9)};
  auto ids = store.import_games(spans(games));
  ASSERT_TRUE(ids) << ids.error().message;
  EXPECT_EQ((*ids)[0].value(), (ImportedGame{2, false}));
  EXPECT_EQ((*ids)[1].value(), (ImportedGame{1, true}));
  EXPECT_EQ((*ids)[2].value(), (ImportedGame{3, false})) << "a skipped game consumes no id";
  EXPECT_EQ((*ids)[3].value(), (ImportedGame{4, false})) << "other moves: another game";
  auto r = store.reader();
  EXPECT_EQ(r->game_ids().value(), (std::vector<core::GameId>{1, 2, 3, 4}));
  EXPECT_EQ(r->game(1)->event_count, 5u) << "the stored game is untouched";
}

TEST(StoreImportBatch, TheSameGameTwiceInOneBatchIsStoredOnce) {
  TempDir dir;
  auto store = open_store(dir.store());
  const Games games = {make_game("Echo", 2), make_game("Echo", 2)};
  auto ids = store.import_games(spans(games));
  ASSERT_TRUE(ids) << ids.error().message;
  EXPECT_EQ((*ids)[0].value(), (ImportedGame{1, false}));
  EXPECT_EQ((*ids)[1].value(), (ImportedGame{1, true}));
  EXPECT_EQ(store.reader()->game_ids().value(), std::vector<core::GameId>{1});
}

TEST(StoreImportBatch, InvalidGamesAreSkippedAndLeaveNoEventBehind) {
  TempDir dir;
  auto store = open_store(dir.store());
  Games games = {make_game("Fine", 3), {}, make_game("Headless", 3), make_game("Big", 6), make_game("Last", 1)};
  games[2].erase(games[2].begin());
  // The over-size event is the game's last: earlier ones encode fine, and
  // must not be left in the store.
  std::get<core::CardsDrawn>(games[3].back().payload).cards.push_back(std::string(events::kMaxEventBytes, 'x'));
  auto ids = store.import_games(spans(games));
  ASSERT_TRUE(ids) << ids.error().message;
  EXPECT_EQ((*ids)[0].value().id, 1u);
  EXPECT_EQ((*ids)[1].error().code, ErrorCode::InvalidArgument);
  EXPECT_THAT((*ids)[2].error().message, HasSubstr("not GameCreated"));
  EXPECT_EQ((*ids)[3].error().code, ErrorCode::ResourceExhausted);
  EXPECT_EQ((*ids)[4].value().id, 2u);
  EXPECT_EQ(read_all(store, 2), as_stored(games[4], 2));
  // Nothing of "Big" under any id: its events would sit under game 2's keys.
  auto r = store.reader();
  EXPECT_EQ(r->game_ids().value(), (std::vector<core::GameId>{1, 2}));
  EXPECT_TRUE(r->verify(2)->ok());
  auto raw = r->scan_raw(2, 0, kEndSeq, [](core::Seq, std::string_view) { return true; });
  EXPECT_EQ(raw.value(), 2u);
}

TEST(StoreImportBatch, ARefusedGameDoesNotMakeItsTwinAlreadyStored) {
  TempDir dir;
  auto store = open_store(dir.store());
  Games games = {make_game("Twin", 2), make_game("Twin", 2), make_game("Other", 1)};
  std::get<core::CardsDrawn>(games[0].back().payload).cards.push_back(std::string(events::kMaxEventBytes, 'x'));
  auto ids = store.import_games(spans(games));
  ASSERT_TRUE(ids) << ids.error().message;
  EXPECT_EQ((*ids)[0].error().code, ErrorCode::ResourceExhausted);
  EXPECT_EQ((*ids)[1].value(), (ImportedGame{1, false})) << "the first Twin was never stored";
  EXPECT_EQ((*ids)[2].value().id, 2u);
  EXPECT_EQ(read_all(store, 1), as_stored(games[1], 1));
}

TEST(StoreImportBatch, AStoreErrorWritesNothingOfTheBatch) {
  TempDir dir;
  constexpr std::size_t kSmall = 256 * 1024;
  auto store = open_store(dir.store(), Options{.map_size = kSmall, .max_map_size = kSmall});
  ASSERT_TRUE(store.import_game(make_game("Resident", 2)));
  // Fits the map alone, not together: the map may not grow past its limit.
  const Games games = {make_game("Small", 5), make_game("Huge", 20'000)};
  auto ids = store.import_games(spans(games));
  ASSERT_FALSE(ids);
  EXPECT_EQ(ids.error().code, ErrorCode::ResourceExhausted);
  EXPECT_EQ(store.reader()->game_ids().value(), std::vector<core::GameId>{1}) << "not even the game that fitted";
  EXPECT_EQ(store.import_game(make_game("Small", 5)).value(), 2u) << "the store still works";
}

TEST(StoreImportBatch, AnEmptyBatchWritesNothing) {
  TempDir dir;
  auto store = open_store(dir.store());
  auto ids = store.import_games({});
  ASSERT_TRUE(ids) << ids.error().message;
  EXPECT_TRUE(ids->empty());
  EXPECT_TRUE(store.reader()->game_ids().value().empty());
}

}  // namespace
}  // namespace warlog::store
