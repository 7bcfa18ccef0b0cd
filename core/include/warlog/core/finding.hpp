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
// Check); the assumption is in docs/rulings.md.
enum class Basis : std::uint8_t { Written, Assumed };

[[nodiscard]] std::string_view to_string(Severity s) noexcept;
[[nodiscard]] std::string_view to_string(Basis b) noexcept;

struct Rule {
  std::string_view id;        // stable, e.g. "MUS-a.draw"; never reused for another meaning
  std::string_view citation;  // "Muster Phase › a. Draw cards"
  std::string_view summary;   // a paraphrase of what the rule requires (never a copy)
  Severity severity = Severity::Violation;
  Basis basis = Basis::Written;
  std::string_view option;    // the ruleset option that changes it, "" if none
  std::string_view ruling;    // "R-010" when a ruling in docs/rulings.md shapes it, else ""
};

// Every rule the engine knows, in a fixed order (document, then section).
[[nodiscard]] std::span<const Rule> all_rules() noexcept;
// The rule with this id, or nullptr.
[[nodiscard]] const Rule* find_rule(std::string_view id) noexcept;

struct Finding {
  Seq seq = 0;
  std::string_view rule_id;  // points into all_rules(): lives as long as the program
  Severity severity = Severity::Violation;
  Basis basis = Basis::Written;
  std::string message;

  friend bool operator==(const Finding&, const Finding&) = default;
};

}  // namespace warlog::core
