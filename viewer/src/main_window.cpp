#include "main_window.hpp"

#include <QAction>
#include <QApplication>
#include <QHeaderView>
#include <QInputDialog>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMenuBar>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

#include "event_text.hpp"
#include "findings_model.hpp"
#include "game_list_model.hpp"
#include "state_model.hpp"
#include "timeline_model.hpp"

namespace warlog::viewer {

namespace {

// A pane: a small bold heading over a view.
QWidget* titled(const QString& title, QWidget* body, QLabel** heading_out = nullptr) {
  auto* pane = new QWidget;
  auto* layout = new QVBoxLayout(pane);
  layout->setContentsMargins(4, 4, 4, 0);
  layout->setSpacing(2);
  auto* heading = new QLabel(title);
  QFont f = heading->font();
  f.setBold(true);
  heading->setFont(f);
  layout->addWidget(heading);
  layout->addWidget(body, 1);
  if (heading_out) *heading_out = heading;
  return pane;
}

QTableView* make_table() {
  auto* view = new QTableView;
  view->setSelectionBehavior(QAbstractItemView::SelectRows);
  view->setSelectionMode(QAbstractItemView::SingleSelection);
  view->setAlternatingRowColors(true);
  view->setWordWrap(false);
  view->verticalHeader()->hide();
  view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
  view->horizontalHeader()->setHighlightSections(false);
  view->horizontalHeader()->setStretchLastSection(true);
  return view;
}

std::vector<core::Seq> finding_seqs(const std::vector<replay::LocatedFinding>& findings) {
  std::vector<core::Seq> out;
  out.reserve(findings.size());
  for (const auto& f : findings) out.push_back(f.finding.seq);
  return out;
}

}  // namespace

MainWindow::MainWindow(std::optional<replay::Archive> archive, QWidget* parent)
    : QMainWindow(parent), archive_(std::move(archive)) {
  games_ = new GameListModel(this);
  games_sorted_ = new QSortFilterProxyModel(this);
  games_sorted_->setSourceModel(games_);
  games_sorted_->setSortRole(GameListModel::SortRole);
  timeline_ = new TimelineModel(this);
  state_ = new StateModel(this);
  findings_here_ = new FindingsModel(this);
  all_findings_ = new FindingsModel(this);
  all_findings_sorted_ = new QSortFilterProxyModel(this);
  all_findings_sorted_->setSourceModel(all_findings_);
  all_findings_sorted_->setSortRole(FindingsModel::SortRole);
  build_ui();
  build_actions();
  setWindowTitle(archive_ ? tr("warlog viewer — %1").arg(QString::fromStdString(archive_->path())) : tr("warlog viewer"));
  resize(1280, 800);
}

MainWindow::~MainWindow() = default;

void MainWindow::build_ui() {
  game_view_ = make_table();
  game_view_->setModel(games_sorted_);
  game_view_->setSortingEnabled(true);
  game_view_->sortByColumn(GameListModel::Id, Qt::AscendingOrder);
  game_view_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  game_view_->horizontalHeader()->setStretchLastSection(false);
  game_view_->horizontalHeader()->setSectionResizeMode(GameListModel::Title, QHeaderView::Stretch);
  connect(game_view_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &MainWindow::on_game_selected);

  timeline_view_ = new QTreeView;
  timeline_view_->setModel(timeline_);
  timeline_view_->setUniformRowHeights(true);
  timeline_view_->setSelectionMode(QAbstractItemView::SingleSelection);
  timeline_view_->header()->setStretchLastSection(false);
  timeline_view_->header()->setSectionResizeMode(TimelineModel::Label, QHeaderView::Stretch);
  timeline_view_->header()->setSectionResizeMode(TimelineModel::Findings, QHeaderView::ResizeToContents);
  connect(timeline_view_->selectionModel(), &QItemSelectionModel::currentChanged, this,
          &MainWindow::on_timeline_current);

  state_view_ = new QTreeView;
  state_view_->setModel(state_);
  state_view_->setUniformRowHeights(true);
  state_view_->setAlternatingRowColors(true);
  state_view_->header()->setSectionResizeMode(QHeaderView::Interactive);
  state_view_->header()->setStretchLastSection(true);
  const QFontMetrics fm = state_view_->fontMetrics();
  state_view_->setColumnWidth(StateModel::Item, fm.horizontalAdvance(QStringLiteral("Provisions (supply / cost)")) + 60);
  state_view_->setColumnWidth(StateModel::Value, fm.horizontalAdvance(QStringLiteral("Rebel Captain Moss")) + 16);
  state_view_->setColumnWidth(StateModel::Owner, fm.horizontalAdvance(QStringLiteral("Bruno Bruno")) + 8);
  state_view_->setColumnWidth(StateModel::Condition, fm.horizontalAdvance(QStringLiteral("Vitality 3/3 · Morale 0")) + 16);
  // A section is a heading: its title may span the row.
  connect(state_, &QAbstractItemModel::modelReset, state_view_, [this] {
    for (int s = 0; s < state_->rowCount(); ++s) state_view_->setFirstColumnSpanned(s, {}, true);
    state_view_->expandAll();
  });

  findings_here_view_ = make_table();
  findings_here_view_->setModel(findings_here_);
  all_findings_view_ = make_table();
  all_findings_view_->setModel(all_findings_sorted_);
  all_findings_view_->setSortingEnabled(true);
  all_findings_view_->sortByColumn(FindingsModel::Seq, Qt::AscendingOrder);
  for (QTableView* v : {findings_here_view_, all_findings_view_}) {
    // The message takes what is left; the citation is shown whole.
    v->horizontalHeader()->setStretchLastSection(false);
    v->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    v->horizontalHeader()->setSectionResizeMode(FindingsModel::Message, QHeaderView::Stretch);
  }
  connect(all_findings_view_, &QAbstractItemView::clicked, this, &MainWindow::jump_to_finding);
  connect(all_findings_view_, &QAbstractItemView::activated, this, &MainWindow::jump_to_finding);

  // An empty table reads as broken: say there is nothing at this event.
  no_findings_here_ = new QLabel;
  no_findings_here_->setAlignment(Qt::AlignCenter);
  no_findings_here_->setEnabled(false);
  findings_here_stack_ = new QStackedWidget;
  findings_here_stack_->addWidget(findings_here_view_);
  findings_here_stack_->addWidget(no_findings_here_);

  findings_tabs_ = new QTabWidget;
  findings_tabs_->setDocumentMode(true);
  findings_tabs_->addTab(findings_here_stack_, tr("At this event"));
  findings_tabs_->addTab(all_findings_view_, tr("All findings"));

  moment_label_ = new QLabel(tr("No game open."));
  moment_label_->setWordWrap(true);
  moment_label_->setTextFormat(Qt::PlainText);
  auto* moment_pane = new QWidget;
  auto* moment_layout = new QVBoxLayout(moment_pane);
  moment_layout->setContentsMargins(0, 0, 0, 0);
  moment_layout->setSpacing(2);
  moment_layout->addWidget(moment_label_);
  moment_layout->addWidget(state_view_, 1);

  // Games across the top (the list grows columns), then the timeline beside
  // the state and the findings.
  auto* right = new QSplitter(Qt::Vertical);
  right->addWidget(titled(tr("State"), moment_pane));
  right->addWidget(titled(tr("Findings"), findings_tabs_));
  right->setStretchFactor(0, 3);
  right->setStretchFactor(1, 1);
  right->setSizes({520, 130});
  right->setChildrenCollapsible(false);

  auto* game = new QSplitter(Qt::Horizontal);
  game->addWidget(titled(tr("Timeline"), timeline_view_));
  game->addWidget(right);
  game->setStretchFactor(0, 1);
  game->setStretchFactor(1, 2);
  game->setSizes({420, 860});
  game->setChildrenCollapsible(false);

  auto* main = new QSplitter(Qt::Vertical);
  main->addWidget(titled(tr("Games"), game_view_));
  main->addWidget(game);
  main->setStretchFactor(0, 0);
  main->setStretchFactor(1, 1);
  main->setSizes({85, 665});
  main->setChildrenCollapsible(false);
  setCentralWidget(main);

  position_label_ = new QLabel;
  statusBar()->addPermanentWidget(position_label_);
  statusBar()->showMessage(tr("←/→ step · PgUp/PgDn phase · Home/End · Ctrl+G go to seq · F3 next finding"));
}

void MainWindow::build_actions() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  QAction* quit = file->addAction(tr("&Quit"));
  quit->setShortcut(QKeySequence::Quit);
  connect(quit, &QAction::triggered, this, &QWidget::close);

