#include "record_bar.hpp"

#include <QAbstractItemView>
#include <QCheckBox>
#include <QCompleter>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QStringListModel>
#include <QVBoxLayout>

#include <fmt/format.h>

#include "warlog/replay/report.hpp"
#include "warlog/store/store.hpp"

namespace warlog::viewer {


RecordBar::RecordBar(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("recordBar"));
  line_ = new QLineEdit;
  line_->setObjectName(QStringLiteral("recordLine"));
  line_->setPlaceholderText(tr("Record: one action per line, as in the notation (Tab completes, 'help' for help)"));
  line_->installEventFilter(this);
  strict_ = new QCheckBox(tr("Strict"));
  strict_->setToolTip(tr("Ask before recording a line that breaks a rule"));
  answer_ = new QPlainTextEdit;
  answer_->setObjectName(QStringLiteral("recordAnswer"));
  answer_->setReadOnly(true);
  answer_->setLineWrapMode(QPlainTextEdit::NoWrap);
  answer_->setFrameShape(QFrame::NoFrame);
  answer_->setFocusPolicy(Qt::ClickFocus);
  QFont mono(QStringLiteral("monospace"));
  mono.setStyleHint(QFont::TypeWriter);
  answer_->setFont(mono);
  answer_->setFixedHeight(answer_->fontMetrics().lineSpacing() * 5 + 8);

  candidates_ = new QStringListModel(this);
  completer_ = new QCompleter(candidates_, this);
  completer_->setWidget(line_);  // not setCompleter: the bar decides when it pops up (Tab, typing)
  completer_->setCompletionMode(QCompleter::PopupCompletion);
  completer_->setCaseSensitivity(Qt::CaseInsensitive);
  connect(completer_, qOverload<const QString&>(&QCompleter::activated), line_, &QLineEdit::setText);
  connect(line_, &QLineEdit::textEdited, this, [this] { show_completions(); });
  connect(line_, &QLineEdit::returnPressed, this, &RecordBar::submit);

