// A long scan gives the pages of the mapped data file it has read back to
// the kernel as it goes (reader.cpp, PagesBehind), so auditing or surveying
// a million-event game does not leave the whole file in the process's
// resident set; short scans (a seek's few hundred events) keep theirs.

#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "store/store_fixtures.hpp"

namespace warlog::store {
namespace {

using test::make_game;
using test::open_store;
using test::TempDir;

// The resident kB of this process's mappings of `file` (/proc/self/smaps).
std::size_t mapped_rss_kb(const std::string& file) {
  std::ifstream in("/proc/self/smaps");
  std::string line;
  bool ours = false;
  std::size_t kb = 0;
  while (std::getline(in, line)) {
    const bool header = !line.empty() && std::isxdigit(static_cast<unsigned char>(line[0])) &&
                        line.find('-') < line.find(' ');
    if (header) {
      ours = line.size() >= file.size() && line.compare(line.size() - file.size(), file.size(), file) == 0;
    } else if (ours && line.rfind("Rss:", 0) == 0) {
      std::istringstream fields(line.substr(4));
      std::size_t n = 0;
      fields >> n;
      kb += n;
    }
  }
  return kb;
}

TEST(StoreResidentPages, ALongScanGivesTheFilesPagesBackAndShortScansKeepThem) {
  TempDir dir;
  auto store = open_store(dir.store());
  // 200,000 events: compressed blocks (~20 B an event) still make a file of
  // a few MB, so what a scan leaves resident besides its values (the other
  // databases' pages) stays a small part of it.
  const auto id = store.import_game(make_game("Long", 200'000));
  ASSERT_TRUE(id) << id.error().message;
  const std::string data = (dir.store() / "data.mdb").string();
  const auto file_kb = static_cast<std::size_t>(std::filesystem::file_size(data) / 1024);

  // Short scans (under 16,384 events each) over the whole game: every page
  // they read stays mapped in.
  auto reader = store.reader();
  ASSERT_TRUE(reader);
  std::size_t given = 0;
  for (core::Seq from = 0; from < 200'001; from += 10'000) {
    auto n = reader->scan(*id, from, from + 10'000, [&](const core::Event&) { return ++given, true; });
    ASSERT_TRUE(n) << n.error().message;
  }
  ASSERT_EQ(given, 200'001u);
  const std::size_t after_short = mapped_rss_kb(data);
  EXPECT_GT(after_short, file_kb / 2) << "short scans keep the pages they read (" << after_short << " of "
                                      << file_kb << " kB)";

  // One long scan over the same events: it gives them back as it goes.
  given = 0;
  auto n = reader->scan(*id, 0, kEndSeq, [&](const core::Event&) { return ++given, true; });
  ASSERT_TRUE(n) << n.error().message;
  ASSERT_EQ(given, 200'001u);
  const std::size_t after_long = mapped_rss_kb(data);
  // What stays is the kernel's fault-around: the fault after each release
  // maps up to 64 KiB of neighbouring cached pages back in, the released
  // ones among them (13 releases here).
  const std::size_t fault_around_kb = 64 * (200'001 / 16'384 + 1);
  EXPECT_LT(after_long, file_kb / 8 + fault_around_kb) << after_long << " of " << file_kb << " kB still resident";
  EXPECT_LT(after_long, after_short / 2) << "the long scan gave back less than half of what it read";

  // The bytes are still there: a read after the release sees the same events.
  std::vector<core::Event> again;
  ASSERT_TRUE(reader->scan(*id, 199'990, kEndSeq, [&](const core::Event& ev) { return again.push_back(ev), true; }));
  ASSERT_EQ(again.size(), 11u);
  EXPECT_EQ(again.back().seq, 200'000u);
  EXPECT_TRUE(reader->verify(*id)->ok()) << "verify (a long scan too) still passes";
}

}  // namespace
}  // namespace warlog::store
