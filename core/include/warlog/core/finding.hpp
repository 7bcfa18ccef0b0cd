#pragma once
// Findings are data, not errors: the fold records one for every rule an
// event breaks, and goes on. Every rule has a stable id and a citation of the
// rules document and section it implements; `warlog rules` lists them all.

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "warlog/core/event.hpp"

namespace warlog::core {

enum class Severity : std::uint8_t { Violation, Warning, Note };
// Written: the check rests on the designer's rules documents. Assumed: it
// rests on a page that does not exist yet (The Battlefield, the Morale
// Check); the assumption is in docs/rulings.md. Warlog: it rests on no rules
// document but on warlog's own rules for a log (docs/warlog-rules.md): events
// in order, cards where the log last put them, the recorded result derived.
enum class Basis : std::uint8_t { Written, Assumed, Warlog };

[[nodiscard]] std::string_view to_string(Severity s) noexcept;
[[nodiscard]] std::string_view to_string(Basis b) noexcept;

struct Rule {
  std::string_view id;        // stable, e.g. "MUS-a.draw"; never reused for another meaning
  std::string_view citation;  // a heading path of docs/rules-index.tsv: "Muster Phase › Steps › a. Draw cards",
                              // or "<page> (not yet published)" for an assumed rule
  std::string_view summary;   // a paraphrase of what the rule requires (never a copy)
  Severity severity = Severity::Violation;
  Basis basis = Basis::Written;
  std::string_view option;    // the ruleset option that changes it, "" if none
  std::string_view ruling;    // "R-010" when a ruling in docs/rulings.md shapes it, else ""
};

// An id a rule had before it was renamed. Ids are never renamed away nor
// reused: the old one stays an alias of the new, so a dispute ruled, a test
// case exported or a README written under it still names the same rule.
struct RuleAlias {
  std::string_view old_id;
  std::string_view id;  // the rule's id now
};

// Every rule the engine knows, in a fixed order (document, then section).
[[nodiscard]] std::span<const Rule> all_rules() noexcept;
// Every alias, oldest first.
[[nodiscard]] std::span<const RuleAlias> rule_aliases() noexcept;
// The rule with this id or alias, or nullptr; the rule's own id is its id
// now. Every lookup of an id a person typed (--expect, --cite, `warlog
// rules ID`, a .expect file) goes through here.
[[nodiscard]] const Rule* find_rule(std::string_view id) noexcept;
// The same lookup over given tables (the registry's, or a test's).
[[nodiscard]] const Rule* find_rule_in(std::span<const Rule> rules, std::span<const RuleAlias> aliases,
                                       std::string_view id) noexcept;

struct Finding {
  Seq seq = 0;               // the event at which the breach became certain
  std::string_view rule_id;  // points into all_rules(): lives as long as the program
  Severity severity = Severity::Violation;
  Basis basis = Basis::Written;
  std::string message;
  // The seat that broke the rule (kNoSeat when no seat did: a malformed
  // setup), and the event the finding concerns: `seq` itself, or for a
  // finding reported when a phase part closes (a draw short, a discard still
  // owed), the event that opened that part. The event at `seq` may belong to
  // another seat (the opponent's phase marker); `seat` never does.
  Seat seat = kNoSeat;
  Seq concerns = 0;

  friend bool operator==(const Finding&, const Finding&) = default;
};

}  // namespace warlog::core
