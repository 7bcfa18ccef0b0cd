#pragma once
// Recorded times, read beside the fold (which never reads them): the
// LOG.time note of a time that goes backwards, and the time of each part of
// the game for audit --times and the viewer's Times tab (docs/warlog-rules.md
// › Recording times). The audit and the viewer's survey both read times
// through one TimeLog, so both give the same notes.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "warlog/core/finding.hpp"
#include "warlog/replay/replay.hpp"

namespace warlog::replay {

class TimeLog {
 public:
  // Reads one event, in stream order; appends a LOG.time note to `out` when
  // its time is earlier than the last recorded one.
  void see(const core::Event& ev, std::vector<core::Finding>& out);
  // The parts seen, each closed; empty when no event had a time.
  [[nodiscard]] std::vector<PartTime> parts() const;
  // Where it stands, to go back to after a failed read (the survey's Undo):
  // parts only grow, so their count and the open part are enough.
  struct Mark {
    std::size_t parts = 0;
    PartTime open;
    std::int64_t last_ms = 0;
    core::Seq last_seq = 0;
    bool any = false;
  };
  [[nodiscard]] Mark mark() const;
  void restore(const Mark& m);

 private:
  std::vector<PartTime> parts_;
  std::int64_t last_ms_ = 0;
  core::Seq last_seq_ = 0;
  bool any_ = false;
};

}  // namespace warlog::replay
