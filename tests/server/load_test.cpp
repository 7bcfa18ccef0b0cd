// Load and kill tests on loopback (docs/server.md › 8): 100 simulated tables
// append at once, 20 lines each in the suite (scripts/soak server: whole
// games); zero lost, zero written where a token does not allow, appends/s and
// p50/p99 printed beside the same run's single synced append (asserted only
// for correctness). Then the server SIGKILLed mid-run and restarted while
// the clients retry: every acknowledged event is there exactly once, and
// every game verifies. Bounded: a client gives up after 5 minutes (the test
// then fails), and every server is stopped by its ServedStore.
//
// WARLOG_SERVE_TABLES (default 100) and WARLOG_SERVE_LINES (default 20; 0:
// the whole tutorial game) scale it.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

#include "cli/cli_run.hpp"
#include "sample_lines.hpp"
#include "served_store.hpp"
#include "temp_dir.hpp"
#include "warlog/replay/recorder.hpp"
#include "warlog/server/tokens.hpp"

namespace warlog::testing {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

std::size_t env_or(const char* name, std::size_t fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? static_cast<std::size_t>(std::stoul(v)) : fallback;
}

// The tutorial's lines that record one event each (not blank, not only a comment).
std::vector<std::string> action_lines(const SampleLines& s, std::size_t n) {
  std::vector<std::string> out;
  for (const std::string& l : s.body) {
    const auto first = l.find_first_not_of(" \t\r");
    if (first == std::string::npos || l[first] == '#') continue;
    out.push_back(l);
    if (n != 0 && out.size() == n) break;
  }
  return out;
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size())))];
}

class ServeLoad : public ::testing::Test {
 protected:
  void SetUp() override {
    tables_ = env_or("WARLOG_SERVE_TABLES", 100);
    sample_ = sample_lines(dir_.path(), "tutorial/spine_first_blood.wlog");
    lines_ = action_lines(sample_, env_or("WARLOG_SERVE_LINES", 20));
    auto archive = replay::Archive::open(dir_.store(), replay::Archive::Mode::ReadWrite);
    ASSERT_TRUE(archive) << archive.error().message;
    for (std::size_t t = 0; t <= tables_; ++t) {  // one more: the lone table measured first
      auto r = replay::Recorder::create(*archive, sample_.header.string());
      ASSERT_TRUE(r) << r.error().error.message;
      setup_ = r->next_seq();
      auto token = server::issue_token(dir_.store(), server::Role::Table, r->game());
      ASSERT_TRUE(token) << token.error().message;
      tokens_.push_back(token->token);
    }
  }

  TempDir dir_;
  std::size_t tables_ = 0;
  SampleLines sample_;
  std::vector<std::string> lines_;
  std::vector<std::string> tokens_;  // tokens_[i] is game i + 1's
  core::Seq setup_ = 0;
};

// One table: its lines in order, each sent until the server answers it
// (the same line, the same expected seq), as the web recorder does.
struct Table {
  int game = 0;
  std::string token;
  std::vector<double> ms;               // each acknowledged append's latency
  std::vector<std::uint64_t> acked;     // the seq each acknowledged line recorded
  int retries = 0;
  bool gave_up = false;
};

void run_table(Table& t, const std::vector<std::string>& lines, core::Seq first, const std::atomic<int>& port,
               std::atomic<std::size_t>& acknowledged, Clock::time_point deadline) {
  core::Seq expected = first;
  for (const std::string& line : lines) {
    for (;;) {
      if (Clock::now() > deadline) {
        t.gave_up = true;
        return;
      }
      const auto start = Clock::now();
      const HttpReply r = http(port.load(), "POST", fmt::format("/api/games/{}/lines", t.game), t.token,
                               line_body(expected, line), std::chrono::seconds(30));
      if (r.status != 200) {  // no answer (a killed server), 429 or 503: the same again
        ++t.retries;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        continue;
      }
      // A server killed while it answered may leave the body cut short: no
      // answer either, sent again with the same expected seq (as the page does).
      const json j = json::parse(r.body, nullptr, false);
      if (j.is_discarded() || !j.contains("status")) {
        ++t.retries;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        continue;
      }
      const std::string status = j["status"];
      if (status != "ok" && status != "already-recorded") {
        ADD_FAILURE() << "game " << t.game << " line '" << line << "': " << r.body;
        t.gave_up = true;
        return;
      }
      t.ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
      t.acked.push_back(j["seqs"][0].get<std::uint64_t>());
      acknowledged.fetch_add(1);
      expected = j["next_seq"].get<std::uint64_t>();
      break;
    }
  }
}

