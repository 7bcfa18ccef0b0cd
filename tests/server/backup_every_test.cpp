// `warlog serve --backup-every PERIOD DIR` (docs/server.md › The event's key
// and backups): a verified `warlog backup` in DIR every period that saw a
// write, one log line each; a bad period refused; a DIR that cannot be
// written logged loudly while the server goes on serving.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <thread>

#include "cli/cli_run.hpp"
#include "sample_lines.hpp"
#include "served_store.hpp"
#include "temp_dir.hpp"

namespace warlog::testing {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

// The server's log lines that name a backup ("backup DIR/...: ...").
std::vector<std::string> backup_lines(const ServedStore& s) {
  std::vector<std::string> out;
  std::istringstream in(s.err());
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("warlog serve: backup ") || line.find("BACKUP FAILED") != std::string::npos) {
      out.push_back(line);
    }
  }
  return out;
}

// Polls the log (every 50 ms, at most `limit`) until `done` holds of its backup lines.
template <class Done>
std::vector<std::string> wait_for(const ServedStore& s, Done done,
                                  std::chrono::seconds limit = std::chrono::seconds(30)) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  std::vector<std::string> lines = backup_lines(s);
  while (!done(lines) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    lines = backup_lines(s);
  }
  return lines;
}

std::uint64_t total_events(const std::string& store) {
  const CliResult list = run_warlog("list --store '" + store + "' --format json");
  const json listed = json::parse(list.out);  // kept: a range-for over a temporary's member dangles
  std::uint64_t n = 0;
  for (const auto& g : listed["games"]) n += g["events"].get<std::uint64_t>();
  return n;
}

class ServeBackups : public ::testing::Test {
 protected:
  void SetUp() override {
    lines_ = serve_tutorial(dir_, false);
    table1_ = issue_token(dir_.store(), "table", 1);
  }
  // The first `n` lines of the tutorial's body, recorded over HTTP.
  void record(const ServedStore& s, std::size_t n) {
    const HttpReply events = http(s.port(), "GET", "/api/games/1/events", table1_);
    ASSERT_EQ(events.status, 200) << events.body;
    std::uint64_t next = json::parse(events.body)["next_seq"].get<std::uint64_t>();
    for (std::size_t i = 0; i < n && i < lines_.body.size(); ++i) {
      const HttpReply r = http(s.port(), "POST", "/api/games/1/lines", table1_, line_body(next, lines_.body[i]));
      ASSERT_EQ(r.status, 200) << r.body;
      next = json::parse(r.body)["next_seq"].get<std::uint64_t>();
    }
  }

  TempDir dir_;
  SampleLines lines_;
  std::string table1_;
};

TEST_F(ServeBackups, EverySecondThatSawAWriteABackupThatVerifiesAndHoldsTheEvents) {
  const std::string dir = (dir_.path() / "backups").string();
  ServedStore served(dir_.store(),
                     {"--backup-every", "1s", dir, "--appends-per-second", "1000", "--append-burst", "1000"});
  EXPECT_THAT(served.err(), HasSubstr(fmt::format("backing up every 1 s to {} (every one kept), each verified", dir)));
  record(served, 12);
  const std::uint64_t events = total_events(dir_.store());
  const std::string holding = fmt::format(": 1 game, {} events, ", events);
  auto lines = wait_for(served, [&](const std::vector<std::string>& l) {
    return !l.empty() && l.back().find(holding) != std::string::npos;
  });
  ASSERT_FALSE(lines.empty()) << served.err();
  const std::string& last = lines.back();
  ASSERT_THAT(last, HasSubstr(holding)) << served.err();
  EXPECT_THAT(last, HasSubstr("verify ok"));
  std::smatch m;
  ASSERT_TRUE(std::regex_search(last, m, std::regex("backup (\\S+/warlog-backup-\\d{8}T\\d{6}Z(-\\d+)?): "))) << last;
  const std::string path = m[1];
  // The backup is a store that holds what was recorded, and verify says so.
  EXPECT_EQ(total_events(path), events);
  const CliResult v = run_warlog("verify --store '" + path + "'");
  EXPECT_EQ(v.code, 0) << v.out << v.err;
  EXPECT_THAT(v.out, HasSubstr(fmt::format("game 1: ok, chain intact ({} events", events)));
  // Backups hold every hand: their folder is the server's user's alone.
  EXPECT_EQ(std::filesystem::status(dir).permissions() & std::filesystem::perms::all, std::filesystem::perms::owner_all);

  // Nothing written since: the next periods make no backup.
  const std::size_t made = lines.size();
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  EXPECT_EQ(backup_lines(served).size(), made) << served.err();
  // A write: the next period backs it up.
  const HttpReply r = http(served.port(), "POST", "/api/games/1/lines", table1_,
                           line_body(events, lines_.body[12]));
  ASSERT_EQ(r.status, 200) << r.body;
  lines = wait_for(served, [&](const std::vector<std::string>& l) { return l.size() > made; });
  ASSERT_GT(lines.size(), made) << served.err();
  EXPECT_THAT(lines.back(), HasSubstr("verify ok"));
  EXPECT_EQ(served.stop(SIGTERM), 0) << served.err();
}

