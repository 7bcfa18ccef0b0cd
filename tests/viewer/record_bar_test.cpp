// The record bar (issue 16, "In the viewer"): a line recorded from the bar is
// in the store and the timeline at once; a refused line writes nothing and
// keeps its text; completion is the Recorder's; Strict holds a violation
// until the dialog says yes; the bar and a `warlog record` process on one
// game each see the other's events.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <QCheckBox>
#include <QCompleter>
#include <QPlainTextEdit>
#include <QLineEdit>
#include <QProcess>
#include <QTest>
#include <QTreeView>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "main_window.hpp"
#include "record_bar.hpp"
#include "sample_lines.hpp"
#include "sample_store.hpp"
#include "temp_dir.hpp"
#include "timeline_model.hpp"

namespace warlog::viewer {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;

template <class F>
bool wait_until(F done, int ms = 5000) {
  for (int waited = 0; waited < ms; waited += 20) {
    if (done()) return true;
    QTest::qWait(20);
  }
  return done();
}

// The spine sample's header recorded as a new game in a store copy, played
// to Alice's Muster draw of turn 1: "Supply Wagon" and "Ironclaw Lancer" in
// her hand, seq 6 next.
class RecordBarTest : public ::testing::Test {
 protected:
  void SetUp() override {
    {
      auto archive = copy_.open();
      // The header in this test's own folder: /tmp is shared by every test
      // process ctest runs at once.
      const auto spine = warlog::testing::sample_lines(lines_.path(), "tutorial/spine_first_blood.wlog");
      header_ = spine.header;
      auto r = replay::Recorder::create(*archive, spine.header.string());
      ASSERT_TRUE(r.has_value()) << r.error().error.message;
      for (const char* line : {"Turn 1", "Morale 1", "Muster 1", "draw \"Supply Wagon\", \"Ironclaw Lancer\""}) {
        auto o = r->enter(line);
        ASSERT_TRUE(o && o->status == replay::LineStatus::Recorded) << line;
      }
      game_ = r->game();
      next_ = r->next_seq();
    }  // one environment per store per process: closed before the window opens it
    window_ = std::make_unique<MainWindow>(copy_.open());
    ASSERT_TRUE(window_->load_games());
    const auto opened = window_->open_game(game_);
    ASSERT_TRUE(opened) << opened.error().message;
    window_->show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(window_.get()));
  }
  void TearDown() override {
    window_.reset();
    std::error_code ec;
    std::filesystem::remove(header_, ec);
  }

  [[nodiscard]] RecordBar& bar() const { return *window_->record_bar(); }
  [[nodiscard]] GameSession& session() const { return *window_->session(); }
  [[nodiscard]] core::Seq stored() const { return session().archive()->game(game_).value().events; }
  void type_and_enter(const QString& line) {
    bar().line_edit()->setText(line);
    bar().submit();
  }

  warlog::testing::StoreCopy copy_{"record-bar"};
  warlog::testing::TempDir lines_;
  std::filesystem::path header_;
  core::GameId game_ = 0;
  core::Seq next_ = 0;
  std::unique_ptr<MainWindow> window_;
};

TEST_F(RecordBarTest, ALineRecordedFromTheBarIsInTheStoreAndTheTimeline) {
  ASSERT_TRUE(bar().line_edit()->isEnabled()) << bar().line_edit()->toolTip().toStdString();
  type_and_enter(QStringLiteral("forage \"Supply Wagon\""));
  EXPECT_EQ(bar().answer()->toPlainText().toStdString(), fmt::format("seq {} recorded", next_));
  EXPECT_TRUE(bar().line_edit()->text().isEmpty()) << "a recorded line is done with";
  EXPECT_EQ(stored(), next_ + 1);
  // At once, without the follow timer: the session stands at the new event.
  EXPECT_EQ(session().event_count(), next_ + 1);
  EXPECT_EQ(session().seq(), next_);
  EXPECT_TRUE(window_->timeline_model()->index_of_seq(next_).isValid());
  EXPECT_EQ(window_->timeline_model()->seq_at(window_->timeline_view()->currentIndex()), std::optional(next_));
}

