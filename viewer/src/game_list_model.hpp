#pragma once
// The games of a store, one row each. Maps GameSummary values to cells;
// the audit's result and findings count and the disputes count arrive later
// (set_facts), as the window audits games in idle time.

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include <optional>
#include <string>
#include <vector>

#include "warlog/replay/replay.hpp"
#include "warlog/replay/rule_diff.hpp"

namespace warlog::viewer {

class GameListModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { Id, Title, Date, Players, Events, Result, Findings, Disputes, Candidate, ColumnCount };
  enum Role {
    GameIdRole = Qt::UserRole + 1,  // core::GameId as qulonglong
    SortRole,                       // the raw value a column sorts by
  };

  // What the audit and the annotations say of one game.
  struct Facts {
    std::string result;          // replay::describe of the audit's outcome
    int findings = 0;
    int violations = 0;
  };

  explicit GameListModel(QObject* parent = nullptr);

  void set_games(std::vector<replay::GameSummary> games);
  // Appends games not listed yet (live follow); returns how many.
  int add_games(std::vector<replay::GameSummary> games);
  // Updates a listed game's event count (live follow).
  void set_event_count(core::GameId id, core::Seq events);
  void set_facts(core::GameId id, Facts facts);
  void set_disputes(core::GameId id, int count);
  [[nodiscard]] bool has_facts(core::GameId id) const noexcept;
  // Compare mode: the Candidate column says what the candidate ruleset or
  // catalog changes in each game ("no change", "findings", "outcome",
  // "undetermined"; "…" until diffed; "not compared" and why), so a
  // designer can walk the archive.
  struct CandidateChange {
    replay::DiffClass kind = replay::DiffClass::Unchanged;
    std::string detail;  // the tooltip: findings added and removed, the outcome before and after
    bool unread = false;  // not diffed (too long for idle work, or an error): "not compared", detail says why
  };
  void set_comparing(bool comparing);
  [[nodiscard]] bool comparing() const noexcept { return comparing_; }
  void set_candidate_change(core::GameId id, CandidateChange change);
  [[nodiscard]] bool has_candidate_change(core::GameId id) const noexcept;
  [[nodiscard]] const std::vector<replay::GameSummary>& games() const noexcept { return games_; }
  // The row of a game, or -1.
  [[nodiscard]] int row_of(core::GameId id) const noexcept;

  // --- QAbstractItemModel ----------------------------------------------
  [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation,
                                    int role = Qt::DisplayRole) const override;

 private:
  std::vector<replay::GameSummary> games_;
  std::vector<std::optional<Facts>> facts_;  // by row
  std::vector<int> disputes_;                // by row
  std::vector<std::optional<CandidateChange>> candidate_;  // by row, in compare mode
  bool comparing_ = false;
};

// The game list as sorted and filtered: the game shown always passes the
// filter, so typing in it never hides (or silently replaces) that game.
class GameFilterProxy : public QSortFilterProxyModel {
  Q_OBJECT

 public:
  using QSortFilterProxyModel::QSortFilterProxyModel;
  void set_pinned(std::optional<core::GameId> id);
  [[nodiscard]] std::optional<core::GameId> pinned() const noexcept { return pinned_; }

 protected:
  [[nodiscard]] bool filterAcceptsRow(int source_row, const QModelIndex& source_parent) const override;

 private:
  std::optional<core::GameId> pinned_;
};

}  // namespace warlog::viewer
