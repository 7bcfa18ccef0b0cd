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

// One finding as audit_text prints it: where, rule, severity and basis; the
// message; the citation (three lines, each ending in a newline). `seats`
// names the players. Also what `warlog record` prints after each line.
[[nodiscard]] std::string finding_text(const LocatedFinding& f, const std::vector<core::SeatSetup>& seats);

// One finding as a JSON object: seq, turn, phase, seat (1-based, 0 = none),
// rule, citation, severity, basis, message.
[[nodiscard]] nlohmann::json finding_json(const LocatedFinding& f);

// One game's audit as a JSON object: game, title, date, events, ruleset,
// catalog, digest, violations, findings[].
[[nodiscard]] nlohmann::json audit_json(const GameAudit& audit);

// "Alice (Claw Empire) vs Bruno (Paw Coalition)".
[[nodiscard]] std::string seats_line(const GameSummary& g);

}  // namespace warlog::replay
