#pragma once
// Audit reports for people (text) and machines (JSON): the one place that
// decides how a finding is printed, shared by the CLI, the golden tests and
// the viewer.

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "warlog/replay/replay.hpp"

namespace warlog::replay {

// One game's audit as text: a header line, then per finding two or three
// lines (where, rule id and severity/basis; the message; the citation).
// Deterministic: the golden audits of the samples are this text.
[[nodiscard]] std::string audit_text(const GameAudit& audit);

// One finding as a JSON object: seq, turn, phase, seat (1-based, 0 = none),
// rule, citation, severity, basis, message.
[[nodiscard]] nlohmann::json finding_json(const LocatedFinding& f);

// One game's audit as a JSON object: game, title, date, events, ruleset,
// catalog, digest, violations, findings[].
[[nodiscard]] nlohmann::json audit_json(const GameAudit& audit);

// The recorded time of each turn and phase part (audit --times), for
// slow-play claims: "  times: none recorded" when the game has none. JSON:
// {"parts": [{turn, phase, seat, first, last, start_ms, end_ms, ms}],
//  "turns": [{turn, start_ms, end_ms, ms}]}.
[[nodiscard]] std::string audit_times_text(const GameAudit& audit);
[[nodiscard]] nlohmann::json audit_times_json(const GameAudit& audit);

// "Alice (Claw Empire) vs Bruno (Paw Coalition)".
[[nodiscard]] std::string seats_line(const GameSummary& g);

}  // namespace warlog::replay
