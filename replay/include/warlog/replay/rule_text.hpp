#pragma once
// A rule's own words: the section of the rules documents a rule cites, read
// at run time from the designer's documents through the compiled-in heading
// index (core::builtin_rules_index). warlog never copies the documents'
// text: it reads the folder it finds, and says where it looked when it finds
// none. The CLI (`warlog rules --show ID`), and later the viewer's rule pane
// and the dispute report, read sections through here.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "warlog/core/error.hpp"
#include "warlog/core/finding.hpp"
#include "warlog/core/rules_index.hpp"

namespace warlog::replay {

// The largest rules document read; the four are a few KiB each.
inline constexpr std::size_t kMaxRulesDocumentBytes = std::size_t{4} << 20;

// Where the rules documents are: the first of `given` (--rules), the
// environment's WARLOG_RULES, and the folder this build was configured with
// (core::configured_rules_dir, ../shared/rules beside the checkout by
// default) that is a directory. NotFound lists every place looked at, in
// order, and how to give one.
[[nodiscard]] Expected<std::filesystem::path> find_rules_folder(const std::optional<std::filesystem::path>& given);

struct RuleSection {
  std::string citation;   // the heading path the rule cites
  std::string document;   // the document's file name, or docs/warlog-rules.md
  core::LineRange lines;  // 1-based, inclusive, in that document
  std::string text;       // the section's lines as the document has them, newline-ended
};

// The section `rule` cites. warlog's own rules (basis warlog) come from the
// compiled-in docs/warlog-rules.md and need no folder. Errors: NotFound when
// the rule cites a page not yet published (its message says so and names the
// ruling) or when the folder lacks the document; DataLoss when the document
// in the folder is not the one indexed (its BLAKE2b differs: the line numbers
// would point into other text, so nothing is shown; regenerate the index
// with scripts/rules-index); errors of `folder` only when it is needed.
[[nodiscard]] Expected<RuleSection> rule_section(const core::Rule& rule,
                                                 const Expected<std::filesystem::path>& folder);

}  // namespace warlog::replay
