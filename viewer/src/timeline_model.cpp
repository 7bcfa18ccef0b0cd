#include "timeline_model.hpp"

#include <QBrush>
#include <QColor>
#include <QFont>

#include <algorithm>

#include "event_text.hpp"

namespace warlog::viewer {

namespace {

// internalId: the node's kind in the low two bits, its turn or span index above.
enum Tag : quintptr { kTurnTag = 0, kPhaseTag = 1, kEventTag = 2 };
constexpr quintptr id_of(Tag tag, std::size_t n) { return (static_cast<quintptr>(n) << 2) | tag; }

}  // namespace

TimelineModel::TimelineModel(QObject* parent) : QAbstractItemModel(parent) {}

void TimelineModel::rebuild_turns() {
  turns_.clear();
  turn_of_span_.assign(spans_.size(), 0);
  for (std::size_t s = 0; s < spans_.size(); ++s) {
    if (turns_.empty() || spans_[s].turn != spans_[turns_.back().first_span].turn) turns_.push_back(Turn{s, s});
    turns_.back().last_span = s;
    turn_of_span_[s] = turns_.size() - 1;
  }
}

void TimelineModel::set_game(std::vector<replay::PhaseSpan> spans, std::vector<core::SeatSetup> seats,
                             std::vector<core::Seq> finding_seqs, EventSource source) {
  beginResetModel();
  spans_ = std::move(spans);
  seats_ = std::move(seats);
  finding_seqs_ = std::move(finding_seqs);
  std::sort(finding_seqs_.begin(), finding_seqs_.end());
  divergent_.clear();
  source_ = std::move(source);
  current_.reset();
  chunks_.clear();
  lru_.clear();
  rebuild_turns();
  endResetModel();
}

void TimelineModel::extend(std::vector<replay::PhaseSpan> spans, std::vector<core::Seq> finding_seqs) {
  if (spans_.empty()) {
    set_game(std::move(spans), seats_, std::move(finding_seqs), source_);
    return;
  }
  const std::size_t old_spans = spans_.size();
  const std::size_t old_turns = turns_.size();
  const core::Seq old_end = spans_.back().last + 1;
  // The chunk holding the old end may have cached labels past it: unread rows.
  if (auto it = chunks_.find(old_end / kChunk); it != chunks_.end()) {
    lru_.erase(it->second.use);
    chunks_.erase(it);
  }

  // 1. The last span grew.
  const replay::PhaseSpan& grown = spans[old_spans - 1];
  if (grown.last > spans_.back().last) {
    const QModelIndex parent = span_index(old_spans - 1);
    const int first = static_cast<int>(spans_.back().last - spans_.back().first + 1);
    beginInsertRows(parent, first, static_cast<int>(grown.last - grown.first));
    spans_.back() = grown;
    endInsertRows();
  }
  // 2. New spans in the last turn.
  std::size_t s = old_spans;
  std::size_t same_turn_end = s;
  while (same_turn_end < spans.size() && spans[same_turn_end].turn == spans_.back().turn) ++same_turn_end;
  if (same_turn_end > s) {
    const Turn& t = turns_.back();
    const int first = static_cast<int>(t.last_span - t.first_span + 1);
    beginInsertRows(turn_index(old_turns - 1), first, first + static_cast<int>(same_turn_end - s) - 1);
    spans_.insert(spans_.end(), spans.begin() + static_cast<std::ptrdiff_t>(s),
                  spans.begin() + static_cast<std::ptrdiff_t>(same_turn_end));
    rebuild_turns();
    endInsertRows();
    s = same_turn_end;
  }
  // 3. New turns, with their spans.
  if (s < spans.size()) {
    std::size_t new_turns = 0;
    for (std::size_t i = s; i < spans.size(); ++i) new_turns += i == s || spans[i].turn != spans[i - 1].turn;
    beginInsertRows({}, static_cast<int>(old_turns), static_cast<int>(old_turns + new_turns) - 1);
    spans_.insert(spans_.end(), spans.begin() + static_cast<std::ptrdiff_t>(s), spans.end());
    rebuild_turns();
    endInsertRows();
  }
  finding_seqs_ = std::move(finding_seqs);
  std::sort(finding_seqs_.begin(), finding_seqs_.end());
  // Counts may have grown anywhere from the old end on.
  const QModelIndex last_turn = turn_index(old_turns - 1);
  emit dataChanged(last_turn, turn_index(old_turns - 1, ColumnCount - 1));
  emit dataChanged(span_index(old_spans - 1), span_index(old_spans - 1, ColumnCount - 1));
}

void TimelineModel::set_current(core::Seq seq) {
  if (spans_.empty() || seq > spans_.back().last || current_ == seq) return;
  const std::optional<core::Seq> old = current_;
  current_ = seq;
  if (old) emit_changed_path(*old);
  emit_changed_path(seq);
}

void TimelineModel::set_divergent(std::vector<core::Seq> seqs) {
  std::sort(seqs.begin(), seqs.end());
  divergent_ = std::move(seqs);
  if (turns_.empty()) return;
  // Marks may be anywhere: a range repaints the whole of a view.
  emit dataChanged(turn_index(0), turn_index(turns_.size() - 1, ColumnCount - 1), {Qt::BackgroundRole, DivergentRole});
}

void TimelineModel::set_struck(std::vector<replay::StruckEvent> struck) {
  std::sort(struck.begin(), struck.end(), [](const auto& a, const auto& b) { return a.seq < b.seq; });
  struck_ = std::move(struck);
  if (turns_.empty()) return;
  emit dataChanged(turn_index(0), turn_index(turns_.size() - 1, ColumnCount - 1),
                   {Qt::DisplayRole, Qt::ToolTipRole, Qt::FontRole, Qt::ForegroundRole, StruckRole});
}

const replay::StruckEvent* TimelineModel::struck_at(core::Seq seq) const {
  auto it = std::lower_bound(struck_.begin(), struck_.end(), seq, [](const auto& s, core::Seq q) { return s.seq < q; });
  return it != struck_.end() && it->seq == seq ? &*it : nullptr;
}

void TimelineModel::emit_changed_path(core::Seq seq) {
  const QVector<int> roles{Qt::FontRole, Qt::BackgroundRole, IsCurrentRole};
  const std::size_t span = span_of(seq);
  emit dataChanged(event_index(seq), event_index(seq, ColumnCount - 1), roles);
  emit dataChanged(span_index(span), span_index(span, ColumnCount - 1), roles);
  const std::size_t turn = turn_of_span_[span];
  emit dataChanged(turn_index(turn), turn_index(turn, ColumnCount - 1), roles);
}

std::size_t TimelineModel::span_of(core::Seq seq) const noexcept {
  auto it = std::upper_bound(spans_.begin(), spans_.end(), seq,
                             [](core::Seq s, const replay::PhaseSpan& p) { return s < p.first; });
  return it == spans_.begin() ? 0 : static_cast<std::size_t>(std::distance(spans_.begin(), it)) - 1;
}

QModelIndex TimelineModel::turn_index(std::size_t turn, int column) const {
  if (turn >= turns_.size()) return {};
  return createIndex(static_cast<int>(turn), column, id_of(kTurnTag, turn));
}

QModelIndex TimelineModel::span_index(std::size_t span, int column) const {
  if (span >= spans_.size()) return {};
  const Turn& t = turns_[turn_of_span_[span]];
  return createIndex(static_cast<int>(span - t.first_span), column, id_of(kPhaseTag, span));
}

QModelIndex TimelineModel::event_index(core::Seq seq, int column) const {
  if (spans_.empty() || seq > spans_.back().last) return {};
  const std::size_t span = span_of(seq);
  return createIndex(static_cast<int>(seq - spans_[span].first), column, id_of(kEventTag, span));
}

QModelIndex TimelineModel::index_of_seq(core::Seq seq) const { return event_index(seq); }

std::optional<core::Seq> TimelineModel::seq_at(const QModelIndex& index) const {
  auto n = node_of(index);
  if (!n) return std::nullopt;
  return n->seq;
}

std::optional<TimelineModel::Node> TimelineModel::node_of(const QModelIndex& index) const {
  if (!index.isValid() || index.model() != this) return std::nullopt;
  const quintptr id = index.internalId();
  const std::size_t n = static_cast<std::size_t>(id >> 2);
  Node node;
  switch (id & 3) {
    case kTurnTag:
      if (n >= turns_.size()) return std::nullopt;
      node.kind = Kind::Turn;
      node.turn = n;
      node.span = turns_[n].first_span;
      node.seq = spans_[turns_[n].first_span].first;
      node.last = spans_[turns_[n].last_span].last;
      return node;
    case kPhaseTag:
      if (n >= spans_.size()) return std::nullopt;
      node.kind = Kind::Phase;
      node.span = n;
      node.turn = turn_of_span_[n];
      node.seq = spans_[n].first;
      node.last = spans_[n].last;
      return node;
    case kEventTag:
      if (n >= spans_.size()) return std::nullopt;
      node.kind = Kind::Event;
      node.span = n;
      node.turn = turn_of_span_[n];
      node.seq = node.last = spans_[n].first + static_cast<core::Seq>(index.row());
      return node;
    default:
      return std::nullopt;
  }
}

int TimelineModel::count_in(const std::vector<core::Seq>& sorted, core::Seq first, core::Seq last) const {
  auto lo = std::lower_bound(sorted.begin(), sorted.end(), first);
  auto hi = std::upper_bound(lo, sorted.end(), last);
  return static_cast<int>(std::distance(lo, hi));
}

void TimelineModel::relabel() {
  beginResetModel();
  chunks_.clear();
  lru_.clear();
  endResetModel();
}

const QString& TimelineModel::event_label(core::Seq seq) const {
  const core::Seq chunk = seq / kChunk;
  auto it = chunks_.find(chunk);
  if (it == chunks_.end()) {
    Chunk c;
    const core::Seq from = chunk * kChunk;
    const core::Seq to = std::min(from + kChunk, spans_.back().last + 1);
    c.labels.resize(static_cast<std::size_t>(to - from));
    auto events = source_ ? source_(from, to) : Expected<std::vector<core::Event>>(std::vector<core::Event>{});
    if (events) {
      for (const core::Event& ev : *events) {
        if (ev.seq >= from && ev.seq < to) c.labels[static_cast<std::size_t>(ev.seq - from)] =
            QString::fromStdString(viewer::event_label(ev, seats_));
      }
    }
    for (std::size_t i = 0; i < c.labels.size(); ++i) {
      if (c.labels[i].isEmpty()) {
        c.labels[i] = events ? tr("seq %1 (not in the store)").arg(from + i)
                             : tr("seq %1 (unreadable: %2)").arg(from + i).arg(QString::fromStdString(events.error().message));
      }
    }
    if (chunks_.size() >= kMaxChunks) {
      chunks_.erase(lru_.front());
      lru_.pop_front();
    }
    lru_.push_back(chunk);
    c.use = std::prev(lru_.end());
    it = chunks_.emplace(chunk, std::move(c)).first;
  } else {
    lru_.splice(lru_.end(), lru_, it->second.use);
  }
  return it->second.labels[static_cast<std::size_t>(seq - chunk * kChunk)];
}

QString TimelineModel::label_of(const Node& n) const {
  const replay::PhaseSpan& span = spans_[n.span];
  switch (n.kind) {
    case Kind::Turn:
      return span.turn == 0 ? tr("Before turn 1") : tr("Turn %1").arg(span.turn);
    case Kind::Phase: {
      if (span.kind == replay::SpanKind::Setup) return tr("Setup");
      if (span.kind == replay::SpanKind::TurnStart) return tr("Start of turn");
      QString label = QString::fromStdString(phase_title(span.phase));
      if (span.seat != core::kNoSeat) label += QStringLiteral(" · ") + QString::fromStdString(seat_name(seats_, span.seat));
      return label;
    }
    case Kind::Event:
      if (const auto* x = struck_at(n.seq)) {
        return event_label(n.seq) + (x->standing == core::Standing::Voided ? tr("  [voided]") : tr("  [superseded]"));
      }
      return event_label(n.seq);
  }
  return {};
}

QModelIndex TimelineModel::index(int row, int column, const QModelIndex& parent) const {
  if (row < 0 || column < 0 || column >= ColumnCount) return {};
  if (!parent.isValid()) return static_cast<std::size_t>(row) < turns_.size() ? turn_index(static_cast<std::size_t>(row), column) : QModelIndex();
  if (parent.column() != 0) return {};
  auto p = node_of(parent);
  if (!p) return {};
  switch (p->kind) {
    case Kind::Turn: {
      const Turn& t = turns_[p->turn];
      const std::size_t span = t.first_span + static_cast<std::size_t>(row);
      return span <= t.last_span ? span_index(span, column) : QModelIndex();
    }
    case Kind::Phase: {
      const replay::PhaseSpan& s = spans_[p->span];
      if (static_cast<core::Seq>(row) > s.last - s.first) return {};
      return createIndex(row, column, id_of(kEventTag, p->span));
    }
    case Kind::Event:
      return {};
  }
  return {};
}

QModelIndex TimelineModel::parent(const QModelIndex& child) const {
  auto n = node_of(child);
  if (!n) return {};
  switch (n->kind) {
    case Kind::Turn: return {};
    case Kind::Phase: return turn_index(n->turn);
    case Kind::Event: return span_index(n->span);
  }
  return {};
}

int TimelineModel::rowCount(const QModelIndex& parent) const {
  if (!parent.isValid()) return static_cast<int>(turns_.size());
  if (parent.column() != 0) return 0;
  auto n = node_of(parent);
  if (!n) return 0;
  switch (n->kind) {
    case Kind::Turn: return static_cast<int>(turns_[n->turn].last_span - turns_[n->turn].first_span + 1);
    case Kind::Phase: return static_cast<int>(n->last - n->seq + 1);
    case Kind::Event: return 0;
  }
  return 0;
}

int TimelineModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QVariant TimelineModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
  auto node = node_of(index);
  if (!node) return {};
  const Node& n = *node;
  const bool current = current_ && *current_ >= n.seq && *current_ <= n.last;
  switch (role) {
    case Qt::DisplayRole:
      if (index.column() == Label) return label_of(n);
      if (const int f = count_in(finding_seqs_, n.seq, n.last); f > 0) return f;
      return {};
    case Qt::ToolTipRole: {
      const int f = count_in(finding_seqs_, n.seq, n.last);
      QString tip = label_of(n);
      if (f > 0) tip += f == 1 ? tr("\n1 finding") : tr("\n%1 findings").arg(f);
      if (count_in(divergent_, n.seq, n.last) > 0) tip += tr("\nthe compared ruleset differs here");
      if (const auto* x = n.kind == Kind::Event ? struck_at(n.seq) : nullptr) {
        tip += QStringLiteral("\n") + QString::fromStdString(replay::struck_text(*x));
      }
      return tip;
    }
    case Qt::TextAlignmentRole:
      return index.column() == Findings ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case Qt::ForegroundRole:
      if (n.kind == Kind::Event && struck_at(n.seq) != nullptr) return QBrush(QColor(0x80, 0x80, 0x80));
      if ((n.kind == Kind::Event || index.column() == Findings) && count_in(finding_seqs_, n.seq, n.last) > 0) {
        return QBrush(QColor(0xb0, 0x1c, 0x1c));
      }
      return {};
    case Qt::FontRole: {
      const bool struck = n.kind == Kind::Event && struck_at(n.seq) != nullptr;
      if (!current && !struck) return {};
      QFont f;
      f.setBold(current);
      f.setStrikeOut(struck);
      return f;
    }
    case Qt::BackgroundRole:
      if (n.kind == Kind::Event && current) return QBrush(QColor(0xff, 0xe8, 0x9c));
      if (count_in(divergent_, n.seq, n.last) > 0) return QBrush(QColor(0xe4, 0xd8, 0xf8));
      return {};
    case SeqRole: return QVariant::fromValue<qulonglong>(n.seq);
    case KindRole: return static_cast<int>(n.kind);
    case IsCurrentRole: return current;
    case FindingsRole: return count_in(finding_seqs_, n.seq, n.last);
    case DivergentRole: return count_in(divergent_, n.seq, n.last) > 0;
    case StruckRole: {
      const auto* x = n.kind == Kind::Event ? struck_at(n.seq) : nullptr;
      return x != nullptr ? QString::fromStdString(replay::struck_text(*x)) : QString();
    }
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