  auto* row = new QHBoxLayout;
  row->setContentsMargins(0, 0, 0, 0);
  row->addWidget(line_, 1);
  row->addWidget(strict_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  layout->addLayout(row);
  layout->addWidget(answer_);
  update_enabled();
}

RecordBar::~RecordBar() = default;

void RecordBar::set_game(std::shared_ptr<replay::Archive> archive, core::GameId game, std::optional<core::Seq> ended_at) {
  if (archive != archive_ || game != game_) {
    recorder_.reset();  // before the archive it refers to
    answer_->clear();
  }
  archive_ = std::move(archive);
  game_ = game;
  ended_at_ = ended_at;
  update_enabled();
}

void RecordBar::clear_game() {
  recorder_.reset();
  archive_.reset();
  game_ = 0;
  ended_at_.reset();
  answer_->clear();
  update_enabled();
}

void RecordBar::saw_events(core::Seq count) {
  if (recorder_ && recorder_->next_seq() < count) recorder_.reset();
}

void RecordBar::update_enabled() {
  QString why;
  if (!archive_ || game_ == 0) {
    why = tr("No game is open: open one to record into it.");
  } else if (archive_->store().read_only()) {
    why = tr("The store is open read-only: nothing can be recorded into it.");
  }
  line_->setEnabled(why.isEmpty());
  strict_->setEnabled(why.isEmpty());
  // An ended game still takes a judge's backup (an appeal) or a void of the
  // end (docs/rulings.md R-066): the bar stays open and says so.
  QString tip = why.isEmpty() ? tr("Ctrl+R records a line into game %1; Escape goes back to the timeline.").arg(game_) : why;
  if (why.isEmpty() && ended_at_) {
    tip = tr("Game %1 ended at seq %2: only a judge's backup (backup SEQ \"reason\" by \"JUDGE\") or a void of the "
             "end is recorded now.")
              .arg(game_)
              .arg(*ended_at_);
  }
  line_->setToolTip(tip);
  setToolTip(tip);
}

bool RecordBar::ensure_recorder() {
  if (recorder_) return true;
  if (!archive_ || game_ == 0) return false;
  auto opened = replay::Recorder::open(*archive_, game_);
  if (!opened) {
    answer_->setPlainText(tr("cannot record into game %1: %2").arg(game_).arg(QString::fromStdString(opened.error().message)));
    return false;
  }
  recorder_.emplace(std::move(*opened));
  if (recorder_->ended_at()) {
    ended_at_ = recorder_->ended_at();
    update_enabled();
  }
  return true;
}

QStringList RecordBar::completions(const QString& text) {
  if (!ensure_recorder()) return {};
  const std::string line = text.toStdString();
  const replay::Completion c = recorder_->complete(line);
  const QString head = QString::fromStdString(line.substr(0, std::min(c.start, line.size())));
  QStringList out;
  for (const std::string& cand : c.candidates) out << head + QString::fromStdString(cand);
  return out;
}

void RecordBar::show_completions() {
  const QString text = line_->text();
  if (text.isEmpty()) {
    completer_->popup()->hide();
    return;
  }
  candidates_->setStringList(completions(text));
  completer_->setCompletionPrefix(text);
  if (completer_->completionCount() > 0) {
    completer_->complete();
  } else {
    completer_->popup()->hide();
  }
}

bool RecordBar::eventFilter(QObject* watched, QEvent* event) {
  if (watched == line_ && event->type() == QEvent::KeyPress) {
    const auto* key = static_cast<QKeyEvent*>(event);
    if (key->key() == Qt::Key_Escape) {
      emit leave();
      return true;
    }
    if (key->key() == Qt::Key_Tab && key->modifiers() == Qt::NoModifier) {
      // As the terminal's Tab: one candidate is taken, several are listed.
      const QStringList all = completions(line_->text());
      if (all.size() == 1) {
        line_->setText(all.front());
      } else if (!all.isEmpty()) {
        show_completions();
      }
      return true;  // Tab never leaves the bar
    }
  }
  return QWidget::eventFilter(watched, event);
}

void RecordBar::submit() {
  if (!line_->isEnabled() || !ensure_recorder()) return;
  completer_->popup()->hide();
  const QString text = line_->text();
  const std::string line = text.toStdString();
  const bool strict = strict_->isChecked();
  // As at a terminal: a judge's backup always says first what it crosses
  // and asks; Strict asks about a violation too.
  auto o = recorder_->enter(line, strict ? replay::Violations::Hold : replay::Violations::HoldBackup);
  if (o && o->status == replay::LineStatus::NeedsConfirm) {
    const QString held = QString::fromStdString(replay::answer_text(*recorder_, *o)).trimmed();
    const bool backup = !o->crossing.empty();
    const bool yes =
        confirm_ ? confirm_(held)
                 : QMessageBox::question(this, backup ? tr("Record this backup?") : tr("Record a line that breaks a rule?"),
                                         backup ? tr("%1\nRecord the backup?").arg(held)
                                                : tr("%1\nRecord it anyway? It is what happened at the table.").arg(held)) ==
                       QMessageBox::Yes;
    if (!yes) {
      answer_->setPlainText(held);
      return;
    }
    o = recorder_->enter(line, replay::Violations::Record);
  }
  if (!o) {
    answer_->setPlainText(tr("the store failed: %1; nothing recorded").arg(QString::fromStdString(o.error().message)));
    recorder_.reset();  // opened again, where the store stands, on the next line
    return;
  }
  show_answer(*o, text);
  const bool grew = (o->status == replay::LineStatus::Recorded || o->status == replay::LineStatus::Conflict) &&
                    !o->events.empty();
  if (o->status == replay::LineStatus::Ended || recorder_->ended_at()) {
    ended_at_ = recorder_->ended_at();
    update_enabled();
  }
  if (grew) emit stream_grew();
}

void RecordBar::show_answer(const replay::LineOutcome& o, const QString& line) {
  QString text = QString::fromStdString(replay::answer_text(*recorder_, o));
  while (text.endsWith(QLatin1Char('\n'))) text.chop(1);
  answer_->setPlainText(text);
  // Recorded lines and commands are done with; anything else stays to be edited.
  const bool done = o.status == replay::LineStatus::Recorded || o.status == replay::LineStatus::Command ||
                    o.status == replay::LineStatus::Nothing;
  if (done) {
    line_->clear();
  } else {
    line_->setText(line);
  }
}

}  // namespace warlog::viewer
