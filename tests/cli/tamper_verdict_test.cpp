// What `warlog verify` prints for a tampered game (the tamper suite's CLI
// side; tests/store/tamper_* ask the same through the library calls).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cli/cli_run.hpp"
#include "store/store_fixtures.hpp"

namespace warlog {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::run_warlog;

// A broken unsigned game was "BROKEN at seq 27: ..." and then "unsigned:
// consistent, nobody attests it": the second line said the opposite of the
// first (found by the tamper suite).
TEST(TamperVerdictCli, ABrokenUnsignedGameIsNotCalledConsistent) {
  testing::TempDir dir;
  const std::string sample = std::string(WARLOG_SAMPLES_DIR) + "/tutorial/spine_first_blood.wlog";
  ASSERT_EQ(run_warlog("import --store " + dir.store() + " " + sample).code, 0);
  const std::string keyring = (dir.path() / "config" / "keyring").string();
  auto clean = run_warlog("verify --store " + dir.store() + " --keyring " + keyring);
  ASSERT_EQ(clean.code, 0) << clean.err;
  ASSERT_THAT(clean.out, HasSubstr("  unsigned: consistent, nobody attests it\n"));
  store::test::forge_event(dir.store(), 1, 27, [](std::string& bytes) { bytes[bytes.size() / 2] ^= 0x01; },
                           store::test::Forge::Bytes);
  auto v = run_warlog("verify --store " + dir.store() + " --keyring " + keyring);
  EXPECT_EQ(v.code, 1) << v.err;
  EXPECT_THAT(v.out, HasSubstr("game 1: BROKEN at seq 27"));
  EXPECT_THAT(v.out, HasSubstr("  unsigned: nobody attests it\n"));
  EXPECT_THAT(v.out, Not(HasSubstr("consistent")));
}

}  // namespace
}  // namespace warlog
