#include "warlog/replay/times.hpp"

#include <fmt/format.h>

namespace warlog::replay {

void TimeLog::see(const core::Event& ev, std::vector<core::Finding>& out) {
  const bool opens = parts_.empty() || std::holds_alternative<core::TurnStarted>(ev.payload) ||
                     std::holds_alternative<core::PhaseStarted>(ev.payload);
  if (opens) {
    PartTime p;
    p.turn = ev.turn;
    p.phase = ev.phase;
    p.seat = std::holds_alternative<core::PhaseStarted>(ev.payload) ? ev.seat : core::kNoSeat;
    p.first = ev.seq;
    parts_.push_back(p);
  }
  PartTime& part = parts_.back();
  part.last = ev.seq;
  const std::int64_t t = ev.recorded_at_ms;
  if (t == 0) return;
  any_ = true;
  if (part.start_ms == 0) part.start_ms = t;
  part.end_ms = t;
  if (last_ms_ != 0 && t < last_ms_) {
    const core::Rule* r = core::find_rule("LOG.time");
    out.push_back(core::Finding{ev.seq, r != nullptr ? r->id : "LOG.time", core::Severity::Note, core::Basis::Warlog,
                                fmt::format("recorded {:.3f} s before seq {} (kept as recorded)",
                                            static_cast<double>(last_ms_ - t) / 1000.0, last_seq_)});
  }
  last_ms_ = t;
  last_seq_ = ev.seq;
}

std::vector<PartTime> TimeLog::parts() const {
  if (!any_) return {};
  std::vector<PartTime> out = parts_;
  // A part ends where the next part with a time begins.
  for (std::size_t i = 0; i + 1 < out.size(); ++i) {
    for (std::size_t j = i + 1; j < out.size(); ++j) {
      if (out[j].start_ms != 0) {
        if (out[i].start_ms != 0) out[i].end_ms = out[j].start_ms;
        break;
      }
    }
  }
  return out;
}

TimeLog::Mark TimeLog::mark() const {
  Mark m;
  m.parts = parts_.size();
  if (!parts_.empty()) m.open = parts_.back();
  m.last_ms = last_ms_;
  m.last_seq = last_seq_;
  m.any = any_;
  return m;
}

void TimeLog::restore(const Mark& m) {
  parts_.resize(m.parts);
  if (m.parts > 0) parts_.back() = m.open;
  last_ms_ = m.last_ms;
  last_seq_ = m.last_seq;
  any_ = m.any;
}

}  // namespace warlog::replay
