#pragma once
// The heading index of the rules documents (docs/rules-index.tsv, written by
// scripts/rules-index): per document its file and BLAKE2b-256, then every
// heading's path ("Attrition Phase › 3. Pay Provision Costs › Payment
// priority"), level and line. Titles only, never the documents' text; a
// reader that has the document can show a section's own words by its line
// range. A value type: parse once, look up by path.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "warlog/core/error.hpp"

namespace warlog::core {

// The separator of a heading path, as the rules README cites sections.
inline constexpr std::string_view kHeadingSeparator = " › ";

// Heading: a titled section. Callout: a boxed note with a title of its own
// ("Note", "Shocked Troops"). RunIn: a title that opens its paragraph
// ("a. Draw cards. Draw 2 cards ..."), so its line holds text after it.
enum class HeadingKind : std::uint8_t { Heading, Callout, RunIn };
[[nodiscard]] std::string_view to_string(HeadingKind k) noexcept;

// Where a document lives: the designer's rules documents (../shared/rules)
// or warlog's own page of rules (docs/warlog-rules.md, basis `warlog`).
enum class DocumentSource : std::uint8_t { Rules, Warlog };

struct RulesDocument {
  DocumentSource source = DocumentSource::Rules;
  std::string file;     // "000_dac8e95e0cfd0e91.txt", or "docs/warlog-rules.md"
  std::string blake2b;  // hex of the whole file
  int lines = 0;        // newline-ended lines, and a last line without one
};

struct RulesHeading {
  std::string path;  // titles from the document's own down to this one, joined by kHeadingSeparator
  int level = 1;     // 1: the document's title
  int line = 1;      // 1-based line of the heading in its document
  HeadingKind kind = HeadingKind::Heading;
  std::size_t document = 0;  // index into documents()

  [[nodiscard]] std::string_view title() const noexcept;  // the last part of path
};

// A section's lines, 1-based and inclusive: from its heading to the line
// before the next heading of the same or a higher (smaller) level.
struct LineRange {
  int first = 1;
  int last = 1;
  friend bool operator==(const LineRange&, const LineRange&) = default;
};

class RulesIndex {
 public:
  // InvalidArgument (with the line number) on any malformed line.
  [[nodiscard]] static Expected<RulesIndex> parse(std::string_view tsv);
  [[nodiscard]] static Expected<RulesIndex> load(const std::string& path);

  [[nodiscard]] std::span<const RulesDocument> documents() const noexcept { return documents_; }
  // In document order, then line order.
  [[nodiscard]] std::span<const RulesHeading> headings() const noexcept { return headings_; }

  // The heading with exactly this path, or nullptr.
  [[nodiscard]] const RulesHeading* find(std::string_view path) const noexcept;
  [[nodiscard]] const RulesDocument& document_of(const RulesHeading& h) const { return documents_.at(h.document); }
  // The section under this path, nullopt when no heading has it.
  [[nodiscard]] std::optional<LineRange> section(std::string_view path) const noexcept;
  // h must be one of headings().
  [[nodiscard]] LineRange section(const RulesHeading& h) const noexcept;

 private:
  std::vector<RulesDocument> documents_;
  std::vector<RulesHeading> headings_;
};

// The index this build was made with (docs/rules-index.tsv, compiled in),
// parsed once. A build whose index does not parse is a build bug.
[[nodiscard]] const RulesIndex& builtin_rules_index();
// docs/warlog-rules.md as compiled in: the text of DocumentSource::Warlog.
[[nodiscard]] std::string_view builtin_warlog_rules() noexcept;
// The rules folder this build was configured with (CMake's WARLOG_RULES_DIR,
// by default ../shared/rules beside the checkout); it may not exist.
[[nodiscard]] std::string_view configured_rules_dir() noexcept;

}  // namespace warlog::core
