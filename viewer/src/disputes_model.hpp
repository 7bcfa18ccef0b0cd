#pragma once
// A game's disputes, one row each: where (seq), the claim, who raised it,
// its status and the ruling in force. Maps replay::Dispute values to cells.

#include <QAbstractTableModel>

#include <vector>

#include "warlog/replay/disputes.hpp"

namespace warlog::viewer {

class DisputesModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { Id, Seq, Claim, RaisedBy, Status, Ruling, ColumnCount };
  enum Role {
    SeqRole = Qt::UserRole + 1,  // core::Seq as qulonglong
    DisputeIdRole,               // "GAME:SEQ:N"
  };

  explicit DisputesModel(QObject* parent = nullptr);
  void set_disputes(std::vector<replay::Dispute> disputes);
  [[nodiscard]] const std::vector<replay::Dispute>& disputes() const noexcept { return disputes_; }

  // --- QAbstractItemModel ----------------------------------------------
  [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation,
                                    int role = Qt::DisplayRole) const override;

 private:
  std::vector<replay::Dispute> disputes_;
};

}  // namespace warlog::viewer
