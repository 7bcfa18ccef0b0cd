#pragma once
// What the current event changed: the state laid out as the state view shows
// it (state_sections), before and after the event, compared row by row. No
// rule logic: the values are core's; this only lists the rows that differ.

#include <QAbstractTableModel>
#include <QString>

#include <vector>

#include "warlog/core/catalog.hpp"
#include "warlog/core/event.hpp"
#include "warlog/core/ruleset.hpp"
#include "warlog/core/state.hpp"

namespace warlog::viewer {

struct StateChange {
  QString where;   // "Game", "Seat 1 · Alice", "Battlefield", "Territories"
  QString item;    // "Hand", "c2 Ironclaw Lancer"
  QString before;  // empty: it appeared
  QString after;   // empty: it is gone
  bool differs = true;  // side_by_side: the two values disagree
  friend bool operator==(const StateChange&, const StateChange&) = default;
};

// Rows of the laid-out state that differ between `before` and `after`, in
// the state view's order; rows gone come after the rows of their section.
[[nodiscard]] std::vector<StateChange> state_changes(const core::GameState& before, const core::GameState& after,
                                                     const core::Catalog& catalog, const core::Ruleset& rules);

// Why "What changed" is empty at `event` (its findings counted in
// `findings`), so that an empty tab is never left unexplained: what changed
// is hidden from `seen_as` (`hidden`: the judge's view of the same two
// states differs), a TroopDefeated (it records a defeat the fold already
// made when its combat resolved), nothing in the state changed, or only
// what the state view does not lay out (the fold's bookkeeping of the turn).
[[nodiscard]] QString no_change_note(const core::Event& event, const core::GameState& before,
                                     const core::GameState& after, std::size_t findings, bool hidden,
                                     const QString& seen_as);

// Compare mode: two states side by side, every row of either in the state
// view's order; `before` holds the base's value, `after` the candidate's.
[[nodiscard]] std::vector<StateChange> side_by_side(const core::GameState& base, const core::Catalog& base_catalog,
                                                    const core::Ruleset& base_rules, const core::GameState& candidate,
                                                    const core::Catalog& candidate_catalog,
                                                    const core::Ruleset& candidate_rules);

// Rows of changes (what changed) or of a comparison (side_by_side, with
// set_titles naming the two sides and the rows that differ shaded).
class ChangesModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { Where, Item, Before, After, ColumnCount };

  explicit ChangesModel(QObject* parent = nullptr);
  void set_changes(std::vector<StateChange> changes);
  // Compare mode: the two value columns' titles; differing rows are shaded.
  void set_titles(QString before, QString after);
  [[nodiscard]] const std::vector<StateChange>& changes() const noexcept { return changes_; }

  // --- QAbstractItemModel ----------------------------------------------
  [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation,
                                    int role = Qt::DisplayRole) const override;

 private:
  std::vector<StateChange> changes_;
  QString before_title_;  // empty: "Before" / "After", nothing shaded
  QString after_title_;
};

}  // namespace warlog::viewer
