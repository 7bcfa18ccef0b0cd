// warlog migrate on the committed format-1 store (tests/data/format1-store/),
// then verify, list and sign on the result (docs/architecture.md › "Store
// format 2" › 7).

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>

#include "cli/cli_run.hpp"

namespace warlog {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing::run_warlog;

const fs::path kFixture = fs::path(WARLOG_SOURCE_DIR) / "tests/data/format1-store";

class MigrateCli : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(dir_.store());
    fs::copy_file(kFixture / "data.mdb", fs::path(dir_.store()) / "data.mdb");
    store_ = "--store " + dir_.store();
  }
  testing::TempDir dir_;
  std::string store_;
};

TEST_F(MigrateCli, AFormatOneStoreIsRefusedUntilMigrated) {
  for (const char* verb : {"list", "verify", "audit"}) {
    const auto r = run_warlog(std::string(verb) + " " + store_);
    EXPECT_EQ(r.code, 2) << verb;
    EXPECT_EQ(r.err, "warlog: store " + dir_.store() + " has format 1: run `warlog migrate`\n") << verb;
  }
}

TEST_F(MigrateCli, MigratesVerifiesListsAndSignsAgain) {
  const auto m = run_warlog("migrate " + store_);
  ASSERT_EQ(m.code, 0) << m.out << m.err;
  EXPECT_THAT(m.out, HasSubstr("game 1: \"Cut off at the bridge\" migrated from format-1 head "));
  EXPECT_THAT(m.out, HasSubstr("(210 events), signed there by key 433b9033e0d73472 (Test Signer)\n"));
  EXPECT_THAT(m.out, HasSubstr("format 1 is kept at " + dir_.store() + ".format-1"));
  EXPECT_TRUE(fs::exists(dir_.store() + ".format-1/data.mdb"));

  const auto v = run_warlog("verify " + store_);
  EXPECT_EQ(v.code, 0) << v.out << v.err;
  EXPECT_THAT(v.out, HasSubstr("game 1: ok, chain intact (249 events, 3 annotations)\n  migrated from format-1 head "));
  EXPECT_THAT(v.out, HasSubstr("(210 events), signed there by key 433b9033e0d73472 (Test Signer)"));
  const auto l = run_warlog("list " + store_);
  EXPECT_EQ(l.code, 0);
  EXPECT_THAT(l.out, HasSubstr("Green powder"));
  EXPECT_THAT(l.out, HasSubstr("migrated from format-1 head"));
  // The dispute came through with its ruling (the audit reports the ruled finding).
  const auto d = run_warlog("dispute list " + store_);
  EXPECT_EQ(d.code, 0) << d.err;
  EXPECT_THAT(d.out, HasSubstr("1:122:0"));

  // The committed test key signs the format-2 head (read_key_file wants mode 0600).
  const fs::path key = dir_.path() / "test-signing.key";
  fs::copy_file(kFixture / "test-signing.key", key);
  ASSERT_EQ(::chmod(key.c_str(), 0600), 0);
  const auto s = run_warlog("sign " + store_ + " --game 2 --key " + key.string() + " --signer \"Test Signer\"");
  ASSERT_EQ(s.code, 0) << s.err;
  const auto again = run_warlog("verify " + store_ + " --game 2");
  EXPECT_EQ(again.code, 0) << again.out << again.err;
  EXPECT_THAT(again.out, HasSubstr("signed by Test Signer (key 433b9033e0d73472)"));
  EXPECT_THAT(again.out, HasSubstr("over 210 events"));

  // Migrating twice: there is nothing left to migrate, and nothing is touched.
  const auto twice = run_warlog("migrate " + store_);
  EXPECT_EQ(twice.code, 2);
  EXPECT_THAT(twice.err, HasSubstr("has format 2, not 1: there is nothing to migrate"));
}

}  // namespace
}  // namespace warlog
