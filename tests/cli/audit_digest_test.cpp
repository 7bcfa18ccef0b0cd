// warlog audit --format json gives each game the digest of its own final
// state. Regression: the CLI dropped each game's state before the report
// asked for its digest, so every game printed the digest of an empty state
// ("Trust the store", one bad record, item 3).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "cli/cli_run.hpp"
#include "game_corpus.hpp"
#include "warlog/core/hash.hpp"
#include "warlog/core/state.hpp"

namespace warlog {
namespace {

namespace fs = std::filesystem;

// The "digest: HEX" line of samples/golden/STEM.audit.txt.
std::string golden_digest(const fs::path& game) {
  const std::string text = testing::slurp(fs::path(WARLOG_SAMPLES_DIR) / "golden" / (game.stem().string() + ".audit.txt"));
  const auto at = text.rfind("digest: ");
  if (at == std::string::npos) return {};
  return text.substr(at + 8, 64);
}

TEST(AuditJson, EveryGameHasTheDigestOfItsOwnStateAndTheGoldenOne) {
  testing::TempDir dir;
  const auto games = testing::sample_game_files();
  ASSERT_GE(games.size(), 2u);
  std::string files;
  for (const auto& g : games) files += " '" + g.string() + "'";
  const auto imported = testing::run_warlog("import --store " + dir.store() + files);
  ASSERT_EQ(imported.code, 0) << imported.err;

  const auto r = testing::run_warlog("audit --format json --store " + dir.store());
  ASSERT_NE(r.code, 2) << r.err;
  const auto report = nlohmann::json::parse(r.out).at("games");
  ASSERT_EQ(report.size(), games.size());

  // Games are numbered in import order, which is the order of `games`.
  const std::string empty_state = core::digest(core::GameState{});
  std::set<std::string> seen;
  for (std::size_t i = 0; i < games.size(); ++i) {
    SCOPED_TRACE(games[i].filename().string());
    const auto& g = report[i];
    ASSERT_EQ(g["game"].get<std::uint64_t>(), i + 1);
    const auto digest = g["digest"].get<std::string>();
    EXPECT_NE(digest, empty_state) << "the digest of an empty state, not of the game";
    EXPECT_EQ(digest, golden_digest(games[i]));
    EXPECT_TRUE(seen.insert(digest).second) << "two games share the digest " << digest;
  }
}

}  // namespace
}  // namespace warlog
