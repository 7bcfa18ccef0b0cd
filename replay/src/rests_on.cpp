#include "warlog/replay/rests_on.hpp"

#include <algorithm>
#include <map>
#include <string_view>
#include <utility>
#include <variant>

#include <fmt/format.h>

#include "warlog/core/corrections.hpp"
#include "warlog/core/fold_log.hpp"

namespace warlog::replay {

namespace {

// A player's action: what a violation can be undone by skipping. Markers,
// the setup and corrections frame the game; skipping one is another game.
bool is_action(const core::Payload& p) {
  return !std::holds_alternative<core::GameCreated>(p) && !std::holds_alternative<core::ArmyRegistered>(p) &&
         !std::holds_alternative<core::TurnStarted>(p) && !std::holds_alternative<core::MoraleChecked>(p) &&
         !std::holds_alternative<core::PhaseStarted>(p) && !std::holds_alternative<core::GameEnded>(p) &&
         !core::is_correction(p);
}

struct Tried {
  core::Seq seq = 0;
  std::size_t at = 0;  // index into the effective events
  core::GameState before;
};

bool same_result(const core::GameState& a, const core::GameState& b) {
  return a.winner == b.winner && a.victory == b.victory && a.decided_at == b.decided_at;
}

bool decided_before(const core::GameState& s, core::Seq seq) { return s.decided_at && *s.decided_at < seq; }

}  // namespace

RestsOn rests_on(const core::Context& ctx, std::span<const core::Event> events,
                 const std::vector<LocatedFinding>& findings, const core::GameState& final_state,
                 std::size_t max_violations) {
  RestsOn out;
  out.findings.resize(findings.size());

  // The effective events, as the audit folds them (a void or a backup
  // strikes events; their notes are compared with nothing).
  std::vector<std::size_t> effective;
  std::map<core::Seq, std::size_t> index_of;  // seq -> index into effective
  const std::vector<core::Mark> marks = core::standings(events);
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (marks[i].standing != core::Standing::Effective) continue;
    index_of.emplace(events[i].seq, effective.size());
    effective.push_back(i);
  }

  // The violations to try: the events the first max_violations of them
  // concern, when each is an action.
  std::vector<core::Seq> seqs;
  std::size_t counted = 0;
  for (const LocatedFinding& f : findings) {
    if (counted == max_violations) break;
    if (f.finding.severity != core::Severity::Violation) continue;
    const auto it = index_of.find(f.finding.concerns);
    if (it == index_of.end() || !is_action(events[effective[it->second]].payload)) continue;
    ++counted;
    if (std::find(seqs.begin(), seqs.end(), f.finding.concerns) == seqs.end()) seqs.push_back(f.finding.concerns);
  }
  std::sort(seqs.begin(), seqs.end());
  if (seqs.empty()) return out;
  out.tried = seqs;

  // One fold up to the last of them, keeping the state before each.
  std::vector<Tried> tried;
  {
    core::GameState s;
    std::vector<core::Finding> ignored;
    ++out.folds;
    for (std::size_t k = 0; k < effective.size() && tried.size() < seqs.size(); ++k) {
      const core::Event& ev = events[effective[k]];
      if (ev.seq == seqs[tried.size()]) tried.push_back(Tried{ev.seq, k, s});
      ignored.clear();
      core::apply(ctx, s, ev, ignored);
      ++out.events_applied;
    }
  }

  for (const Tried& t : tried) {
    // The game without this event, from just before it to the end.
    core::LogFold log(ctx, t.before);
    std::vector<core::Finding> got;
    ++out.folds;
    for (std::size_t k = t.at + 1; k < effective.size(); ++k) {
      log.apply(events[effective[k]], got);
      ++out.events_applied;
    }
    const core::GameState s = std::move(log).finish(got);  // as the audit ends it
    std::map<std::pair<core::Seq, std::string_view>, int> given;
    for (const core::Finding& g : got) ++given[{g.seq, g.rule_id}];
    for (std::size_t i = 0; i < findings.size(); ++i) {
      const core::Finding& f = findings[i].finding;
      if (f.seq <= t.seq || !index_of.contains(f.seq)) continue;  // earlier, or a struck event's note
      int& left = given[{f.seq, f.rule_id}];
      const bool followed = !decided_before(s, f.seq) || decided_before(final_state, f.seq);
      if (left > 0 && followed) {
        --left;
      } else {
        out.findings[i].push_back(t.seq);
      }
    }
    if ((final_state.victory || s.victory) && !same_result(s, final_state)) out.result.push_back(t.seq);
  }
  return out;
}

std::string violations_text(const std::vector<core::Seq>& seqs) {
  if (seqs.size() == 1) return fmt::format("the violation at seq {}", seqs[0]);
  std::string out = "the violations at seq ";
  for (std::size_t i = 0; i < seqs.size(); ++i) {
    out += fmt::format("{}{}", i == 0 ? "" : i + 1 == seqs.size() ? " and " : ", ", seqs[i]);
  }
  return out;
}

}  // namespace warlog::replay
