#pragma once
// What the current event changed: the state laid out as the state view shows
// it (state_sections), before and after the event, compared row by row. No
// rule logic: the values are core's; this only lists the rows that differ.

#include <QAbstractTableModel>
#include <QString>

#include <vector>

#include "warlog/core/catalog.hpp"
#include "warlog/core/ruleset.hpp"
#include "warlog/core/state.hpp"

namespace warlog::viewer {

struct StateChange {
  QString where;   // "Game", "Seat 1 · Alice", "Battlefield", "Territories"
  QString item;    // "Hand", "c2 Ironclaw Lancer"
  QString before;  // empty: it appeared
  QString after;   // empty: it is gone
  friend bool operator==(const StateChange&, const StateChange&) = default;
};

// Rows of the laid-out state that differ between `before` and `after`, in
// the state view's order; rows gone come after the rows of their section.
[[nodiscard]] std::vector<StateChange> state_changes(const core::GameState& before, const core::GameState& after,
                                                     const core::Catalog& catalog, const core::Ruleset& rules);

class ChangesModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { Where, Item, Before, After, ColumnCount };

  explicit ChangesModel(QObject* parent = nullptr);
  void set_changes(std::vector<StateChange> changes);
  [[nodiscard]] const std::vector<StateChange>& changes() const noexcept { return changes_; }

  // --- QAbstractItemModel ----------------------------------------------
  [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation,
                                    int role = Qt::DisplayRole) const override;

 private:
  std::vector<StateChange> changes_;
};

}  // namespace warlog::viewer
