#pragma once
// Recorded times, read beside the fold (which never reads them): the
// LOG.time note of a time that goes backwards, and the time of each part of
// the game for audit --times (docs/warlog-rules.md › Recording times).

#include <cstdint>
#include <vector>

#include "warlog/core/finding.hpp"
#include "warlog/replay/replay.hpp"

namespace warlog::replay::detail {

class TimeLog {
 public:
  // Reads one event, in stream order; appends a LOG.time note to `out` when
  // its time is earlier than the last recorded one.
  void see(const core::Event& ev, std::vector<core::Finding>& out);
  // The parts seen, each closed; empty when no event had a time.
  [[nodiscard]] std::vector<PartTime> parts() const;

 private:
  std::vector<PartTime> parts_;
  std::int64_t last_ms_ = 0;
  core::Seq last_seq_ = 0;
  bool any_ = false;
};

}  // namespace warlog::replay::detail
