#pragma once
// Corrections are events (docs/architecture.md › Store format 2 › 2): a
// scorekeeper's Voided and a judge's BackupTo stay in the stream, chained
// like any event, and nothing is rewritten. This is the one place that
// decides which events count: fold(), audit, seek and snapshots, export and
// rule-diff all read a stream through it. The readings are
// docs/warlog-rules.md › Corrections and docs/rulings.md.
//
//   - A void skips its target: an earlier ordinary event, not already
//     voided or superseded (else a LOG.correction finding, and nothing
//     changes).
//   - A backup to T returns the state to just before T: the stream as it
//     stood before T (corrections before T included) is folded again, the
//     events from T up to the backup are superseded, and play continues.
//   - After a GameEnded only a backup, or a void of that GameEnded, is legal.
//
// Still pure: the standing of an event depends only on the events and what
// they name, never on a clock (recorded_at_ms is never read here).

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "warlog/core/fold.hpp"

namespace warlog::core {

enum class Standing : std::uint8_t {
  Effective,   // part of the game as it stands
  Voided,      // skipped: a later Voided names it
  Superseded,  // from a backup's target up to the backup: the game went back before it
  Correction,  // a Voided or BackupTo that took effect
  Refused,     // a Voided or BackupTo that could not (its LOG.correction finding says why)
};
[[nodiscard]] std::string_view to_string(Standing s) noexcept;

struct Mark {
  Standing standing = Standing::Effective;
  Seq by = 0;  // Voided, Superseded: the seq of the correction that struck the event
  friend bool operator==(const Mark&, const Mark&) = default;
};

// The most corrections one game may take (any later one is refused with a
// LOG.correction finding): each that takes effect folds the game again, so
// this bounds a hostile stream's cost at kMaxCorrections folds.
inline constexpr std::size_t kMaxCorrections = 64;

[[nodiscard]] bool is_correction(const Payload& p) noexcept;
// True when any event of `events` is a Voided or BackupTo: a stream without
// one folds exactly as it did before corrections existed.
[[nodiscard]] bool has_corrections(std::span<const Event> events) noexcept;

// The standing of every event of `events` (by position) once all of them are
// read. Folds no state: cheap enough for export and the viewer.
[[nodiscard]] std::vector<Mark> standings(std::span<const Event> events);

// Folds a stream that may hold corrections, one event at a time, keeping the
// per-event findings a correction may revise. `events` is the caller's and
// must outlive this. fold() uses it for any stream with a correction; seek
// and rule-diff step it to compare state after state.
class CorrectedFold {
 public:
  CorrectedFold(const Context& ctx, std::span<const Event> events);

  [[nodiscard]] bool done() const noexcept { return next_ == events_.size(); }
  // Events folded so far.
  [[nodiscard]] std::size_t position() const noexcept { return next_; }

  // Folds the next event (precondition: !done()) and appends its findings
  // as of its recording, what a recorder shows at once, to `out`. A
  // correction that takes effect folds the effective stream again from the
  // start: O(events) once per correction.
  void step(std::vector<Finding>& out);

  // The state after the events folded so far: always the plain fold of the
  // effective events, in order.
  [[nodiscard]] const GameState& state() const noexcept { return state_; }
  // The standing of each event folded so far.
  [[nodiscard]] const std::vector<Mark>& marks() const noexcept { return marks_; }

  // Every finding of the events folded so far, in event order. An effective
  // event's are those of the effective stream as it now stands (a void may
  // change what a later event found). A struck event's (voided or
  // superseded) are those it had when last folded, each turned into a note
  // "struck (voided at seq S by WHO: reason): was a violation: ...": they
  // are no violation of the game.
  [[nodiscard]] std::vector<Finding> findings() const;

 private:
  void refold();

  const Context& ctx_;
  std::span<const Event> events_;
  std::size_t next_ = 0;
  GameState state_;
  std::vector<Mark> marks_;
  std::vector<std::size_t> effective_;           // positions, ascending
  std::vector<std::vector<Finding>> findings_;   // per position
};

}  // namespace warlog::core
