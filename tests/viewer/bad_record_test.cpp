// One game record that cannot be read hides no other game from the viewer's
// list ("Trust the store" › one bad record): the others are listed and the
// status bar says how many could not be read, and why.

#include <gtest/gtest.h>

#include <QStatusBar>

#include <string>

#include "game_list_model.hpp"
#include "main_window.hpp"
#include "sample_store.hpp"
#include "warlog/store/keys.hpp"
#include "warlog/store/lmdb.hpp"

namespace warlog::viewer {
namespace {

// Cuts game `id`'s record in half, with the store closed.
void cut_record(const std::filesystem::path& dir, core::GameId id) {
  auto env = store::lmdb::Env::create();
  ASSERT_TRUE(env && env->set_maxdbs(16) && env->open(dir.c_str(), 0, 0644));
  auto txn = store::lmdb::Txn::begin(env->handle(), nullptr, 0);
  ASSERT_TRUE(txn);
  MDB_dbi games = 0;
  ASSERT_TRUE(store::lmdb::dbi_open(txn->handle(), store::kDbGames, 0, games).value());
  const auto key = store::game_key(id);
  auto value = store::lmdb::get(txn->handle(), games, store::view(key));
  ASSERT_TRUE(value && *value);
  const std::string cut((*value)->substr(0, (*value)->size() / 2));
  ASSERT_TRUE(store::lmdb::put(txn->handle(), games, store::view(key), cut, 0));
  ASSERT_TRUE(txn->commit());
}

TEST(ViewerBadRecord, TheOtherGamesAreListedAndTheStatusBarSaysWhy) {
  warlog::testing::StoreCopy copy{"badrecord"};
  cut_record(copy.dir, 2);
  MainWindow window(copy.open(replay::Archive::Mode::ReadOnly));
  ASSERT_TRUE(window.load_games());
  EXPECT_EQ(window.game_list_model()->rowCount(), static_cast<int>(warlog::testing::sample_store().games.size()) - 1);
  const QString message = window.statusBar()->currentMessage();
  EXPECT_TRUE(message.contains(QStringLiteral("1 game(s) could not be read"))) << message.toStdString();
  EXPECT_TRUE(message.contains(QStringLiteral("game 2"))) << message.toStdString();
}

}  // namespace
}  // namespace warlog::viewer
