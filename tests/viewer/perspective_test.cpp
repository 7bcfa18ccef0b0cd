// View › Seen as: the window shows what a seat (or the public) saw at an
// event: the other seat's hand as a count, its draws without their cards,
// everything public unchanged; the judge sees everything (replay/visibility.hpp).

#include <gtest/gtest.h>

#include <QLabel>
#include <QStatusBar>
#include <QTest>
#include <QTreeView>

#include <string>
#include <variant>

#include "main_window.hpp"
#include "sample_store.hpp"
#include "state_model.hpp"
#include "timeline_model.hpp"

namespace warlog::viewer {
namespace {

// The tooltip of the "Hand" row of a seat's section: the cards, one a line.
QString hand_cards(StateModel* model, core::Seat seat) {
  const QModelIndex section = model->index(StateModel::FirstSeatSection + seat, 0);
  for (int r = 0; r < model->rowCount(section); ++r) {
    const QModelIndex row = model->index(r, StateModel::Item, section);
    if (row.data().toString() == QStringLiteral("Hand")) return row.data(Qt::ToolTipRole).toString();
  }
  return QStringLiteral("<no Hand row>");
}

class PerspectiveTest : public ::testing::Test {
 protected:
  void SetUp() override {
    window_ = std::make_unique<MainWindow>(warlog::testing::shared_sample_archive());
    ASSERT_TRUE(window_->load_games());
    const auto opened = window_->open_game(warlog::testing::sample_store().first_blood);
    ASSERT_TRUE(opened) << opened.error().message;
    window_->show();
    window_->activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(window_.get()));
    ASSERT_TRUE(QTest::qWaitForWindowActive(window_.get()));
    // The first draw of Seat 1 that draws a card.
    GameSession& s = *window_->session();
    auto events = s.events(s.first_seq(), s.last_seq() + 1);
    ASSERT_TRUE(events) << events.error().message;
    for (const core::Event& e : *events) {
      const auto* d = std::get_if<core::CardsDrawn>(&e.payload);
      if (d != nullptr && e.seat == 0 && !d->cards.empty()) {
        draw_ = e;
        break;
      }
    }
    ASSERT_TRUE(draw_) << "the sample has a draw by Seat 1";
    s.go_to(draw_->seq);
  }
  void TearDown() override { window_.reset(); }

  [[nodiscard]] QString drawn_card() const {
    const auto& cards = std::get<core::CardsDrawn>(draw_->payload).cards;
    return QString::fromStdString(cards.front());
  }
  [[nodiscard]] QString draw_label() const {
    return window_->timeline_model()->index_of_seq(draw_->seq).data().toString();
  }

  std::unique_ptr<MainWindow> window_;
  std::optional<core::Event> draw_;
};

TEST_F(PerspectiveTest, TheJudgeSeesEveryHandAndEveryDraw) {
  EXPECT_EQ(window_->perspective(), replay::Perspective::Judge);
  EXPECT_TRUE(hand_cards(window_->state_model(), 0).contains(drawn_card())) << hand_cards(window_->state_model(), 0).toStdString();
  EXPECT_TRUE(draw_label().contains(drawn_card())) << draw_label().toStdString();
}

TEST_F(PerspectiveTest, CtrlTwoShowsSeatTwosViewOfSeatOnesHandAndDraw) {
  const QString own_hand = hand_cards(window_->state_model(), 1);
  QTest::keyClick(window_.get(), Qt::Key_2, Qt::ControlModifier);
  EXPECT_EQ(window_->perspective(), replay::Perspective::Seat2);
  const QString other = hand_cards(window_->state_model(), 0);
  EXPECT_FALSE(other.contains(drawn_card())) << other.toStdString();
  EXPECT_TRUE(other.contains(QString::fromUtf8(replay::kHiddenCard.data(), replay::kHiddenCard.size()))) << other.toStdString();
  EXPECT_EQ(hand_cards(window_->state_model(), 1), own_hand) << "Seat 2 sees its own hand";
  EXPECT_FALSE(draw_label().contains(drawn_card())) << draw_label().toStdString();
  EXPECT_EQ(window_->session()->seq(), draw_->seq) << "switching perspective stays at the event";
  const auto labels = window_->statusBar()->findChildren<QLabel*>();
  const bool said = std::any_of(labels.begin(), labels.end(), [](QLabel* l) { return l->text().startsWith("Seen as seat 2"); });
  EXPECT_TRUE(said) << "the status bar says who the game is seen as";

  QTest::keyClick(window_.get(), Qt::Key_1, Qt::ControlModifier);  // Seat 1 sees its own draw
  EXPECT_TRUE(hand_cards(window_->state_model(), 0).contains(drawn_card()));
  EXPECT_TRUE(draw_label().contains(drawn_card())) << draw_label().toStdString();
  QTest::keyClick(window_.get(), Qt::Key_3, Qt::ControlModifier);  // the public sees neither hand
  EXPECT_FALSE(hand_cards(window_->state_model(), 0).contains(drawn_card()));
  EXPECT_FALSE(draw_label().contains(drawn_card()));
  QTest::keyClick(window_.get(), Qt::Key_0, Qt::ControlModifier);
  EXPECT_TRUE(draw_label().contains(drawn_card()));
}

}  // namespace
}  // namespace warlog::viewer
