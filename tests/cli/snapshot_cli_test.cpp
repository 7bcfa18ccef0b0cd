// warlog snapshot: lays, reports and drops snapshots in the user's cache
// (never the store); verify --snapshots reports and removes a forged one;
// bad input is exit 2. Each test's cache and key are its own (the
// environment of the command it runs).

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <string>
#include <sys/wait.h>

#include "temp_dir.hpp"

namespace warlog {
namespace {

struct CliResult {
  int code = -1;
  std::string out;  // stdout and stderr together
};

// Runs warlog with the cache and key under `dir`.
CliResult warlog_cli(const testing::TempDir& dir, const std::string& args) {
  const std::string cmd = "WARLOG_CACHE_DIR=" + dir.cache_dir() + " XDG_CONFIG_HOME=" + (dir.path() / "config").string() +
                          " " + WARLOG_CLI_PATH + " " + args + " 2>&1";
  CliResult r;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) return r;
  std::array<char, 4096> buf{};
  while (std::fgets(buf.data(), static_cast<int>(buf.size()), p) != nullptr) r.out += buf.data();
  const int status = ::pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

TEST(CliSnapshot, LaysReportsAndDropsSnapshots) {
  testing::TempDir dir;
  const std::string store = "--store " + dir.store();
  ASSERT_EQ(warlog_cli(dir, "import " + store + " " + WARLOG_SAMPLES_DIR + "/tutorial/spine_first_blood.wlog").code, 0);

  const CliResult none = warlog_cli(dir, "snapshot " + store);
  EXPECT_EQ(none.code, 0) << none.out;
  EXPECT_NE(none.out.find("game 1: no snapshots (38 events, fewer than 500)"), std::string::npos) << none.out;

  const CliResult seven = warlog_cli(dir, "snapshot " + store + " --every 7 --game 1");
  EXPECT_EQ(seven.code, 0) << seven.out;
  EXPECT_NE(seven.out.find("game 1: 5 snapshots every 7 events (38 events;"), std::string::npos) << seven.out;

  EXPECT_NE(seven.out.find("snapshot cache: " + dir.cache_dir()), std::string::npos) << seven.out;
  EXPECT_TRUE(std::filesystem::exists(dir.cache_dir() + "/data.mdb"));
  EXPECT_TRUE(std::filesystem::exists(dir.key_file()));

  const CliResult verify = warlog_cli(dir, "verify " + store + " --snapshots");
  EXPECT_EQ(verify.code, 0) << verify.out;
  EXPECT_NE(verify.out.find("snapshots: 5 agree with the fold, 0 differ, 0 unusable, 0 stale, 0 of other rulesets"),
            std::string::npos)
      << verify.out;

  const CliResult drop = warlog_cli(dir, "snapshot " + store + " --drop");
  EXPECT_EQ(drop.code, 0) << drop.out;
  EXPECT_NE(drop.out.find("game 1: 5 snapshots dropped"), std::string::npos) << drop.out;
}

TEST(CliSnapshot, TheStoreIsOnlyReadAndMayBeReadOnly) {
  testing::TempDir dir;
  const std::string store = "--store " + dir.store();
  ASSERT_EQ(warlog_cli(dir, "import " + store + " " + WARLOG_SAMPLES_DIR + "/tutorial/spine_first_blood.wlog").code, 0);
  const auto data = std::filesystem::path(dir.store()) / "data.mdb";
  const auto before = std::filesystem::last_write_time(data);
  const auto size = std::filesystem::file_size(data);
  std::filesystem::permissions(dir.store(), std::filesystem::perms::owner_write, std::filesystem::perm_options::remove);
  const CliResult seven = warlog_cli(dir, "snapshot " + store + " --every 7");
  std::filesystem::permissions(dir.store(), std::filesystem::perms::owner_write, std::filesystem::perm_options::add);
  EXPECT_EQ(seven.code, 0) << seven.out;
  EXPECT_NE(seven.out.find("game 1: 5 snapshots every 7 events"), std::string::npos) << seven.out;
  EXPECT_EQ(std::filesystem::last_write_time(data), before) << "snapshot wrote to the store";
  EXPECT_EQ(std::filesystem::file_size(data), size);
}

TEST(CliSnapshot, AKeyOthersCanReadIsOneLineExitTwo) {
  testing::TempDir dir;
  const std::string store = "--store " + dir.store();
  ASSERT_EQ(warlog_cli(dir, "import " + store + " " + WARLOG_SAMPLES_DIR + "/tutorial/spine_first_blood.wlog").code, 0);
  ASSERT_EQ(warlog_cli(dir, "snapshot " + store + " --every 7").code, 0);
  std::filesystem::permissions(dir.key_file(), std::filesystem::perms::group_read | std::filesystem::perms::others_read,
                               std::filesystem::perm_options::add);
  const CliResult r = warlog_cli(dir, "snapshot " + store);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("warlog: local key " + dir.key_file() + " may be read or written by others (mode 0644)"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
}

TEST(CliSnapshot, BadInputIsExitTwoWithOneLine) {
  testing::TempDir dir;
  const std::string store = "--store " + dir.store();
  ASSERT_EQ(warlog_cli(dir, "import " + store + " " + WARLOG_SAMPLES_DIR + "/tutorial/spine_first_blood.wlog").code, 0);
  const CliResult zero = warlog_cli(dir, "snapshot " + store + " --every 0");
  EXPECT_EQ(zero.code, 2);
  EXPECT_NE(zero.out.find("N must be 1 or more"), std::string::npos) << zero.out;
  const CliResult missing = warlog_cli(dir, "snapshot " + store + " --game 9");
  EXPECT_EQ(missing.code, 2);
  EXPECT_NE(missing.out.find("warlog: game 9 does not exist"), std::string::npos) << missing.out;
}

}  // namespace
}  // namespace warlog