  QMenu* go = menuBar()->addMenu(tr("&Go"));
  auto add = [&](const QString& text, const QKeySequence& key, auto slot) {
    auto* action = go->addAction(text);
    action->setShortcut(key);
    // Window-wide: the arrows step the game even while a view has focus.
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
  go->addSeparator();
  add(tr("Next fin&ding"), QKeySequence(Qt::Key_F3), [this] { next_finding(); });
  add(tr("&Go to seq…"), QKeySequence(Qt::CTRL | Qt::Key_G), [this] { ask_seq(); });
}

Expected<void> MainWindow::load_games() {
  if (!archive_) return make_error(ErrorCode::InvalidArgument, "no store open");
  auto games = archive_->games();
  if (!games) return tl::unexpected(games.error());
  const bool none = games->empty();
  games_->set_games(std::move(*games));
  if (none) statusBar()->showMessage(tr("The store holds no games yet: import one with `warlog import FILE`."));
  return {};
}

Expected<void> MainWindow::open_game(core::GameId id) {
  if (!archive_) return make_error(ErrorCode::InvalidArgument, "no store open");
  auto data = load_session(*archive_, id);
  if (!data) return tl::unexpected(data.error());
  show_session(std::move(*data));
  // Keep the game list's selection on the game shown.
  const int row = games_->row_of(id);
  if (row >= 0) {
    const QModelIndex idx = games_sorted_->mapFromSource(games_->index(row, 0));
    if (game_view_->currentIndex().row() != idx.row()) {
      const QSignalBlocker block(game_view_->selectionModel());
      game_view_->selectionModel()->setCurrentIndex(
          idx, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    }
  }
  return {};
}

void MainWindow::show_session(SessionData data) {
  const std::vector<core::SeatSetup> seats = data.game.seats;
  timeline_->set_game(data.events, seats, finding_seqs(data.findings));
  all_findings_->set_findings(data.findings, seats);
  findings_tabs_->setTabText(1, tr("All findings (%1)").arg(data.findings.size()));
  state_->clear();
  setWindowTitle(tr("%1 — warlog viewer").arg(QString::fromStdString(data.game.title)));

  session_ = std::make_unique<GameSession>(std::move(data));
  connect(session_.get(), &GameSession::moved, this, &MainWindow::on_moved);
  // Turns open on their phases; events show in the current phase only.
  timeline_view_->collapseAll();
  timeline_view_->expandToDepth(0);
  on_moved(session_->seq());
}

void MainWindow::on_moved(core::Seq) {
  if (!session_ || session_->empty()) {
    moment_label_->setText(tr("This game has no events."));
    return;
  }
  const replay::Moment& m = session_->moment();
  const auto& seats = session_->game().seats;
  following_session_ = true;

  timeline_->set_current(session_->position());
  const QModelIndex row = timeline_->index_of_position(session_->position());
  timeline_view_->selectionModel()->setCurrentIndex(row, QItemSelectionModel::ClearAndSelect |
                                                             QItemSelectionModel::Rows);
  timeline_view_->scrollTo(row);

  state_->set_state(m.state, session_->catalog(), session_->ruleset(), &session_->before());
  auto here = session_->findings_here();
  findings_tabs_->setTabText(0, tr("At this event (%1)").arg(here.size()));
  no_findings_here_->setText(tr("No findings at seq %1.").arg(m.seq));
  findings_here_stack_->setCurrentWidget(here.empty() ? static_cast<QWidget*>(no_findings_here_) : findings_here_view_);
  findings_here_->set_findings(std::move(here), seats);

  QString where = m.event.turn == 0 ? tr("Setup")
                                    : tr("Turn %1 · %2").arg(m.event.turn).arg(QString::fromStdString(phase_title(m.event.phase)));
  moment_label_->setText(tr("After %1\n%2 · event %3 of %4")
                             .arg(QString::fromStdString(event_label(m.event, seats)))
                             .arg(where)
                             .arg(session_->position() + 1)
                             .arg(session_->events().size()));
  position_label_->setText(tr("seq %1 / %2").arg(m.seq).arg(session_->last_seq()));
  following_session_ = false;
}

void MainWindow::on_game_selected() {
  const QModelIndexList rows = game_view_->selectionModel()->selectedRows();
  if (rows.isEmpty() || !archive_) return;
  const auto id = rows.front().data(GameListModel::GameIdRole).toULongLong();
  if (session_ && session_->game().id == id) return;
  if (auto opened = open_game(id); !opened) show_error(QString::fromStdString(opened.error().message));
}

void MainWindow::on_timeline_current(const QModelIndex& current) {
  if (following_session_ || !session_) return;
  if (auto seq = timeline_->seq_at(current)) session_->go_to(*seq);
}

void MainWindow::jump_to_finding(const QModelIndex& view_index) {
  if (!session_ || !view_index.isValid()) return;
  const QModelIndex source = view_index.model() == all_findings_sorted_
                                 ? all_findings_sorted_->mapToSource(view_index)
                                 : view_index;
  session_->go_to(source.data(FindingsModel::SeqRole).toULongLong());
}

void MainWindow::next_finding() {
  if (!session_) return;
  std::optional<core::Seq> next;
  for (const replay::LocatedFinding& f : session_->findings()) {
    if (f.finding.seq > session_->seq() && (!next || f.finding.seq < *next)) next = f.finding.seq;
  }
  if (!next) {
    statusBar()->showMessage(tr("No finding after seq %1.").arg(session_->seq()), 3000);
    return;
  }
  session_->go_to(*next);
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
