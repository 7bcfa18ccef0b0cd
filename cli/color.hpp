#pragma once
// Colour in the text reports (audit, merge of audit parts, and record's
// answers, whose findings audit's finding_text prints): a finding's
// severity and its citation, with fmt's terminal styles. --color auto (the
// default) colours only when stdout is a terminal and NO_COLOR is unset or
// empty (no-color.org); always and never say it outright.

#include <string>
#include <string_view>

namespace warlog::cli {

// --color auto|always|never as the verb was given it.
[[nodiscard]] bool use_color(std::string_view flag);

// The audit text with each finding's severity ("violation" red, "warning"
// yellow, "note" cyan) and citation line ("[Warfare Phase › ...]", blue)
// styled; every other byte as it was. Works line by line on whole lines.
[[nodiscard]] std::string paint_findings(std::string_view text);

}  // namespace warlog::cli
