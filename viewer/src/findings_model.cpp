#include "findings_model.hpp"

#include <QBrush>
#include <QColor>
#include <QStringList>

#include "event_text.hpp"
#include "warlog/replay/rests_on.hpp"

namespace warlog::viewer {

namespace {

QString str(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

QColor severity_colour(core::Severity s) {
  switch (s) {
    case core::Severity::Violation: return {0xb0, 0x1c, 0x1c};
    case core::Severity::Warning: return {0x9a, 0x5b, 0x00};
    case core::Severity::Note: return {0x40, 0x40, 0x40};
  }
  return {};
}

// "seq 88", "seq 12, 40": where a column shows other events.
QString seqs_text(std::span<const core::Seq> seqs) {
  QStringList out;
  for (const core::Seq s : seqs) out << QString::number(s);
  return out.isEmpty() ? QString() : QObject::tr("seq %1").arg(out.join(QStringLiteral(", ")));
}

}  // namespace

void FindingsModel::set_rests_on(std::shared_ptr<const replay::RestsOn> rests, std::size_t first) {
  rests_ = std::move(rests);
  rests_first_ = first;
  if (rows_ > 0) emit dataChanged(index(0, 0), index(rows_ - 1, ColumnCount - 1));
}

std::span<const core::Seq> FindingsModel::rests_on(int row) const noexcept {
  if (!rests_ || row < 0) return {};
  const std::size_t at = rests_first_ + static_cast<std::size_t>(row);
  return at < rests_->findings.size() ? std::span<const core::Seq>(rests_->findings[at]) : std::span<const core::Seq>{};
}

FindingsModel::FindingsModel(QObject* parent) : QAbstractTableModel(parent) {}

void FindingsModel::set_findings(const std::vector<replay::LocatedFinding>& findings,
                                 std::vector<core::SeatSetup> seats) {
  auto list = std::make_shared<replay::FindingList>();
  for (const auto& f : findings) list->push_back(f);
  share_findings(std::move(list), std::move(seats));
}

void FindingsModel::share_findings(Shared findings, std::vector<core::SeatSetup> seats) {
  beginResetModel();
  findings_ = findings ? std::move(findings) : std::make_shared<const replay::FindingList>();
  rows_ = static_cast<int>(findings_->size());
  seats_ = std::move(seats);
  endResetModel();
}

int FindingsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : rows_;
}

int FindingsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant FindingsModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const replay::FindingView f = findings_->at(static_cast<std::size_t>(index.row()));
  const core::Seq concerns = findings_->concerns(static_cast<std::size_t>(index.row()));
  const std::span<const core::Seq> rests = rests_on(index.row());
  switch (role) {
    case SeqRole: return QVariant::fromValue<qulonglong>(f.seq);
    case ConcernsRole: return QVariant::fromValue<qulonglong>(concerns);
    case RestsOnRole: {
      QVariantList out;
      for (const core::Seq s : rests) out << QVariant::fromValue<qulonglong>(s);
      return out;
    }
    case RuleIdRole: return str(f.rule_id);
    case SeverityRole: return static_cast<int>(f.severity);
    case Qt::ForegroundRole:
      return index.column() == Severity ? QVariant(QBrush(severity_colour(f.severity))) : QVariant();
    case Qt::ToolTipRole: {
      const core::Rule* rule = core::find_rule(f.rule_id);
      QString tip = str(f.rule_id) + QStringLiteral(" — ") + str(f.citation);
      if (rule) tip += QStringLiteral("\n") + str(rule->summary);
      if (rule && !rule->ruling.empty()) tip += QStringLiteral("\n") + tr("Shaped by ruling %1").arg(str(rule->ruling));
      tip += QStringLiteral("\n\n") + str(f.message);
      if (concerns != f.seq) tip += QStringLiteral("\n") + tr("Concerns the event at seq %1.").arg(concerns);
      if (!rests.empty()) {
        const std::vector<core::Seq> seqs(rests.begin(), rests.end());
        tip += QStringLiteral("\n") + tr("Rests on %1.").arg(QString::fromStdString(replay::violations_text(seqs)));
      }
      return tip;
    }
    case Qt::TextAlignmentRole:
      if (index.column() == Seq || index.column() == Turn || index.column() == Concerns || index.column() == RestsOn) {
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
      }
      return {};
    case Qt::DisplayRole:
    case SortRole: break;
    default: return {};
  }
  const bool sort = role == SortRole;
  switch (static_cast<Column>(index.column())) {
    case Seq: return QVariant::fromValue<qulonglong>(f.seq);
    case Turn: return f.turn;
    case Phase: return sort ? QVariant(static_cast<int>(f.phase)) : QVariant(QString::fromStdString(phase_title(f.phase)));
    case Seat: return f.seat == core::kNoSeat ? QString() : QString::fromStdString(seat_name(seats_, f.seat));
    case Rule: return str(f.rule_id);
    case Severity: return sort ? QVariant(static_cast<int>(f.severity)) : QVariant(str(core::to_string(f.severity)));
    case Basis: return str(core::to_string(f.basis));
    case Message: return str(f.message);
    case Citation: return str(f.citation);
    case Concerns:
      if (sort) return QVariant::fromValue<qulonglong>(concerns);
      return concerns != f.seq ? seqs_text(std::span(&concerns, 1)) : QString();
    case RestsOn:
      // Sorted by the first violation, rows resting on none first.
      if (sort) return QVariant::fromValue<qulonglong>(rests.empty() ? 0 : rests.front() + 1);
      return seqs_text(rests);
    case ColumnCount: break;
  }
  return {};
}

