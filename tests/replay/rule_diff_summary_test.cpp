// The first screen of a rule-diff at archive size: whatever the archive,
// the totals fit 24 lines of 80 columns and still name the classes, the
// rules, the turns and the first outcome flips.

#include <gtest/gtest.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "warlog/replay/rule_diff_summary.hpp"

namespace warlog {
namespace {

std::size_t columns(std::string_view line) {
  std::size_t n = 0;
  for (char c : line) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

// 20,000 games, a dozen rules, forty turns, titles long and in UTF-8.
replay::DiffSummary an_archive(replay::DiffFilter filter = {}) {
  replay::DiffSummary s(std::move(filter));
  for (core::GameId g = 1; g <= 20000; ++g) {
    replay::DiffTally t;
    t.game = g;
    t.title = fmt::format("Ein sehr langer Spieltitel über die Brücke von Stône Nummer {}", g);
    t.klass = static_cast<replay::DiffClass>(g % 4);
    if (t.klass != replay::DiffClass::Unchanged) {
      t.first_turn = static_cast<std::uint16_t>(1 + g % 40);
      t.rules[fmt::format("a made-up rule {}", (g / 4) % 12)] = {2, 1};
    }
    if (t.klass == replay::DiffClass::Outcome) {
      t.flip = "Seat 1 (Bartholomew-Maximilian) wins by Supremacy on turn 17 instead of Seat 2 (Wilhelmina) "
               "by Attrition on turn 19";
    }
    s.add(t);
  }
  s.add_error();
  return s;
}

TEST(RuleDiffSummary, TwentyThousandGamesFitTheFirstScreen) {
  const std::string text = an_archive().text("the candidate catalog errata_burrower_vigor_with_a_long_name.csv");
  std::size_t lines = 0;
  std::size_t start = 0;
  for (std::size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1) {
    ++lines;
    EXPECT_LE(columns(std::string_view(text).substr(start, end - start)), 80u)
        << text.substr(start, end - start);
  }
  EXPECT_LE(lines, 24u) << text;
  // A header too long for 80 columns puts the ruleset or card list on a line
  // of its own, whole: it is never cut to "...".
  EXPECT_EQ(text.rfind("rule-diff: 20001 games under\n  the candidate catalog errata_burrower_vigor_with_a_long_name.csv\n", 0),
            0u) << text;
  EXPECT_NE(text.find("  unchanged        5000"), std::string::npos) << text;
  EXPECT_NE(text.find("  undetermined     5000"), std::string::npos) << text;
  EXPECT_NE(text.find("  errors              1"), std::string::npos) << text;
  EXPECT_NE(text.find("first outcome flips (of 5000):"), std::string::npos) << text;
  // Too wide for one line: what it replaces goes on a second, neither side cut off.
  EXPECT_NE(text.find("  game 2: Seat 1 (Bartholomew-Maximilian) wins by Supremacy on turn 17\n    instead of "),
            std::string::npos)
      << "the first flip is the lowest id\n" << text;
  EXPECT_EQ(text.find("  game 42: "), std::string::npos) << "only the first five flips\n" << text;
  // Turn 2 (the earliest) is also among the most frequent: named once, as both.
  EXPECT_NE(text.find("first divergence: most often turn 2 (500), the earliest; turn 3 (500)"), std::string::npos)
      << text;
}

TEST(RuleDiffSummary, ATallyCrossesAsOneLineAndBack) {
  replay::DiffTally t;
  t.game = 7;
  t.title = "Roots \"and\" iron\n";
  t.klass = replay::DiffClass::Undetermined;
  t.first_turn = 8;
  t.rules["WAR-C.vigor"] = {2, 0};
  t.rules["ATT-3.listed"] = {0, 1};
  const std::string line = replay::to_line(t);
  EXPECT_EQ(line.find('\n'), std::string::npos);
  auto back = replay::tally_from_line(line);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->game, 7u);
  EXPECT_EQ(back->title, t.title);
  EXPECT_EQ(back->klass, replay::DiffClass::Undetermined);
  EXPECT_EQ(back->first_turn, 8);
  EXPECT_EQ(back->rules, t.rules);
  EXPECT_FALSE(replay::tally_from_line("3 1 0 1"));
  EXPECT_FALSE(replay::tally_from_line("{\"g\": 1}"));
}

TEST(RuleDiffSummary, FitCutsAtCodePointsNotBytes) {
  EXPECT_EQ(replay::fit("short", 80), "short");
  EXPECT_EQ(replay::fit("ééééééééé", 9), "ééééééééé");
  EXPECT_EQ(replay::fit("éééééééééé", 9), "éééééé...");
}

TEST(RuleDiffSummary, TheJsonCountsEveryClass) {
  const auto j = an_archive().json();
  EXPECT_EQ(j.at("games"), 20001);
  EXPECT_EQ(j.at("findings"), 5000);
  EXPECT_EQ(j.at("outcome"), 5000);
  EXPECT_EQ(j.at("errors"), 1);
  EXPECT_EQ(j.at("first_flips").size(), replay::DiffSummary::kFlips);
  EXPECT_EQ(j.at("rules").size(), 12u);
}

// Issue 19: under --only and --rule the totals counted every game while the
// body showed only the selected ones. Now they are of the selection, and say
// so, and still tell how many games were compared.
TEST(RuleDiffSummary, UnderAFilterTheTotalsAreOfTheSelectedGames) {
  const std::string rule = "a made-up rule 3";
  std::size_t selected = 0, changed = 0, with_rule = 0;
  for (core::GameId g = 1; g <= 20000; ++g) {
    const bool rule_changes = g % 4 != 0 && (g / 4) % 12 == 3;
    changed += g % 4 != 0;
    with_rule += rule_changes;
    selected += rule_changes && g % 4 == static_cast<int>(replay::DiffClass::Outcome);
  }
  ASSERT_GT(selected, 0u);
  const auto s = an_archive({replay::DiffClass::Outcome, rule});
  EXPECT_EQ(s.count(replay::DiffClass::Outcome), selected);
  EXPECT_EQ(s.count(replay::DiffClass::Findings), 0u);
  EXPECT_EQ(s.count(replay::DiffClass::Unchanged), 0u);
  EXPECT_EQ(s.compared(), 20001u);
  EXPECT_EQ(s.compared_changed(), changed);
  const std::string text = s.text("the candidate ruleset x.toml");
  // The selection line is cut to 80 columns like every line of the screen.
  const std::string selection =
      replay::fit(fmt::format("selected: the changed games in class outcome, whose {} findings change", rule), 80);
  EXPECT_EQ(text.rfind(fmt::format("rule-diff: {} of 20001 games under the candidate ruleset x.toml\n{}\n"
                                   "  outcome      {:>8}  ",
                                   selected + 1, selection, selected),
                       0),
            0u)
      << text;
  EXPECT_EQ(text.find("  unchanged "), std::string::npos) << "a class the filter excludes has no row\n" << text;
  EXPECT_NE(text.find(fmt::format("\n  {:<26}{:>8} games", rule, selected)), std::string::npos) << text;
  EXPECT_EQ(text.find("a made-up rule 4"), std::string::npos) << "the rules of unselected games\n" << text;
  EXPECT_NE(text.find(fmt::format("first outcome flips (of {}):", selected)), std::string::npos) << text;

  const auto j = s.json();
  EXPECT_EQ(j.at("games"), selected + 1) << "the selected games and the one that could not be compared";
  EXPECT_EQ(j.at("outcome"), selected);
  EXPECT_EQ(j.at("unchanged"), 0);
  EXPECT_EQ(j.at("rules").size(), 1u);
  EXPECT_EQ(j.at("selection"), (nlohmann::json{{"only", "outcome"},
                                               {"rule", rule},
                                               {"compared_games", 20001},
                                               {"compared_changed", changed}}));
  EXPECT_NE(s.html_head("x").find(fmt::format("<h1>rule-diff: {} of 20001 games under x</h1>", selected + 1)),
            std::string::npos);

  // --rule alone: every changed class can be selected, unchanged cannot.
  const auto by_rule = an_archive({std::nullopt, rule});
  EXPECT_EQ(by_rule.games(), with_rule + 1);
  const std::string rule_text = by_rule.text("x");
  EXPECT_EQ(rule_text.find("  unchanged "), std::string::npos) << rule_text;
  EXPECT_NE(rule_text.find("  findings "), std::string::npos) << rule_text;
  // No filter: every game, as before, and a selection of all of them.
  const auto all = an_archive().json();
  EXPECT_EQ(all.at("games"), 20001);
  EXPECT_EQ(all.at("selection").at("only"), nullptr);
  EXPECT_EQ(all.at("selection").at("compared_games"), 20001);
}

}  // namespace
}  // namespace warlog

namespace warlog {
namespace {

// The earliest turn is also the most frequent: "most often" must not leave
// it out (a trial read "earliest turn 6 (12); most often turn 8 (11)").
TEST(RuleDiffSummary, TheEarliestTurnThatIsAlsoTheMostFrequentIsSaidToBe) {
  replay::DiffSummary s;
  core::GameId g = 1;
  for (auto [turn, games] : {std::pair{6, 3}, std::pair{8, 2}, std::pair{11, 1}}) {
    for (int i = 0; i < games; ++i) {
      replay::DiffTally t;
      t.game = g++;
      t.klass = replay::DiffClass::Findings;
      t.first_turn = static_cast<std::uint16_t>(turn);
      s.add(t);
    }
  }
  const std::string text = s.text("x.toml");
  EXPECT_NE(text.find("first divergence: most often turn 6 (3), the earliest; turn 8 (2), turn 11 (1)\n"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace warlog
