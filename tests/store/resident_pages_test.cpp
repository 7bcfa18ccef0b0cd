// The store's readers give the pages of the mapped data file they have read
// back to the kernel as they go (reader.cpp, PagesBehind and MappedPages),
// every 16,384 events counted across scans, Readers and threads: so auditing
// or surveying a million-event game, or an archive of many short games (one
// Reader each, on several threads), does not leave the whole file in the
// process's resident set.

#include <gtest/gtest.h>

#include <atomic>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

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

// What stays after the releases is the kernel's fault-around: the fault
// after each release maps up to 64 KiB of neighbouring cached pages back in,
// the released ones among them.
std::size_t fault_around_kb(std::size_t events) { return 64 * (events / 16'384 + 1); }

TEST(StoreResidentPages, ALongScanGivesTheFilesPagesBackAndSoDoManyShortScans) {
  TempDir dir;
  auto store = open_store(dir.store());
  // 200,000 events: compressed blocks (~20 B an event) still make a file of
  // a few MB, so what a scan leaves resident besides its values (the other
  // databases' pages) stays a small part of it.
  const auto id = store.import_game(make_game("Long", 200'000));
  ASSERT_TRUE(id) << id.error().message;
  const std::string data = (dir.store() / "data.mdb").string();
  const auto file_kb = static_cast<std::size_t>(std::filesystem::file_size(data) / 1024);

  // Short scans, each in its own Reader, as a viewer's seeks are: under
  // 16,384 events read in all, every page they read stays mapped in.
  std::size_t given = 0;
  const auto scan = [&](core::Seq from, core::Seq to) {
    auto reader = store.reader();
    ASSERT_TRUE(reader);
    auto n = reader->scan(*id, from, to, [&](const core::Event&) { return ++given, true; });
    ASSERT_TRUE(n) << n.error().message;
  };
  for (core::Seq from = 0; from < 15'000; from += 1'000) scan(from, from + 1'000);
  const std::size_t before_release = mapped_rss_kb(data);
  EXPECT_GT(before_release, file_kb * 15 / 200 / 2)
      << "what 15,000 events' scans read stays until the release (" << before_release << " of " << file_kb << " kB)";

  // The rest in short scans: the count goes on across them and gives back.
  for (core::Seq from = 15'000; from < 200'001; from += 1'000) scan(from, from + 1'000);
  ASSERT_EQ(given, 200'001u);
  const std::size_t after_short = mapped_rss_kb(data);
  EXPECT_LT(after_short, file_kb / 8 + fault_around_kb(200'001))
      << after_short << " of " << file_kb << " kB still resident after short scans";

  // One long scan over the same events: it gives them back as it goes.
  given = 0;
  auto reader = store.reader();
  ASSERT_TRUE(reader);
  auto n = reader->scan(*id, 0, kEndSeq, [&](const core::Event&) { return ++given, true; });
  ASSERT_TRUE(n) << n.error().message;
  ASSERT_EQ(given, 200'001u);
  const std::size_t after_long = mapped_rss_kb(data);
  EXPECT_LT(after_long, file_kb / 8 + fault_around_kb(200'001)) << after_long << " of " << file_kb
                                                                << " kB still resident";

  // The bytes are still there: a read after the release sees the same events.
  std::vector<core::Event> again;
  ASSERT_TRUE(reader->scan(*id, 199'990, kEndSeq, [&](const core::Event& ev) { return again.push_back(ev), true; }));
  ASSERT_EQ(again.size(), 11u);
  EXPECT_EQ(again.back().seq, 200'000u);
  EXPECT_TRUE(reader->verify(*id)->ok()) << "verify (a long scan too) still passes";
}

// An audit of an archive: many short games (100 events, far under 16,384),
// each read in its own Reader by one of two threads taking the next game as
// replay::parallel_for does. Before the count was the store's, each scan's
// own count never reached a release and the whole file stayed resident.
constexpr std::size_t kGames = 2'000;
constexpr std::size_t kDraws = 99;  // + GameCreated: 100 events a game

// kGames games of kDraws + 1 events in one batch; their ids.
std::vector<core::GameId> import_short_games(Store& store) {
  std::vector<std::vector<core::Event>> games;
  games.reserve(kGames);
  for (std::size_t g = 0; g < kGames; ++g) games.push_back(make_game("Short " + std::to_string(g), kDraws));
  std::vector<std::span<const core::Event>> spans(games.begin(), games.end());
  auto imported = store.import_games(spans, Durability::Relaxed);
  if (!imported) throw std::runtime_error(imported.error().message);
  std::vector<core::GameId> ids;
  for (const auto& r : *imported) {
    if (!r) throw std::runtime_error(r.error().message);
    ids.push_back(r->id);
  }
  return ids;
}

TEST(StoreResidentPages, ManyShortGamesOnTwoThreadsGiveTheFilesPagesBack) {
  TempDir dir;
  auto store = open_store(dir.store());
  const std::vector<core::GameId> ids = import_short_games(store);
  const std::string data = (dir.store() / "data.mdb").string();
  const auto file_kb = static_cast<std::size_t>(std::filesystem::file_size(data) / 1024);

  std::atomic<std::size_t> events{0}, failures{0}, last_seq_wrong{0};
  const auto audit = [&](std::size_t from, std::size_t to, unsigned threads) {
    std::atomic<std::size_t> next{from};
    std::vector<std::jthread> pool;
    for (unsigned t = 0; t < threads; ++t) {
      pool.emplace_back([&] {
        for (std::size_t i = next++; i < to; i = next++) {
          auto reader = store.reader();
          if (!reader) {
            ++failures;
            continue;
          }
          core::Seq last = 0;
          auto n = reader->scan(ids[i], 0, kEndSeq, [&](const core::Event& ev) { return last = ev.seq, true; });
          if (!n) ++failures;
          if (n && (*n != kDraws + 1 || last != kDraws)) ++last_seq_wrong;
          if (n) events += *n;
        }
      });
    }
  };
  // The first 150 games (15,000 events, under one release): their pages stay.
  audit(0, 150, 1);
  const std::size_t before_release = mapped_rss_kb(data);
  EXPECT_GT(before_release, file_kb * 150 / kGames / 2)
      << "what 150 games' scans read stays until the release (" << before_release << " of " << file_kb << " kB)";

  audit(150, kGames, 2);
  EXPECT_EQ(failures.load(), 0u);
  EXPECT_EQ(last_seq_wrong.load(), 0u) << "a game read on two threads, with releases between, lost events";
  ASSERT_EQ(events.load(), kGames * (kDraws + 1));
  const std::size_t after = mapped_rss_kb(data);
  EXPECT_LT(after, file_kb / 8 + fault_around_kb(kGames * (kDraws + 1)))
      << after << " of " << file_kb << " kB still resident after " << kGames << " short games";

  // Every game still reads and verifies, byte for byte as stored.
  auto reader = store.reader();
  ASSERT_TRUE(reader);
  EXPECT_TRUE(reader->verify(ids.front())->ok());
  EXPECT_TRUE(reader->verify(ids.back())->ok());
}

// Before the audit folds a game, it selects them: the ids from the records,
// and the orphans (events with no record) by one seek a game into the
// events. Each seek faults in its own page and the 64 KiB around it; on a
// 100,000-game archive that mapped the whole 710 MB file in before the
// first game was folded (the audit's max RSS was the file's size).
TEST(StoreResidentPages, SelectingTheGamesOfAnArchiveGivesTheFilesPagesBack) {
  TempDir dir;
  std::vector<core::GameId> ids;
  {
    auto writer = open_store(dir.store());
    ids = import_short_games(writer);
  }
  // Opened again, as the audit's reader process opens it: nothing mapped in yet.
  auto store = open_store(dir.store(), Options{.read_only = true});
  const std::string data = (dir.store() / "data.mdb").string();
  const auto file_kb = static_cast<std::size_t>(std::filesystem::file_size(data) / 1024);
  auto reader = store.reader();
  ASSERT_TRUE(reader);
  auto listed = reader->game_ids();
  ASSERT_TRUE(listed) << listed.error().message;
  EXPECT_EQ(*listed, ids);
  auto orphans = reader->orphan_games();
  ASSERT_TRUE(orphans) << orphans.error().message;
  EXPECT_TRUE(orphans->empty());
  const std::size_t after = mapped_rss_kb(data);
  // A release every 16 seeks: what stays is what the seeks since the last
  // one mapped in (16 x 64 KiB of fault-around at most) and the records
  // read after them.
  EXPECT_LT(after, file_kb / 4 + 16 * 64)
      << after << " of " << file_kb << " kB still resident after selecting " << kGames << " games";
}

}  // namespace
}  // namespace warlog::store
