#pragma once
// The games of a store, one row each. Maps GameSummary values to cells.

#include <QAbstractTableModel>

#include <vector>

#include "warlog/replay/replay.hpp"

namespace warlog::viewer {

class GameListModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { Id, Title, Date, Players, Events, ColumnCount };
  enum Role {
    GameIdRole = Qt::UserRole + 1,  // core::GameId as qulonglong
    SortRole,                       // the raw value a column sorts by
  };

  explicit GameListModel(QObject* parent = nullptr);

  void set_games(std::vector<replay::GameSummary> games);
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
};

}  // namespace warlog::viewer