bool FindingsModel::less(int a, int b, int column) const {
  const replay::FindingView x = findings_->at(static_cast<std::size_t>(a));
  const replay::FindingView y = findings_->at(static_cast<std::size_t>(b));
  switch (static_cast<Column>(column)) {
    case Seq: return x.seq < y.seq;
    case Turn: return x.turn < y.turn;
    case Phase: return x.phase < y.phase;
    case Seat: {  // as shown: no name for no seat
      auto name = [&](core::Seat s) { return s == core::kNoSeat ? std::string() : seat_name(seats_, s); };
      return name(x.seat) < name(y.seat);
    }
    case Rule: return x.rule_id < y.rule_id;
    case Severity: return x.severity < y.severity;
    case Basis: return core::to_string(x.basis) < core::to_string(y.basis);
    case Message: return x.message < y.message;
    case Citation: return x.citation < y.citation;
    case Concerns:
      return findings_->concerns(static_cast<std::size_t>(a)) < findings_->concerns(static_cast<std::size_t>(b));
    case RestsOn: {
      auto key = [&](int row) {
        const auto r = rests_on(row);
        return r.empty() ? core::Seq{0} : r.front() + 1;
      };
      return key(a) < key(b);
    }
    case ColumnCount: break;
  }
  return false;
}

bool FindingsSortProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const {
  if (const auto* model = qobject_cast<const FindingsModel*>(sourceModel()); model && left.column() == right.column()) {
    return model->less(left.row(), right.row(), left.column());
  }
  return QSortFilterProxyModel::lessThan(left, right);
}

QVariant FindingsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return QAbstractTableModel::headerData(section, orientation, role);
  switch (static_cast<Column>(section)) {
    case Seq: return tr("Seq");
    case Turn: return tr("Turn");
    case Phase: return tr("Phase");
    case Seat: return tr("Seat");
    case Rule: return tr("Rule");
    case Severity: return tr("Severity");
    case Basis: return tr("Basis");
    case Message: return tr("Message");
    case Citation: return tr("Citation");
    case Concerns: return tr("Concerns");
    case RestsOn: return tr("Rests on");
    case ColumnCount: break;
  }
  return {};
}

}  // namespace warlog::viewer
