#pragma once
// A game's findings kept compactly, for a front end that holds a whole
// game's audit while the judge steps through it (the viewer's findings list
// of a 1,000,000-event game may hold hundreds of thousands).
//
// A std::vector<LocatedFinding> costs ~88 bytes a finding plus a heap block
// for each message (about 190 bytes a finding in all). Here a finding is one
// 40-byte row, and its message lives once in an arena of text: a message
// equal to a recent one (same rule, same card: the common case in a long
// disputed game) is stored once and shared. The citation is not stored: the
// row keeps its rule's place in the rules register (looked up once, on
// push_back), so reading a row costs no search (a sort of 460,000 rows
// reads rows tens of millions of times).
//
// The list only grows (push_back) or is cut back to an earlier size
// (truncate: a survey that fails halfway undoes its part). Rows are in the
// order pushed; a survey pushes them in seq order.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "warlog/core/finding.hpp"
#include "warlog/replay/replay.hpp"

namespace warlog::replay {

// One finding as stored, with its message and citation as views into the
// list and the rules register. The message view is valid until the next
// push_back (the arena may move) or the list's end.
struct FindingView {
  core::Seq seq = 0;
  std::string_view rule_id;
  core::Severity severity = core::Severity::Violation;
  core::Basis basis = core::Basis::Written;
  std::uint16_t turn = 0;
  core::Phase phase = core::Phase::Setup;
  core::Seat seat = core::kNoSeat;
  std::string_view message;
  std::string_view citation;  // "" for a rule id the register does not know
};

class FindingList {
 public:
  // Appends `f`, found while folding an event of this turn, phase and seat.
  // The message is copied into the arena (or shared with an equal recent
  // one). A message longer than 16 MiB - 1 is cut there (the engine's are
  // one line).
  void push_back(const core::Finding& f, std::uint16_t turn, core::Phase phase, core::Seat seat);
  void push_back(const LocatedFinding& f) { push_back(f.finding, f.turn, f.phase, f.seat); }

  [[nodiscard]] std::size_t size() const noexcept { return rows_.size(); }
  [[nodiscard]] bool empty() const noexcept { return rows_.empty(); }

  // Row i (i < size(); not checked).
  [[nodiscard]] FindingView at(std::size_t i) const noexcept;
  [[nodiscard]] core::Seq seq(std::size_t i) const noexcept { return rows_[i].seq; }
  [[nodiscard]] core::Severity severity(std::size_t i) const noexcept { return rows_[i].severity; }
  // The event row i concerns (core::Finding::concerns): its own seq for
  // most findings; an earlier event for one reported when a part closes.
  [[nodiscard]] core::Seq concerns(std::size_t i) const noexcept;
  // Row i as a LocatedFinding (the message copied), as audit() gives it.
  [[nodiscard]] LocatedFinding located(std::size_t i) const;

  // The first row whose seq is greater than `seq` (size() when none), by
  // binary search: rows must be in seq order, as a survey pushes them.
  [[nodiscard]] std::size_t upper_bound(core::Seq seq) const noexcept;
  // How many rows are violations (core::Severity::Violation).
  [[nodiscard]] std::size_t violations() const noexcept;

  // Drops the rows from n on (n >= size() does nothing). Their text stays
  // in the arena (it may be shared with rows kept).
  void truncate(std::size_t n) noexcept;

  // Heap bytes the list holds (rows, arena, dedup table), for the figures of
  // docs/performance.md.
  [[nodiscard]] std::size_t heap_bytes() const noexcept;
  // Bytes of distinct message text stored.
  [[nodiscard]] std::size_t text_bytes() const noexcept { return arena_.size(); }

 private:
  struct Row {
    core::Seq seq;
    std::string_view rule_id;  // into the register, or a literal: lives as long as the program
    std::uint64_t text;        // offset << 24 | length, into arena_
    std::uint16_t turn;
    std::uint16_t rule;  // index into core::all_rules(), kUnknownRule when not there
    core::Phase phase;
    core::Seat seat;
    core::Severity severity;
    core::Basis basis;
  };
  static constexpr std::uint16_t kUnknownRule = 0xFFFF;
  static_assert(sizeof(Row) == 40, "a row is the 40 bytes docs/performance.md counts");
  static constexpr std::size_t kRecent = 4096;  // dedup slots (a power of two)

  [[nodiscard]] std::string_view text_of(std::uint64_t text) const noexcept;
  [[nodiscard]] std::uint64_t intern(std::string_view message);

  // The rows whose finding concerns another event than its own seq, in row
  // order: few (findings reported when a part closes), so kept beside the
  // rows rather than in each (a row stays 40 bytes).
  struct Concern {
    std::size_t row;
    core::Seq seq;
  };

  std::vector<Row> rows_;
  std::vector<Concern> concerns_;
  std::string arena_;
  // Slot (hash of a message mod kRecent) -> that message's text + 1; 0 empty.
  // A lossy cache, not an index: a message missed here is stored again.
  std::vector<std::uint64_t> recent_;
};

}  // namespace warlog::replay
