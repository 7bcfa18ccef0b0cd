// warlog rules › Recording times: a recorded time earlier than the one
// before it is kept as recorded and noted (LOG.time), never refused; times
// that only move forward are noted nowhere. The note comes from the time log
// an archive reads beside the fold (replay/src/times.cpp), so these tests
// go through an archive, as `warlog audit` does.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "game_builder.hpp"
#include "temp_dir.hpp"
#include "warlog/replay/replay.hpp"
#include "warlog/replay/report.hpp"

namespace warlog {
namespace {

namespace fs = std::filesystem;

// The timed sample, with `from` replaced by `to` in its text, imported and audited;
// its findings gathered for `.of(rule)`.
testing::Folded audit_timed_sample(const std::string& from = {}, const std::string& to = {}) {
  testing::TempDir dir;
  const fs::path root = dir.path();
  for (const char* sub : {"rulesets", "catalogs", "decks"}) {
    fs::create_directory_symlink(fs::path(WARLOG_SAMPLES_DIR) / sub, root / sub);
  }
  fs::create_directory(root / "games");
  std::ifstream in(fs::path(WARLOG_SAMPLES_DIR) / "games" / "the_mill_road_appeal.wlog");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!from.empty()) {
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
  }
  std::ofstream(root / "games" / "clock.wlog") << text;
  testing::Folded out;
  auto archive = replay::Archive::open(dir.store(), replay::Archive::Mode::ReadWrite);
  EXPECT_TRUE(archive) << archive.error().message;
  if (!archive) return out;
  auto r = archive->import_file((root / "games" / "clock.wlog").string(), {});
  EXPECT_TRUE(r) << r.error().error.message;
  if (!r) return out;
  auto a = archive->audit(r->id);
  EXPECT_TRUE(a);
  if (!a) return out;
  for (const auto& f : a->findings) out.findings.push_back(f.finding);
  return out;
}

TEST(LogRecordingTimes, TimesThatMoveForwardAreNotNoted) {
  const testing::Folded f = audit_timed_sample();
  EXPECT_TRUE(f.of("LOG.time").empty()) << f.all();
}

TEST(LogRecordingTimes, ATimeBeforeTheOneBeforeItIsKeptAndNoted) {
  // The first Muster line timed 11 s before the Morale Check at 19:02:41.
  const testing::Folded f = audit_timed_sample("@19:02:55 Muster 2", "@19:02:30 Muster 2");
  ASSERT_EQ(f.of("LOG.time").size(), 1u) << f.all();
  const core::Finding note = f.of("LOG.time").front();
  EXPECT_EQ(note.seq, 5u);
  EXPECT_EQ(note.severity, core::Severity::Note);
  EXPECT_EQ(note.message, "recorded 11.000 s before seq 4 (kept as recorded)");
}

}  // namespace
}  // namespace warlog
