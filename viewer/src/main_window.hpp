#pragma once
// The viewer's window: game list, timeline, battlefield, state, charts,
// what changed, findings and disputes, wired to a GameSession; compare mode
// beside it; live follow of a store another process writes. It holds no rule
// logic: every value shown comes from the replay facade through the models.
// main_window.cpp builds and follows the session; main_window_keys.cpp the
// menus and keys; main_window_follow.cpp live follow, idle auditing and
// settings; main_window_compare.cpp compare mode and disputes.

#include <QDateTime>
#include <QMainWindow>
#include <QPersistentModelIndex>

#include <memory>
#include <optional>

#include "game_session.hpp"
#include "warlog/replay/disputes.hpp"
#include "warlog/replay/rule_diff.hpp"
#include "warlog/replay/visibility.hpp"

class QAction;
class QCheckBox;
class QFileSystemWatcher;
class QLabel;
class QLineEdit;
class QMenu;
class QSlider;
class QSortFilterProxyModel;
class QSplitter;
class QPlainTextEdit;
class QScrollArea;
class QStackedWidget;
class QTabWidget;
class QTableView;
class QTimer;
class QTreeView;

namespace warlog::viewer {

class BattlefieldView;
class ChangesModel;
class DisputesModel;
class FiguresCharts;
class FindingsModel;
class GameFilterProxy;
class RecordBar;
class GameListModel;
class SnapshotBuilder;
class StateModel;
class TimelineModel;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  // Without an archive, open_store() or the File menu opens one.
  explicit MainWindow(std::shared_ptr<replay::Archive> archive = nullptr, QWidget* parent = nullptr);
  ~MainWindow() override;

  // Lists the archive's games. Errors: the facade's.
  [[nodiscard]] Expected<void> load_games();
  // Surveys a game and shows it at its first event. Errors: NotFound for an
  // unknown game, the facade's otherwise; the game shown stays.
  [[nodiscard]] Expected<void> open_game(core::GameId id);
  // Closes the store shown (and its games) and opens `path`, read-write when
  // the files allow it (disputes), else read-only; remembers it among the
  // recent stores. Errors: the facade's.
  [[nodiscard]] Expected<void> open_store(const QString& path);

  // Compare mode: the game shown, folded again under `candidate` (a ruleset
  // and/or a catalog), side by side, stepping together; events where the two
  // differ (replay::rule_diff) are marked in the timeline. `label` names the
  // candidate. Errors: the facade's.
  [[nodiscard]] Expected<void> compare_with(const replay::AuditOptions& candidate, const QString& label);
  void stop_comparing();

  // Disputes at the current event and rulings (the store must be writable).
  // Errors: InvalidArgument (empty claim, read-only store), the facade's.
  [[nodiscard]] Expected<void> add_dispute(const QString& claim, const QString& raised_by, const QString& citations);
  // A ruling as `warlog dispute resolve` takes it: upheld or overruled (the
  // ruling's first word), who rules, citations (rule ids the registry
  // knows), and the finding the audit must (or must not) report at the
  // event, which `warlog dispute export-test` turns into a regression case.
  struct Ruling {
    bool upheld = true;
    QString text;
    QString ruled_by;
    QStringList citations;  // rule ids
    std::optional<core::Expectation> expectation;
  };
  // Errors: InvalidArgument (an unknown rule id, an empty ruling or name),
  // the facade's.
  [[nodiscard]] Expected<void> record_ruling(const replay::DisputeId& id, const Ruling& ruling);

  // Live follow: looks at the store for new games and events now (the timer
  // does it every 500 ms, the file watcher on each write).
  void poll_store();

