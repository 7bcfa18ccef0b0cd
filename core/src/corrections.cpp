// The effective stream: which events count once Voided and BackupTo are
// read (corrections.hpp; docs/warlog-rules.md › Corrections).

#include "warlog/core/corrections.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "rules/rule_ids.hpp"
#include "step.hpp"

namespace warlog::core {

namespace {

// What a correction at one position does, decided from the events and the
// standing so far alone.
struct Verdict {
  bool ok = false;
  std::string why;             // for a refusal
  std::size_t target = 0;      // position of the target, when ok
  std::vector<std::size_t> struck;  // positions this correction struck (voided or superseded)
};

// The position of the last event before `before` whose seq is `seq`; `before`
// when none. Seqs are positions in every stream the store holds; a hostile
// stream out of order still resolves to the event that carries the seq.
std::size_t position_of(std::span<const Event> events, Seq seq, std::size_t before) noexcept {
  if (seq < before && events[seq].seq == seq) return seq;
  for (std::size_t i = before; i-- > 0;) {
    if (events[i].seq == seq) return i;
  }
  return before;
}

bool ended(std::span<const Event> events, const std::vector<std::size_t>& effective, std::size_t& at) {
  for (const std::size_t p : effective) {
    if (std::holds_alternative<GameEnded>(events[p].payload)) {
      at = p;
      return true;
    }
  }
  return false;
}

std::string_view struck_how(Standing s) { return s == Standing::Voided ? "voided" : "superseded"; }

// The standing after the events before `end` (the stream as it stood then).
void resolve_prefix(std::span<const Event> events, std::size_t end, std::vector<Mark>& marks,
                    std::vector<std::size_t>& effective);

// Decides the correction at `at` and updates `marks` (size at) and
// `effective` (positions before `at`). Does not push at's own mark.
Verdict resolve(std::span<const Event> events, std::size_t at, std::vector<Mark>& marks,
                std::vector<std::size_t>& effective) {
  const Event& ev = events[at];
  Verdict v;
  // Each correction that takes effect folds the game again: a hostile stream
  // of a million voids must not cost a million folds.
  const auto earlier = static_cast<std::size_t>(
      std::count_if(events.begin(), events.begin() + static_cast<std::ptrdiff_t>(at),
                    [](const Event& e) { return is_correction(e.payload); }));
  if (earlier >= kMaxCorrections) {
    v.why = fmt::format("more than {} corrections in one game: refused, as a stream no table records", kMaxCorrections);
    return v;
  }
  std::size_t end_at = 0;
  const bool game_over = ended(events, effective, end_at);
  if (const auto* vo = std::get_if<Voided>(&ev.payload)) {
    const std::size_t t = position_of(events, vo->target, at);
    if (t == at) {
      v.why = fmt::format("void names seq {}, which is no earlier event of this game", vo->target);
    } else if (is_correction(events[t].payload)) {
      v.why = fmt::format("seq {} is a {}: a correction is undone by a judge's backup, not voided", vo->target,
                          payload_name(events[t].payload));
    } else if (std::holds_alternative<GameCreated>(events[t].payload)) {
      v.why = fmt::format("seq {} is the GameCreated: a game's setup cannot be voided", vo->target);
    } else if (marks[t].standing != Standing::Effective) {
      v.why = fmt::format("seq {} was already {} at seq {}", vo->target, struck_how(marks[t].standing), marks[t].by);
    } else if (game_over && t != end_at) {
      v.why = fmt::format("the game ended at seq {}: only a judge's backup or a void of the GameEnded may follow",
                          events[end_at].seq);
    } else {
      v.ok = true;
      v.target = t;
      v.struck = {t};
      marks[t] = Mark{Standing::Voided, ev.seq};
      effective.erase(std::find(effective.begin(), effective.end(), t));
    }
    return v;
  }
  const auto& b = std::get<BackupTo>(ev.payload);
  const std::size_t t = position_of(events, b.target, at);
  if (t == at) {
    v.why = fmt::format("backup names seq {}, which is no earlier event of this game", b.target);
    return v;
  }
  if (std::holds_alternative<GameCreated>(events[t].payload)) {
    v.why = fmt::format("seq {} is the GameCreated: there is no game before it to return to", b.target);
    return v;
  }
  // The game as it stood just before the target, corrections before it
  // included; what followed is superseded, corrections among it too.
  std::vector<Mark> before;
  std::vector<std::size_t> kept;
  resolve_prefix(events, t, before, kept);
  std::copy(before.begin(), before.end(), marks.begin());
  for (std::size_t p = t; p < at; ++p) {
    if (marks[p].standing == Standing::Effective || marks[p].standing == Standing::Correction) {
      marks[p] = Mark{Standing::Superseded, ev.seq};
      v.struck.push_back(p);
    }
  }
  effective = std::move(kept);
  v.ok = true;
  v.target = t;
  return v;
}

void resolve_prefix(std::span<const Event> events, std::size_t end, std::vector<Mark>& marks,
                    std::vector<std::size_t>& effective) {
  marks.clear();
  effective.clear();
  marks.reserve(end);
  for (std::size_t i = 0; i < end; ++i) {
    if (!is_correction(events[i].payload)) {
      marks.push_back(Mark{});
      effective.push_back(i);
      continue;
    }
    const Verdict v = resolve(events, i, marks, effective);
    marks.push_back(Mark{v.ok ? Standing::Correction : Standing::Refused, 0});
  }
}

std::string where(const Event& ev) {
  if (ev.turn == 0) return fmt::format("seq {} ({})", ev.seq, payload_name(ev.payload));
  return fmt::format("seq {} ({}, turn {} {})", ev.seq, payload_name(ev.payload), ev.turn, to_string(ev.phase));
}

// "; answers MUS-a.draw at seq 41 (Muster Phase › ...), ..." over the
// violations of the struck events, as they were when struck.
std::string answers(const std::vector<std::vector<Finding>>& findings, const std::vector<std::size_t>& struck) {
  constexpr std::size_t kListed = 8;
  std::string out;
  std::size_t n = 0;
  for (const std::size_t p : struck) {
    for (const Finding& f : findings[p]) {
      if (f.severity != Severity::Violation) continue;
      if (n++ < kListed) {
        const Rule* r = find_rule(f.rule_id);
        out += fmt::format("{} {} at seq {}{}", n == 1 ? "; answers" : ",", f.rule_id, f.seq,
                           r != nullptr ? fmt::format(" ({})", r->citation) : std::string());
      }
    }
  }
  if (n > kListed) out += fmt::format(" and {} more", n - kListed);
  return out;
}

std::string who(const std::string& by) { return by.empty() ? std::string("someone unnamed") : by; }

}  // namespace

std::string_view to_string(Standing s) noexcept {
  switch (s) {
    case Standing::Effective: return "effective";
    case Standing::Voided: return "voided";
    case Standing::Superseded: return "superseded";
    case Standing::Correction: return "correction";
    case Standing::Refused: return "refused";
  }
  return "?";
}

bool is_correction(const Payload& p) noexcept {
  return std::holds_alternative<Voided>(p) || std::holds_alternative<BackupTo>(p);
}

bool has_corrections(std::span<const Event> events) noexcept {
  return std::any_of(events.begin(), events.end(), [](const Event& e) { return is_correction(e.payload); });
}

std::vector<Mark> standings(std::span<const Event> events) {
  std::vector<Mark> marks;
  std::vector<std::size_t> effective;
  resolve_prefix(events, events.size(), marks, effective);
  return marks;
}

CorrectedFold::CorrectedFold(const Context& ctx, std::span<const Event> events)
    : ctx_(ctx), events_(events), findings_(events.size()) {
  marks_.reserve(events.size());
}

void CorrectedFold::step(std::vector<Finding>& out) {
  const std::size_t at = next_++;
  const Event& ev = events_[at];
  std::vector<Finding>& mine = findings_[at];
  if (!is_correction(ev.payload)) {
    apply(ctx_, state_, ev, mine);
    marks_.push_back(Mark{});
    effective_.push_back(at);
    out.insert(out.end(), mine.begin(), mine.end());
    return;
  }

  const detail::Step st{ctx_, state_, ev, mine, 0, 0, {}};
  if (ev.seq != state_.next_seq) {
    st.report(rule_id::kLogOrder, fmt::format("event {} follows event {}: expected sequence {}", ev.seq,
                                              state_.next_seq == 0 ? 0 : state_.next_seq - 1, state_.next_seq));
  }
  const Verdict v = resolve(events_, at, marks_, effective_);
  marks_.push_back(Mark{v.ok ? Standing::Correction : Standing::Refused, 0});
  if (!v.ok) {
    st.report(rule_id::kLogCorrection, v.why);
  } else if (const auto* vo = std::get_if<Voided>(&ev.payload)) {
    st.report(rule_id::kLogVoid, fmt::format("{} voided {}: {}{}", who(vo->by), where(events_[v.target]),
                                             vo->reason, answers(findings_, v.struck)));
  } else {
    const auto& b = std::get<BackupTo>(ev.payload);
    st.report(rule_id::kLogBackup,
              fmt::format("judge's backup by {} ({}) to just before {}: {}; {} event{} superseded{}", who(b.by),
                          b.signature.empty() ? "unsigned" : "signed; the fold does not check signatures",
                          where(events_[v.target]), b.reason, v.struck.size(), v.struck.size() == 1 ? "" : "s",
                          answers(findings_, v.struck)));
  }
  if (v.ok) refold();
  state_.next_seq = ev.seq + 1;
  out.insert(out.end(), mine.begin(), mine.end());
}

void CorrectedFold::refold() {
  state_ = GameState{};
  for (const std::size_t p : effective_) {
    // The gap left by struck events is no LOG.order finding; a gap in the
    // stream itself still is, as in the plain fold.
    state_.next_seq = p == 0 ? 0 : events_[p - 1].seq + 1;
    findings_[p].clear();
    apply(ctx_, state_, events_[p], findings_[p]);
  }
}

std::vector<Finding> CorrectedFold::findings() const {
  std::vector<Finding> out;
  for (std::size_t p = 0; p < next_; ++p) {
    const Mark m = marks_[p];
    if (m.standing != Standing::Voided && m.standing != Standing::Superseded) {
      out.insert(out.end(), findings_[p].begin(), findings_[p].end());
      continue;
    }
    const std::size_t c = position_of(events_, m.by, next_);
    std::string by;
    std::string reason;
    if (c < next_) {
      if (const auto* vo = std::get_if<Voided>(&events_[c].payload)) {
        by = vo->by;
        reason = vo->reason;
      } else if (const auto* b = std::get_if<BackupTo>(&events_[c].payload)) {
        by = b->by;
        reason = b->reason;
      }
    }
    const std::string note = m.standing == Standing::Voided
                                 ? fmt::format("voided at seq {} by {}: {}", m.by, who(by), reason)
                                 : fmt::format("superseded by the backup at seq {} by {}: {}", m.by, who(by), reason);
    for (const Finding& f : findings_[p]) {
      Finding s = f;
      s.severity = Severity::Note;
      s.message = fmt::format("struck ({}): was a {}: {}", note, to_string(f.severity), f.message);
      out.push_back(std::move(s));
    }
  }
  return out;
}

}  // namespace warlog::core
