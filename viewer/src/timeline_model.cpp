#include "timeline_model.hpp"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QPalette>

#include <algorithm>

#include "event_text.hpp"

namespace warlog::viewer {

TimelineModel::TimelineModel(QObject* parent) : QAbstractItemModel(parent) {}

int TimelineModel::add_node(Kind kind, int parent, std::size_t position) {
  Node n;
  n.kind = kind;
  n.parent = parent;
  n.first = n.last = position;
  const int id = static_cast<int>(nodes_.size());
  auto& siblings = parent < 0 ? roots_ : nodes_[static_cast<std::size_t>(parent)].children;
  n.row = static_cast<int>(siblings.size());
  siblings.push_back(id);
  nodes_.push_back(std::move(n));
  return id;
}

void TimelineModel::set_game(std::vector<core::Event> events, std::vector<core::SeatSetup> seats,
                             const std::vector<core::Seq>& finding_seqs) {
  beginResetModel();
  events_ = std::move(events);
  seats_ = std::move(seats);
  nodes_.clear();
  roots_.clear();
  event_node_.assign(events_.size(), -1);
  current_.reset();

  int turn = -1;
  int phase = -1;
  for (std::size_t i = 0; i < events_.size(); ++i) {
    const core::Event& ev = events_[i];
    if (turn < 0 || ev.turn != events_[nodes_[static_cast<std::size_t>(turn)].first].turn) {
      turn = add_node(Kind::Turn, -1, i);
      phase = -1;
    }
    const bool starts_phase = std::holds_alternative<core::PhaseStarted>(ev.payload);
    if (phase < 0 || starts_phase || ev.phase != events_[nodes_[static_cast<std::size_t>(phase)].first].phase) {
      phase = add_node(Kind::Phase, turn, i);
    }
    event_node_[i] = add_node(Kind::Event, phase, i);
    nodes_[static_cast<std::size_t>(turn)].last = i;
    nodes_[static_cast<std::size_t>(phase)].last = i;
  }

  // Findings per event, summed up the tree. Seqs ascend with positions.
  for (core::Seq seq : finding_seqs) {
    auto it = std::lower_bound(events_.begin(), events_.end(), seq,
                               [](const core::Event& e, core::Seq s) { return e.seq < s; });
    if (it == events_.end() || it->seq != seq) continue;
    for (int n = event_node_[static_cast<std::size_t>(it - events_.begin())]; n >= 0;
         n = nodes_[static_cast<std::size_t>(n)].parent) {
      ++nodes_[static_cast<std::size_t>(n)].findings;
    }
  }
  endResetModel();
}

void TimelineModel::set_current(std::size_t position) {
  if (position >= events_.size() || current_ == position) return;
  const std::optional<std::size_t> old = current_;
  current_ = position;
  if (old) emit_changed_path(event_node_[*old]);
  emit_changed_path(event_node_[position]);
}

void TimelineModel::emit_changed_path(int node) {
  for (int n = node; n >= 0; n = nodes_[static_cast<std::size_t>(n)].parent) {
    emit dataChanged(index_of_node(n, 0), index_of_node(n, ColumnCount - 1),
                     {Qt::FontRole, Qt::BackgroundRole, IsCurrentRole});
  }
}

QModelIndex TimelineModel::index_of_position(std::size_t position) const {
  if (position >= event_node_.size()) return {};
  return index_of_node(event_node_[position]);
}

std::optional<core::Seq> TimelineModel::seq_at(const QModelIndex& index) const {
  const int n = node_of(index);
  if (n < 0) return std::nullopt;
  return events_[nodes_[static_cast<std::size_t>(n)].first].seq;
}

int TimelineModel::node_of(const QModelIndex& index) const {
  if (!index.isValid() || index.model() != this) return -1;
  return static_cast<int>(index.internalId());
}

QModelIndex TimelineModel::index_of_node(int node, int column) const {
  if (node < 0) return {};
  return createIndex(nodes_[static_cast<std::size_t>(node)].row, column, static_cast<quintptr>(node));
}

bool TimelineModel::holds_current(const Node& n) const noexcept {
  return current_ && *current_ >= n.first && *current_ <= n.last;
}

QString TimelineModel::label_of(const Node& n) const {
  const core::Event& first = events_[n.first];
  switch (n.kind) {
    case Kind::Turn:
      return first.turn == 0 ? tr("Before turn 1") : tr("Turn %1").arg(first.turn);
    case Kind::Phase: {
      if (first.turn == 0 && first.phase == core::Phase::Setup) return tr("Setup");
      if (std::holds_alternative<core::TurnStarted>(first.payload)) return tr("Start of turn");
      QString label = QString::fromStdString(phase_title(first.phase));
      if (std::holds_alternative<core::PhaseStarted>(first.payload) && first.seat != core::kNoSeat) {
        label += QStringLiteral(" · ") + QString::fromStdString(seat_name(seats_, first.seat));
      }
      return label;
    }
    case Kind::Event:
      return QString::fromStdString(event_label(first, seats_));
  }
  return {};
}

QModelIndex TimelineModel::index(int row, int column, const QModelIndex& parent) const {
  if (row < 0 || column < 0 || column >= ColumnCount) return {};
  if (parent.isValid() && parent.column() != 0) return {};
  const int p = node_of(parent);
  const auto& siblings = p < 0 ? roots_ : nodes_[static_cast<std::size_t>(p)].children;
  if (static_cast<std::size_t>(row) >= siblings.size()) return {};
  return createIndex(row, column, static_cast<quintptr>(siblings[static_cast<std::size_t>(row)]));
}

QModelIndex TimelineModel::parent(const QModelIndex& child) const {
  const int n = node_of(child);
  if (n < 0) return {};
  return index_of_node(nodes_[static_cast<std::size_t>(n)].parent);
}

int TimelineModel::rowCount(const QModelIndex& parent) const {
  if (!parent.isValid()) return static_cast<int>(roots_.size());
  if (parent.column() != 0) return 0;
  const int n = node_of(parent);
  return n < 0 ? 0 : static_cast<int>(nodes_[static_cast<std::size_t>(n)].children.size());
}

int TimelineModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QVariant TimelineModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
  const Node& n = nodes_[static_cast<std::size_t>(node_of(index))];
  switch (role) {
    case Qt::DisplayRole:
      if (index.column() == Label) return label_of(n);
      return n.findings > 0 ? QVariant(n.findings) : QVariant();
    case Qt::ToolTipRole:
      if (n.findings == 0) return label_of(n);
      return n.findings == 1 ? tr("%1\n1 finding").arg(label_of(n)) : tr("%1\n%2 findings").arg(label_of(n)).arg(n.findings);
    case Qt::TextAlignmentRole:
      return index.column() == Findings ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case Qt::ForegroundRole:
      if (n.findings > 0 && (n.kind == Kind::Event || index.column() == Findings)) return QBrush(QColor(0xb0, 0x1c, 0x1c));
      return {};
    case Qt::FontRole:
      if (holds_current(n)) {
        QFont f;
        f.setBold(true);
        return f;
      }
      return {};
    case Qt::BackgroundRole:
      if (n.kind == Kind::Event && holds_current(n)) return QBrush(QColor(0xff, 0xe8, 0x9c));
      return {};
    case SeqRole: return QVariant::fromValue<qulonglong>(events_[n.first].seq);
    case KindRole: return static_cast<int>(n.kind);
    case IsCurrentRole: return holds_current(n);
    case FindingsRole: return n.findings;
    default: return {};
  }
}

QVariant TimelineModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return QAbstractItemModel::headerData(section, orientation, role);
  if (section == Label) return tr("Event");
  if (section == Findings) return tr("Findings");
  return {};
}

}  // namespace warlog::viewer
