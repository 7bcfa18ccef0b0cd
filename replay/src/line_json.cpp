// replay::line_outcome_json (line_json.hpp).

#include "warlog/replay/line_json.hpp"

#include <nlohmann/json.hpp>

#include "warlog/replay/event_json.hpp"
#include "warlog/replay/report.hpp"

namespace warlog::replay {

namespace {

// A held line (needs-confirm) is not recorded: its events have no seq and
// no recorded time yet, and its findings name the event of this answer they
// are on (`event`, its index in `events`), never a seq (the trial read
// needs-confirm's "seq": 27 as recorded). `concerns` stays when it names a
// stored event, one before the held line.
nlohmann::json held_event_json(const core::Event& ev) {
  nlohmann::json j = event_json(ev);
  j.erase("seq");
  j.erase("recorded_at_ms");
  return j;
}

nlohmann::json held_finding_json(const LocatedFinding& f, const LineOutcome& o) {
  nlohmann::json j = finding_json(f);
  j.erase("seq");
  const core::Seq first = o.events.empty() ? 0 : o.events.front().seq;
  for (std::size_t i = 0; i < o.events.size(); ++i) {
    if (o.events[i].seq == f.finding.seq) j["event"] = i;
  }
  if (f.finding.concerns >= first) j.erase("concerns");
  return j;
}

}  // namespace

nlohmann::json line_outcome_json(const Recorder& r, const LineOutcome& o, std::optional<std::uint64_t> line_no) {
  const bool held = o.status == LineStatus::NeedsConfirm;
  nlohmann::json j{{"game", r.game()}, {"status", to_string(o.status)}};
  if (line_no) j["line"] = *line_no;
  nlohmann::json seqs = nlohmann::json::array();
  if (o.status == LineStatus::Recorded || o.status == LineStatus::AlreadyRecorded) {
    for (const auto& ev : o.events) seqs.push_back(ev.seq);
  }
  j["seqs"] = seqs;
  nlohmann::json findings = nlohmann::json::array();
  for (const auto& f : o.findings) findings.push_back(held ? held_finding_json(f, o) : finding_json(f));
  j["findings"] = findings;
  if (!o.crossing.empty()) j["crossing"] = o.crossing;
  if (!o.no_effect.empty()) j["no_effect"] = o.no_effect;
  if (o.status == LineStatus::Conflict || o.status == LineStatus::NeedsConfirm ||
      o.status == LineStatus::AlreadyRecorded) {
    nlohmann::json events = nlohmann::json::array();
    for (const auto& ev : o.events) events.push_back(held ? held_event_json(ev) : event_json(ev));
    j["events"] = events;
  }
  if (o.status == LineStatus::Refused) {
    nlohmann::json errors = nlohmann::json::array();
    for (const auto& e : o.errors) {
      // The input line, as the object's own "line": the parser counts only the lines it parsed.
      nlohmann::json err{{"col", e.col}, {"expected", e.expected}, {"found", e.found}, {"hint", e.hint}};
      if (line_no) err["line"] = *line_no;
      errors.push_back(std::move(err));
    }
    j["errors"] = errors;
  }
  if (!o.message.empty()) j["message"] = o.message;
  j["next_seq"] = r.next_seq();
  return j;
}

}  // namespace warlog::replay
