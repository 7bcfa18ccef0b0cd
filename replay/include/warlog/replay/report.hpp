#pragma once
// Audit reports for people (text) and machines (JSON): the one place that
// decides how a finding is printed, shared by the CLI, the golden tests and
// the viewer.

#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "warlog/replay/replay.hpp"

namespace warlog::replay {

// One game's audit as text: a header line, the result as the fold derives
// it ("  result: Seat 2 (Tamsin) wins by Attrition on turn 16", with "rests
// on ..." under --rests-on), then per finding two or three lines (where,
// rule id and severity/basis; the message; the citation). Needs final_state.
// Deterministic: the golden audits of the samples are this text.
[[nodiscard]] std::string audit_text(const GameAudit& audit);

// Text escaped for XML and XHTML (JUnit, the rule-diff and dispute pages):
// the five entities, the control characters XML 1.0 forbids even escaped
// as '?', and every byte that is not well-formed UTF-8 of a character XML
// allows (U+FFFE, U+FFFF, surrogates, overlong forms) as U+FFFD.
[[nodiscard]] std::string xml_escape(std::string_view s);

// One CSV field (RFC 4180): quoted when it holds a comma, quote or line end
// (rule-diff's and serve results' CSV).
[[nodiscard]] std::string csv_field(std::string_view s);

// One finding as audit_text prints it: where, rule, severity and basis (and
// ", concerning seq N" when it concerns an earlier event than the one it was
// found at); the message; the citation (three lines, each ending in a
// newline). `seats` names the players. Also what `warlog record` prints
// after each line.
[[nodiscard]] std::string finding_text(const LocatedFinding& f, const std::vector<core::SeatSetup>& seats);
// ", concerning seq N" when the finding concerns another event than its
// seq, else "".
[[nodiscard]] std::string concerning(const core::Finding& f);

// One finding as a JSON object: seq, concerns (the seq of the event it
// concerns: seq itself, or for a breach certain only when a part closes, the
// event that opened the part), turn, phase, seat (the event's, 1-based, 0 =
// none), rule, citation, severity, basis, message.
[[nodiscard]] nlohmann::json finding_json(const LocatedFinding& f);
// The same in a game: seat is the seat the finding is about (finding_seat),
// with its player, and event_seat the event's ("Irene could not draw 2
// cards" is found at Holt's PhaseStarted, and is Irene's).
[[nodiscard]] nlohmann::json finding_json(const LocatedFinding& f, const GameSummary& g);

// The seat a finding is about: the seat whose player its message names
// first (as a whole word), else the seat of the event it was found at.
[[nodiscard]] core::Seat finding_seat(const LocatedFinding& f, const GameSummary& g);

// One game's audit as a JSON object (docs/schema/audit.schema.json's
// "game"): game, title, date, events, players[], result (as the fold
// derives it from final_state, which must still be held), ruleset, catalog,
// digest, violations, findings[].
[[nodiscard]] nlohmann::json audit_json(const GameAudit& audit);

// [{"seat": 1, "player": "Alice", "allegiance": "Claw Empire"}, ...]
[[nodiscard]] nlohmann::json players_json(const GameSummary& g);
// The recorded time of each turn and phase part (audit --times), for
// slow-play claims: "  times: none recorded" when the game has none. JSON:
// {"parts": [{turn, phase, seat, first, last, start_ms, end_ms, ms}],
//  "turns": [{turn, start_ms, end_ms, ms}]}.
[[nodiscard]] std::string audit_times_text(const GameAudit& audit);
// The same table for any parts (the viewer's Times tab: GameSurvey::times).
[[nodiscard]] std::string times_text(const std::vector<PartTime>& times, const std::vector<core::SeatSetup>& seats);
[[nodiscard]] nlohmann::json audit_times_json(const GameAudit& audit);

// "Alice (Claw Empire) vs Bruno (Paw Coalition)".
[[nodiscard]] std::string seats_line(const GameSummary& g);

}  // namespace warlog::replay
