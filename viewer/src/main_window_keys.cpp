// MainWindow: the menus and keys, and the moves they make (findings, go to seq).

#include <QAction>
#include <QInputDialog>
#include <QMenuBar>
#include <QSortFilterProxyModel>
#include <QStatusBar>

#include <algorithm>

#include "findings_model.hpp"
#include "main_window.hpp"
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
  add(tr("&Go to seq…"), QKeySequence(Qt::CTRL | Qt::Key_G), [this] { ask_seq(); });
}

void MainWindow::jump_to_finding(const QModelIndex& view_index) {
  if (!session_ || !view_index.isValid()) return;
  const QModelIndex source =
      view_index.model() == all_findings_sorted_ ? all_findings_sorted_->mapToSource(view_index) : view_index;
  rule_text_->setText(rule_text_html(source.data(FindingsModel::RuleIdRole).toString().toStdString()));
  session_->go_to(source.data(FindingsModel::SeqRole).toULongLong());
}

void MainWindow::next_finding() {
  if (!session_) return;
  // Findings are in seq order.
  const auto& all = session_->findings();
  const std::size_t next = all.upper_bound(session_->seq());
  if (next == all.size()) {
    statusBar()->showMessage(tr("No finding after seq %1.").arg(session_->seq()), 3000);
    return;
  }
  const replay::FindingView f = all.at(next);
  rule_text_->setText(rule_text_html(f.rule_id));
  session_->go_to(f.seq);
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

void MainWindow::show_error(const QString& message) { statusBar()->showMessage(message, 10000); }

}  // namespace warlog::viewer