TEST_F(RecordBarTest, ARefusedLineWritesNothingAndKeepsItsText) {
  const QString misspelt = QStringLiteral("play \"Ironclaw Lancr\" b1");
  type_and_enter(misspelt);
  const std::string answer = bar().answer()->toPlainText().toStdString();
  EXPECT_THAT(answer, HasSubstr("refused at column 6"));
  EXPECT_THAT(answer, HasSubstr("did you mean \"Ironclaw Lancer\"?"));
  EXPECT_EQ(bar().line_edit()->text(), misspelt) << "kept for editing";
  EXPECT_EQ(stored(), next_);
  EXPECT_EQ(session().event_count(), next_);
}

TEST_F(RecordBarTest, ACommandShowsItsTextAndRecordsNothing) {
  type_and_enter(QStringLiteral("hand 1"));
  EXPECT_THAT(bar().answer()->toPlainText().toStdString(), HasSubstr("Ironclaw Lancer"));
  EXPECT_EQ(stored(), next_);
}

TEST_F(RecordBarTest, CompletionOffersTheActingSeatsHandAfterPlay) {
  const QStringList offered = bar().completions(QStringLiteral("play \""));
  EXPECT_THAT(offered, Contains(QStringLiteral("play \"Ironclaw Lancer\"")));
  EXPECT_THAT(offered, Contains(QStringLiteral("play \"Supply Wagon\"")));
  EXPECT_EQ(offered.size(), 2) << "only the two cards in Alice's hand";
  // Typed into the bar: the completer pops up with the same lines.
  bar().line_edit()->setFocus();
  QTest::keyClicks(bar().line_edit(), QStringLiteral("play \"Iron"));
  ASSERT_TRUE(wait_until([&] { return bar().completer()->completionCount() > 0; }));
  EXPECT_EQ(bar().completer()->currentCompletion(), QStringLiteral("play \"Ironclaw Lancer\""));
  // Tab takes the only candidate, as at the terminal.
  QTest::keyClick(bar().line_edit(), Qt::Key_Tab);
  EXPECT_EQ(bar().line_edit()->text(), QStringLiteral("play \"Ironclaw Lancer\""));
  EXPECT_TRUE(bar().line_edit()->hasFocus()) << "Tab stays in the bar";
}

TEST_F(RecordBarTest, StrictHoldsAViolationUntilTheDialogSaysYes) {
  // A third card drawn in Muster (MUS-a.draw): the first card left in the deck.
  const QStringList deck = bar().completions(QStringLiteral("draw \""));
  ASSERT_FALSE(deck.isEmpty());
  const QString third = deck.front();
  bar().strict()->setChecked(true);
  int asked = 0;
  bool answer = false;
  QString shown;
  bar().set_confirm([&](const QString& findings) {
    ++asked;
    shown = findings;
    return answer;
  });
  type_and_enter(third);
  EXPECT_EQ(asked, 1);
  EXPECT_THAT(shown.toStdString(), HasSubstr("MUS-a.draw"));
  EXPECT_EQ(stored(), next_) << "no: nothing written";
  EXPECT_EQ(bar().line_edit()->text(), third);
  answer = true;
  bar().submit();
  EXPECT_EQ(asked, 2);
  EXPECT_EQ(stored(), next_ + 1) << "yes: recorded";
  EXPECT_THAT(bar().answer()->toPlainText().toStdString(), HasSubstr(fmt::format("seq {} recorded", next_)));
  EXPECT_THAT(bar().answer()->toPlainText().toStdString(), HasSubstr("MUS-a.draw"));
  // Without Strict nobody is asked: a fourth card is recorded with its finding.
  bar().strict()->setChecked(false);
  const QStringList left = bar().completions(QStringLiteral("draw \""));
  ASSERT_FALSE(left.isEmpty());
  type_and_enter(left.front());
  EXPECT_EQ(asked, 2);
  EXPECT_EQ(stored(), next_ + 2);
}

TEST_F(RecordBarTest, CtrlRFocusesTheBarAndEscapeGoesBackToTheTimeline) {
  window_->activateWindow();
  window_->timeline_view()->setFocus();
  QTest::keyClick(window_.get(), Qt::Key_R, Qt::ControlModifier);
  EXPECT_TRUE(bar().line_edit()->hasFocus());
  QTest::keyClick(bar().line_edit(), Qt::Key_Escape);
  EXPECT_TRUE(window_->timeline_view()->hasFocus());
}

