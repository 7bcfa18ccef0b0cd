// The page suite: data.mdb damaged at the page level, the way LMDB cannot
// detect (it keeps no page checksums), and the reading verbs run on it. No
// warlog process may end by a signal: exit 0, 1 or 2, and every line on
// stderr one "warlog: ..." message (docs/reliability.md, "No store crashes
// the tool").
//
// Each trial is a fresh copy of a small sample store with one page zeroed,
// one page filled with random bytes, or one byte of a page header flipped.
// The suite's count is fixed and small (3 games; verify and audit; every
// page zeroed and randomised; 200 header flips; the writing verbs on every
// 4th page and 24 flips); WARLOG_PAGE_SUITE=full (scripts/soak pages) runs
// every sample game, every page and every verb that opens a store.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <random>
#include <thread>

#include "cli/cli_run.hpp"

namespace warlog {
namespace {

namespace fs = std::filesystem;

const std::string kSamples = WARLOG_SAMPLES_DIR;
constexpr std::size_t kPage = 4096;
constexpr std::size_t kFlips = 200;

struct Trial {
  enum class Damage { Zero, Random, FlipHeaderByte } damage;
  std::size_t page;
  std::size_t offset = 0;        // a flip's byte in the page header
  unsigned char mask = 0;        // what it is xored with
};

std::string describe(const Trial& t) {
  switch (t.damage) {
    case Trial::Damage::Zero: return "page " + std::to_string(t.page) + " zeroed";
    case Trial::Damage::Random: return "page " + std::to_string(t.page) + " randomised";
    default:
      return "page " + std::to_string(t.page) + " header byte " + std::to_string(t.offset) + " ^ " +
             std::to_string(t.mask);
  }
}

std::string damaged(std::string bytes, const Trial& t) {
  char* page = bytes.data() + t.page * kPage;
  if (t.damage == Trial::Damage::Zero) {
    std::fill(page, page + kPage, '\0');
  } else if (t.damage == Trial::Damage::Random) {
    std::mt19937_64 rng(t.page);
    for (std::size_t i = 0; i < kPage; ++i) page[i] = static_cast<char>(rng());
  } else {
    page[t.offset] = static_cast<char>(page[t.offset] ^ t.mask);
  }
  return bytes;
}

// A message problem in one run's stderr, or "" when every line is "warlog: ...".
std::string message_problem(const testing::CliResult& r) {
  if (r.code == 2 && r.err.empty()) return "exit 2 with nothing on stderr";
  std::size_t at = 0;
  while (at < r.err.size()) {
    const auto end = r.err.find('\n', at);
    if (end == std::string::npos) return "a message without its newline";
    if (r.err.compare(at, 8, "warlog: ") != 0) return "a line that is not a warlog message: " + r.err.substr(at, end - at);
    at = end + 1;
  }
  return "";
}

bool full_suite() {
  const char* mode = std::getenv("WARLOG_PAGE_SUITE");
  return mode != nullptr && std::string(mode) == "full";
}

// The pristine store the trials damage copies of: 3 sample games (every one
// in full), and a signing key for sign.
struct Pristine {
  testing::TempDir dir;
  std::string store = (dir.path() / "pristine").string();
  std::string key = (dir.path() / "judge.key").string();
  std::string bytes;
  std::size_t pages = 0;
};

void make_pristine(Pristine& p) {
  const std::vector<std::string> games =
      full_suite() ? std::vector<std::string>{kSamples + "/games/*.wlog"}
                   : std::vector<std::string>{kSamples + "/games/cut_off.wlog", kSamples + "/games/green_powder.wlog",
                                              kSamples + "/games/the_mill_road.wlog"};
  for (const auto& g : games) ASSERT_EQ(testing::run_warlog("import --store " + p.store + " " + g).code, 0) << g;
  ASSERT_EQ(testing::run_warlog("keygen --out " + p.key).code, 0);
  p.bytes = testing::slurp(fs::path(p.store) / "data.mdb");
  p.pages = p.bytes.size() / kPage;
  ASSERT_GE(p.pages, 8u);
}

// Every page zeroed and randomised, then `flips` header flips.
std::vector<Trial> every_page(std::size_t pages, std::size_t flips) {
  std::vector<Trial> trials;
  for (std::size_t p = 0; p < pages; ++p) {
    trials.push_back({Trial::Damage::Zero, p});
    trials.push_back({Trial::Damage::Random, p});
  }
  std::mt19937_64 rng(20261201);
  for (std::size_t i = 0; i < flips; ++i) {
    trials.push_back({Trial::Damage::FlipHeaderByte, rng() % pages, rng() % 16,
                      static_cast<unsigned char>(1 + rng() % 255)});
  }
  return trials;
}

struct SuiteFigures {
  std::size_t runs = 0, signals = 0, deaths_reported = 0, exit2 = 0;
  std::vector<std::string> problems;
  double seconds = 0;
};

// Runs each verb on a fresh damaged copy for each trial. In a verb, STORE
// is the damaged store, DIR a scratch directory of the trial, KEY the key.
SuiteFigures run_trials(const Pristine& p, const std::vector<Trial>& trials, const std::vector<std::string>& verbs) {
  // Two workers (the machine's cores), each trial in a directory of its own.
  std::atomic<std::size_t> next = 0, runs = 0, signals = 0, deaths_reported = 0, exit2 = 0;
  std::mutex mutex;
  SuiteFigures figures;
  const auto start = std::chrono::steady_clock::now();
  auto worker = [&] {
    for (std::size_t i = next++; i < trials.size(); i = next++) {
      testing::TempDir scratch;
      const fs::path store = scratch.path() / "store";
      for (const auto& verb_template : verbs) {
        fs::remove_all(store);
        fs::remove_all(scratch.path() / "backup");
        fs::create_directories(store);
        std::ofstream(store / "data.mdb", std::ios::binary) << damaged(p.bytes, trials[i]);
        std::string verb = verb_template;
        for (const auto& [word, value] : {std::pair<std::string, std::string>{"STORE", store.string()},
                                          {"DIR", scratch.path().string()},
                                          {"KEY", p.key}}) {
          for (auto at = verb.find(word); at != std::string::npos; at = verb.find(word)) {
            verb.replace(at, word.size(), value);
          }
        }
        const auto r = testing::run_warlog(verb);
        ++runs;
        exit2 += r.code == 2;
        deaths_reported += r.err.find("the data file is corrupt") != std::string::npos;
        std::string problem;
        if (r.code < 0 || r.code > 2) {
          ++signals;
          problem = "exit status " + std::to_string(r.code) + " (a signal or a crash)";
        } else {
          problem = message_problem(r);
        }
        if (!problem.empty()) {
          std::lock_guard lock(mutex);
          figures.problems.push_back(describe(trials[i]) + ", warlog " + verb_template + ": " + problem);
        }
      }
    }
  };
  {
    std::jthread a(worker), b(worker);
  }
  figures.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  figures.runs = runs;
  figures.signals = signals;
  figures.deaths_reported = deaths_reported;
  figures.exit2 = exit2;
  return figures;
}

void print_figures(const char* what, std::size_t pages, std::size_t trials, const SuiteFigures& f) {
  std::printf("page suite (%s, %s): %zu pages, %zu trials, %zu runs, %zu signals, %zu exit 2 (%zu naming a corrupt "
              "data file), %.1f s\n",
              what, full_suite() ? "full" : "quick", pages, trials, f.runs, f.signals, f.exit2, f.deaths_reported,
              f.seconds);
}

TEST(PageSuite, NoDamagedPageEndsAReadingVerbBySignal) {
  Pristine p;
  ASSERT_NO_FATAL_FAILURE(make_pristine(p));
  std::vector<std::string> verbs = {"verify --store STORE", "audit --store STORE"};
  if (full_suite()) {
    verbs.insert(verbs.end(), {"list --store STORE", "list --store STORE --format json", "export --store STORE 1",
                               "export --store STORE 2 --format json", "audit --store STORE --format junit -j 1",
                               "rule-diff --store STORE --candidate " + kSamples + "/rulesets/empty_deck_penalty.toml",
                               "snapshot --store STORE --every 40", "backup --store STORE DIR/backup",
                               "dispute list --store STORE", "dispute show --store STORE 1:3:0"});
  }
  const auto trials = every_page(p.pages, kFlips);
  const auto f = run_trials(p, trials, verbs);
  print_figures("reading verbs", p.pages, trials.size(), f);
  EXPECT_EQ(f.signals, 0u);
  EXPECT_TRUE(f.problems.empty()) << f.problems.size() << " runs went wrong, the first: " << f.problems.front();
  // The suite damages what the verbs read: many runs must fail cleanly.
  EXPECT_GT(f.exit2, f.runs / 8);
}

// The verbs that write (and record, which opens the store to write) on a
// small fixed count of damaged stores: every 4th page zeroed and randomised
// and 24 header flips (in full: every page, 200 flips). Before issue 14's
// writer isolation, `warlog sign` died of SIGABRT on a zeroed page.
TEST(PageSuite, NoDamagedPageEndsAWritingVerbBySignal) {
  Pristine p;
  ASSERT_NO_FATAL_FAILURE(make_pristine(p));
  const std::vector<std::string> verbs = {
      "sign --store STORE --game 1 --key KEY --signer Judge",
      "dispute add --store STORE --game 1 --seq 3 --claim 'the Archer fought while Lost' --by Ines",
      "import --store STORE " + kSamples + "/tutorial/spine_first_blood.wlog",
      "snapshot --store STORE --every 40",
      "migrate --store STORE",
      "record STORE --game 1 </dev/null",
  };
  std::vector<Trial> trials;
  if (full_suite()) {
    trials = every_page(p.pages, kFlips);
  } else {
    for (std::size_t page = 0; page < p.pages; page += 4) {
      trials.push_back({Trial::Damage::Zero, page});
      trials.push_back({Trial::Damage::Random, page});
    }
    std::mt19937_64 rng(20261202);
    for (std::size_t i = 0; i < 24; ++i) {
      trials.push_back({Trial::Damage::FlipHeaderByte, rng() % p.pages, rng() % 16,
                        static_cast<unsigned char>(1 + rng() % 255)});
    }
  }
  const auto f = run_trials(p, trials, verbs);
  print_figures("writing verbs", p.pages, trials.size(), f);
  EXPECT_EQ(f.signals, 0u);
  EXPECT_TRUE(f.problems.empty()) << f.problems.size() << " runs went wrong, the first: " << f.problems.front();
  EXPECT_GT(f.exit2, f.runs / 8);
  // Some of them kill the writer: it is named as the reading verbs' deaths are.
  EXPECT_GT(f.deaths_reported, 0u);
}

// migrate reads a format-1 store (tests/data/format1-store, 30 pages):
// every page of it zeroed and randomised, and 24 header flips.
TEST(PageSuite, NoDamagedPageOfAFormat1StoreEndsMigrateBySignal) {
  Pristine p;
  p.bytes = testing::slurp(fs::path(WARLOG_SOURCE_DIR) / "tests/data/format1-store/data.mdb");
  p.pages = p.bytes.size() / kPage;
  ASSERT_GE(p.pages, 8u);
  const auto trials = every_page(p.pages, 24);
  const auto f = run_trials(p, trials, {"migrate --store STORE"});
  print_figures("migrate of format 1", p.pages, trials.size(), f);
  EXPECT_EQ(f.signals, 0u);
  EXPECT_TRUE(f.problems.empty()) << f.problems.size() << " runs went wrong, the first: " << f.problems.front();
  EXPECT_GT(f.exit2, f.runs / 8);
}

}  // namespace
}  // namespace warlog

