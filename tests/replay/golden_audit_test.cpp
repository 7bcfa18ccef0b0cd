// Golden audits: every sample game is imported into a fresh store and
// audited; the report text and the final state's digest must match
// samples/golden/NAME.audit.txt. A change in behaviour shows here.
// Regenerate on purpose with: WARLOG_BLESS=1 build/<preset>/tests/test_replay

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "game_corpus.hpp"
#include "temp_dir.hpp"
#include "warlog/replay/replay.hpp"
#include "warlog/replay/report.hpp"

namespace warlog {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> sample_games() { return testing::sample_game_files(); }

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

class GoldenAudit : public ::testing::TestWithParam<fs::path> {};

TEST_P(GoldenAudit, MatchesTheGoldenFile) {
  const fs::path game = GetParam();
  testing::TempDir dir;
  auto archive = replay::Archive::open(dir.store(), replay::Archive::Mode::ReadWrite);
  ASSERT_TRUE(archive) << archive.error().message;
  auto imported = archive->import_file(game.string(), {});
  ASSERT_TRUE(imported) << game << ": "
                        << (imported.error().notation_errors.empty() ? imported.error().error.message
                                                                     : imported.error().notation_errors[0].to_string());
  auto audit = archive->audit(imported->id);
  ASSERT_TRUE(audit) << audit.error().message;
  const std::string actual = replay::audit_text(*audit) + "digest: " + audit->digest() + "\n";

  const fs::path golden = fs::path(WARLOG_SAMPLES_DIR) / "golden" / (game.stem().string() + ".audit.txt");
  if (const char* bless = std::getenv("WARLOG_BLESS"); bless != nullptr && std::string(bless) == "1") {
    std::ofstream(golden, std::ios::binary) << actual;
    GTEST_SKIP() << "blessed " << golden;
  }
  ASSERT_TRUE(fs::exists(golden)) << "no golden file " << golden << "; run with WARLOG_BLESS=1 to create it";
  EXPECT_EQ(actual, read_all(golden)) << "the audit of " << game.filename()
                                      << " changed; if on purpose, re-bless with WARLOG_BLESS=1";
}

TEST_P(GoldenAudit, ReplayIsDeterministic) {
  testing::TempDir a_dir, b_dir;
  auto a = replay::Archive::open(a_dir.store(), replay::Archive::Mode::ReadWrite);
  auto b = replay::Archive::open(b_dir.store(), replay::Archive::Mode::ReadWrite);
  ASSERT_TRUE(a && b);
  auto ia = a->import_file(GetParam().string(), {});
  auto ib = b->import_file(GetParam().string(), {});
  ASSERT_TRUE(ia && ib);
  auto aa = a->audit(ia->id);
  auto ab = b->audit(ib->id);
  ASSERT_TRUE(aa && ab);
  EXPECT_EQ(aa->digest(), ab->digest());
  EXPECT_EQ(aa->final_state, ab->final_state);
}

INSTANTIATE_TEST_SUITE_P(Samples, GoldenAudit, ::testing::ValuesIn(sample_games()),
                         [](const ::testing::TestParamInfo<fs::path>& info) {
                           std::string name = info.param.stem().string();
                           std::replace_if(name.begin(), name.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
                           return name;
                         });

TEST(SpineSample, AuditsToExactlyTheDeliberateViolation) {
  testing::TempDir dir;
  auto archive = replay::Archive::open(dir.store(), replay::Archive::Mode::ReadWrite);
  ASSERT_TRUE(archive);
  auto id = archive->import_file(std::string(WARLOG_SAMPLES_DIR) + "/tutorial/spine_first_blood.wlog", {});
  ASSERT_TRUE(id);
  auto audit = archive->audit(id->id);
  ASSERT_TRUE(audit);
  ASSERT_EQ(audit->findings.size(), 1u) << replay::audit_text(*audit);
  EXPECT_EQ(audit->findings[0].finding.rule_id, "MUS-a.draw");
  EXPECT_EQ(audit->findings[0].citation, "Muster Phase › Steps › a. Draw cards");
  EXPECT_EQ(audit->findings[0].turn, 2);
  // The fold derived the Supremacy Victory the log records.
  ASSERT_TRUE(audit->final_state.victory.has_value());
  EXPECT_EQ(*audit->final_state.victory, core::Victory::Supremacy);
  EXPECT_EQ(audit->final_state.winner, 0);
  EXPECT_EQ(audit->final_state.territories[0].beneath, 1);  // the Lancer fell beside the Old Mill
}

}  // namespace
}  // namespace warlog