// an ended game still takes a judge's backup, so the bar stays open
// and its tooltip says what it takes now.
TEST_F(RecordBarTest, AnEndedGameSaysOnlyABackupOrAVoidOfTheEndIsRecorded) {
  // spine_first_blood, imported whole, ends with `end 1 supremacy`.
  ASSERT_TRUE(window_->open_game(warlog::testing::sample_store().first_blood));
  EXPECT_TRUE(bar().line_edit()->isEnabled());
  EXPECT_THAT(bar().line_edit()->toolTip().toStdString(), HasSubstr("ended at seq"));
  EXPECT_THAT(bar().line_edit()->toolTip().toStdString(), HasSubstr("judge's backup"));
  ASSERT_TRUE(window_->open_game(game_));
  EXPECT_TRUE(bar().line_edit()->isEnabled());
}

TEST(RecordBarAlone, DisabledWithAReasonWhenNoGameIsOpen) {
  RecordBar bar;
  EXPECT_FALSE(bar.line_edit()->isEnabled());
  EXPECT_THAT(bar.line_edit()->toolTip().toStdString(), HasSubstr("No game is open"));
}

// One JSON answer of `warlog record --format jsonl`.
nlohmann::json answer_of(QProcess& cli, const std::string& line) {
  cli.write((line + "\n").c_str());
  while (!cli.canReadLine()) {
    if (!cli.waitForReadyRead(30000)) return {{"status", "no answer: " + cli.readAllStandardError().toStdString()}};
  }
  return nlohmann::json::parse(cli.readLine().toStdString());
}

TEST_F(RecordBarTest, TheBarAndAWarlogRecordProcessOnOneGameSeeEachOthersEvents) {
  QProcess cli;
  cli.start(QStringLiteral(WARLOG_CLI_PATH),
            {QStringLiteral("record"), QString::fromStdString(copy_.dir.string()), QStringLiteral("--game"),
             QString::number(game_), QStringLiteral("--format"), QStringLiteral("jsonl")});
  ASSERT_TRUE(cli.waitForStarted(30000));
  session().last();  // a viewer left at the end follows the end
  // The process records: the window follows (timer or file watcher).
  nlohmann::json a = answer_of(cli, "forage \"Supply Wagon\"");
  ASSERT_EQ(a["status"], "ok") << a.dump();
  EXPECT_TRUE(wait_until([&] { return session().event_count() == next_ + 1; }));
  EXPECT_EQ(session().seq(), next_) << "a viewer at the end follows the end";
  // The bar records after it, where the game now stands: no conflict.
  type_and_enter(QStringLiteral("play \"Ironclaw Lancer\" b1"));
  EXPECT_EQ(bar().answer()->toPlainText().toStdString(), fmt::format("seq {} recorded", next_ + 1));
  // The process learns of the bar's event on its next line.
  nlohmann::json b = answer_of(cli, "Muster 2");
  ASSERT_EQ(b["status"], "conflict") << b.dump();
  ASSERT_EQ(b["events"].size(), 1u);
  EXPECT_EQ(b["events"][0]["seq"], next_ + 1);
  b = answer_of(cli, "Muster 2");
  ASSERT_EQ(b["status"], "ok") << b.dump();
  // The bar enters a line before the window has looked (no event loop ran):
  // the conflict shows the process's event, reloads, keeps the line.
  const QString line = QStringLiteral("draw \"Grain Cart\", \"Coalition Pikeman\"");
  type_and_enter(line);
  EXPECT_THAT(bar().answer()->toPlainText().toStdString(),
              HasSubstr(fmt::format("conflict: another recorder recorded seq {} first", next_ + 2)));
  EXPECT_EQ(bar().line_edit()->text(), line);
  EXPECT_EQ(session().event_count(), next_ + 3) << "reloaded at once";
  EXPECT_EQ(session().seq(), next_ + 2);
  bar().submit();  // entered again: it still stands
  EXPECT_EQ(bar().answer()->toPlainText().toStdString(), fmt::format("seq {} recorded", next_ + 3));
  EXPECT_EQ(stored(), next_ + 4);
  cli.closeWriteChannel();
  ASSERT_TRUE(cli.waitForFinished(30000));
  EXPECT_EQ(cli.exitCode(), 0) << cli.readAllStandardError().toStdString();
}

}  // namespace
}  // namespace warlog::viewer
