#include "disputes_model.hpp"

namespace warlog::viewer {

DisputesModel::DisputesModel(QObject* parent) : QAbstractTableModel(parent) {}

void DisputesModel::set_disputes(std::vector<replay::Dispute> disputes) {
  beginResetModel();
  disputes_ = std::move(disputes);
  endResetModel();
}

int DisputesModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(disputes_.size());
}

int DisputesModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant DisputesModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const replay::Dispute& d = disputes_[static_cast<std::size_t>(index.row())];
  if (role == SeqRole) return QVariant::fromValue<qulonglong>(d.id.seq);
  if (role == DisputeIdRole) return QString::fromStdString(replay::to_string(d.id));
  if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
  const core::DisputeRuled* ruling = d.in_force();
  switch (static_cast<Column>(index.column())) {
    case Id: return QString::fromStdString(replay::to_string(d.id));
    case Seq: return QVariant::fromValue<qulonglong>(d.id.seq);
    case Claim: return QString::fromStdString(d.raised.claim);
    case RaisedBy: return QString::fromStdString(d.raised.raised_by);
    case Status: return d.status() == core::DisputeStatus::Open ? tr("open") : tr("resolved");
    case Ruling:
      if (!ruling) return {};
      return tr("%1 (%2)").arg(QString::fromStdString(ruling->ruling), QString::fromStdString(ruling->ruled_by));
    case ColumnCount: break;
  }
  return {};
}

QVariant DisputesModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return QAbstractTableModel::headerData(section, orientation, role);
  switch (static_cast<Column>(section)) {
    case Id: return tr("Dispute");
    case Seq: return tr("Seq");
    case Claim: return tr("Claim");
    case RaisedBy: return tr("Raised by");
    case Status: return tr("Status");
    case Ruling: return tr("Ruling in force");
    case ColumnCount: break;
  }
  return {};
}

}  // namespace warlog::viewer
