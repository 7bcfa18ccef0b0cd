// MainWindow: the menus and keys, and the moves they make (findings, go to seq).

#include <QAbstractItemView>
#include <QAction>
#include <QActionGroup>
#include <QInputDialog>
#include <QMenuBar>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QStatusBar>

#include <algorithm>

#include "findings_model.hpp"
#include "main_window.hpp"
#include "timeline_model.hpp"
#include "main_window_parts.hpp"

namespace warlog::viewer {

void MainWindow::build_actions() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  connect(file->addAction(tr("&Open store…")), &QAction::triggered, this, &MainWindow::ask_open_store);
  recent_menu_ = file->addMenu(tr("Recent stores"));
  file->addSeparator();
  connect(file->addAction(tr("&Compare with ruleset or catalog…")), &QAction::triggered, this, &MainWindow::ask_compare);
  connect(file->addAction(tr("Stop comparing")), &QAction::triggered, this, &MainWindow::stop_comparing);
  file->addSeparator();
  QAction* report = file->addAction(tr("&Export dispute report…"));
  report->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
  report->setShortcutContext(Qt::WindowShortcut);
  report->setToolTip(tr("The selected dispute (or the first at this event) as HTML, Markdown or PDF"));
  connect(report, &QAction::triggered, this, &MainWindow::ask_export_dispute_report);
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"));
  quit->setShortcut(QKeySequence::Quit);
  connect(quit, &QAction::triggered, this, &QWidget::close);
  rebuild_recent_menu();

  QMenu* go = menuBar()->addMenu(tr("&Go"));
  auto add = [&](const QString& text, const QKeySequence& key, auto slot) {
    auto* action = go->addAction(text);
    action->setShortcut(key);
    // Window-wide: the keys step the game even while a view has focus.
    action->setShortcutContext(Qt::WindowShortcut);
    connect(action, &QAction::triggered, this, slot);
    return action;
  };
  add(tr("&Previous event"), QKeySequence(Qt::Key_Left), [this] { if (session_) session_->step(-1); });
  add(tr("&Next event"), QKeySequence(Qt::Key_Right), [this] { if (session_) session_->step(+1); });
  add(tr("&First event"), QKeySequence(Qt::Key_Home), [this] { if (session_) session_->first(); });
  add(tr("&Last event"), QKeySequence(Qt::Key_End), [this] { if (session_) session_->last(); });
  go->addSeparator();
  add(tr("Previous p&hase"), QKeySequence(Qt::Key_PageUp), [this] { if (session_) session_->previous_phase(); });
  add(tr("Next ph&ase"), QKeySequence(Qt::Key_PageDown), [this] { if (session_) session_->next_phase(); });
  add(tr("Previous &turn"), QKeySequence(Qt::CTRL | Qt::Key_PageUp), [this] { if (session_) session_->previous_turn(); });
  add(tr("Next t&urn"), QKeySequence(Qt::CTRL | Qt::Key_PageDown), [this] { if (session_) session_->next_turn(); });
  go->addSeparator();
  add(tr("Next fin&ding"), QKeySequence(Qt::Key_F3), [this] { next_finding(); });
  add(tr("Previous findin&g"), QKeySequence(Qt::SHIFT | Qt::Key_F3), [this] { previous_finding(); });
  add(tr("F&irst finding"), QKeySequence(Qt::CTRL | Qt::Key_F3), [this] { first_finding(); });
  add(tr("First di&vergence (compare mode)"), QKeySequence(Qt::CTRL | Qt::Key_D), [this] { first_divergence(); });
  add(tr("&Go to seq…"), QKeySequence(Qt::CTRL | Qt::Key_G), [this] { ask_seq(); });
  go->addSeparator();
  // Escape, in the bar, comes back to the timeline (RecordBar::leave).
  add(tr("&Record a line"), QKeySequence(Qt::CTRL | Qt::Key_R), [this] { focus_record_bar(); });

