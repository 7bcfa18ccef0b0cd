// Text on its way into the store ("Trust the store" › Hostile inputs): one
// invalid UTF-8 byte in a title used to be stored, and every JSON output of
// the whole store failed on it. import_game, import_games and append, the
// path every source goes through, refuse it naming the field.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "store/store_fixtures.hpp"

namespace warlog::store {
namespace {

using test::make_game;
using test::open_store;
using test::read_all;
using test::TempDir;
using ::testing::HasSubstr;

std::size_t game_count(const Store& store) {
  auto reader = store.reader();
  EXPECT_TRUE(reader.has_value());
  auto games = reader->games();
  EXPECT_TRUE(games.has_value());
  return games->size();
}

std::vector<core::Event> with_title(std::string title) {
  auto game = make_game("x", 3);
  std::get<core::GameCreated>(game[0].payload).title = std::move(title);
  return game;
}

TEST(StoreTextCheck, ImportRefusesAnInvalidUtf8TitleNamingTheField) {
  TempDir dir;
  auto store = open_store(dir.store());
  const auto r = store.import_game(with_title("Club \xff night"));
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, ErrorCode::InvalidArgument);
  EXPECT_EQ(r.error().message, "import: event 0: GameCreated.title: invalid UTF-8 (byte 0xff) at byte 5");
  EXPECT_EQ(game_count(store), 0u);
}

TEST(StoreTextCheck, ImportRefusesANulInAPlayerName) {
  TempDir dir;
  auto store = open_store(dir.store());
  auto game = make_game("x", 1);
  std::get<core::GameCreated>(game[0].payload).seats[1].player = std::string("Bo\0b", 4);
  const auto r = store.import_game(game);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().message, "import: event 0: GameCreated.seats[1].player: a control character (U+0000) at byte 2");
}

TEST(StoreTextCheck, ABatchRefusesOnlyTheGameWithBadText) {
  TempDir dir;
  auto store = open_store(dir.store());
  auto bad = make_game("bad", 3);
  std::get<core::CardsDrawn>(bad[2].payload).cards[0] = "Lancer\xc0\xaf";  // an overlong '/'
  const std::vector<std::vector<core::Event>> games = {make_game("good", 2), bad};
  const std::vector<std::span<const core::Event>> spans(games.begin(), games.end());
  const auto r = store.import_games(spans);
  ASSERT_TRUE(r.has_value()) << r.error().message;
  ASSERT_EQ(r->size(), 2u);
  EXPECT_TRUE((*r)[0].has_value());
  ASSERT_FALSE((*r)[1].has_value());
  EXPECT_THAT((*r)[1].error().message, HasSubstr("import: event 2: CardsDrawn.cards[0]: invalid UTF-8 (byte 0xc0)"));
  EXPECT_EQ(game_count(store), 1u);
}

TEST(StoreTextCheck, AppendRefusesAnEscapeInFreeTextAndWritesNothing) {
  TempDir dir;
  auto store = open_store(dir.store());
  const auto id = store.import_game(make_game("x", 2));
  ASSERT_TRUE(id.has_value());
  core::Event ev;
  ev.payload = core::AbilityUsed{core::Space{1, 1}, "Rally \x1b[2J"};
  const auto r = store.append(*id, 3, std::span<const core::Event>(&ev, 1));
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, ErrorCode::InvalidArgument);
  EXPECT_EQ(r.error().message, "append to game 1: event 0: AbilityUsed.ability: a control character (U+001B) at byte 6");
  EXPECT_EQ(read_all(store, *id).size(), 3u);
}

TEST(StoreTextCheck, TabsNewlinesAndAnyUnicodeAreStored) {
  TempDir dir;
  auto store = open_store(dir.store());
  const auto r = store.import_game(with_title("Élan\tNacht — 夜\nround 2 🐾"));
  ASSERT_TRUE(r.has_value()) << r.error().message;
}

}  // namespace
}  // namespace warlog::store
