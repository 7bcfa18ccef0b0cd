#include "game_list_model.hpp"

#include "event_text.hpp"

namespace warlog::viewer {

GameListModel::GameListModel(QObject* parent) : QAbstractTableModel(parent) {}

void GameListModel::set_games(std::vector<replay::GameSummary> games) {
  beginResetModel();
  games_ = std::move(games);
  facts_.assign(games_.size(), std::nullopt);
  disputes_.assign(games_.size(), 0);
  candidate_.assign(games_.size(), std::nullopt);
  endResetModel();
}

int GameListModel::add_games(std::vector<replay::GameSummary> games) {
  std::vector<replay::GameSummary> fresh;
  for (auto& g : games) {
    if (row_of(g.id) < 0) fresh.push_back(std::move(g));
  }
  if (fresh.empty()) return 0;
  const int first = static_cast<int>(games_.size());
  beginInsertRows({}, first, first + static_cast<int>(fresh.size()) - 1);
  for (auto& g : fresh) games_.push_back(std::move(g));
  facts_.resize(games_.size());
  disputes_.resize(games_.size(), 0);
  candidate_.resize(games_.size());
  endInsertRows();
  return static_cast<int>(fresh.size());
}

void GameListModel::set_event_count(core::GameId id, core::Seq events) {
  const int row = row_of(id);
  if (row < 0 || games_[static_cast<std::size_t>(row)].events == events) return;
  games_[static_cast<std::size_t>(row)].events = events;
  emit dataChanged(index(row, Events), index(row, Events));
}

void GameListModel::set_facts(core::GameId id, Facts facts) {
  const int row = row_of(id);
  if (row < 0) return;
  facts_[static_cast<std::size_t>(row)] = std::move(facts);
  emit dataChanged(index(row, Result), index(row, Findings));
}

void GameListModel::set_disputes(core::GameId id, int count) {
  const int row = row_of(id);
  if (row < 0) return;
  disputes_[static_cast<std::size_t>(row)] = count;
  emit dataChanged(index(row, Disputes), index(row, Disputes));
}

void GameListModel::set_comparing(bool comparing) {
  comparing_ = comparing;
  candidate_.assign(games_.size(), std::nullopt);
  if (!games_.empty()) emit dataChanged(index(0, Candidate), index(static_cast<int>(games_.size()) - 1, Candidate));
}

void GameListModel::set_candidate_change(core::GameId id, CandidateChange change) {
  const int row = row_of(id);
  if (row < 0 || !comparing_) return;
  candidate_[static_cast<std::size_t>(row)] = std::move(change);
  emit dataChanged(index(row, Candidate), index(row, Candidate));
}

bool GameListModel::has_candidate_change(core::GameId id) const noexcept {
  const int row = row_of(id);
  return row >= 0 && candidate_[static_cast<std::size_t>(row)].has_value();
}

bool GameListModel::has_facts(core::GameId id) const noexcept {
  const int row = row_of(id);
  return row >= 0 && facts_[static_cast<std::size_t>(row)].has_value();
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
    if (index.column() == Id || index.column() == Events || index.column() == Findings || index.column() == Disputes) {
      return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
  }
  if (role != Qt::DisplayRole && role != SortRole && role != Qt::ToolTipRole) return {};
  const std::optional<Facts>& facts = facts_[static_cast<std::size_t>(index.row())];
  switch (static_cast<Column>(index.column())) {
    case Id: return QVariant::fromValue<qulonglong>(g.id);
    case Title: return QString::fromStdString(g.title);
    case Date: return QString::fromStdString(g.date);
    case Players: return QString::fromStdString(players_text(g.seats));
    case Events: return QVariant::fromValue<qulonglong>(g.events);
    case Result:
      if (!facts) return role == Qt::ToolTipRole ? tr("not audited yet") : QVariant(QStringLiteral("…"));
      return QString::fromStdString(facts->result);
    case Findings:
      if (!facts) return role == SortRole ? QVariant(-1) : QVariant(QStringLiteral("…"));
      if (role == Qt::ToolTipRole) return tr("%1 findings, %2 violations").arg(facts->findings).arg(facts->violations);
      return facts->findings;
    case Disputes: return disputes_[static_cast<std::size_t>(index.row())];
    case Candidate: {
      if (!comparing_) return role == SortRole ? QVariant(-1) : QVariant(QString());
      const auto& change = candidate_[static_cast<std::size_t>(index.row())];
      if (!change) {
        if (role == SortRole) return -1;
        return role == Qt::ToolTipRole ? tr("not compared yet") : QVariant(QStringLiteral("…"));
      }
      if (role == SortRole) return change->unread ? -1 : static_cast<int>(change->kind);
      if (role == Qt::ToolTipRole) return QString::fromStdString(change->detail);
      if (change->unread) return tr("not compared");
      return change->kind == replay::DiffClass::Unchanged ? tr("no change")
                                                          : QString::fromUtf8(replay::to_string(change->kind).data(),
                                                                            static_cast<qsizetype>(replay::to_string(change->kind).size()));
    }
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
    case Result: return tr("Result");
    case Findings: return tr("Findings");
    case Disputes: return tr("Disputes");
    case Candidate: return tr("Candidate");
    case ColumnCount: break;
  }
  return {};
}

void GameFilterProxy::set_pinned(std::optional<core::GameId> id) {
  if (id == pinned_) return;
  pinned_ = id;
  invalidateRowsFilter();
}

bool GameFilterProxy::filterAcceptsRow(int source_row, const QModelIndex& source_parent) const {
  if (pinned_ && sourceModel() != nullptr &&
      sourceModel()->index(source_row, 0, source_parent).data(GameListModel::GameIdRole).toULongLong() == *pinned_) {
    return true;
  }
  return QSortFilterProxyModel::filterAcceptsRow(source_row, source_parent);
}

}  // namespace warlog::viewer
