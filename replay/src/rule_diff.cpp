#include "warlog/replay/rule_diff.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "context.hpp"
#include "stream.hpp"
#include "warlog/core/corrections.hpp"
#include "warlog/replay/report.hpp"
#include "warlog/store/store.hpp"

namespace warlog::replay {

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// Lines of `a` missing from `b` (as multisets), in a's order.
std::vector<std::string> only_in(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::multiset<std::string> rest(b.begin(), b.end());
  std::vector<std::string> out;
  for (const std::string& line : a) {
    if (auto it = rest.find(line); it != rest.end()) {
      rest.erase(it);
    } else {
      out.push_back(line);
    }
  }
  return out;
}

Outcome outcome_of(const core::GameState& s) { return Outcome{s.winner, s.victory, s.turn}; }

using Key = std::tuple<core::Seq, std::string_view, std::string>;
Key key_of(const LocatedFinding& f) { return {f.finding.seq, f.finding.rule_id, f.finding.message}; }

std::vector<LocatedFinding> minus(const std::vector<LocatedFinding>& a, const std::vector<LocatedFinding>& b) {
  std::multiset<Key> rest;
  for (const auto& f : b) rest.insert(key_of(f));
  std::vector<LocatedFinding> out;
  for (const auto& f : a) {
    if (auto it = rest.find(key_of(f)); it != rest.end()) {
      rest.erase(it);
    } else {
      out.push_back(f);
    }
  }
  return out;
}

}  // namespace

Expected<GameDiff> rule_diff(const Archive& archive, core::GameId id, const RuleDiffOptions& options) {
  // The contexts first (they read blobs), then one reader for the scan: never two at once.
  auto recorded = read_meta(archive, id);
  if (!recorded) return tl::unexpected(recorded.error());
  auto base_ctx = resolve_context(archive, *recorded, options.base);
  if (!base_ctx) return tl::unexpected(base_ctx.error());
  auto cand_ctx = resolve_context(archive, *recorded, options.candidate);
  if (!cand_ctx) return tl::unexpected(cand_ctx.error());
  auto reader = archive.store().reader();
  if (!reader) return tl::unexpected(reader.error());
  auto meta = reader->game(id);  // this snapshot's count (a live game may have grown)
  if (!meta) return tl::unexpected(meta.error());
  const core::Context base{*base_ctx->catalog, *base_ctx->ruleset};
  const core::Context cand{*cand_ctx->catalog, *cand_ctx->ruleset};

  GameDiff diff;
  diff.game = summary_of(*meta);
  core::GameState sb, sc;
  std::vector<core::Finding> fb, fc;
  std::vector<LocatedFinding> all_b, all_c;
  auto diverges = [&](const core::Event& ev, const core::GameState& state_b, const core::GameState& state_c,
                      const std::vector<core::Finding>& found_b, const std::vector<core::Finding>& found_c) {
    if (diff.first || (found_b == found_c && state_b == state_c)) return;
    Divergence d{ev.seq,  ev.turn, ev.phase, ev.seat, std::string(core::payload_name(ev.payload)),
                 {},      {},      found_b != found_c};
    if (!(state_b == state_c)) {
      const auto lb = lines_of(core::to_text(state_b));
      const auto lc = lines_of(core::to_text(state_c));
      d.base_only = only_in(lb, lc);
      d.candidate_only = only_in(lc, lb);
    }
    diff.first = std::move(d);
  };
  bool corrected = false;
  auto n = reader->scan(id, 0, store::kEndSeq, [&](const core::Event& ev) {
    if (core::is_correction(ev.payload)) {
      corrected = true;  // compared again below, through corrections.hpp
      return false;
    }
    fb.clear();
    fc.clear();
    core::apply(base, sb, ev, fb);
    core::apply(cand, sc, ev, fc);
    diverges(ev, sb, sc, fb, fc);
    locate_findings(fb, ev, all_b);
    locate_findings(fc, ev, all_c);
    return true;
  });
  if (!n) return tl::unexpected(Error{n.error().code, fmt::format("game {}: {}", id, n.error().message)});
  if (corrected) {
    // State after state under both, each the fold of the events that count;
    // the findings compared are the final ones (a void may revise a
    // finding of an event before it).
    auto events = detail::read_stream(*reader, id, store::kEndSeq);
    if (!events) return tl::unexpected(Error{events.error().code, fmt::format("game {}: {}", id, events.error().message)});
    diff.first.reset();
    core::CorrectedFold b(base, *events);
    core::CorrectedFold c(cand, *events);
    while (!b.done()) {
      const core::Event& ev = (*events)[b.position()];
      fb.clear();
      fc.clear();
      b.step(fb);
      c.step(fc);
      diverges(ev, b.state(), c.state(), fb, fc);
    }
    sb = b.state();
    sc = c.state();
    all_b.clear();
    all_c.clear();
    locate_all(b.findings(), *events, all_b);
    locate_all(c.findings(), *events, all_c);
  }
  diff.added = minus(all_c, all_b);
  diff.removed = minus(all_b, all_c);
  diff.base = outcome_of(sb);
  diff.candidate = outcome_of(sc);
  return diff;
}

