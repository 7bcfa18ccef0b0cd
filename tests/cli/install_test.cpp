// cmake --install into a temporary prefix: the installed warlog generates
// games and audits them from another directory (the samples are found
// beside the binary), imports the installed sample games as the demo does,
// and shows a rule's section from the rules documents where they are (their
// folder is recorded at build time; they are not copied).

#include <gtest/gtest.h>

#include <filesystem>

#include "cli_run.hpp"
#include "temp_dir.hpp"

namespace warlog {
namespace {

using testing::run_warlog_command;
namespace fs = std::filesystem;

TEST(Install, TheInstalledWarlogGeneratesAndAuditsFromAnotherDirectory) {
  testing::TempDir dir;
  const fs::path prefix = dir.path() / "prefix", elsewhere = dir.path() / "elsewhere";
  fs::create_directories(elsewhere);
  const auto install = run_warlog_command("cmake --install '" + std::string(WARLOG_BINARY_DIR) + "' --prefix '" +
                                          prefix.string() + "' --component cli");
  ASSERT_EQ(install.code, 0) << install.err << install.out;
  const std::string warlog = (prefix / "bin" / "warlog").string();
  ASSERT_TRUE(fs::exists(prefix / "bin" / "warlog-shard-job"));
  for (const char* f : {"catalogs/sample_cards.csv", "rulesets/standard.toml", "decks/claw_orders.deck",
                        "games/cut_off.wlog", "tutorial/spine_first_blood.wlog"}) {
    EXPECT_TRUE(fs::exists(prefix / "share" / "warlog" / "samples" / f)) << f;
  }
  const std::string here = "cd '" + elsewhere.string() + "' && ";
  const auto gen = run_warlog_command(here + warlog + " generate --store s --games 3 --seed 5");
  ASSERT_EQ(gen.code, 0) << gen.err;
  const auto audit = run_warlog_command(here + warlog + " audit --store s");
  EXPECT_EQ(audit.code, 0) << audit.err;
  EXPECT_NE(audit.out.find("summary: 3 games"), std::string::npos) << audit.out;
  // --out names the catalog it played under: the installed one.
  const auto files = run_warlog_command(here + warlog + " generate --games 1 --seed 5 --out games");
  ASSERT_EQ(files.code, 0) << files.err;
  const std::string game = testing::slurp(elsewhere / "games" / "gen-5.wlog");
  EXPECT_NE(game.find("share/warlog/samples/catalogs/sample_cards.csv\"]"), std::string::npos) << game.substr(0, 400);

  const auto demo = run_warlog_command(here + warlog + " import --store d '" + prefix.string() +
                                       "'/share/warlog/samples/games/*.wlog");
  EXPECT_EQ(demo.code, 0) << demo.err;
  EXPECT_EQ(run_warlog_command(here + warlog + " audit --store d").code, 1) << "the samples hold violations";

  const auto show = run_warlog_command(here + "env -u WARLOG_RULES " + warlog + " rules MUS-a.draw --show");
  EXPECT_EQ(show.code, 0) << show.err;
  EXPECT_GT(show.out.size(), 200u) << show.out;
  for (const auto& doc : fs::directory_iterator(WARLOG_RULES_DIR)) {
    for (const auto& e : fs::recursive_directory_iterator(prefix)) {
      if (doc.path().filename() != "README.md") {
        EXPECT_NE(e.path().filename(), doc.path().filename()) << "copied";
      }
    }
  }
}

}  // namespace
}  // namespace warlog