TEST_F(ServeBackups, BackupKeepKeepsTheNewest) {
  const std::string dir = (dir_.path() / "backups").string();
  ServedStore served(dir_.store(), {"--backup-every", "1s", dir, "--backup-keep", "1"});
  std::uint64_t next = total_events(dir_.store());
  for (int i = 0; i < 2; ++i) {
    const std::size_t before = backup_lines(served).size();
    const HttpReply r = http(served.port(), "POST", "/api/games/1/lines", table1_, line_body(next, lines_.body[i]));
    ASSERT_EQ(r.status, 200) << r.body;
    next = json::parse(r.body)["next_seq"].get<std::uint64_t>();
    const auto lines = wait_for(served, [&](const std::vector<std::string>& l) {
      return l.size() > before && l.back().find(fmt::format(" {} events", next)) != std::string::npos;
    });
    ASSERT_THAT(lines.back(), HasSubstr("verify ok")) << served.err();
  }
  std::size_t kept = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    kept += e.path().filename().string().starts_with("warlog-backup-") ? 1 : 0;
  }
  EXPECT_EQ(kept, 1u);
  EXPECT_EQ(served.stop(SIGTERM), 0) << served.err();
}

TEST_F(ServeBackups, ABadPeriodIsRefusedInOneLine) {
  for (const std::string period : {"10x", "0s", "25h", "m", "1.5m", "10 m", "999999999999h"}) {
    const CliResult r = run_warlog("serve '" + dir_.store() + "' --http 127.0.0.1:0 --backup-every '" + period + "' '" +
                                   (dir_.path() / "b").string() + "'");
    EXPECT_EQ(r.code, 2) << period;
    EXPECT_EQ(r.err, fmt::format("warlog: --backup-every takes a period, a whole number and s, m or h from 1s to 24h "
                                 "(30s, 10m, 2h), then a directory; not '{}'\n",
                                 period));
  }
}

TEST_F(ServeBackups, ADirThatCannotBeWrittenIsLoggedLoudlyAndServingGoesOn) {
  // A file where the directory should be: no one, root included, makes a directory under it.
  const std::filesystem::path file = dir_.path() / "not-a-dir";
  std::ofstream(file) << "x";
  ServedStore served(dir_.store(), {"--backup-every", "1s", (file / "backups").string()});
  const auto lines = wait_for(served, [](const std::vector<std::string>& l) { return !l.empty(); });
  ASSERT_FALSE(lines.empty()) << served.err();
  EXPECT_THAT(lines[0], HasSubstr("BACKUP FAILED: cannot create "));
  EXPECT_THAT(lines[0], HasSubstr("serving goes on"));
  const std::uint64_t next = total_events(dir_.store());
  const HttpReply r = http(served.port(), "POST", "/api/games/1/lines", table1_, line_body(next, lines_.body[0]));
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(served.stop(SIGTERM), 0) << served.err();
}

}  // namespace
}  // namespace warlog::testing