  // Who the game is seen as: what each player knew at the disputed moment.
  QMenu* view = menuBar()->addMenu(tr("&View"));
  // The detail tabs by keyboard, focus in them; Escape comes back to the
  // timeline, where the stepping keys work.
  QMenu* details = view->addMenu(tr("&Details"));
  const QString names[] = {tr("What changed"), tr("Findings here"), tr("All findings"), tr("Disputes"), tr("Times")};
  for (int i = 0; i < 5; ++i) {
    QAction* a = details->addAction(names[i]);
    a->setShortcut(QKeySequence(Qt::ALT | static_cast<Qt::Key>(Qt::Key_1 + i)));
    a->setShortcutContext(Qt::WindowShortcut);
    connect(a, &QAction::triggered, this, [this, i] {
      detail_tabs_->setCurrentIndex(i);
      QWidget* page = detail_tabs_->currentWidget();
      if (auto* stack = qobject_cast<QStackedWidget*>(page)) page = stack->currentWidget();
      if (!qobject_cast<QAbstractItemView*>(page)) {
        const auto views = page->findChildren<QAbstractItemView*>();
        if (!views.isEmpty()) page = views.front();
      }
      page->setFocus(Qt::ShortcutFocusReason);
    });
  }
  QAction* words = details->addAction(tr("The rule's own words"));
  words->setShortcut(QKeySequence(Qt::ALT | Qt::Key_6));
  words->setShortcutContext(Qt::WindowShortcut);
  connect(words, &QAction::triggered, this, [this] { rule_scroll_->setFocus(Qt::ShortcutFocusReason); });
  QAction* back = details->addAction(tr("Back to the timeline"));
  back->setShortcut(QKeySequence(Qt::Key_Escape));
  back->setShortcutContext(Qt::WindowShortcut);
  connect(back, &QAction::triggered, this, [this] { timeline_view_->setFocus(Qt::ShortcutFocusReason); });
  board_before_action_ = view->addAction(tr("Board &before this event"));
  board_before_action_->setCheckable(true);
  board_before_action_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
  board_before_action_->setShortcutContext(Qt::WindowShortcut);
  board_before_action_->setToolTip(tr("The battlefield before the current event, its spaces still marked (Ctrl+B toggles)"));
  connect(board_before_action_, &QAction::toggled, this, &MainWindow::set_board_before);
  QMenu* seen_as = view->addMenu(tr("&Seen as"));
  auto* group = new QActionGroup(this);
  group->setExclusive(true);
  const std::pair<replay::Perspective, QString> perspectives[] = {
      {replay::Perspective::Judge, tr("&Judge (everything)")},
      {replay::Perspective::Seat1, tr("Seat &1")},
      {replay::Perspective::Seat2, tr("Seat &2")},
      {replay::Perspective::Public, tr("&Public (no hidden card)")},
  };
  const Qt::Key keys[] = {Qt::Key_0, Qt::Key_1, Qt::Key_2, Qt::Key_3};
  for (std::size_t i = 0; i < std::size(perspectives); ++i) {
    QAction* action = seen_as->addAction(perspectives[i].second);
    action->setCheckable(true);
    action->setChecked(perspectives[i].first == perspective_);
    action->setShortcut(QKeySequence(Qt::CTRL | keys[i]));
    action->setShortcutContext(Qt::WindowShortcut);
    action->setData(static_cast<int>(perspectives[i].first));
    group->addAction(action);
    const replay::Perspective p = perspectives[i].first;
    connect(action, &QAction::triggered, this, [this, p] { set_perspective(p); });
  }
}

void MainWindow::set_board_before(bool before) {
  board_before_ = before;
  if (board_before_action_ != nullptr && board_before_action_->isChecked() != before) board_before_action_->setChecked(before);
  if (session_) on_moved(session_->seq());
}

void MainWindow::set_perspective(replay::Perspective p) {
  perspective_ = p;
  for (QAction* a : findChildren<QAction*>()) {
    if (a->isCheckable() && a->actionGroup() != nullptr && a->data().isValid() && a->data().toInt() == static_cast<int>(p)) {
      a->setChecked(true);
    }
  }
  if (perspective_label_ != nullptr) {
    QString who = QString::fromUtf8(replay::to_string(p).data(), static_cast<qsizetype>(replay::to_string(p).size()));
    const core::Seat seat = replay::seat_of(p);
    if (session_ && seat != core::kNoSeat) who += tr(" (%1)").arg(QString::fromStdString(session_->game().seats.at(seat).player));
    perspective_label_->setText(tr("Seen as %1").arg(who));
  }
  if (!session_) return;
  timeline_->relabel();  // the labels of draws and decklists depend on who looks
  on_moved(session_->seq());
}

void MainWindow::jump_to_finding(const QModelIndex& view_index) {
  if (!session_ || !view_index.isValid()) return;
  const QModelIndex source =
      view_index.model() == all_findings_sorted_ ? all_findings_sorted_->mapToSource(view_index) : view_index;
  rule_text_->setText(rule_text_html(source.data(FindingsModel::RuleIdRole).toString().toStdString()));
  // A click on the Rests on cell goes to the (first) violation the finding
  // rests on, on the Concerns cell to the event it concerns; elsewhere to
  // the finding's own event.
  core::Seq target = source.data(FindingsModel::SeqRole).toULongLong();
  if (const QVariantList rests = source.data(FindingsModel::RestsOnRole).toList();
      source.column() == FindingsModel::RestsOn && !rests.isEmpty()) {
    target = rests.front().toULongLong();
  } else if (source.column() == FindingsModel::Concerns) {
    target = source.data(FindingsModel::ConcernsRole).toULongLong();
  }
  session_->go_to(target);
}

