// MainWindow: the store (open, recent, live follow), idle auditing of the
// game list, and the window layout kept in QSettings.

#include <QCloseEvent>
#include <QDir>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QLineEdit>
#include <QMenu>
#include <QSettings>
#include <QSlider>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QTreeView>

#include <map>

#include "figures_charts.hpp"
#include "findings_model.hpp"
#include "game_list_model.hpp"
#include "launch.hpp"
#include "main_window.hpp"
#include "main_window_parts.hpp"
#include "record_bar.hpp"
#include "timeline_model.hpp"
#include "warlog/replay/disputes.hpp"

namespace warlog::viewer {

namespace {

constexpr int kMaxRecentStores = 8;
// Games longer than this are audited when opened, not in idle time: one
// audit must not hold the window for long.

// Every game whose record can be read; one that cannot (damaged, or written
// by a newer warlog) hides no other game: it is counted, and the first
// reason kept for the status bar.
struct Listing {
  std::vector<replay::GameSummary> games;
  std::size_t unreadable = 0;
  std::string first_error;
};
Expected<Listing> readable_games(const replay::Archive& archive) {
  auto listed = archive.game_list();
  if (!listed) return tl::unexpected(listed.error());
  Listing out;
  for (auto& g : *listed) {
    if (g) {
      out.games.push_back(std::move(*g));
    } else if (out.unreadable++ == 0) {
      out.first_error = g.error().message;
    }
  }
  return out;
}

}  // namespace

Expected<void> MainWindow::load_games() {
  if (!archive_) return make_error(ErrorCode::InvalidArgument, "no store open");
  auto listing = readable_games(*archive_);
  if (!listing) return tl::unexpected(listing.error());
  const bool none = listing->games.empty() && listing->unreadable == 0;
  games_->set_games(std::move(listing->games));
  // Game by game: a game whose annotation chain breaks shows no count (its
  // panel says why when opened); the others still show theirs.
  if (auto by_game = replay::disputes_by_game(*archive_); by_game) {
    for (const auto& g : *by_game) {
      if (g.disputes && !g.disputes->empty()) games_->set_disputes(g.game, static_cast<int>(g.disputes->size()));
    }
  }
  audit_next_ = 0;
  audit_timer_->start();
  if (none) statusBar()->showMessage(tr("The store holds no games yet: import one with `warlog import FILE`."));
  if (listing->unreadable > 0) {
    statusBar()->showMessage(tr("%n game(s) could not be read and are not listed: %1", nullptr,
                                static_cast<int>(listing->unreadable))
                                 .arg(QString::fromStdString(listing->first_error)));
  }
  return {};
}

Expected<void> MainWindow::open_store(const QString& path) {
  // One LMDB environment per store per process: close before opening.
  stop_comparing();  // the candidate was of the other store's game
  follow_timer_->stop();
  audit_timer_->stop();
  if (!watcher_->files().isEmpty()) watcher_->removePaths(watcher_->files());
  timeline_->set_game({}, {}, {}, {});  // it reads events through the session
  record_bar_->clear_game();            // its Recorder refers to the archive
  candidate_.reset();
  session_.reset();
  games_filter_->set_pinned(std::nullopt);
  archive_.reset();
  games_->set_games({});
  auto archive = open_store_for_viewing(path.toStdString());
  if (!archive) return tl::unexpected(archive.error());
  archive_ = std::make_shared<replay::Archive>(std::move(*archive));
  setWindowTitle(tr("warlog viewer — %1").arg(path));
  remember_store(path);
  watch_store();
  follow_timer_->start();
  if (auto listed = load_games(); !listed) return listed;
  if (!games_->games().empty()) return open_game(games_->games().front().id);
  return {};
}

void MainWindow::watch_store() {
  if (!archive_) return;
  // LMDB writes the data file on every commit; the timer covers file
  // systems without notifications.
  const QString data = QDir(QString::fromStdString(archive_->path())).filePath(QStringLiteral("data.mdb"));
  if (QFileInfo::exists(data)) watcher_->addPath(data);
}

void MainWindow::poll_store() {
  if (!archive_) return;
  if (session_) (void)session_->refresh();  // failures reach the status bar through `failed`
  if (candidate_) (void)candidate_->refresh();
  // The game list only when the data file changed (LMDB writes it on every
  // commit), and every 10 s in case a file system hides that.
  const QFileInfo data(QDir(QString::fromStdString(archive_->path())).filePath(QStringLiteral("data.mdb")));
  if (data.lastModified() == store_modified_ && data.size() == store_size_ && ++polls_since_listing_ < 20) return;
  store_modified_ = data.lastModified();
  store_size_ = data.size();
  polls_since_listing_ = 0;
  auto listing = readable_games(*archive_);
  if (!listing) return;
  for (const auto& g : listing->games) games_->set_event_count(g.id, g.events);
  if (games_->add_games(std::move(listing->games)) > 0) {
    if (!audit_timer_->isActive()) audit_timer_->start();
    if (games_->comparing() && !diff_timer_->isActive()) diff_timer_->start();  // the new games' Candidate column
  }
  // Disputes and rulings another process recorded (`warlog dispute add`,
  // `resolve`) are annotations: the same write, the same look.
  if (session_) load_disputes();
  // A watched file that is replaced (a copied store) drops out of the watch.
  if (watcher_->files().isEmpty()) watch_store();
}

void MainWindow::on_grew(core::Seq old_count, core::Seq new_count) {
  if (!session_) return;
  const auto& seats = session_->game().seats;
  timeline_->extend(session_->spans(), finding_seqs(session_->findings()));
  timeline_->set_struck(session_->struck());
  all_findings_->share_findings(session_->shared_findings(), seats);
  all_findings_->set_rests_on(session_->rests_on());
  detail_tabs_->setTabText(2, tr("All findings (%1)").arg(session_->findings().size()));
  show_times();
  charts_->set_turns(session_->turns(), seats);
  charts_->set_current_turn(session_->moment().state.turn);
  {
    const QSignalBlocker block(slider_);
    slider_->setRange(0, static_cast<int>(session_->last_seq()));
  }
  games_->set_event_count(session_->game().id, new_count);
  games_->set_facts(session_->game().id, facts_of(session_->game(), session_->final_state(), session_->findings().size(),
                                                  session_->findings().violations(), session_->rests_on().get()));
  statusBar()->showMessage(tr("%1 new events").arg(new_count - old_count), 3000);
  record_bar_->saw_events(new_count);  // another recorder's events: parse the next line after them
  aim_record_bar();
  // Following the end: a viewer left at the last event stays at the last.
  if (old_count > 0 && session_->seq() == old_count - 1) session_->last();
}

void MainWindow::aim_record_bar() {
  if (!session_ || !archive_) {
    record_bar_->clear_game();
    return;
  }
  // Ended when the last event is a GameEnded; one ended earlier and played
  // on (an imported game) is found by the Recorder on the first line.
  std::optional<core::Seq> ended_at;
  if (!session_->empty()) {
    auto last = session_->events(session_->last_seq(), session_->last_seq() + 1);
    if (last && !last->empty() && std::holds_alternative<core::GameEnded>(last->back().payload)) {
      ended_at = last->back().seq;
    }
  }
  record_bar_->set_game(archive_, session_->game().id, ended_at);
}

void MainWindow::on_recorded() {
  if (!session_) return;
  if (auto grew = session_->refresh(); !grew) return;  // the failure reaches the status bar through `failed`
  session_->last();  // the battlefield, timeline and findings at the new last event
}

void MainWindow::focus_record_bar() {
  if (record_bar_->line_edit()->isEnabled()) {
    record_bar_->line_edit()->setFocus(Qt::ShortcutFocusReason);
  } else {
    statusBar()->showMessage(record_bar_->line_edit()->toolTip(), 5000);
  }
}

void MainWindow::audit_some_games() {
  if (!archive_) {
    audit_timer_->stop();
    return;
  }
  QElapsedTimer clock;
  clock.start();
  const auto& games = games_->games();
  while (audit_next_ < games.size() && clock.elapsed() < 12) {
    const replay::GameSummary& g = games[audit_next_++];
    if (games_->has_facts(g.id) || g.events > MainWindow::kIdleAuditMaxEvents) continue;
    auto audit = archive_->audit(g.id);
    if (!audit) continue;  // shown as not audited; opening the game says why
    games_->set_facts(g.id, facts_of(audit->game, audit->final_state, audit->findings.size(), audit->violations()));
  }
  if (audit_next_ >= games.size()) audit_timer_->stop();
}

void MainWindow::ask_open_store() {
  const QString dir = QFileDialog::getExistingDirectory(this, tr("Open a warlog store"));
  if (dir.isEmpty()) return;
  if (auto opened = open_store(dir); !opened) show_error(QString::fromStdString(opened.error().message));
}

void MainWindow::remember_store(const QString& path) {
  QSettings settings;
  QStringList recent = settings.value(QStringLiteral("recentStores")).toStringList();
  const QString canonical = QFileInfo(path).absoluteFilePath();
  recent.removeAll(canonical);
  recent.prepend(canonical);
  while (recent.size() > kMaxRecentStores) recent.removeLast();
  settings.setValue(QStringLiteral("recentStores"), recent);
  rebuild_recent_menu();
}

void MainWindow::rebuild_recent_menu() {
  if (!recent_menu_) return;
  recent_menu_->clear();
  const QStringList recent = QSettings().value(QStringLiteral("recentStores")).toStringList();
  for (const QString& path : recent) {
    connect(recent_menu_->addAction(path), &QAction::triggered, this, [this, path] {
      if (auto opened = open_store(path); !opened) show_error(QString::fromStdString(opened.error().message));
    });
  }
  recent_menu_->setEnabled(!recent.isEmpty());
}

void MainWindow::restore_settings() {
  QSettings settings;
  if (const QByteArray g = settings.value(QStringLiteral("window/geometry")).toByteArray(); !g.isEmpty()) {
    restoreGeometry(g);
  }
  restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
  main_split_->restoreState(settings.value(QStringLiteral("window/mainSplit")).toByteArray());
  game_split_->restoreState(settings.value(QStringLiteral("window/gameSplit")).toByteArray());
  right_split_->restoreState(settings.value(QStringLiteral("window/rightSplit")).toByteArray());
  view_tabs_->setCurrentIndex(settings.value(QStringLiteral("window/viewTab"), 0).toInt());
}

void MainWindow::save_settings() const {
  QSettings settings;
  settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
  settings.setValue(QStringLiteral("window/state"), saveState());
  settings.setValue(QStringLiteral("window/mainSplit"), main_split_->saveState());
  settings.setValue(QStringLiteral("window/gameSplit"), game_split_->saveState());
  settings.setValue(QStringLiteral("window/rightSplit"), right_split_->saveState());
  settings.setValue(QStringLiteral("window/viewTab"), view_tabs_->currentIndex());
}

void MainWindow::closeEvent(QCloseEvent* event) {
  save_settings();
  QMainWindow::closeEvent(event);
}

}  // namespace warlog::viewer
