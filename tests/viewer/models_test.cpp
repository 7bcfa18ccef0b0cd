// Every item model passes QAbstractItemModelTester on the sample games, and
// maps what it is given to the rows and columns it promises.

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>

#include "findings_model.hpp"
#include "game_list_model.hpp"
#include "game_session.hpp"
#include "sample_store.hpp"
#include "state_model.hpp"
#include "timeline_model.hpp"

namespace warlog::viewer {
namespace {

using Tester = QAbstractItemModelTester;
constexpr auto kFatal = QAbstractItemModelTester::FailureReportingMode::Fatal;

SessionData first_blood() {
  auto archive = warlog::testing::open_sample_archive();
  auto data = load_session(archive, warlog::testing::sample_store().first_blood);
  if (!data) throw std::runtime_error(data.error().message);
  return std::move(*data);
}

std::vector<core::Seq> seqs_of(const std::vector<replay::LocatedFinding>& findings) {
  std::vector<core::Seq> out;
  for (const auto& f : findings) out.push_back(f.finding.seq);
  return out;
}

TEST(GameListModel, PassesTheModelTesterAndSortsThroughAProxy) {
  GameListModel model;
  Tester tester(&model, kFatal);
  QSortFilterProxyModel sorted;
  sorted.setSourceModel(&model);
  sorted.setSortRole(GameListModel::SortRole);
  Tester proxy_tester(&sorted, kFatal);

  auto archive = warlog::testing::open_sample_archive();
  auto games = archive.games();
  ASSERT_TRUE(games) << games.error().message;
  const auto n = games->size();
  model.set_games(std::move(*games));
  ASSERT_EQ(model.rowCount(), static_cast<int>(n));

  const int row = model.row_of(warlog::testing::sample_store().first_blood);
  ASSERT_GE(row, 0);
  EXPECT_EQ(model.index(row, GameListModel::Title).data().toString(), QStringLiteral("First blood at the Old Mill"));
  EXPECT_EQ(model.index(row, GameListModel::Date).data().toString(), QStringLiteral("2026-03-14"));
  EXPECT_EQ(model.index(row, GameListModel::Players).data().toString(),
            QStringLiteral("Alice (Claw Empire) vs Bruno (Paw Coalition)"));
  EXPECT_GT(model.index(row, GameListModel::Events).data().toULongLong(), 20u);

  sorted.sort(GameListModel::Events, Qt::DescendingOrder);
  for (int r = 1; r < sorted.rowCount(); ++r) {
    EXPECT_GE(sorted.index(r - 1, GameListModel::Events).data(GameListModel::SortRole).toULongLong(),
              sorted.index(r, GameListModel::Events).data(GameListModel::SortRole).toULongLong());
  }
}

TEST(TimelineModel, PassesTheModelTesterWhileTheCurrentEventMoves) {
  const SessionData data = first_blood();
  TimelineModel model;
  Tester tester(&model, kFatal);
  model.set_game(data.events, data.game.seats, seqs_of(data.findings));

  // Setup, Turn 1, Turn 2 (the sample ends in turn 2).
  ASSERT_GE(model.rowCount(), 3);
  EXPECT_EQ(model.index(0, 0).data().toString(), QStringLiteral("Before turn 1"));
  EXPECT_EQ(model.index(1, 0).data().toString(), QStringLiteral("Turn 1"));

  for (std::size_t pos = 0; pos < data.events.size(); ++pos) {
    model.set_current(pos);
    const QModelIndex row = model.index_of_position(pos);
    ASSERT_TRUE(row.isValid());
    EXPECT_EQ(row.data(TimelineModel::KindRole).toInt(), static_cast<int>(TimelineModel::Kind::Event));
    EXPECT_EQ(row.data(TimelineModel::SeqRole).toULongLong(), data.events[pos].seq);
    EXPECT_TRUE(row.data(TimelineModel::IsCurrentRole).toBool());
    EXPECT_TRUE(row.parent().data(TimelineModel::IsCurrentRole).toBool());  // its phase
    EXPECT_TRUE(row.data().toString().startsWith(QStringLiteral("seq %1  ").arg(data.events[pos].seq)));
    if (pos > 0) {
      EXPECT_FALSE(model.index_of_position(pos - 1).data(TimelineModel::IsCurrentRole).toBool());
    }
  }

  // The findings column counts every finding once, summed up the tree.
  int total = 0;
  for (int r = 0; r < model.rowCount(); ++r) total += model.index(r, 0).data(TimelineModel::FindingsRole).toInt();
  EXPECT_EQ(total, static_cast<int>(data.findings.size()));
}

TEST(StateModel, PassesTheModelTesterAtEveryMomentOfAGame) {
  SessionData data = first_blood();
  StateModel model;
  Tester tester(&model, kFatal);
  const core::Context ctx{data.catalog, data.ruleset};
  int troops_seen = 0;
  for (const core::Event& ev : data.events) {
    const replay::Moment m = replay::moment_at(ctx, data.events, ev.seq);
    model.set_state(m.state, data.catalog, data.ruleset);
    ASSERT_EQ(model.rowCount(), StateModel::SectionCount);
    const QModelIndex field = model.find(StateModel::FirstSeatSection, QStringLiteral("Morale total"), StateModel::Value);
    ASSERT_TRUE(field.isValid());
    EXPECT_EQ(field.data(StateModel::RawValueRole).toInt(), core::morale_total(m.state, 0, data.catalog));
    troops_seen = std::max(troops_seen, model.rowCount(model.index(StateModel::BattlefieldSection, 0)));
  }
  EXPECT_GT(troops_seen, 0);

  model.clear();
  EXPECT_EQ(model.rowCount(), 0);
}

TEST(StateModel, ShowsTroopsWithSpaceCardOwnerAndBadges) {
  SessionData data = first_blood();
  const core::Context ctx{data.catalog, data.ruleset};
  // After Alice plays her Lancer on b1 in turn 1 it is still mustering.
  std::optional<core::Seq> played;
  for (const auto& ev : data.events) {
    if (const auto* p = std::get_if<core::CardPlayed>(&ev.payload); p && p->card == "Ironclaw Lancer") {
      played = ev.seq;
      break;
    }
  }
  ASSERT_TRUE(played);
  StateModel model;
  model.set_state(replay::moment_at(ctx, data.events, *played).state, data.catalog, data.ruleset);
  const QModelIndex troop = model.find(StateModel::BattlefieldSection, QStringLiteral("b1"));
  ASSERT_TRUE(troop.isValid());
  auto cell = [&](int column) { return troop.siblingAtColumn(column).data().toString(); };
  EXPECT_EQ(cell(StateModel::Value), QStringLiteral("Ironclaw Lancer"));
  EXPECT_EQ(cell(StateModel::Owner), QStringLiteral("Alice"));
  EXPECT_TRUE(cell(StateModel::Condition).startsWith(QStringLiteral("Vitality 3/3"))) << cell(StateModel::Condition).toStdString();
  EXPECT_TRUE(cell(StateModel::Status).contains(QStringLiteral("mustering"))) << cell(StateModel::Status).toStdString();
}

TEST(FindingsModel, PassesTheModelTesterOnTheGamesAudit) {
  SessionData data = first_blood();
  FindingsModel model;
  Tester tester(&model, kFatal);
  model.set_findings(data.findings, data.game.seats);
  ASSERT_EQ(model.rowCount(), static_cast<int>(data.findings.size()));
  ASSERT_GT(model.rowCount(), 0) << "the sample has a deliberate violation";

  // The deliberate violation: Bruno draws three cards in turn 2.
  int draw_row = -1;
  for (int r = 0; r < model.rowCount(); ++r) {
    if (model.index(r, 0).data(FindingsModel::RuleIdRole).toString() == QStringLiteral("MUS-a.draw")) draw_row = r;
  }
  ASSERT_GE(draw_row, 0);
  auto cell = [&](int column) { return model.index(draw_row, column).data().toString(); };
  EXPECT_EQ(cell(FindingsModel::Turn), QStringLiteral("2"));
  EXPECT_EQ(cell(FindingsModel::Seat), QStringLiteral("Bruno"));
  EXPECT_EQ(cell(FindingsModel::Severity), QStringLiteral("violation"));
  EXPECT_TRUE(cell(FindingsModel::Citation).contains(QStringLiteral("Muster Phase"))) << cell(FindingsModel::Citation).toStdString();
  EXPECT_FALSE(cell(FindingsModel::Message).isEmpty());
  EXPECT_TRUE(model.index(draw_row, FindingsModel::Rule).data(Qt::ToolTipRole).toString().contains(QStringLiteral("2 cards")));

  model.set_findings({}, {});
  EXPECT_EQ(model.rowCount(), 0);
}

}  // namespace
}  // namespace warlog::viewer
