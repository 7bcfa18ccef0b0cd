#pragma once
// The game state at one moment, as a tree: the game's standing, one section
// per seat, the battlefield's Troops and the Territories. Values come from
// core (counts, core::morale_total, core::still_mustering...): the model only
// lays them out. Stepping keeps the sections and updates rows in place, so
// the view keeps its expansion; rows the current event changed (they differ
// from the state before it) carry ChangedRole.

#include <QAbstractItemModel>
#include <QString>
#include <QStringList>

#include <array>
#include <vector>

#include "warlog/core/catalog.hpp"
#include "warlog/core/ruleset.hpp"
#include "warlog/core/state.hpp"

namespace warlog::viewer {

class StateModel : public QAbstractItemModel {
  Q_OBJECT

 public:
  enum Column { Item, Value, Owner, Condition, Status, ColumnCount };
  enum class Kind { Section, Field, Troop, Territory };
  enum Role {
    KindRole = Qt::UserRole + 1,  // Kind as int
    KeyRole,                      // stable within a section: field name or space ("c2")
    RawValueRole,                 // a field's number (int), a Troop's damage (int)
    SeatRole,                     // owning seat (int), -1 for none
    ChangedRole,                  // bool: the current event changed this row
  };
  // Top-level rows, in order.
  enum Section : int { GameSection, FirstSeatSection, BattlefieldSection = FirstSeatSection + core::kSeatCount,
                       TerritorySection, SectionCount };

  explicit StateModel(QObject* parent = nullptr);

  // Shows `state`; rows that differ from `before` (the state before the
  // current event) are marked changed. No `before`: nothing is marked.
  void set_state(const core::GameState& state, const core::Catalog& catalog, const core::Ruleset& rules,
                 const core::GameState* before = nullptr);
  void clear();

  // The index of a field ("Hand") in a section, or of a Troop by space key.
  [[nodiscard]] QModelIndex find(Section section, const QString& key, int column = Item) const;

  // --- QAbstractItemModel ----------------------------------------------
  [[nodiscard]] QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  [[nodiscard]] QModelIndex parent(const QModelIndex& child) const override;
  [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation,
                                    int role = Qt::DisplayRole) const override;

  struct Row {
    Kind kind = Kind::Field;
    QString key;
    std::array<QString, ColumnCount> cells;
    QString tooltip;
    int raw = 0;
    int seat = -1;
    bool changed = false;
  };
  struct SectionRows {
    QString title;
    std::vector<Row> rows;
  };

 private:
  void replace_section(int section, SectionRows next);

  std::vector<SectionRows> sections_;  // empty until the first state
};

// A Troop's status badges ("mustering", "Lost", "Burrowed", "unprovisioned",
// "Shocked", ...), from core's flags and derived values.
[[nodiscard]] QStringList troop_badges(const core::GameState& state, const core::Troop& troop, const core::Card* card);

// Lays a state out as the model shows it. Pure: exposed for tests.
[[nodiscard]] std::vector<StateModel::SectionRows> state_sections(const core::GameState& state,
                                                                  const core::Catalog& catalog,
                                                                  const core::Ruleset& rules);

}  // namespace warlog::viewer