std::vector<core::Seq> MainWindow::finding_stops() const {
  std::vector<core::Seq> out;
  if (!session_) return out;
  // The recorded game's findings, and in compare mode the candidate's too:
  // each list is in seq order; the stops are their events, once each.
  for (const GameSession* s : {session_.get(), candidate_.get()}) {
    if (s == nullptr) continue;
    const auto& all = s->findings();
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (out.empty() || out.back() != all.seq(i)) out.push_back(all.seq(i));
    }
  }
  if (candidate_) {
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
  }
  return out;
}

bool MainWindow::step_finding_here(int delta) {
  // Several findings at one event (the README's dispute has three): F3 and
  // Shift+F3 go through them first, the rule pane following, then on.
  const int count = findings_here_->rowCount();
  if (count < 2) return false;
  const QModelIndex current = findings_here_view_->currentIndex();
  const int row = current.isValid() ? current.row() : 0;
  const int to = row + delta;
  if (to < 0 || to >= count) return false;
  detail_tabs_->setCurrentWidget(findings_here_stack_);
  findings_here_view_->setCurrentIndex(findings_here_->index(to, 0));  // on_finding_selected shows its rule
  statusBar()->showMessage(tr("Finding %1 of %2 at seq %3.").arg(to + 1).arg(count).arg(session_->seq()), 3000);
  return true;
}

void MainWindow::next_finding() {
  if (!session_) return;
  if (step_finding_here(+1)) return;
  const std::vector<core::Seq> stops = finding_stops();
  if (stops.empty()) {
    statusBar()->showMessage(tr("This game has no findings."), 3000);
    return;
  }
  auto next = std::upper_bound(stops.begin(), stops.end(), session_->seq());
  if (next == stops.end()) {  // wraps to the first finding of the game
    next = stops.begin();
    statusBar()->showMessage(tr("Past the last finding: back to the first, at seq %1.").arg(*next), 3000);
  }
  session_->go_to(*next);  // on_moved shows the rule of its first finding
  // Wrapped onto the event already shown (its findings are the game's only
  // ones): its first finding again.
  if (findings_here_->rowCount() > 0) findings_here_view_->setCurrentIndex(findings_here_->index(0, 0));
}

void MainWindow::previous_finding() {
  if (!session_) return;
  if (step_finding_here(-1)) return;
  const std::vector<core::Seq> stops = finding_stops();
  if (stops.empty()) {
    statusBar()->showMessage(tr("This game has no findings."), 3000);
    return;
  }
  // The last finding's event before the current one; before the first, it
  // wraps to the last of the game.
  auto before = std::lower_bound(stops.begin(), stops.end(), session_->seq());
  if (before == stops.begin()) {
    before = stops.end();
    statusBar()->showMessage(tr("Before the first finding: on to the last, at seq %1.").arg(stops.back()), 3000);
  }
  session_->go_to(*std::prev(before));
  // Onto an event's last finding, as Shift+F3 came to it from after.
  if (const int n = findings_here_->rowCount(); n > 0) findings_here_view_->setCurrentIndex(findings_here_->index(n - 1, 0));
}

void MainWindow::first_finding() {
  if (!session_) return;
  const std::vector<core::Seq> stops = finding_stops();
  if (stops.empty()) {
    statusBar()->showMessage(tr("This game has no findings."), 3000);
    return;
  }
  session_->go_to(stops.front());
}

void MainWindow::first_divergence() {
  if (!session_) return;
  if (!candidate_ || !diff_) {
    statusBar()->showMessage(tr("Not comparing: File › Compare with ruleset or catalog… first."), 3000);
    return;
  }
  if (!diff_->first) {
    statusBar()->showMessage(tr("Under %1 this game folds the same at every event.").arg(candidate_label_), 3000);
    return;
  }
  session_->go_to(diff_->first->seq);
}

void MainWindow::ask_seq() {
  if (!session_ || session_->empty()) return;
  bool ok = false;
  const int seq = QInputDialog::getInt(this, tr("Go to event"),
                                       tr("Seq (%1–%2):").arg(session_->first_seq()).arg(session_->last_seq()),
                                       static_cast<int>(session_->seq()), static_cast<int>(session_->first_seq()),
                                       static_cast<int>(session_->last_seq()), 1, &ok);
  if (ok) session_->go_to(static_cast<core::Seq>(seq));
}

QString MainWindow::key_hint() const {
  // Short enough to leave the position and "Seen as" beside it at 1280
  // pixels (the longer list ran into them); the menus name every key.
  return tr("←/→ event · PgUp/PgDn phase · Ctrl+G seq · F3 finding · Ctrl+B before · Alt+1…6 details · "
            "Ctrl+E report");
}

void MainWindow::show_error(const QString& message) { statusBar()->showMessage(message, 10000); }

}  // namespace warlog::viewer
