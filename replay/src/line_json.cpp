// replay::line_outcome_json (line_json.hpp).

#include "warlog/replay/line_json.hpp"

#include <nlohmann/json.hpp>

#include "warlog/replay/event_json.hpp"
#include "warlog/replay/report.hpp"

namespace warlog::replay {

nlohmann::json line_outcome_json(const Recorder& r, const LineOutcome& o, std::optional<std::uint64_t> line_no) {
  nlohmann::json j{{"game", r.game()}, {"status", to_string(o.status)}};
  if (line_no) j["line"] = *line_no;
  nlohmann::json seqs = nlohmann::json::array();
  if (o.status == LineStatus::Recorded || o.status == LineStatus::AlreadyRecorded) {
    for (const auto& ev : o.events) seqs.push_back(ev.seq);
  }
  j["seqs"] = seqs;
  nlohmann::json findings = nlohmann::json::array();
  for (const auto& f : o.findings) findings.push_back(finding_json(f));
  j["findings"] = findings;
  if (!o.crossing.empty()) j["crossing"] = o.crossing;
  if (!o.no_effect.empty()) j["no_effect"] = o.no_effect;
  if (o.status == LineStatus::Conflict || o.status == LineStatus::NeedsConfirm ||
      o.status == LineStatus::AlreadyRecorded) {
    nlohmann::json events = nlohmann::json::array();
    for (const auto& ev : o.events) events.push_back(event_json(ev));
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
