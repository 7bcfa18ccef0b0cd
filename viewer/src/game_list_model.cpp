#include "game_list_model.hpp"

#include "event_text.hpp"

namespace warlog::viewer {

GameListModel::GameListModel(QObject* parent) : QAbstractTableModel(parent) {}

void GameListModel::set_games(std::vector<replay::GameSummary> games) {
  beginResetModel();
  games_ = std::move(games);
  endResetModel();
}

int GameListModel::row_of(core::GameId id) const noexcept {
  for (std::size_t i = 0; i < games_.size(); ++i) {
    if (games_[i].id == id) return static_cast<int>(i);
  }
  return -1;
}

int GameListModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(games_.size());
}

int GameListModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant GameListModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const replay::GameSummary& g = games_[static_cast<std::size_t>(index.row())];
  if (role == GameIdRole) return QVariant::fromValue<qulonglong>(g.id);
  if (role == Qt::TextAlignmentRole) {
    if (index.column() == Id || index.column() == Events) return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    return {};
  }
  if (role != Qt::DisplayRole && role != SortRole && role != Qt::ToolTipRole) return {};
  switch (static_cast<Column>(index.column())) {
    case Id: return QVariant::fromValue<qulonglong>(g.id);
    case Title: return QString::fromStdString(g.title);
    case Date: return QString::fromStdString(g.date);
    case Players: return QString::fromStdString(players_text(g.seats));
    case Events: return QVariant::fromValue<qulonglong>(g.events);
    case ColumnCount: break;
  }
  return {};
}

QVariant GameListModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return QAbstractTableModel::headerData(section, orientation, role);
  switch (static_cast<Column>(section)) {
    case Id: return tr("Game");
    case Title: return tr("Title");
    case Date: return tr("Date");
    case Players: return tr("Players");
    case Events: return tr("Events");
    case ColumnCount: break;
  }
  return {};
}

}  // namespace warlog::viewer
