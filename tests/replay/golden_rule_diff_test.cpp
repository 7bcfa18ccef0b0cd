// Golden rule-diffs: the README tour's three sample changes, run over every
// sample game, must read exactly as samples/golden/rule-diff-NAME.txt (the
// totals, then each changed game in the game's terms). Regenerate on
// purpose with: WARLOG_BLESS=1 build/<preset>/tests/test_replay

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "game_corpus.hpp"
#include "temp_dir.hpp"
#include "warlog/replay/replay.hpp"
#include "warlog/replay/rule_diff.hpp"
#include "warlog/replay/rule_diff_summary.hpp"

namespace warlog {
namespace {

namespace fs = std::filesystem;
const fs::path kSamples = WARLOG_SAMPLES_DIR;

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Change {
  std::string name;  // the golden file's
  replay::RuleDiffOptions options;
  std::string against;
};

std::string report_of(const Change& change) {
  testing::TempDir dir;
  auto archive = replay::Archive::open(dir.store(), replay::Archive::Mode::ReadWrite);
  EXPECT_TRUE(archive);
  replay::DiffSummary summary;
  std::string games;
  for (const auto& file : testing::sample_game_files()) {
    auto imported = archive->import_file(file.string(), {});
    EXPECT_TRUE(imported) << file;
    if (!imported) continue;
    auto d = replay::rule_diff(*archive, imported->id, change.options);
    EXPECT_TRUE(d) << file << ": " << d.error().message;
    if (!d) continue;
    summary.add(replay::tally_of(*d));
    games += replay::diff_text(*d);
  }
  return summary.text(change.against) + games;
}

void expect_golden(const Change& change) {
  const std::string actual = report_of(change);
  const fs::path golden = kSamples / "golden" / ("rule-diff-" + change.name + ".txt");
  if (const char* bless = std::getenv("WARLOG_BLESS"); bless != nullptr && std::string(bless) == "1") {
    std::ofstream(golden, std::ios::binary) << actual;
    GTEST_SKIP() << "blessed " << golden;
  }
  ASSERT_TRUE(fs::exists(golden)) << "no golden file " << golden << "; run with WARLOG_BLESS=1 to create it";
  EXPECT_EQ(actual, read_all(golden)) << "the rule-diff " << change.name
                                      << " changed; if on purpose, re-bless with WARLOG_BLESS=1";
  // Read in the game's terms: no engine field dumps (issue 19).
  for (const char* dump : {"flags 0x", "alternation broken", " false", " true", "damage 2 flags", "seat 1 damage"}) {
    EXPECT_EQ(actual.find(dump), std::string::npos) << "an engine field dump: " << dump << "\n" << actual;
  }
}

TEST(GoldenRuleDiff, TheEmptyDeckPenaltyOnTheSamples) {
  auto ruleset = core::load_ruleset((kSamples / "rulesets" / "empty_deck_penalty.toml").string());
  ASSERT_TRUE(ruleset) << ruleset.error().message;
  Change c{"empty_deck_penalty", {}, "the candidate ruleset empty_deck_penalty.toml"};
  c.options.candidate.ruleset = *ruleset;
  expect_golden(c);
}

TEST(GoldenRuleDiff, TheBurrowerVigorErrataOnTheSamples) {
  auto catalog = core::load_catalog((kSamples / "catalogs" / "errata_burrower_vigor.csv").string());
  ASSERT_TRUE(catalog) << catalog.error().message;
  Change c{"errata_burrower_vigor", {}, "the candidate catalog errata_burrower_vigor.csv"};
  c.options.candidate.catalog = *catalog;
  expect_golden(c);
}

// The Burrow design change (samples/README.md › Rule changes to try).
TEST(GoldenRuleDiff, TheBurrowedHiddenVariantOnTheSamples) {
  auto ruleset = core::load_ruleset((kSamples / "rulesets" / "burrowed_hidden.toml").string());
  ASSERT_TRUE(ruleset) << ruleset.error().message;
  Change c{"burrowed_hidden", {}, "the candidate ruleset burrowed_hidden.toml"};
  c.options.candidate.ruleset = *ruleset;
  expect_golden(c);
}

// A game rule-diff calls changed says what changed at its first divergence:
// under every sample ruleset, no sample game's state differs in something
// the state sentences cannot name (a due Territory answered under
// final_control_any_moment read "the two states differ in nothing warlog can
// name" in 5 of its 10 changed games).
TEST(GoldenRuleDiff, EveryDivergenceUnderEverySampleRulesetIsNamed) {
  for (const auto& entry : fs::directory_iterator(kSamples / "rulesets")) {
    if (entry.path().extension() != ".toml") continue;
    auto ruleset = core::load_ruleset(entry.path().string());
    ASSERT_TRUE(ruleset) << entry.path() << ": " << ruleset.error().message;
    Change c{entry.path().stem().string(), {}, entry.path().filename().string()};
    c.options.candidate.ruleset = *ruleset;
    const std::string report = report_of(c);
    EXPECT_EQ(report.find("nothing warlog can name"), std::string::npos) << c.name << "\n" << report;
  }
}

}  // namespace
}  // namespace warlog
