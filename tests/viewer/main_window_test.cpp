// The window under the offscreen platform: it shows, keys step, a click on a
// finding or a timeline row jumps there.

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QInputDialog>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QTimer>
#include <QTreeView>

#include "findings_model.hpp"
#include "game_list_model.hpp"
#include "main_window.hpp"
#include "sample_store.hpp"
#include "state_model.hpp"
#include "timeline_model.hpp"

namespace warlog::viewer {
namespace {

class MainWindowTest : public ::testing::Test {
 protected:
  void SetUp() override {
    window_ = std::make_unique<MainWindow>(warlog::testing::open_sample_archive());
    ASSERT_TRUE(window_->load_games());
    const auto opened = window_->open_game(warlog::testing::sample_store().first_blood);
    ASSERT_TRUE(opened) << opened.error().message;
    window_->show();
    window_->activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(window_.get()));
  }
  void TearDown() override { window_.reset(); }  // closes the store before the next test opens it

  [[nodiscard]] GameSession& session() const { return *window_->session(); }

  std::unique_ptr<MainWindow> window_;
};

TEST_F(MainWindowTest, ShowsTheGameListTimelineStateAndFindings) {
  EXPECT_EQ(window_->game_list_model()->rowCount(),
            static_cast<int>(warlog::testing::sample_store().games.size()));
  EXPECT_EQ(window_->game_list_view()->selectionModel()->selectedRows().size(), 1);
  EXPECT_GE(window_->timeline_model()->rowCount(), 3);
  EXPECT_EQ(window_->state_model()->rowCount(), StateModel::SectionCount);
  EXPECT_GT(window_->all_findings_model()->rowCount(), 0);
  EXPECT_TRUE(window_->timeline_view()->currentIndex().data(TimelineModel::IsCurrentRole).toBool());
  const QImage shot = window_->grab().toImage();
  EXPECT_FALSE(shot.isNull());
  EXPECT_GE(shot.width(), 800);
}

TEST_F(MainWindowTest, ModelsStayValidWhileTheWindowSteps) {
  QAbstractItemModelTester timeline(window_->timeline_model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
  QAbstractItemModelTester state(window_->state_model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
  QAbstractItemModelTester here(window_->findings_here_model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
  while (session().seq() < session().last_seq()) session().step(+1);
  while (session().seq() > session().first_seq()) session().step(-1);
  EXPECT_EQ(session().seq(), session().first_seq());
}

TEST_F(MainWindowTest, KeysStepJumpAndChangePhase) {
  ASSERT_TRUE(QTest::qWaitForWindowActive(window_.get()));
  QTest::keyClick(window_.get(), Qt::Key_Right);
  EXPECT_EQ(session().seq(), session().first_seq() + 1);
  QTest::keyClick(window_.get(), Qt::Key_Left);
  EXPECT_EQ(session().seq(), session().first_seq());
  QTest::keyClick(window_.get(), Qt::Key_End);
  EXPECT_EQ(session().seq(), session().last_seq());
  QTest::keyClick(window_.get(), Qt::Key_Home);
  EXPECT_EQ(session().seq(), session().first_seq());
  QTest::keyClick(window_.get(), Qt::Key_PageDown);
  EXPECT_TRUE(std::holds_alternative<core::PhaseStarted>(session().moment().event.payload));
  // The timeline follows: its current row is the event shown.
  EXPECT_EQ(window_->timeline_view()->currentIndex().data(TimelineModel::SeqRole).toULongLong(), session().seq());
  // Keys work while the timeline has focus, too.
  window_->timeline_view()->setFocus();
  const core::Seq before = session().seq();
  QTest::keyClick(window_->timeline_view(), Qt::Key_Right);
  EXPECT_EQ(session().seq(), before + 1);
}

TEST_F(MainWindowTest, ClickingAFindingJumpsToItsEvent) {
  QTableView* view = window_->all_findings_view();
  ASSERT_GT(view->model()->rowCount(), 0);
  // Show the tab the view is on, so that it has a geometry to click in.
  auto* tabs = qobject_cast<QTabWidget*>(view->parentWidget()->parentWidget());
  ASSERT_NE(tabs, nullptr);
  tabs->setCurrentWidget(view);
  const QModelIndex last = view->model()->index(view->model()->rowCount() - 1, FindingsModel::Message);
  const auto target = last.data(FindingsModel::SeqRole).toULongLong();
  ASSERT_NE(target, session().seq());

  QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(last).center());
  EXPECT_EQ(session().seq(), target);
  EXPECT_EQ(window_->timeline_view()->currentIndex().data(TimelineModel::SeqRole).toULongLong(), target);
  bool here = false;
  for (int r = 0; r < window_->findings_here_model()->rowCount(); ++r) {
    here |= window_->findings_here_model()->index(r, 0).data(FindingsModel::SeqRole).toULongLong() == target;
  }
  EXPECT_TRUE(here) << "the findings at the event list the finding clicked";
}

TEST_F(MainWindowTest, CtrlGAsksForASeqAndGoesThere) {
  ASSERT_TRUE(QTest::qWaitForWindowActive(window_.get()));
  bool answered = false;
  // The dialog is modal: answer it from the event loop it runs.
  QTimer::singleShot(0, [&] {
    auto* dialog = qobject_cast<QInputDialog*>(QApplication::activeModalWidget());
    ASSERT_NE(dialog, nullptr);
    dialog->setIntValue(20);
    dialog->accept();
    answered = true;
  });
  QTest::keyClick(window_.get(), Qt::Key_G, Qt::ControlModifier);
  EXPECT_TRUE(answered);
  EXPECT_EQ(session().seq(), 20u);
}

TEST_F(MainWindowTest, NextFindingKeyVisitsEachFindingsEvent) {
  std::vector<core::Seq> seqs;
  for (const auto& f : session().findings()) {
    if (f.finding.seq > session().seq()) seqs.push_back(f.finding.seq);
  }
  std::sort(seqs.begin(), seqs.end());
  seqs.erase(std::unique(seqs.begin(), seqs.end()), seqs.end());
  ASSERT_FALSE(seqs.empty());
  for (core::Seq seq : seqs) {
    window_->next_finding();
    EXPECT_EQ(session().seq(), seq);
  }
}

TEST_F(MainWindowTest, SelectingATimelineRowMovesTheGame) {
  const QModelIndex row = window_->timeline_model()->index_of_position(5);
  window_->timeline_view()->setCurrentIndex(row);
  EXPECT_EQ(session().position(), 5u);
  // A turn row jumps to that turn's first event.
  const QModelIndex turn1 = window_->timeline_model()->index(1, 0);
  window_->timeline_view()->setCurrentIndex(turn1);
  EXPECT_EQ(session().seq(), turn1.data(TimelineModel::SeqRole).toULongLong());
  EXPECT_TRUE(std::holds_alternative<core::TurnStarted>(session().moment().event.payload));
}

TEST_F(MainWindowTest, AnUnknownGameIsAnErrorAndKeepsTheGameShown) {
  const core::GameId shown = session().game().id;
  const auto opened = window_->open_game(987654);
  ASSERT_FALSE(opened);
  EXPECT_EQ(opened.error().code, ErrorCode::NotFound);
  EXPECT_EQ(session().game().id, shown);
}

TEST(MainWindowWithoutStore, ShowsASessionBuiltInCode) {
  MainWindow window;
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  EXPECT_FALSE(window.load_games());
  window.show_session(SessionData{});  // an empty game: nothing to step, no crash
  QTest::keyClick(&window, Qt::Key_Right);
  EXPECT_TRUE(window.session()->empty());
}

}  // namespace
}  // namespace warlog::viewer
