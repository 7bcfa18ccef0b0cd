#include "warlog/replay/rule_diff.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <set>

#include "context.hpp"
#include "state_words.hpp"
#include "stream.hpp"
#include "warlog/core/fold_log.hpp"
#include "warlog/core/corrections.hpp"
#include "warlog/replay/report.hpp"
#include "warlog/store/store.hpp"

namespace warlog::replay {

namespace {

using Key = std::tuple<core::Seq, std::string_view, std::string>;
Key key_of(const LocatedFinding& f) { return {f.finding.seq, f.finding.rule_id, f.finding.message}; }

template <typename F>
std::vector<F> minus(const std::vector<F>& a, const std::vector<F>& b, auto key) {
  std::multiset<decltype(key(a.front()))> rest;
  for (const auto& f : b) rest.insert(key(f));
  std::vector<F> out;
  for (const auto& f : a) {
    if (auto it = rest.find(key(f)); it != rest.end()) {
      rest.erase(it);
    } else {
      out.push_back(f);
    }
  }
  return out;
}

DiffEvent diff_event_of(const core::Event& ev) {
  return DiffEvent{ev.seq, ev.turn, ev.phase, ev.seat, std::string(core::payload_name(ev.payload))};
}

std::string_view victory_name(core::Victory v) {
  switch (v) {
    case core::Victory::Supremacy: return "Supremacy";
    case core::Victory::Attrition: return "Attrition";
    case core::Victory::Concession: return "concession";
    case core::Victory::Unfinished: return "unfinished";
  }
  return "?";
}

bool won(const Outcome& o) {
  return o.victory && o.winner != core::kNoSeat && *o.victory != core::Victory::Unfinished;
}

}  // namespace

std::string_view to_string(DiffClass c) noexcept {
  switch (c) {
    case DiffClass::Unchanged: return "unchanged";
    case DiffClass::Findings: return "findings";
    case DiffClass::Outcome: return "outcome";
    case DiffClass::Undetermined: return "undetermined";
  }
  return "?";
}

std::optional<DiffClass> diff_class_from_string(std::string_view s) noexcept {
  for (DiffClass c : {DiffClass::Unchanged, DiffClass::Findings, DiffClass::Outcome, DiffClass::Undetermined}) {
    if (to_string(c) == s) return c;
  }
  return std::nullopt;
}

DiffClass GameDiff::klass() const noexcept {
  if (!changed()) return DiffClass::Unchanged;
  if (undetermined) return DiffClass::Undetermined;
  return outcome_changed() ? DiffClass::Outcome : DiffClass::Findings;
}

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
  core::GameState sb, sc;  // the final states, had from the folds' ends
  core::LogFold log_b(base), log_c(cand);
  std::vector<core::Finding> fb, fc;
  std::vector<LocatedFinding> all_b, all_c;
  const auto finding_key = [](const core::Finding& f) { return std::pair{f.rule_id, f.message}; };
  // One event folded under both: the first divergence, told in the game's
  // terms, and the first event the recording can no longer be followed past.
  // Whether a decision, once the candidate's fold makes it, stands: in a
  // plain stream it does (nothing clears decided_at); under corrections a
  // later void may take it back, so there it exempts nothing.
  bool decisions_stand = true;
  auto compare = [&](const core::Event& ev, const core::GameState& state_b, const core::GameState& state_c,
                     const std::vector<core::Finding>& found_b, const std::vector<core::Finding>& found_c) {
    const bool findings_differ = found_b != found_c;
    if (!diff.first && (findings_differ || !(state_b == state_c))) {
      Divergence d{diff_event_of(ev), {}, findings_differ};
      // Told where the stored states differ, or where only a derived value
      // (Control, under the other ruleset) does.
      const StateDifferences told = state_differences(state_b, state_c, base, cand);
      if (!(state_b == state_c) || !told.empty()) d.differences = told.told();
      diff.first = std::move(d);
    }
    // A game the candidate's fold decided at an earlier event has its
    // outcome: what the table played after it cannot make it undetermined.
    const bool decided_before = decisions_stand && state_c.decided_at && *state_c.decided_at < ev.seq;
    if (diff.first && findings_differ && !decided_before) {
      // A violation only the candidate raises, about something whose folded
      // value differs: the recording no longer says what happened next.
      std::vector<core::Finding> fresh = minus(found_c, found_b, finding_key);
      std::erase_if(fresh, [](const core::Finding& f) { return f.severity != core::Severity::Violation; });
      // Derived values (Control) may differ under the two rulesets even where
      // the stored states are equal: the sentences are told either way.
      if (!fresh.empty()) {
        const StateDifferences now = state_differences(state_b, state_c, base, cand);
        for (const core::Finding& f : fresh) {
          if (!names_a_subject(now, f.message)) continue;
          std::vector<core::Finding> one{f};
          std::vector<LocatedFinding> located;
          locate_findings(one, ev, located);
          diff.undetermined = Unfollowable{diff_event_of(ev), std::move(located.front())};
          break;
        }
      }
    }
  };
  bool corrected = false;
  auto n = reader->scan(id, 0, store::kEndSeq, [&](const core::Event& ev) {
    if (core::is_correction(ev.payload)) {
      corrected = true;  // compared again below, through corrections.hpp
      return false;
    }
    fb.clear();
    log_b.apply(ev, fb);
    if (diff.undetermined) return true;  // only the base's outcome is still wanted
    fc.clear();
    log_c.apply(ev, fc);
    compare(ev, log_b.state(), log_c.state(), fb, fc);
    locate_findings(fb, ev, all_b);
    locate_findings(fc, ev, all_c);
    return true;
  });
  if (!n) return tl::unexpected(Error{n.error().code, fmt::format("game {}: {}", id, n.error().message)});
  if (!corrected) {
    // Both folds end the log as the audit does, at its last event.
    fb.clear();
    fc.clear();
    sb = std::move(log_b).finish(fb);
    // The candidate's fold stopped where the log could no longer be followed:
    // its state is where it stopped, not ended.
    sc = diff.undetermined ? log_c.state() : std::move(log_c).finish(fc);
    core::Event last{id, sb.next_seq == 0 ? 0 : sb.next_seq - 1, sb.turn, sb.phase, core::kNoSeat, core::GameEnded{}};
    locate_findings(fb, last, all_b);
    locate_findings(fc, last, all_c);
  }
  if (corrected) {
    // State after state under both, each the fold of the events that count;
    // the findings compared are the final ones (a void may revise a
    // finding of an event before it), up to where the game stops being
    // followable.
    auto events = detail::read_stream(*reader, id, store::kEndSeq);
    if (!events) return tl::unexpected(Error{events.error().code, fmt::format("game {}: {}", id, events.error().message)});
    diff.first.reset();
    diff.undetermined.reset();
    decisions_stand = false;
    core::CorrectedFold b(base, *events);
    core::CorrectedFold c(cand, *events);
    while (!b.done()) {
      const core::Event& ev = (*events)[b.position()];
      fb.clear();
      fc.clear();
      b.step(fb);
      c.step(fc);
      if (!diff.undetermined) compare(ev, b.state(), c.state(), fb, fc);
    }
    all_b.clear();
    all_c.clear();
    std::vector<core::Finding> whole_b = b.findings();
    std::vector<core::Finding> whole_c = c.findings();
    sb = core::LogFold(base, b.state()).finish(whole_b);
    sc = core::LogFold(cand, c.state()).finish(whole_c);
    locate_all(whole_b, *events, all_b);
    locate_all(whole_c, *events, all_c);
    if (diff.undetermined) {
      const core::Seq at = diff.undetermined->at.seq;
      std::erase_if(all_b, [at](const LocatedFinding& f) { return f.finding.seq > at; });
      std::erase_if(all_c, [at](const LocatedFinding& f) { return f.finding.seq > at; });
    }
  }
  diff.added = minus(all_c, all_b, key_of);
  diff.removed = minus(all_b, all_c, key_of);
  diff.base = outcome_of(sb);
  diff.candidate = outcome_of(sc);
  return diff;
}