  // --- For tests and main() ----------------------------------------------
  [[nodiscard]] GameSession* session() const noexcept { return session_.get(); }
  [[nodiscard]] GameSession* candidate_session() const noexcept { return candidate_.get(); }
  [[nodiscard]] const std::optional<replay::GameDiff>& diff() const noexcept { return diff_; }
  [[nodiscard]] GameListModel* game_list_model() const noexcept { return games_; }
  [[nodiscard]] QSortFilterProxyModel* game_list_proxy() const noexcept { return games_sorted_; }
  [[nodiscard]] TimelineModel* timeline_model() const noexcept { return timeline_; }
  [[nodiscard]] StateModel* state_model() const noexcept { return state_; }
  // Compare mode: the two folds' states row by row at the current event.
  [[nodiscard]] ChangesModel* compare_model() const noexcept { return compare_rows_; }
  [[nodiscard]] ChangesModel* changes_model() const noexcept { return changes_; }
  [[nodiscard]] FindingsModel* findings_here_model() const noexcept { return findings_here_; }
  [[nodiscard]] QTableView* findings_here_view() const noexcept { return findings_here_view_; }
  [[nodiscard]] FindingsModel* all_findings_model() const noexcept { return all_findings_; }
  [[nodiscard]] DisputesModel* disputes_model() const noexcept { return disputes_; }
  [[nodiscard]] QTableView* game_list_view() const noexcept { return game_view_; }
  [[nodiscard]] BattlefieldView* compare_base_board() const noexcept { return compare_base_board_; }
  [[nodiscard]] BattlefieldView* compare_candidate_board() const noexcept { return compare_candidate_board_; }
  [[nodiscard]] QLineEdit* game_filter() const noexcept { return game_filter_; }
  [[nodiscard]] QTreeView* timeline_view() const noexcept { return timeline_view_; }
  [[nodiscard]] QSlider* timeline_slider() const noexcept { return slider_; }
  [[nodiscard]] QTreeView* state_view() const noexcept { return state_view_; }
  [[nodiscard]] QTableView* all_findings_view() const noexcept { return all_findings_view_; }
  [[nodiscard]] QLabel* rule_text() const noexcept { return rule_text_; }
  [[nodiscard]] BattlefieldView* battlefield() const noexcept { return battlefield_; }
  [[nodiscard]] FiguresCharts* charts() const noexcept { return charts_; }
  [[nodiscard]] QTabWidget* view_tabs() const noexcept { return view_tabs_; }
  [[nodiscard]] QTabWidget* detail_tabs() const noexcept { return detail_tabs_; }
  [[nodiscard]] QWidget* compare_page() const noexcept { return compare_page_; }
  [[nodiscard]] RecordBar* record_bar() const noexcept { return record_bar_; }

 public slots:
  // Jumps to the finding in this row of the all-findings view (as sorted).
  void jump_to_finding(const QModelIndex& view_index);
  void next_finding();      // F3: the recorded and, comparing, the candidate's findings
  void first_finding();     // Ctrl+F3
  void first_divergence();  // Ctrl+D, in compare mode
  void ask_seq();       // Ctrl+G
  void focus_record_bar();  // Ctrl+R

 protected:
  void closeEvent(QCloseEvent* event) override;

 private slots:
  void on_moved(core::Seq seq);
  void on_grew(core::Seq old_count, core::Seq new_count);
  void on_game_selected();
  void on_timeline_current(const QModelIndex& current);
  void on_finding_selected(const QModelIndex& current);
  void audit_some_games();  // idle: fills the game list's result and findings
  void diff_some_games();   // idle, comparing: what the candidate changes in each game

 public:
  // View › Seen as: judge (everything), a seat, or the public.
  void set_perspective(replay::Perspective p);
  // View › Board before this event (Ctrl+B): the battlefield shows the state
  // before the current event instead of after it; the spaces stay marked.
  void set_board_before(bool before);
  [[nodiscard]] bool board_before() const noexcept { return board_before_; }
  [[nodiscard]] replay::Perspective perspective() const noexcept { return perspective_; }
  // File › Export dispute report (Ctrl+E): the dispute selected in the
  // Disputes tab, else the first raised at the current event.
  [[nodiscard]] std::optional<replay::DisputeId> report_dispute() const;
  // Writes its report to `path` (.html, .md or .pdf: dispute_export.hpp);
  // what went wrong is shown in the status bar and returned.
  Expected<void> export_dispute_report_to(const QString& path);

 private:
  void previous_finding();  // Shift+F3
  // F3 / Shift+F3 within the current event's findings first: whether it moved.
  bool step_finding_here(int delta);
  // The events with findings, in seq order, once each: the recorded game's,
  // and in compare mode the candidate's as well.
  [[nodiscard]] std::vector<core::Seq> finding_stops() const;
  void aim_record_bar();  // at the game shown, disabled when it ended
  void on_recorded();     // the bar appended: show it at once
  void build_ui();
  void build_actions();
  void show_session();
  void lay_snapshots(core::GameId id);
  void show_error(const QString& message);
  void load_disputes();
  void show_compare();  // the compare rows at the current event
  void show_times();    // the Times tab, when the game opens or grows
  // What the battlefields frame at the current event: its spaces and those of
  // the events its findings (`here`) concern.
  [[nodiscard]] std::vector<core::Space> marked_spaces(const std::vector<replay::LocatedFinding>& here) const;
  void restore_settings();
  void save_settings() const;
  void remember_store(const QString& path);
  void rebuild_recent_menu();
  void watch_store();
  // Menu actions that ask with dialogs.
  void ask_open_store();
  void ask_compare();
  void ask_add_dispute();
  void ask_ruling();
  void ask_export_dispute_report();

  void select_shown_game();  // the game list's selection on the game shown, in sight
  [[nodiscard]] QString key_hint() const;  // the status bar's line of keys