TEST_F(ServeLoad, HundredTablesAppendAtOnceNothingLostNothingWrittenWhereATokenDoesNotAllow) {
  std::optional<ServedStore> served;
  served.emplace(dir_.store(), std::vector<std::string>{"--appends-per-second", "1000", "--append-burst", "1000"});
  std::atomic<int> port = served->port();
  std::atomic<std::size_t> acknowledged = 0;
  const auto deadline = Clock::now() + std::chrono::minutes(5);

  // The same run's single synced append: one table alone.
  Table lone{static_cast<int>(tables_ + 1), tokens_[tables_], {}, {}, 0, false};
  run_table(lone, lines_, setup_, port, acknowledged, deadline);
  ASSERT_FALSE(lone.gave_up);

  // Each table tries to append to its neighbour's game first: refused, nothing written.
  for (std::size_t i = 0; i < tables_; ++i) {
    const int neighbour = static_cast<int>((i + 1) % tables_) + 1;
    const HttpReply r = http(port, "POST", fmt::format("/api/games/{}/lines", neighbour), tokens_[i],
                             line_body(setup_, lines_[0]));
    ASSERT_EQ(r.status, 403) << r.body;
  }

  std::vector<Table> tables(tables_);
  std::vector<std::thread> threads;
  const auto start = Clock::now();
  for (std::size_t i = 0; i < tables_; ++i) {
    tables[i] = Table{static_cast<int>(i + 1), tokens_[i], {}, {}, 0, false};
    threads.emplace_back(run_table, std::ref(tables[i]), std::cref(lines_), setup_, std::cref(port),
                         std::ref(acknowledged), deadline);
  }
  for (auto& th : threads) th.join();
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();

  const HttpReply stats = http(port, "GET", "/api/stats", server::issue_token(dir_.store(), server::Role::Judge, 0)->token);
  ASSERT_EQ(served->stop(SIGTERM), 0) << served->err();

  std::vector<double> all;
  for (const Table& t : tables) {
    ASSERT_FALSE(t.gave_up) << "game " << t.game;
    all.insert(all.end(), t.ms.begin(), t.ms.end());
  }
  const json s = json::parse(stats.body);
  fmt::print("[ serve load ] {} tables x {} appends: {:.0f} appends/s over {:.1f} s, p50 {:.1f} ms, p99 {:.1f} ms, "
             "{} lines in {} commits; one table alone: p50 {:.1f} ms ({:.0f} appends/s)\n",
             tables_, lines_.size(), static_cast<double>(all.size()) / seconds, seconds, percentile(all, 0.5),
             percentile(all, 0.99), s["lines"].get<std::uint64_t>(), s["commits"].get<std::uint64_t>(),
             percentile(lone.ms, 0.5), 1000.0 / std::max(0.001, percentile(lone.ms, 0.5)));

  // Nothing lost, nothing else written, every game verifies.
  const CliResult list = run_warlog("list --store '" + dir_.store() + "' --format json");
  ASSERT_EQ(list.code, 0) << list.err;
  for (const json& g : json::parse(list.out)["games"]) {
    EXPECT_EQ(g["events"].get<std::uint64_t>(), setup_ + lines_.size()) << "game " << g["game"];
  }
  const CliResult verify = run_warlog("verify --store '" + dir_.store() + "'");
  EXPECT_EQ(verify.code, 0) << verify.out << verify.err;
}

TEST_F(ServeLoad, KilledMidRunAndRestartedEveryAcknowledgedEventIsThereOnce) {
  const std::vector<std::string> limits = {"--appends-per-second", "1000", "--append-burst", "1000"};
  std::optional<ServedStore> served;
  served.emplace(dir_.store(), limits);
  std::atomic<int> port = served->port();
  std::atomic<std::size_t> acknowledged = 0;
  const auto deadline = Clock::now() + std::chrono::minutes(5);
  std::vector<Table> tables(tables_);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < tables_; ++i) {
    tables[i] = Table{static_cast<int>(i + 1), tokens_[i], {}, {}, 0, false};
    threads.emplace_back(run_table, std::ref(tables[i]), std::cref(lines_), setup_, std::cref(port),
                         std::ref(acknowledged), deadline);
  }
  // Mid-run: once a third of the appends are acknowledged.
  const std::size_t total = tables_ * lines_.size();
  while (acknowledged.load() < total / 3 && Clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  const std::size_t at_kill = acknowledged.load();
  EXPECT_EQ(served->stop(SIGKILL), -SIGKILL);
  served.emplace(dir_.store(), limits);  // the lock died with the process: a new server starts at once
  port = served->port();
  for (auto& th : threads) th.join();
  ASSERT_EQ(served->stop(SIGTERM), 0) << served->err();

  int retries = 0;
  for (const Table& t : tables) {
    ASSERT_FALSE(t.gave_up) << "game " << t.game;
    retries += t.retries;
    // Each acknowledged line is the event at its seq, in order: there once.
    ASSERT_EQ(t.acked.size(), lines_.size());
    for (std::size_t k = 0; k < t.acked.size(); ++k) EXPECT_EQ(t.acked[k], setup_ + k) << "game " << t.game;
  }
  fmt::print("[ serve kill ] {} tables x {} appends, SIGKILL after {} acknowledged, {} retries; all there once\n",
             tables_, lines_.size(), at_kill, retries);
  const CliResult list = run_warlog("list --store '" + dir_.store() + "' --format json");
  ASSERT_EQ(list.code, 0) << list.err;
  for (const json& g : json::parse(list.out)["games"]) {
    if (g["game"].get<std::size_t>() > tables_) continue;  // the lone table's game is not used here
    EXPECT_EQ(g["events"].get<std::uint64_t>(), setup_ + lines_.size()) << "game " << g["game"];
  }
  const CliResult verify = run_warlog("verify --store '" + dir_.store() + "'");
  EXPECT_EQ(verify.code, 0) << verify.out << verify.err;
  // Exactly once, event by event: the store holds the lines as a whole import of them would.
  const CliResult exported = run_warlog("export 1 --store '" + dir_.store() + "' --format json");
  EXPECT_EQ(count_lines(exported.out), setup_ + lines_.size());
}

}  // namespace
}  // namespace warlog::testing
