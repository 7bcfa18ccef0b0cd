#pragma once
// Findings as a table: where (seq, turn, phase, seat), which rule, how sure
// (severity, basis), what happened, and the rules section it cites. The
// rule's own paraphrase (core::Rule::summary) is the row's tooltip.

#include <QAbstractTableModel>

#include <memory>
#include <vector>

#include "warlog/replay/replay.hpp"

namespace warlog::viewer {

class FindingsModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { Seq, Turn, Phase, Seat, Rule, Severity, Basis, Message, Citation, ColumnCount };
  enum Role {
    SeqRole = Qt::UserRole + 1,  // core::Seq as qulonglong
    RuleIdRole,                  // QString
    SeverityRole,                // core::Severity as int
    SortRole,                    // the raw value a column sorts by
  };

  explicit FindingsModel(QObject* parent = nullptr);

  using Shared = std::shared_ptr<const std::vector<replay::LocatedFinding>>;
  // `seats` names the acting seat.
  void set_findings(std::vector<replay::LocatedFinding> findings, std::vector<core::SeatSetup> seats);
  // Shows a list shared with its owner (a session's whole audit), uncopied.
  void share_findings(Shared findings, std::vector<core::SeatSetup> seats);
  [[nodiscard]] const std::vector<replay::LocatedFinding>& findings() const noexcept { return *findings_; }

  // --- QAbstractItemModel ----------------------------------------------
  [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation,
                                    int role = Qt::DisplayRole) const override;

 private:
  Shared findings_ = std::make_shared<const std::vector<replay::LocatedFinding>>();
  std::vector<core::SeatSetup> seats_;
};

}  // namespace warlog::viewer