Outcome outcome_of(const core::GameState& s) {
  return Outcome{s.winner, s.victory, s.decided_at ? s.decided_turn : s.turn};
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

std::string seat_words(const GameSummary& g, core::Seat seat) {
  if (seat >= g.seats.size()) return "no seat";
  return fmt::format("Seat {} ({})", seat + 1, g.seats[seat].player);
}

std::string outcome_words(const Outcome& o, const GameSummary& g) {
  if (!won(o)) return fmt::format("no one wins by turn {}", o.turn);
  return fmt::format("{} wins by {} on turn {}", seat_words(g, o.winner), victory_name(*o.victory), o.turn);
}

std::string flip_words(const GameDiff& d) {
  // The same result decided on another turn: not a flip of who won, say so.
  if (won(d.base) && won(d.candidate) && d.base.winner == d.candidate.winner &&
      *d.base.victory == *d.candidate.victory && d.base.turn != d.candidate.turn) {
    return fmt::format("{} still wins by {}, on turn {} instead of {}", seat_words(d.game, d.candidate.winner),
                       victory_name(*d.candidate.victory), d.candidate.turn, d.base.turn);
  }
  if (won(d.base) && won(d.candidate) && d.base.winner == d.candidate.winner) {
    return fmt::format("{} still wins, by {} on turn {} instead of by {} on turn {}",
                       seat_words(d.game, d.candidate.winner), victory_name(*d.candidate.victory), d.candidate.turn,
                       victory_name(*d.base.victory), d.base.turn);
  }
  const std::string was = won(d.base) ? fmt::format("{} by {} on turn {}", seat_words(d.game, d.base.winner),
                                                    victory_name(*d.base.victory), d.base.turn)
                                      : fmt::format("no winner by turn {}", d.base.turn);
  return fmt::format("{} instead of {}", outcome_words(d.candidate, d.game), was);
}

std::string moment_words(const DiffEvent& m, const GameSummary& g) {
  return fmt::format("seq {}, turn {} {}, {}, {}", m.seq, m.turn, phase_words(m.phase), seat_words(g, m.seat),
                     event_words(m.event));
}

namespace {

std::string finding_line(char sign, const LocatedFinding& f, const GameSummary& g) {
  return fmt::format("    {} seq {}, turn {} {}, {}: {} {}\n", sign, f.finding.seq, f.turn, phase_words(f.phase),
                     seat_words(g, finding_seat(f, g)), f.finding.rule_id, f.finding.message);
}

std::string players_line(const GameSummary& g) {
  std::string out;
  for (std::size_t i = 0; i < g.seats.size(); ++i) {
    out += fmt::format("{}Seat {} ({}, {})", i ? " vs " : "", i + 1, g.seats[i].player,
                       core::to_string(g.seats[i].allegiance));
  }
  return out;
}

}  // namespace

std::string diff_text(const GameDiff& d) {
  if (!d.changed()) return "";
  const DiffClass k = d.klass();
  std::string out = fmt::format("game {} \"{}\": {}\n  {}\n", d.game.id, d.game.title, to_string(k), players_line(d.game));
  const Divergence& f = *d.first;
  out += fmt::format("  first divergence: {}\n", moment_words(f, d.game));
  for (const auto& l : f.differences) out += fmt::format("    {}\n", l);
  if (f.differences.empty()) out += "    the same state; only the findings differ\n";
  if (d.undetermined) {
    const Unfollowable& u = *d.undetermined;
    out += fmt::format("  not followable from {}:\n    {} {}\n", moment_words(u.at, d.game), u.because.finding.rule_id,
                       u.because.finding.message);
    out += fmt::format("  outcome: as recorded, {}; under the candidate, undetermined\n", outcome_words(d.base, d.game));
  } else if (k == DiffClass::Outcome) {
    out += fmt::format("  OUTCOME CHANGES: {}\n", flip_words(d));
  } else {
    out += fmt::format("  outcome unchanged: {}\n", outcome_words(d.base, d.game));
  }
  if (!d.added.empty() || !d.removed.empty()) {
    out += fmt::format("  findings: {} new (+), {} gone (-){}\n", d.added.size(), d.removed.size(),
                       d.undetermined ? fmt::format(", up to seq {}", d.undetermined->at.seq) : "");
  }
  for (const auto& x : d.removed) out += finding_line('-', x, d.game);
  for (const auto& x : d.added) out += finding_line('+', x, d.game);
  return out;
}

namespace {

nlohmann::json seat_json(core::Seat s) { return s == core::kNoSeat ? 0 : s + 1; }

nlohmann::json moment_json(const DiffEvent& m) {
  return {{"seq", m.seq}, {"turn", m.turn}, {"phase", core::to_string(m.phase)}, {"seat", seat_json(m.seat)},
          {"event", m.event}};
}

}  // namespace

nlohmann::json outcome_json(const Outcome& o, const GameSummary& g) {
  nlohmann::json winner = nullptr;
  if (won(o) && o.winner < g.seats.size()) winner = g.seats[o.winner].player;
  nlohmann::json victory = nullptr;
  if (o.victory) {
    std::string v(victory_name(*o.victory));
    std::transform(v.begin(), v.end(), v.begin(), [](char c) { return static_cast<char>(std::tolower(c)); });
    victory = v;
  }
  return {{"winner", won(o) ? seat_json(o.winner) : nlohmann::json(0)},
          {"player", winner},
          {"victory", victory},
          {"turn", o.turn},
          {"text", outcome_words(o, g)}};
}

nlohmann::json diff_json(const GameDiff& d) {
  const nlohmann::json players = players_json(d.game);
  nlohmann::json j{{"game", d.game.id},
                   {"title", d.game.title},
                   {"players", players},
                   {"class", to_string(d.klass())},
                   {"base", outcome_json(d.base, d.game)},
                   {"candidate", d.undetermined ? nlohmann::json(nullptr) : outcome_json(d.candidate, d.game)},
                   {"first_divergence", nullptr},
                   {"undetermined", nullptr},
                   {"added", nlohmann::json::array()},
                   {"removed", nlohmann::json::array()}};
  for (const auto& f : d.added) j["added"].push_back(finding_json(f, d.game));
  for (const auto& f : d.removed) j["removed"].push_back(finding_json(f, d.game));
  if (d.first) {
    nlohmann::json first = moment_json(*d.first);
    first["findings_differ"] = d.first->findings_differ;
    first["differences"] = d.first->differences;
    j["first_divergence"] = std::move(first);
  }
  if (d.undetermined) {
    nlohmann::json u = moment_json(d.undetermined->at);
    u["finding"] = finding_json(d.undetermined->because, d.game);
    j["undetermined"] = std::move(u);
  }
  return j;
}

namespace {


}  // namespace

std::string diff_csv_header() {
  return "game,title,class,first_seq,first_turn,first_phase,first_seat,undetermined_seq,undetermined_rule,"
         "base_outcome,candidate_outcome,findings_added,findings_removed,rules\n";
}

std::string diff_csv_row(const GameDiff& d) {
  std::set<std::string_view> rules;
  for (const auto& f : d.added) rules.insert(f.finding.rule_id);
  for (const auto& f : d.removed) rules.insert(f.finding.rule_id);
  std::string rule_list;
  for (auto r : rules) rule_list += fmt::format("{}{}", rule_list.empty() ? "" : " ", r);
  const DiffEvent* f = d.first ? &*d.first : nullptr;
  const auto* u = d.undetermined ? &*d.undetermined : nullptr;
  return fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", d.game.id, csv_field(d.game.title),
                     to_string(d.klass()), f ? std::to_string(f->seq) : "", f ? std::to_string(f->turn) : "",
                     f ? std::string(core::to_string(f->phase)) : "", f ? std::to_string(seat_json(f->seat).get<int>()) : "",
                     u ? std::to_string(u->at.seq) : "", u ? std::string(u->because.finding.rule_id) : "",
                     csv_field(outcome_words(d.base, d.game)),
                     u ? "undetermined" : csv_field(outcome_words(d.candidate, d.game)), d.added.size(),
                     d.removed.size(), rule_list);
}

}  // namespace warlog::replay