namespace warlog {
namespace {

// The first page (from page 2 on) whose zeroing kills the reader in the
// middle of a game, not while it lists them: that game is one line naming
// the page, and every other game is still verified.
TEST(PageSuite, AReaderKilledByADamagedPageCostsOnlyItsGame) {
  testing::TempDir dir;
  const std::string pristine = (dir.path() / "pristine").string();
  const auto imported = testing::run_warlog("import --store " + pristine + " " + kSamples + "/games/*.wlog");
  ASSERT_EQ(imported.code, 0) << imported.err;
  const std::size_t games = testing::count_lines(imported.out);
  const std::string bytes = testing::slurp(fs::path(pristine) / "data.mdb");
  const fs::path store = dir.path() / "store";
  // Zeroed pages first, then randomised ones: under format 2 a damaged leaf
  // is mostly caught as a broken block (DataLoss), so the page that kills a
  // reader is rarer than it was.
  for (std::size_t step = 0; step < 2 * (bytes.size() / kPage - 2); ++step) {
    const std::size_t page = 2 + step % (bytes.size() / kPage - 2);
    const auto how = step < bytes.size() / kPage - 2 ? Trial::Damage::Zero : Trial::Damage::Random;
    fs::remove_all(store);
    fs::create_directories(store);
    std::ofstream(store / "data.mdb", std::ios::binary) << damaged(bytes, {how, page});
    const auto r = testing::run_warlog("verify --store " + store.string());
    if (r.err.find("was being read") == std::string::npos) continue;
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(testing::count_lines(r.err), 1u) << r.err;
    EXPECT_THAT(r.err, ::testing::HasSubstr("the data file is corrupt near page " + std::to_string(page) +
                                            ": restore it from a copy (game "));
    // Every sample game but the one whose reader died.
    std::size_t ok = 0;
    for (auto at = r.out.find(": ok, chain intact"); at != std::string::npos; at = r.out.find(": ok, chain intact", at + 1)) {
      ++ok;
    }
    EXPECT_EQ(ok, games - 1) << r.out;
    return;
  }
  // Under format 2 every damaged page of this store is either caught as a
  // broken block or kills the reader before any game is read: the
  // per-game recovery is then covered by Isolation.* (replay/isolate_test),
  // which kills readers inside a game on purpose.
  GTEST_SKIP() << "no damaged page of this store killed a reader inside a game";
}

}  // namespace
}  // namespace warlog
