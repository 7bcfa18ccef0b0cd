#pragma once
// Findings as a table: where (seq, turn, phase, seat), which rule, how sure
// (severity, basis), what happened, the rules section it cites, the event it
// concerns (when another than its own) and the violations it rests on
// (replay/rests_on.hpp, when the session computed them). The rule's own
// paraphrase (core::Rule::summary) is the row's tooltip.

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include <memory>
#include <span>
#include <vector>

#include "warlog/replay/finding_list.hpp"
#include "warlog/replay/replay.hpp"

namespace warlog::viewer {

class FindingsModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { Seq, Turn, Phase, Seat, Rule, Severity, Basis, Message, Citation, Concerns, RestsOn, ColumnCount };
  enum Role {
    SeqRole = Qt::UserRole + 1,  // core::Seq as qulonglong
    RuleIdRole,                  // QString
    SeverityRole,                // core::Severity as int
    SortRole,                    // the raw value a column sorts by
    ConcernsRole,                // core::Seq the finding concerns, as qulonglong
    RestsOnRole,                 // QVariantList of the violations' seqs (qulonglong) it rests on
  };

  explicit FindingsModel(QObject* parent = nullptr);

  using Shared = std::shared_ptr<const replay::FindingList>;
  // `seats` names the acting seat.
  void set_findings(const std::vector<replay::LocatedFinding>& findings, std::vector<core::SeatSetup> seats);
  // Shows a list shared with its owner (a session's whole audit), uncopied:
  // its first `findings->size()` rows now. The owner may append to it; the
  // model shows the new rows when shared again (a reset).
  void share_findings(Shared findings, std::vector<core::SeatSetup> seats);
  // What each row rests on: row r is rests->findings[first + r] (a session's
  // RestsOn covers its whole list; the findings here are a slice of it).
  // nullptr, or a RestsOn that does not reach a row: nothing shown for it.
  void set_rests_on(std::shared_ptr<const replay::RestsOn> rests, std::size_t first = 0);
  // The violations row r rests on (empty when none or not computed).
  [[nodiscard]] std::span<const core::Seq> rests_on(int row) const noexcept;
  // The list shown; only its first rowCount() rows are this model's.
  [[nodiscard]] const replay::FindingList& findings() const noexcept { return *findings_; }

  // Whether row a sorts before row b by `column` (the order SortRole gives:
  // numbers as numbers, enums by value, text by code point), reading the
  // rows in place: no QVariant or QString per comparison. Rows < rowCount().
  [[nodiscard]] bool less(int a, int b, int column) const;

  // --- QAbstractItemModel ----------------------------------------------
  [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation,
                                    int role = Qt::DisplayRole) const override;

 private:
  Shared findings_ = std::make_shared<const replay::FindingList>();
  int rows_ = 0;  // rows of findings_ shown (it may have grown since)
  std::vector<core::SeatSetup> seats_;
  std::shared_ptr<const replay::RestsOn> rests_;
  std::size_t rests_first_ = 0;
};

// Sorts a FindingsModel with FindingsModel::less (a click on a column of a
// 460,000-row table compared QStrings built per comparison: 1.6 s); any
// other source model sorts as QSortFilterProxyModel does.
class FindingsSortProxy : public QSortFilterProxyModel {
  Q_OBJECT

 public:
  explicit FindingsSortProxy(QObject* parent = nullptr) : QSortFilterProxyModel(parent) {}

 protected:
  [[nodiscard]] bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;
};

}  // namespace warlog::viewer
