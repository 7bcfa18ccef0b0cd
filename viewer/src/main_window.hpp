#pragma once
// The viewer's window: game list, timeline, state and findings, wired to a
// GameSession. It holds no rule logic: every value shown comes from the
// replay facade through the models.

#include <QMainWindow>

#include <memory>
#include <optional>

#include "game_session.hpp"

class QAction;
class QLabel;
class QSortFilterProxyModel;
class QStackedWidget;
class QTabWidget;
class QTableView;
class QTreeView;

namespace warlog::viewer {

class FindingsModel;
class GameListModel;
class StateModel;
class TimelineModel;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  // Without an archive (tests), games are shown with show_session().
  explicit MainWindow(std::optional<replay::Archive> archive = std::nullopt, QWidget* parent = nullptr);
  ~MainWindow() override;

  // Lists the archive's games. Errors: the facade's.
  [[nodiscard]] Expected<void> load_games();
  // Loads a game from the archive and shows it at its first event.
  // Errors: NotFound for an unknown game, the facade's otherwise.
  [[nodiscard]] Expected<void> open_game(core::GameId id);
  // Shows a game already loaded.
  void show_session(SessionData data);

  // --- For tests and main() ----------------------------------------------
  [[nodiscard]] GameSession* session() const noexcept { return session_.get(); }
  [[nodiscard]] GameListModel* game_list_model() const noexcept { return games_; }
  [[nodiscard]] TimelineModel* timeline_model() const noexcept { return timeline_; }
  [[nodiscard]] StateModel* state_model() const noexcept { return state_; }
  [[nodiscard]] FindingsModel* findings_here_model() const noexcept { return findings_here_; }
  [[nodiscard]] FindingsModel* all_findings_model() const noexcept { return all_findings_; }
  [[nodiscard]] QTableView* game_list_view() const noexcept { return game_view_; }
  [[nodiscard]] QTreeView* timeline_view() const noexcept { return timeline_view_; }
  [[nodiscard]] QTreeView* state_view() const noexcept { return state_view_; }
  [[nodiscard]] QTableView* all_findings_view() const noexcept { return all_findings_view_; }

 public slots:
  // Jumps to the finding in this row of the all-findings view (as sorted).
  void jump_to_finding(const QModelIndex& view_index);
  void next_finding();
  void ask_seq();  // Ctrl+G

 private slots:
  void on_moved(core::Seq seq);
  void on_game_selected();
  void on_timeline_current(const QModelIndex& current);

 private:
  void build_ui();
  void build_actions();
  void show_error(const QString& message);

  std::optional<replay::Archive> archive_;
  std::unique_ptr<GameSession> session_;

  GameListModel* games_ = nullptr;
  QSortFilterProxyModel* games_sorted_ = nullptr;
  TimelineModel* timeline_ = nullptr;
  StateModel* state_ = nullptr;
  FindingsModel* findings_here_ = nullptr;
  FindingsModel* all_findings_ = nullptr;
  QSortFilterProxyModel* all_findings_sorted_ = nullptr;

  QTableView* game_view_ = nullptr;
  QTreeView* timeline_view_ = nullptr;
  QLabel* moment_label_ = nullptr;
  QTreeView* state_view_ = nullptr;
  QTabWidget* findings_tabs_ = nullptr;
  QStackedWidget* findings_here_stack_ = nullptr;  // the table, or a "no findings" label
  QLabel* no_findings_here_ = nullptr;
  QTableView* findings_here_view_ = nullptr;
  QTableView* all_findings_view_ = nullptr;
  QLabel* position_label_ = nullptr;
  bool following_session_ = false;  // set while the views follow a move, so they do not echo it
};

}  // namespace warlog::viewer
