// Issue 14: the viewer's disputes panel reads disputes through the replay
// facade, which now checks the game's annotation chain as it reads it. A
// ruling edited in place (its stored chain hash left as it was) is never
// shown: the panel is empty and the status bar says "trust: BROKEN at
// annotation N"; the game list still counts the other games' disputes.

#include <gtest/gtest.h>

#include <QStatusBar>

#include <string>

#include "disputes_model.hpp"
#include "game_list_model.hpp"
#include "main_window.hpp"
#include "sample_store.hpp"
#include "warlog/replay/disputes.hpp"
#include "warlog/store/annotations.hpp"
#include "warlog/store/keys.hpp"
#include "warlog/store/lmdb.hpp"

namespace warlog::viewer {
namespace {

// Replaces `from` with `to` (the same length) in game `id`'s annotation n,
// with the store closed, leaving its stored chain hash as it was.
void edit_in_place(const std::filesystem::path& dir, core::GameId id, std::uint64_t n, const std::string& from,
                   const std::string& to) {
  auto env = store::lmdb::Env::create();
  ASSERT_TRUE(env && env->set_maxdbs(16) && env->open(dir.c_str(), 0, 0644));
  auto txn = store::lmdb::Txn::begin(env->handle(), nullptr, 0);
  ASSERT_TRUE(txn);
  MDB_dbi annotations = 0;
  ASSERT_TRUE(store::lmdb::dbi_open(txn->handle(), store::kDbAnnotations, 0, annotations).value());
  const auto key = store::annotation_key(id, n);
  auto value = store::lmdb::get(txn->handle(), annotations, store::view(key));
  ASSERT_TRUE(value && *value);
  std::string bytes(**value);
  const auto at = bytes.find(from);
  ASSERT_NE(at, std::string::npos);
  bytes.replace(at, from.size(), to);
  ASSERT_TRUE(store::lmdb::put(txn->handle(), annotations, store::view(key), bytes, 0));
  ASSERT_TRUE(txn->commit());
}

int disputes_listed(const MainWindow& window, core::GameId id) {
  const auto& games = window.game_list_model()->games();
  for (std::size_t row = 0; row < games.size(); ++row) {
    if (games[row].id == id) {
      return window.game_list_model()->index(static_cast<int>(row), GameListModel::Disputes).data().toInt();
    }
  }
  return -1;
}

TEST(ViewerBrokenAnnotations, ARulingEditedInPlaceIsNeverShownAndOtherGamesKeepTheirCounts) {
  warlog::testing::StoreCopy copy{"brokenannotations"};
  {
    auto archive = copy.open();
    for (core::GameId g : {1, 2}) {
      ASSERT_TRUE(replay::add_dispute(*archive, {g, 1, "Bruno drew three cards", "Alice", {}, "", {}}));
    }
  }
  edit_in_place(copy.dir, 1, 0, "Bruno", "Bruna");
  MainWindow window(copy.open(replay::Archive::Mode::ReadOnly));
  ASSERT_TRUE(window.load_games());
  EXPECT_EQ(disputes_listed(window, 2), 1);
  EXPECT_NE(disputes_listed(window, 1), 1);

  ASSERT_TRUE(window.open_game(2));
  EXPECT_EQ(window.disputes_model()->rowCount(), 1);
  // Game 1's panel: nothing of the broken chain, not game 2's disputes left over.
  ASSERT_TRUE(window.open_game(1));
  EXPECT_EQ(window.disputes_model()->rowCount(), 0);
  const QString message = window.statusBar()->currentMessage();
  EXPECT_TRUE(message.contains(QStringLiteral("game 1: trust: BROKEN at annotation 0"))) << message.toStdString();
}

}  // namespace
}  // namespace warlog::viewer
