// warlog snapshot: lays, reports and drops snapshots; bad input is exit 2.

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <string>
#include <sys/wait.h>

#include "temp_dir.hpp"

namespace warlog {
namespace {

struct CliResult {
  int code = -1;
  std::string out;  // stdout and stderr together
};

CliResult warlog_cli(const std::string& args) {
  const std::string cmd = std::string(WARLOG_CLI_PATH) + " " + args + " 2>&1";
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
  ASSERT_EQ(warlog_cli("import " + store + " " + WARLOG_SAMPLES_DIR + "/tutorial/spine_first_blood.wlog").code, 0);

  const CliResult none = warlog_cli("snapshot " + store);
  EXPECT_EQ(none.code, 0) << none.out;
  EXPECT_NE(none.out.find("game 1: no snapshots (38 events, fewer than 500)"), std::string::npos) << none.out;

  const CliResult seven = warlog_cli("snapshot " + store + " --every 7 --game 1");
  EXPECT_EQ(seven.code, 0) << seven.out;
  EXPECT_NE(seven.out.find("game 1: 5 snapshots every 7 events (38 events;"), std::string::npos) << seven.out;

  const CliResult drop = warlog_cli("snapshot " + store + " --drop");
  EXPECT_EQ(drop.code, 0) << drop.out;
  EXPECT_NE(drop.out.find("game 1: 5 snapshots dropped"), std::string::npos) << drop.out;
}

TEST(CliSnapshot, BadInputIsExitTwoWithOneLine) {
  testing::TempDir dir;
  const std::string store = "--store " + dir.store();
  ASSERT_EQ(warlog_cli("import " + store + " " + WARLOG_SAMPLES_DIR + "/tutorial/spine_first_blood.wlog").code, 0);
  const CliResult zero = warlog_cli("snapshot " + store + " --every 0");
  EXPECT_EQ(zero.code, 2);
  EXPECT_NE(zero.out.find("N must be 1 or more"), std::string::npos) << zero.out;
  const CliResult missing = warlog_cli("snapshot " + store + " --game 9");
  EXPECT_EQ(missing.code, 2);
  EXPECT_NE(missing.out.find("warlog: game 9 does not exist"), std::string::npos) << missing.out;
}

}  // namespace
}  // namespace warlog
