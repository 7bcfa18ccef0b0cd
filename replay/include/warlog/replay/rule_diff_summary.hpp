#pragma once
// The answer to a designer's question at archive size, on one screen: how
// many games fall in each class, which rules' findings change in how many
// games, at which turns games first diverge, and the first outcome flips.
// Built from one small tally per game (it crosses from the reader process
// as one line), so it costs the same memory at 100 games and at 100,000.

#include <array>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "warlog/replay/rule_diff.hpp"

namespace warlog::replay {

// What one game adds to the summary.
struct DiffTally {
  core::GameId game = 0;
  std::string title;
  DiffClass klass = DiffClass::Unchanged;
  std::uint16_t first_turn = 0;                  // of the first divergence (0: none)
  std::map<std::string, std::pair<int, int>> rules;  // rule id -> findings added, removed
  std::string flip;                              // class outcome: flip_words()
};

[[nodiscard]] DiffTally tally_of(const GameDiff& d);
// One line of text (JSON) and back; nullopt for a line that is no tally.
[[nodiscard]] std::string to_line(const DiffTally& t);
[[nodiscard]] std::optional<DiffTally> tally_from_line(std::string_view line);

// The games a designer asked about: --only CLASS and --rule ID. With
// either, only changed games are selected; a rule matches when the game's
// findings under it change. With neither, every game is.
struct DiffFilter {
  std::optional<DiffClass> only;
  std::string rule;

  [[nodiscard]] bool any() const noexcept { return only.has_value() || !rule.empty(); }
  [[nodiscard]] bool selects(const DiffTally& t) const;
  // Whether a game of class c can be selected (the rows of the class table).
  [[nodiscard]] bool admits(DiffClass c) const noexcept;
  // "in class outcome, whose WAR-C.defeat findings change" ("" with neither).
  [[nodiscard]] std::string words() const;
};

// Whether a game's report is shown: a changed game the filter selects.
[[nodiscard]] bool shown(const DiffTally& t, const DiffFilter& filter);

class DiffSummary {
 public:
  DiffSummary() = default;
  // The totals are of the games the filter selects; every game added still
  // counts as compared.
  explicit DiffSummary(DiffFilter filter) : filter_(std::move(filter)) {}

  // Tallies must come in game order: the first flips are the lowest ids.
  void add(const DiffTally& t);
  void add_error() { ++errors_; }

  // Games in the totals: those selected, and those that could not be compared.
  [[nodiscard]] std::size_t games() const noexcept;
  [[nodiscard]] std::size_t count(DiffClass c) const noexcept { return counts_[static_cast<std::size_t>(c)]; }
  [[nodiscard]] std::size_t errors() const noexcept { return errors_; }
  // Every game compared, and those of them that changed, whatever the filter.
  [[nodiscard]] std::size_t compared() const noexcept { return compared_ + errors_; }
  [[nodiscard]] std::size_t compared_changed() const noexcept { return compared_changed_; }
  [[nodiscard]] const DiffFilter& filter() const noexcept { return filter_; }

  // At most 24 lines of at most 80 columns; `against` says what was
  // compared ("the candidate ruleset x.toml").
  [[nodiscard]] std::string text(std::string_view against) const;
  // The rule-diff schema's "summary" object.
  [[nodiscard]] nlohmann::json json() const;
  // A self-contained HTML page (no script, no outside file; well-formed
  // XML, so xmllint reads it): the same tables as text() and an SVG chart of
  // the turns where games first diverge, then the table of games, whose
  // rows (diff_html_row) go between html_head() and html_tail().
  [[nodiscard]] std::string html_head(std::string_view against) const;
  [[nodiscard]] static std::string html_tail();

  static constexpr std::size_t kTopRules = 5;
  static constexpr std::size_t kFlips = 5;
  static constexpr std::size_t kFirstScreen = 24;  // lines of the text's opening summary, at most

 private:
  struct RuleCount {
    std::size_t games = 0;
    std::size_t added = 0;
    std::size_t removed = 0;
  };
  struct Flip {
    core::GameId game;
    std::string title;
    std::string words;
  };
  [[nodiscard]] std::vector<std::pair<std::string, RuleCount>> top_rules() const;
  // "14 games", or under a filter "3 of 14 games".
  [[nodiscard]] std::string games_words() const;

  DiffFilter filter_;
  std::array<std::size_t, 4> counts_{};
  std::size_t compared_ = 0, compared_changed_ = 0;  // every game added, whatever the filter
  std::size_t errors_ = 0;
  std::size_t added_ = 0;
  std::size_t removed_ = 0;
  std::map<std::string, RuleCount> rules_;        // bounded by the rules register
  std::map<std::uint16_t, std::size_t> turns_;    // bounded by the longest game
  std::vector<Flip> flips_;                       // the first kFlips only
};

// One changed game as a row of the HTML page's table of games.
[[nodiscard]] std::string diff_html_row(const GameDiff& d);

// Cuts text to at most `columns` code points (UTF-8), ending "..." when cut.
[[nodiscard]] std::string fit(std::string_view text, std::size_t columns);

}  // namespace warlog::replay
