#include "main_window.hpp"

#include <QCheckBox>
#include <QFileSystemWatcher>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScreen>
#include <QSlider>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

#include "battlefield_view.hpp"
#include "changes_model.hpp"
#include "warlog/replay/report.hpp"
#include "disputes_model.hpp"
#include "event_text.hpp"
#include "figures_charts.hpp"
#include "findings_model.hpp"
#include "game_list_model.hpp"
#include "main_window_parts.hpp"
#include "record_bar.hpp"
#include "snapshot_builder.hpp"
#include "state_model.hpp"
#include "timeline_model.hpp"

namespace warlog::viewer {

MainWindow::MainWindow(std::shared_ptr<replay::Archive> archive, QWidget* parent)
    : QMainWindow(parent), archive_(std::move(archive)) {
  setObjectName(QStringLiteral("warlogViewer"));
  games_ = new GameListModel(this);
  games_filter_ = new GameFilterProxy(this);
  games_sorted_ = games_filter_;
  games_sorted_->setSourceModel(games_);
  games_sorted_->setSortRole(GameListModel::SortRole);
  games_sorted_->setFilterKeyColumn(-1);
  games_sorted_->setFilterCaseSensitivity(Qt::CaseInsensitive);
  timeline_ = new TimelineModel(this);
  state_ = new StateModel(this);
  compare_rows_ = new ChangesModel(this);
  changes_ = new ChangesModel(this);
  findings_here_ = new FindingsModel(this);
  candidate_findings_ = new FindingsModel(this);
  all_findings_ = new FindingsModel(this);
  all_findings_sorted_ = new FindingsSortProxy(this);
  all_findings_sorted_->setSourceModel(all_findings_);
  all_findings_sorted_->setSortRole(FindingsModel::SortRole);
  disputes_ = new DisputesModel(this);
  build_ui();
  build_actions();
  follow_timer_ = new QTimer(this);
  follow_timer_->setInterval(500);
  connect(follow_timer_, &QTimer::timeout, this, &MainWindow::poll_store);
  audit_timer_ = new QTimer(this);
  audit_timer_->setInterval(0);
  connect(audit_timer_, &QTimer::timeout, this, &MainWindow::audit_some_games);
  diff_timer_ = new QTimer(this);
  diff_timer_->setInterval(0);
  connect(diff_timer_, &QTimer::timeout, this, &MainWindow::diff_some_games);
  watcher_ = new QFileSystemWatcher(this);
  connect(watcher_, &QFileSystemWatcher::fileChanged, this, [this] { poll_store(); });
  setWindowTitle(tr("warlog viewer"));
  // 1280x800, or less on a smaller screen: the frame and the status bar
  // (who the game is seen as, the key hints) stay on it.
  QSize size(1280, 800);
  // (The offscreen platform's screen is a nominal 800x600 nobody sees.)
  const QScreen* screen = QGuiApplication::primaryScreen();
  if (screen != nullptr && QGuiApplication::platformName() != QLatin1String("offscreen")) {
    size = size.boundedTo(screen->availableGeometry().size() - QSize(16, 48));
  }
  resize(size);
  restore_settings();
  if (archive_) {
    setWindowTitle(tr("warlog viewer — %1").arg(QString::fromStdString(archive_->path())));
    remember_store(QString::fromStdString(archive_->path()));
    watch_store();
    follow_timer_->start();
  }
}

MainWindow::~MainWindow() {
  snapshot_builder_.reset();  // stops the build and waits for it
  // The timeline reads events through the session: let go of that first.
  timeline_->set_game({}, {}, {}, {});
  candidate_.reset();
  session_.reset();
}

void MainWindow::build_ui() {
  // Games across the top, with a filter.
  game_view_ = make_table();
  game_view_->setModel(games_sorted_);
  game_view_->setSortingEnabled(true);
  game_view_->sortByColumn(GameListModel::Id, Qt::AscendingOrder);
  game_view_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  game_view_->horizontalHeader()->setResizeContentsPrecision(200);  // 10,000 games: measure a sample
  game_view_->horizontalHeader()->setStretchLastSection(false);
  game_view_->horizontalHeader()->setSectionResizeMode(GameListModel::Title, QHeaderView::Stretch);
  game_view_->setColumnHidden(GameListModel::Candidate, true);  // shown in compare mode
  connect(game_view_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &MainWindow::on_game_selected);
  game_filter_ = new QLineEdit;
  game_filter_->setPlaceholderText(tr("Filter games: title, player, allegiance, date, result…"));
  game_filter_->setClearButtonEnabled(true);
  connect(game_filter_, &QLineEdit::textChanged, this, [this](const QString& text) {
    // Filtering moves rows under the selection: that is no choice of a game.
    filtering_ = true;
    games_sorted_->setFilterFixedString(text);
    filtering_ = false;
    select_shown_game();
  });
  auto* games_pane = new QWidget;
  auto* games_layout = new QVBoxLayout(games_pane);
  games_layout->setContentsMargins(0, 0, 0, 0);
  games_layout->setSpacing(2);
  games_layout->addWidget(game_filter_);
  games_layout->addWidget(game_view_, 1);

  // The timeline with a slider to scrub.
  timeline_view_ = new QTreeView;
  timeline_view_->setModel(timeline_);
  timeline_view_->setUniformRowHeights(true);  // the view asks only for the rows it shows
  timeline_view_->setSelectionMode(QAbstractItemView::SingleSelection);
  timeline_view_->header()->setStretchLastSection(false);
  timeline_view_->header()->setSectionResizeMode(TimelineModel::Label, QHeaderView::Stretch);
  // Fixed, not ResizeToContents: that measures rows on every change, and a
  // long game has tens of thousands of turn rows.
  timeline_view_->header()->setSectionResizeMode(TimelineModel::Findings, QHeaderView::Fixed);
  timeline_view_->header()->resizeSection(TimelineModel::Findings,
                                          timeline_view_->fontMetrics().horizontalAdvance(tr("Findings")) + 20);
  connect(timeline_view_->selectionModel(), &QItemSelectionModel::currentChanged, this,
          &MainWindow::on_timeline_current);
  slider_ = new QSlider(Qt::Horizontal);
  slider_->setRange(0, 0);
  slider_->setPageStep(50);
  slider_->setToolTip(tr("Scrub through the game"));
  connect(slider_, &QSlider::valueChanged, this, [this](int value) {
    if (!following_session_ && session_) session_->go_to(static_cast<core::Seq>(value));
  });
  auto* timeline_pane = new QWidget;
  auto* timeline_layout = new QVBoxLayout(timeline_pane);
  timeline_layout->setContentsMargins(0, 0, 0, 0);
  timeline_layout->setSpacing(2);
  timeline_layout->addWidget(timeline_view_, 1);
  timeline_layout->addWidget(slider_);
  // Recording from the viewer: the same Recorder call as `warlog record`.
  record_bar_ = new RecordBar;
  connect(record_bar_, &RecordBar::stream_grew, this, &MainWindow::on_recorded);
  connect(record_bar_, &RecordBar::leave, this, [this] { timeline_view_->setFocus(Qt::ShortcutFocusReason); });
  timeline_layout->addWidget(record_bar_);

  // The moment: battlefield, state, charts, compare.
  battlefield_ = new BattlefieldView;
  state_view_ = make_state_tree(state_);
  charts_ = new FiguresCharts;
  compare_page_ = new QWidget;
  {
    auto* layout = new QVBoxLayout(compare_page_);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->setSpacing(2);
    compare_summary_ = new QLabel;
    compare_summary_->setWordWrap(true);
    compare_summary_->setTextFormat(Qt::PlainText);
    layout->addWidget(compare_summary_);
    only_differences_ = new QCheckBox(tr("Only rows that differ"));
    connect(only_differences_, &QCheckBox::toggled, this, [this] { show_compare(); });
    layout->addWidget(only_differences_);
    compare_view_ = make_table();
    compare_view_->setModel(compare_rows_);
    two_value_columns(compare_view_);
    auto* candidate_findings_view = make_table();
    candidate_findings_view->setModel(candidate_findings_);
    stretch_message(candidate_findings_view);
    // Both battlefields, and both sets of charts, side by side and stepping
    // together; then the values that differ. Each its own tab, so the page
    // asks no more height than one view does.
    compare_base_board_ = new BattlefieldView;
    compare_candidate_board_ = new BattlefieldView;
    compare_base_charts_ = new FiguresCharts;
    compare_candidate_charts_ = new FiguresCharts;
    auto* boards = new QSplitter(Qt::Horizontal);
    boards->addWidget(titled(tr("Recorded"), compare_base_board_));
    boards->addWidget(titled(tr("Candidate"), compare_candidate_board_));
    auto* charts = new QSplitter(Qt::Horizontal);
    charts->addWidget(titled(tr("Recorded"), compare_base_charts_));
    charts->addWidget(titled(tr("Candidate"), compare_candidate_charts_));
    for (QSplitter* pair : {boards, charts}) {
      pair->setChildrenCollapsible(false);
      pair->setSizes({500, 500});
    }
    // Two charts side by side ask twice the height of one only if let:
    // the page must not squeeze the game list above it.
    for (QWidget* w : std::initializer_list<QWidget*>{compare_base_charts_, compare_candidate_charts_,
                                                      compare_base_board_, compare_candidate_board_}) {
      w->setMinimumHeight(60);
    }
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(compare_view_);
    split->addWidget(titled(tr("The candidate's findings at this event"), candidate_findings_view));
    split->setSizes({300, 110});
    split->setChildrenCollapsible(false);
    compare_tabs_ = new QTabWidget;
    compare_tabs_->setDocumentMode(true);
    compare_tabs_->addTab(boards, tr("Battlefields"));
    compare_tabs_->addTab(charts, tr("Charts"));
    compare_tabs_->addTab(split, tr("Values"));
    layout->addWidget(compare_tabs_, 1);
  }
  view_tabs_ = new QTabWidget;
  view_tabs_->setDocumentMode(true);
  view_tabs_->addTab(battlefield_, tr("Battlefield"));
  view_tabs_->addTab(state_view_, tr("State"));
  view_tabs_->addTab(charts_, tr("Charts"));
  view_tabs_->addTab(compare_page_, tr("Compare"));

  moment_label_ = new QLabel(tr("No game open."));
  moment_label_->setObjectName("moment");
  moment_label_->setWordWrap(true);
  moment_label_->setTextFormat(Qt::PlainText);
  auto* moment_pane = new QWidget;
  auto* moment_layout = new QVBoxLayout(moment_pane);
  moment_layout->setContentsMargins(4, 4, 4, 0);
  moment_layout->setSpacing(2);
  moment_layout->addWidget(moment_label_);
  moment_layout->addWidget(view_tabs_, 1);

  // Details: what changed, findings, disputes; the selected rule's text.
  changes_view_ = make_table();
  changes_view_->setModel(changes_);
  two_value_columns(changes_view_);
  findings_here_view_ = make_table();
  findings_here_view_->setModel(findings_here_);
  all_findings_view_ = make_table();
  all_findings_view_->setModel(all_findings_sorted_);
  all_findings_view_->setSortingEnabled(true);
  // The survey gives findings in seq order: no sort until a header is clicked
  // (a long game may hold hundreds of thousands).
  all_findings_view_->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
  for (QTableView* v : {findings_here_view_, all_findings_view_}) {
    stretch_message(v);
    connect(v->selectionModel(), &QItemSelectionModel::currentChanged, this, &MainWindow::on_finding_selected);
  }
  connect(all_findings_view_, &QAbstractItemView::clicked, this, &MainWindow::jump_to_finding);
  connect(all_findings_view_, &QAbstractItemView::activated, this, &MainWindow::jump_to_finding);
  // Here the row's own event is the current one: activating its Concerns or
  // Rests on cell goes to that event.
  connect(findings_here_view_, &QAbstractItemView::activated, this, &MainWindow::jump_to_finding);
  no_findings_here_ = new QLabel;
  no_findings_here_->setAlignment(Qt::AlignCenter);
  no_findings_here_->setEnabled(false);
  findings_here_stack_ = new QStackedWidget;
  findings_here_stack_->addWidget(findings_here_view_);
  findings_here_stack_->addWidget(no_findings_here_);
  // An empty "What changed" says why (changes_model.hpp › no_change_note).
  no_changes_ = new QLabel;
  no_changes_->setObjectName("no_changes");
  no_changes_->setAlignment(Qt::AlignCenter);
  no_changes_->setWordWrap(true);
  no_changes_->setEnabled(false);
  changes_stack_ = new QStackedWidget;
  changes_stack_->addWidget(changes_view_);
  changes_stack_->addWidget(no_changes_);

  disputes_view_ = make_table();
  disputes_view_->setModel(disputes_);
  disputes_view_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  disputes_view_->horizontalHeader()->setSectionResizeMode(DisputesModel::Claim, QHeaderView::Stretch);
  disputes_view_->horizontalHeader()->setStretchLastSection(false);
  connect(disputes_view_, &QAbstractItemView::clicked, this, [this](const QModelIndex& i) {
    if (session_ && i.isValid()) session_->go_to(i.data(DisputesModel::SeqRole).toULongLong());
  });
  auto* disputes_page = new QWidget;
  {
    auto* layout = new QVBoxLayout(disputes_page);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    auto* buttons = new QHBoxLayout;
    auto* add = new QPushButton(tr("Add dispute at this event…"));
    auto* rule = new QPushButton(tr("Record ruling…"));
    connect(add, &QPushButton::clicked, this, &MainWindow::ask_add_dispute);
    connect(rule, &QPushButton::clicked, this, &MainWindow::ask_ruling);
    buttons->addWidget(add);
    buttons->addWidget(rule);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    layout->addWidget(disputes_view_, 1);
  }

  detail_tabs_ = new QTabWidget;
  detail_tabs_->setDocumentMode(true);
  detail_tabs_->addTab(changes_stack_, tr("What changed"));
  detail_tabs_->addTab(findings_here_stack_, tr("Findings here"));
  detail_tabs_->addTab(all_findings_view_, tr("All findings"));
  detail_tabs_->addTab(disputes_page, tr("Disputes"));
  // Times: each turn's and phase part's recorded time, for slow-play claims.
  times_view_ = new QPlainTextEdit;
  times_view_->setObjectName(QStringLiteral("times"));
  times_view_->setReadOnly(true);
  times_view_->setLineWrapMode(QPlainTextEdit::NoWrap);
  times_view_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  detail_tabs_->addTab(times_view_, tr("Times"));
  rule_text_ = new QLabel(tr("Select a finding to read its rule."));
  rule_text_->setWordWrap(true);
  rule_text_->setTextFormat(Qt::RichText);
  rule_text_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  rule_text_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  auto* details = new QWidget;
  auto* details_layout = new QVBoxLayout(details);
  details_layout->setContentsMargins(4, 0, 4, 2);
  details_layout->setSpacing(2);
  // The rule's words scroll (a section runs to a screenful or more); the
  // splitter lets a judge give them room, Alt+6 puts the keys on them.
  rule_scroll_ = new QScrollArea;
  rule_scroll_->setObjectName(QStringLiteral("rule_pane"));
  rule_scroll_->setWidget(rule_text_);
  rule_scroll_->setWidgetResizable(true);
  rule_scroll_->setFrameShape(QFrame::NoFrame);
  rule_scroll_->setFocusPolicy(Qt::StrongFocus);
  rule_scroll_->setMinimumHeight(rule_text_->fontMetrics().height() * 2);
  auto* details_split = new QSplitter(Qt::Vertical);
  details_split->addWidget(detail_tabs_);
  details_split->addWidget(rule_scroll_);
  details_split->setStretchFactor(0, 3);
  details_split->setStretchFactor(1, 2);
  details_split->setChildrenCollapsible(false);
  details_layout->addWidget(details_split, 1);

  right_split_ = new QSplitter(Qt::Vertical);
  right_split_->addWidget(moment_pane);
  right_split_->addWidget(details);
  right_split_->setStretchFactor(0, 3);
  right_split_->setStretchFactor(1, 2);
  right_split_->setSizes({400, 230});
  right_split_->setChildrenCollapsible(false);

  game_split_ = new QSplitter(Qt::Horizontal);
  game_split_->addWidget(titled(tr("Timeline"), timeline_pane));
  game_split_->addWidget(right_split_);
  game_split_->setStretchFactor(0, 1);
  game_split_->setStretchFactor(1, 3);
  game_split_->setSizes({440, 840});
  game_split_->setChildrenCollapsible(false);

  main_split_ = new QSplitter(Qt::Vertical);
  main_split_->addWidget(titled(tr("Games"), games_pane));
  main_split_->addWidget(game_split_);
  main_split_->setStretchFactor(0, 0);
  main_split_->setStretchFactor(1, 1);
  main_split_->setSizes({240, 510});  // ten games or so, and the game below
  main_split_->setChildrenCollapsible(false);
  setCentralWidget(main_split_);

  position_label_ = new QLabel;
  statusBar()->addPermanentWidget(position_label_);
  perspective_label_ = new QLabel(tr("Seen as judge"));
  perspective_label_->setToolTip(tr("View › Seen as (Ctrl+0 judge, Ctrl+1 and Ctrl+2 a seat, Ctrl+3 the public)"));
  statusBar()->addPermanentWidget(perspective_label_);
  statusBar()->showMessage(key_hint());
}

Expected<void> MainWindow::open_game(core::GameId id) {
  if (!archive_) return make_error(ErrorCode::InvalidArgument, "no store open");
  auto opened = GameSession::open(archive_, id);
  if (!opened) return tl::unexpected(opened.error());
  timeline_->set_game({}, {}, {}, {});  // it reads events through the old session
  candidate_.reset();
  diff_.reset();
  session_ = std::move(*opened);
  show_session();
  aim_record_bar();
  lay_snapshots(id);
  // The game list learns the result and findings from the survey.
  games_->set_event_count(id, session_->event_count());
  games_->set_facts(id, facts_of(session_->game(), session_->final_state(), session_->findings().size(),
                                 session_->findings().violations(), session_->rests_on().get()));
  games_filter_->set_pinned(id);
  select_shown_game();
  // The keys work at once: focus on the timeline, unless the judge is
  // typing in the game filter.
  if (!game_filter_->hasFocus()) timeline_view_->setFocus(Qt::OtherFocusReason);
  if (candidate_options_) {
    if (auto c = compare_with(*candidate_options_, candidate_label_); !c) show_error(QString::fromStdString(c.error().message));
  }
  return {};
}

void MainWindow::select_shown_game() {
  if (!session_) return;
  // Keep the game list's selection on the game shown, and in sight.
  const int row = games_->row_of(session_->game().id);
  if (row < 0) return;
  const QModelIndex idx = games_sorted_->mapFromSource(games_->index(row, 0));
  if (!idx.isValid()) return;
  if (game_view_->currentIndex().row() != idx.row() || !game_view_->selectionModel()->isRowSelected(idx.row())) {
    const QSignalBlocker block(game_view_->selectionModel());
    game_view_->selectionModel()->setCurrentIndex(idx, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  }
  game_view_->scrollTo(idx);
}

void MainWindow::lay_snapshots(core::GameId id) {
  if (snapshot_builder_ && snapshot_builder_->game() == id) return;
  snapshot_builder_.reset();
  // A game opened here for the first time has no snapshots in this user's
  // cache: lay them once, off the GUI thread. Seeks stay exact meanwhile.
  auto needed = replay::needs_snapshots(*archive_, id);
  if (!needed || !*needed) return;
  snapshot_builder_ = std::make_unique<SnapshotBuilder>(archive_, id);
  connect(snapshot_builder_.get(), &SnapshotBuilder::progress, this, [this](quint64 done, quint64 total) {
    statusBar()->showMessage(tr("Laying snapshots for fast seeking: %1%").arg(total ? done * 100 / total : 100));
  });
  connect(snapshot_builder_.get(), &SnapshotBuilder::finished, this,
          [this](bool, const QString& message) { statusBar()->showMessage(message, 10'000); });
}

std::vector<core::Space> MainWindow::marked_spaces(const std::vector<replay::LocatedFinding>& here) const {
  const replay::Moment& m = session_->moment();
  std::vector<core::Space> marked = event_spaces(m.event.payload);
  for (const replay::LocatedFinding& f : here) {
    if (f.finding.concerns == m.seq) continue;
    auto concerned = session_->events(f.finding.concerns, f.finding.concerns + 1);
    if (concerned && !concerned->empty()) add_event_spaces(marked, concerned->front().payload);
  }
  return marked;
}

void MainWindow::show_times() {
  if (!session_) {
    times_view_->clear();
    return;
  }
  const auto times = session_->times();
  times_view_->setPlainText(
      times.empty() ? tr("No event of this game carries a recorded time (an imported game): nothing to time.\n"
                         "Games recorded at the table (warlog record, the server) carry one per event.")
                    : QString::fromStdString(replay::times_text(times, session_->game().seats)));
  detail_tabs_->setTabText(4, times.empty() ? tr("Times") : tr("Times (%1 turns)").arg(times.back().turn));
}

void MainWindow::show_session() {
  const auto& seats = session_->game().seats;
  GameSession* s = session_.get();
  // Labels show each event as the chosen perspective saw it (a draw by the
  // other seat: how many cards, not which).
  timeline_->set_game(s->spans(), seats, finding_seqs(s->findings()), [this, s](core::Seq from, core::Seq to) {
    auto events = s->events(from, to);
    if (events && perspective_ != replay::Perspective::Judge) {
      for (core::Event& e : *events) e = replay::view_of(e, perspective_, s->ruleset());
    }
    return events;
  });
  timeline_->set_struck(s->struck());
  all_findings_->share_findings(s->shared_findings(), seats);
  all_findings_->set_rests_on(s->rests_on());
  detail_tabs_->setTabText(2, tr("All findings (%1)").arg(s->findings().size()));
  show_times();
  charts_->set_turns(s->turns(), seats);
  state_->clear();
  compare_rows_->set_changes({});
  candidate_findings_->set_findings({}, seats);
  compare_summary_->setText(tr("Compare mode: File › Compare with ruleset or catalog… folds this game again under "
                               "another ruleset or catalog and shows both, stepping together."));
  setWindowTitle(tr("%1 — warlog viewer").arg(QString::fromStdString(s->game().title)));
  {
    const QSignalBlocker block(slider_);
    slider_->setRange(0, static_cast<int>(s->last_seq()));
    slider_->setValue(0);
  }
  load_disputes();
  connect(s, &GameSession::moved, this, &MainWindow::on_moved);
  connect(s, &GameSession::grew, this, &MainWindow::on_grew);
  connect(s, &GameSession::failed, this, &MainWindow::show_error);
  // Turns open on their phases; events show in the current phase only.
  timeline_view_->collapseAll();
  expanded_path_ = {};
  // A short game opens every turn on its phases; a long one opens only the
  // current turn and phase (each open row costs the view a slot).
  if (s->spans().size() <= kOpenAllTurnsUpTo) timeline_view_->expandToDepth(0);
  on_moved(s->seq());
}

void MainWindow::on_moved(core::Seq) {
  if (!session_ || session_->empty()) {
    moment_label_->setText(tr("This game has no events yet."));
    return;
  }
  const replay::Moment& m = session_->moment();
  const auto& seats = session_->game().seats;
  following_session_ = true;

  timeline_->set_current(m.seq);
  const QModelIndex row = timeline_->index_of_seq(m.seq);
  timeline_view_->selectionModel()->setCurrentIndex(row, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  // Close the phase (and, in a long game, the turn) the current event left.
  const QPersistentModelIndex phase = row.parent();
  const QPersistentModelIndex turn = phase.parent();
  if (expanded_path_.first.isValid() && expanded_path_.first != phase) timeline_view_->collapse(expanded_path_.first);
  if (session_->spans().size() > kOpenAllTurnsUpTo && expanded_path_.second.isValid() && expanded_path_.second != turn) {
    timeline_view_->collapse(expanded_path_.second);
  }
  expanded_path_ = {phase, turn};
  timeline_view_->scrollTo(row);  // opens the row's turn and phase
  slider_->setValue(static_cast<int>(m.seq));

  // What the chosen perspective saw (View › Seen as); the judge sees all.
  const core::GameState seen = replay::view_of(m.state, perspective_, session_->ruleset());
  const core::GameState seen_before = replay::view_of(session_->before(), perspective_, session_->ruleset());
  state_->set_state(seen, session_->catalog(), session_->ruleset(), &seen_before);
  // Marked: the spaces the event names, and those of the events its
  // findings concern (a finding of a part's close concerns the event that
  // opened it).
  auto here = session_->findings_here();  // read once a move: the marks, the tab and the table
  battlefield_->show_state(board_before_ ? seen_before : seen, session_->catalog(), session_->ruleset(), seats,
                           marked_spaces(here));
  charts_->set_current_turn(m.state.turn);
  changes_->set_changes(state_changes(seen_before, seen, session_->catalog(), session_->ruleset()));
  detail_tabs_->setTabText(0, tr("What changed (%1)").arg(changes_->rowCount()));
  if (changes_->rowCount() == 0) {
    const bool hidden = perspective_ != replay::Perspective::Judge &&
                        !state_changes(session_->before(), m.state, session_->catalog(), session_->ruleset()).empty();
    const std::string_view who = replay::to_string(perspective_);
    no_changes_->setText(no_change_note(m.event, session_->before(), m.state, here.size(), hidden,
                                        QString::fromUtf8(who.data(), static_cast<qsizetype>(who.size()))));
  }
  changes_stack_->setCurrentWidget(changes_->rowCount() == 0 ? static_cast<QWidget*>(no_changes_) : changes_view_);
  detail_tabs_->setTabText(1, tr("Findings here (%1)").arg(here.size()));
  no_findings_here_->setText(tr("No findings at seq %1.").arg(m.seq));
  findings_here_stack_->setCurrentWidget(here.empty() ? static_cast<QWidget*>(no_findings_here_) : findings_here_view_);
  const std::size_t here_count = here.size();
  findings_here_->set_findings(std::move(here), seats);
  // The findings here are the survey's rows at this seq, in the same order.
  const std::size_t end = session_->findings().upper_bound(m.seq);
  findings_here_->set_rests_on(end >= here_count ? session_->rests_on() : nullptr, end - std::min(end, here_count));
  if (candidate_) {
    candidate_->go_to(m.seq);
    candidate_findings_->set_findings(candidate_->findings_here(), seats);
    show_compare();
  }
  // The rule of the event's first finding, without a click; never a rule
  // left from another event or another game.
  if (!findings_here_->findings().empty()) {
    rule_text_->setText(rule_text_html(findings_here_->findings().at(0).rule_id));
  } else if (candidate_ && !candidate_findings_->findings().empty()) {
    rule_text_->setText(tr("The candidate's finding: ") + rule_text_html(candidate_findings_->findings().at(0).rule_id));
  } else {
    rule_text_->setText(tr("No finding at seq %1: select one to read its rule.").arg(m.seq));
  }

  const QString where = m.event.turn == 0
                            ? tr("Setup")
                            : tr("Turn %1 · %2").arg(m.event.turn).arg(QString::fromStdString(phase_title(m.event.phase)));
  // Events are counted by seq, as the CLI and findings count them, here
  // and in the status bar alike.
  // Which state the battlefield shows: after the event, or before it (Ctrl+B).
  moment_label_->setText((board_before_ ? tr("Before %1\n%2 · seq %3 / %4 · the board before this event (Ctrl+B: after)")
                                        : tr("After %1\n%2 · seq %3 / %4"))
                             .arg(QString::fromStdString(event_label(m.event, seats)), where)
                             .arg(m.seq)
                             .arg(session_->last_seq()));
  const auto& seek = session_->last_seek();
  position_label_->setText(tr("seq %1 / %2 · folded %3 from %4")
                               .arg(m.seq)
                               .arg(session_->last_seq())
                               .arg(seek.folded)
                               .arg(seek.snapshot_seq ? tr("snapshot %1").arg(*seek.snapshot_seq) : tr("the start")));
  following_session_ = false;
}

void MainWindow::on_game_selected() {
  if (filtering_) return;  // rows moved under the filter: no game was chosen
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

void MainWindow::on_finding_selected(const QModelIndex& current) {
  if (!current.isValid()) return;
  const QString id = current.data(FindingsModel::RuleIdRole).toString();
  rule_text_->setText(rule_text_html(id.toStdString()));
}

}  // namespace warlog::viewer