  std::shared_ptr<replay::Archive> archive_;
  std::unique_ptr<GameSession> session_;
  std::unique_ptr<GameSession> candidate_;  // compare mode
  // Lays the open game's snapshots in the background when it has none.
  std::unique_ptr<SnapshotBuilder> snapshot_builder_;
  std::optional<replay::AuditOptions> candidate_options_;
  QString candidate_label_;
  std::optional<replay::GameDiff> diff_;

  GameListModel* games_ = nullptr;
  QSortFilterProxyModel* games_sorted_ = nullptr;  // games_filter_
  GameFilterProxy* games_filter_ = nullptr;
  bool filtering_ = false;  // set while the game filter moves rows
  TimelineModel* timeline_ = nullptr;
  StateModel* state_ = nullptr;
  ChangesModel* compare_rows_ = nullptr;
  ChangesModel* changes_ = nullptr;
  FindingsModel* findings_here_ = nullptr;
  FindingsModel* candidate_findings_ = nullptr;
  FindingsModel* all_findings_ = nullptr;
  QSortFilterProxyModel* all_findings_sorted_ = nullptr;
  DisputesModel* disputes_ = nullptr;

  QTableView* game_view_ = nullptr;
  QLineEdit* game_filter_ = nullptr;
  QTreeView* timeline_view_ = nullptr;
  QSlider* slider_ = nullptr;
  QLabel* moment_label_ = nullptr;
  QTabWidget* view_tabs_ = nullptr;
  QTabWidget* detail_tabs_ = nullptr;
  BattlefieldView* battlefield_ = nullptr;
  QTreeView* state_view_ = nullptr;
  FiguresCharts* charts_ = nullptr;
  QWidget* compare_page_ = nullptr;
  QLabel* compare_summary_ = nullptr;
  QTableView* compare_view_ = nullptr;
  // Compare mode, side by side and stepping together: the recorded game's
  // battlefield and charts, and the candidate's.
  QTabWidget* compare_tabs_ = nullptr;  // Battlefields, Charts, Values
  BattlefieldView* compare_base_board_ = nullptr;
  BattlefieldView* compare_candidate_board_ = nullptr;
  FiguresCharts* compare_base_charts_ = nullptr;
  FiguresCharts* compare_candidate_charts_ = nullptr;
  QCheckBox* only_differences_ = nullptr;
  QStackedWidget* findings_here_stack_ = nullptr;  // the table, or a "no findings" label
  QStackedWidget* changes_stack_ = nullptr;  // the table, or why nothing changed (no_changes_)
  QLabel* no_changes_ = nullptr;
  QPlainTextEdit* times_view_ = nullptr;
  QScrollArea* rule_scroll_ = nullptr;  // the rule pane, scrolling (Alt+6)  // Times: each part's recorded time (show_times)
  QLabel* no_findings_here_ = nullptr;
  QTableView* findings_here_view_ = nullptr;
  QTableView* all_findings_view_ = nullptr;
  QTableView* changes_view_ = nullptr;
  QTableView* disputes_view_ = nullptr;
  QLabel* rule_text_ = nullptr;
  RecordBar* record_bar_ = nullptr;
  QLabel* position_label_ = nullptr;
  QSplitter* main_split_ = nullptr;
  QSplitter* game_split_ = nullptr;
  QSplitter* right_split_ = nullptr;
  QMenu* recent_menu_ = nullptr;
  QTimer* follow_timer_ = nullptr;
  QTimer* audit_timer_ = nullptr;
  QTimer* diff_timer_ = nullptr;  // compare mode: fills the game list's Candidate column
  std::size_t diff_next_ = 0;     // next game-list row it diffs
  QFileSystemWatcher* watcher_ = nullptr;
  std::size_t audit_next_ = 0;  // next game-list row the idle audit looks at
  // The data file as the last game listing saw it: listing 10,000 games each
  // tick would cost more than a look at the file.
  QDateTime store_modified_;
  qint64 store_size_ = -1;
  int polls_since_listing_ = 0;
  std::pair<QPersistentModelIndex, QPersistentModelIndex> expanded_path_;  // the current phase and turn rows
  static constexpr std::size_t kOpenAllTurnsUpTo = 2000;  // spans
 public:
  // The idle audit and the idle diff leave longer games to be opened.
  static constexpr core::Seq kIdleAuditMaxEvents = 50'000;

 private:
  bool following_session_ = false;  // set while the views follow a move, so they do not echo it
  // Who the game is seen as (View › Seen as): the battlefield, state, changes
  // and timeline show only what that perspective saw (replay/visibility.hpp).
  replay::Perspective perspective_ = replay::Perspective::Judge;
  bool board_before_ = false;
  QAction* board_before_action_ = nullptr;
  QLabel* perspective_label_ = nullptr;
};

}  // namespace warlog::viewer
