#pragma once
// The game as a tree: turn › phase › event, built from the survey's outline
// (replay::PhaseSpan), never from the whole stream. Event rows are read from
// the store when a view asks for them, a chunk at a time, and only a few
// chunks are kept: a 1,000,000-event game costs one node per phase part.
// The current event is highlighted and its groups are bold; in compare mode
// the events where the two rulesets differ are marked.

#include <QAbstractItemModel>

#include <cstddef>
#include <functional>
#include <list>
#include <optional>
#include <unordered_map>
#include <vector>

#include "warlog/replay/survey.hpp"

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
    DivergentRole,               // bool: compare mode marks this event or a group holding one
    StruckRole,                  // QString: an event the fold skips, "voided at seq 8 by Ana: ..."; else empty
  };
  // Reads the events with from <= seq < to (the session's events()).
  using EventSource = std::function<Expected<std::vector<core::Event>>(core::Seq from, core::Seq to)>;

  explicit TimelineModel(QObject* parent = nullptr);

  // Replaces the game shown. `finding_seqs`: one entry per finding, any order.
  void set_game(std::vector<replay::PhaseSpan> spans, std::vector<core::SeatSetup> seats,
                std::vector<core::Seq> finding_seqs, EventSource source);
  // Live follow: `spans` is the old outline grown at its end (its last span
  // longer, new spans after it). Inserts the new rows; nothing is reset.
  void extend(std::vector<replay::PhaseSpan> spans, std::vector<core::Seq> finding_seqs);
  void set_current(core::Seq seq);
  // The event source now labels events differently (another perspective):
  // drops the cached labels and resets the rows (the caller re-selects).
  void relabel();
  // Compare mode: the events to mark (empty: none).
  void set_divergent(std::vector<core::Seq> seqs);
  // Corrections: the events the fold skips (replay::GameSurvey::struck),
  // shown struck through with who struck them and why.
  void set_struck(std::vector<replay::StruckEvent> struck);

  // The row of the event with this seq; invalid when out of range.
  [[nodiscard]] QModelIndex index_of_seq(core::Seq seq) const;
  [[nodiscard]] std::optional<core::Seq> seq_at(const QModelIndex& index) const;
  // Event chunks held in memory now (bounded; for tests).
  [[nodiscard]] std::size_t cached_chunks() const noexcept { return chunks_.size(); }

  // --- QAbstractItemModel ----------------------------------------------
  [[nodiscard]] QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  [[nodiscard]] QModelIndex parent(const QModelIndex& child) const override;
  [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation,
                                    int role = Qt::DisplayRole) const override;

  static constexpr core::Seq kChunk = 256;     // events read at once
  static constexpr std::size_t kMaxChunks = 64;  // chunks kept (16,384 rows)

 private:
  struct Turn {
    std::size_t first_span = 0;
    std::size_t last_span = 0;
  };
  struct Node {  // what an index points at
    Kind kind = Kind::Turn;
    std::size_t turn = 0;  // Turn: index into turns_
    std::size_t span = 0;  // Phase, Event: index into spans_
    core::Seq seq = 0;     // the event, or the group's first event
    core::Seq last = 0;    // the group's last event (the event itself for an event)
  };

  [[nodiscard]] std::optional<Node> node_of(const QModelIndex& index) const;
  [[nodiscard]] QModelIndex turn_index(std::size_t turn, int column = 0) const;
  [[nodiscard]] QModelIndex span_index(std::size_t span, int column = 0) const;
  [[nodiscard]] QModelIndex event_index(core::Seq seq, int column = 0) const;
  [[nodiscard]] std::size_t span_of(core::Seq seq) const noexcept;
  [[nodiscard]] int count_in(const std::vector<core::Seq>& sorted, core::Seq first, core::Seq last) const;
  [[nodiscard]] QString label_of(const Node& n) const;
  [[nodiscard]] const QString& event_label(core::Seq seq) const;
  [[nodiscard]] const replay::StruckEvent* struck_at(core::Seq seq) const;
  void rebuild_turns();
  void emit_changed_path(core::Seq seq);

  std::vector<replay::PhaseSpan> spans_;
  std::vector<Turn> turns_;
  std::vector<std::size_t> turn_of_span_;
  std::vector<core::SeatSetup> seats_;
  std::vector<core::Seq> finding_seqs_;  // sorted
  std::vector<core::Seq> divergent_;     // sorted
  std::vector<replay::StruckEvent> struck_;  // by seq
  EventSource source_;
  std::optional<core::Seq> current_;

  // Event labels by chunk (seq / kChunk), least recently used first.
  struct Chunk {
    std::vector<QString> labels;
    std::list<core::Seq>::iterator use;
  };
  mutable std::unordered_map<core::Seq, Chunk> chunks_;
  mutable std::list<core::Seq> lru_;
};

}  // namespace warlog::viewer
