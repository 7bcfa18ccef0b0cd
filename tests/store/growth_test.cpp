// The map grows on MDB_MAP_FULL, all or nothing, and never under a live Reader.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "store/store_fixtures.hpp"

namespace warlog::store {
namespace {

using test::as_stored;
using test::make_game;
using test::open_store;
using test::read_all;
using test::TempDir;
using ::testing::HasSubstr;

constexpr std::size_t kTiny = 64 * 1024;  // 16 pages of 4 KiB

TEST(StoreGrowth, ImportsThatOverflowATinyMapGrowItSeveralTimes) {
  TempDir dir;
  std::vector<std::vector<core::Event>> games;
  {
    auto store = open_store(dir.store(), Options{.map_size = kTiny});
    const std::size_t initial = store.map_size();
    EXPECT_LE(initial, 2 * kTiny);
    for (int g = 0; g < 4; ++g) {
      // 12,000 events a game: sealed blocks are compressed (~20 B an event).
      games.push_back(make_game("Growth " + std::to_string(g), 12000));
      auto id = store.import_game(games.back());
      ASSERT_TRUE(id) << id.error().message;
      EXPECT_EQ(*id, static_cast<core::GameId>(g + 1));
    }
    EXPECT_GE(store.map_size(), 16 * initial) << "at least four doublings";
    for (core::GameId id = 1; id <= 4; ++id) {
      EXPECT_EQ(read_all(store, id), as_stored(games[id - 1], id));
      EXPECT_TRUE(store.reader()->verify(id)->ok());
    }
  }
  // Reopened with the tiny option, the store keeps the size it grew to.
  auto store = open_store(dir.store(), Options{.map_size = kTiny});
  EXPECT_GE(store.map_size(), 16 * kTiny);
  EXPECT_EQ(read_all(store, 4).size(), 12001u);
  ASSERT_TRUE(store.import_game(make_game("After reopen", 3000)));
}

TEST(StoreGrowth, MapFullWithAReaderOpenIsAClearErrorAndNothingHalfWritten) {
  TempDir dir;
  auto store = open_store(dir.store(), Options{.map_size = kTiny});
  ASSERT_TRUE(store.import_game(make_game("Small", 10)));
  const auto big = make_game("Big", 5000);
  {
    auto reader = store.reader();
    ASSERT_TRUE(reader);
    auto id = store.import_game(big);
    ASSERT_FALSE(id);
    EXPECT_EQ(id.error().code, ErrorCode::ResourceExhausted);
    EXPECT_THAT(id.error().message, HasSubstr("reader(s) of it are open"));
    auto fresh = store.reader();  // a second reader, after the failure
    ASSERT_TRUE(fresh);
    EXPECT_EQ(fresh->game_ids().value(), std::vector<core::GameId>{1});
  }
  auto id = store.import_game(big);
  ASSERT_TRUE(id) << id.error().message;
  EXPECT_EQ(*id, 2u);
  EXPECT_TRUE(store.reader()->verify(2)->ok());
}

TEST(StoreGrowth, MapAtItsLimitIsResourceExhaustedAndTheStoreStillOpens) {
  TempDir dir;
  {
    auto store = open_store(dir.store(), Options{.map_size = kTiny, .max_map_size = 4 * kTiny});
    ASSERT_TRUE(store.import_game(make_game("Fits", 10)));
    auto id = store.import_game(make_game("Too big", 20'000));
    ASSERT_FALSE(id);
    EXPECT_EQ(id.error().code, ErrorCode::ResourceExhausted);
    EXPECT_THAT(id.error().message, HasSubstr("max_map_size"));
  }
  auto store = open_store(dir.store());
  auto r = store.reader();
  EXPECT_EQ(r->game_ids().value(), std::vector<core::GameId>{1});
  EXPECT_TRUE(r->verify(1)->ok());
}

}  // namespace
}  // namespace warlog::store