std::string describe(const Outcome& o, const GameSummary& g) {
  const std::string who = o.winner < g.seats.size() ? g.seats[o.winner].player : std::string("nobody");
  if (!o.victory) return fmt::format("no result after turn {}", o.turn);
  switch (*o.victory) {
    case core::Victory::Supremacy: return fmt::format("Supremacy Victory for {} on turn {}", who, o.turn);
    case core::Victory::Attrition: return fmt::format("Attrition Victory for {} on turn {}", who, o.turn);
    case core::Victory::Concession: return fmt::format("concession, won by {} on turn {}", who, o.turn);
    case core::Victory::Unfinished: return fmt::format("unfinished after turn {}", o.turn);
  }
  return "?";
}

std::string diff_text(const GameDiff& d) {
  if (!d.changed()) return "";
  std::string out = fmt::format("game {}  \"{}\"  {}\n", d.game.id, d.game.title, seats_line(d.game));
  const Divergence& f = *d.first;
  out += fmt::format("  first divergence: seq {} (turn {} {}, {})\n", f.seq, f.turn, core::to_string(f.phase), f.event);
  for (const auto& l : f.base_only) out += fmt::format("    - {}\n", l);
  for (const auto& l : f.candidate_only) out += fmt::format("    + {}\n", l);
  if (d.outcome_changed()) {
    out += fmt::format("  OUTCOME CHANGES: {} -> {}\n", describe(d.base, d.game), describe(d.candidate, d.game));
  } else {
    out += fmt::format("  outcome unchanged: {}\n", describe(d.base, d.game));
  }
  for (const auto& x : d.removed) {
    out += fmt::format("  - seq {:>4} {} {}\n", x.finding.seq, x.finding.rule_id, x.finding.message);
  }
  for (const auto& x : d.added) {
    out += fmt::format("  + seq {:>4} {} {}\n", x.finding.seq, x.finding.rule_id, x.finding.message);
  }
  return out;
}

nlohmann::json diff_json(const GameDiff& d) {
  auto outcome = [&](const Outcome& o) {
    return nlohmann::json{{"winner", o.winner == core::kNoSeat ? 0 : o.winner + 1},
                          {"victory", o.victory ? static_cast<int>(*o.victory) : -1},
                          {"turn", o.turn},
                          {"text", describe(o, d.game)}};
  };
  nlohmann::json j{{"game", d.game.id},
                   {"title", d.game.title},
                   {"changed", d.changed()},
                   {"outcome_changed", d.outcome_changed()},
                   {"base", outcome(d.base)},
                   {"candidate", outcome(d.candidate)},
                   {"added", nlohmann::json::array()},
                   {"removed", nlohmann::json::array()}};
  for (const auto& f : d.added) j["added"].push_back(finding_json(f));
  for (const auto& f : d.removed) j["removed"].push_back(finding_json(f));
  if (d.first) {
    j["first_divergence"] = {{"seq", d.first->seq},
                             {"turn", d.first->turn},
                             {"phase", core::to_string(d.first->phase)},
                             {"event", d.first->event},
                             {"findings_differ", d.first->findings_differ},
                             {"base_only", d.first->base_only},
                             {"candidate_only", d.first->candidate_only}};
  }
  return j;
}

}  // namespace warlog::replay
