#pragma once
// The game as a tree: turn › phase › event. A phase group starts at each
// PhaseStarted (so each seat's part is its own group) or where the recorded
// phase changes. The current event is highlighted; its groups are bold.

#include <QAbstractItemModel>

#include <cstddef>
#include <optional>
#include <vector>

#include "warlog/core/event.hpp"

namespace warlog::viewer {

class TimelineModel : public QAbstractItemModel {
  Q_OBJECT

 public:
  enum Column { Label, Findings, ColumnCount };
  enum class Kind { Turn, Phase, Event };
  enum Role {
    SeqRole = Qt::UserRole + 1,  // an event's seq; a group's first event's seq (qulonglong)
    KindRole,                    // Kind as int
    IsCurrentRole,               // bool: the current event, or a group holding it
    FindingsRole,                // int: findings at this event or within this group
  };

  explicit TimelineModel(QObject* parent = nullptr);

  // Replaces the game shown. `finding_seqs` holds one entry per finding.
  void set_game(std::vector<core::Event> events, std::vector<core::SeatSetup> seats,
                const std::vector<core::Seq>& finding_seqs);
  // Marks the event at `position` (index into the events) as current.
  void set_current(std::size_t position);

  // The row of the event at `position`; invalid when out of range.
  [[nodiscard]] QModelIndex index_of_position(std::size_t position) const;
  [[nodiscard]] std::optional<core::Seq> seq_at(const QModelIndex& index) const;

  // --- QAbstractItemModel ----------------------------------------------
  [[nodiscard]] QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  [[nodiscard]] QModelIndex parent(const QModelIndex& child) const override;
  [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation,
                                    int role = Qt::DisplayRole) const override;

 private:
  struct Node {
    Kind kind = Kind::Turn;
    int parent = -1;           // node index, -1 for a turn
    int row = 0;               // row under its parent
    std::vector<int> children; // node indexes
    std::size_t first = 0;     // first event position covered
    std::size_t last = 0;      // last event position covered
    int findings = 0;
  };

  [[nodiscard]] int node_of(const QModelIndex& index) const;
  [[nodiscard]] QModelIndex index_of_node(int node, int column = 0) const;
  [[nodiscard]] QString label_of(const Node& n) const;
  [[nodiscard]] bool holds_current(const Node& n) const noexcept;
  void emit_changed_path(int node);
  int add_node(Kind kind, int parent, std::size_t position);

  std::vector<core::Event> events_;
  std::vector<core::SeatSetup> seats_;
  std::vector<Node> nodes_;
  std::vector<int> roots_;       // turn nodes
  std::vector<int> event_node_;  // event position -> its node
  std::optional<std::size_t> current_;
};

}  // namespace warlog::viewer
