// warlog keygen, sign and verify: who signed, and whether the game still
// matches; a flipped byte shows as a broken chain AND an invalid signature.

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include "cli/cli_run.hpp"
#include "store/store_fixtures.hpp"

namespace warlog {
namespace {

using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using testing::run_warlog;

const std::string kSample = std::string(WARLOG_SAMPLES_DIR) + "/tutorial/spine_first_blood.wlog";

class SigningCli : public ::testing::Test {
 protected:
  void SetUp() override {
    store_ = "--store " + dir_.store();
    key_ = (dir_.path() / "alice.key").string();
    ASSERT_EQ(run_warlog("import " + store_ + " " + kSample).code, 0);
    auto k = run_warlog("keygen --out " + key_);
    ASSERT_EQ(k.code, 0) << k.err;
    ASSERT_THAT(k.out, MatchesRegex("public key [0-9a-f]{64}\n.*"));
    public_hex_ = k.out.substr(11, 64);
    ASSERT_THAT(k.out, HasSubstr("\nkey id "));
    key_id_ = k.out.substr(k.out.find("\nkey id ") + 8, 16);
  }
  testing::TempDir dir_;
  std::string store_, key_, public_hex_, key_id_;
};

TEST_F(SigningCli, KeygenWritesAPrivateFileAndNeverOverwrites) {
  struct stat st {};
  ASSERT_EQ(::stat(key_.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  const std::string before = testing::slurp(key_);
  auto again = run_warlog("keygen --out " + key_);
  EXPECT_EQ(again.code, 2);
  EXPECT_THAT(again.err, HasSubstr("refusing to overwrite"));
  EXPECT_EQ(testing::slurp(key_), before);
}

TEST_F(SigningCli, VerifyReportsTheSignerAndWhetherItStillMatches) {
  auto sign = run_warlog("sign " + store_ + " --game 1 --key " + key_ + " --signer Alice");
  ASSERT_EQ(sign.code, 0) << sign.err;
  EXPECT_THAT(sign.out, HasSubstr("game 1 signed by Alice (key " + key_id_ + ") over 38 events and 0 annotations"));
  auto v = run_warlog("verify " + store_);
  EXPECT_EQ(v.code, 0) << v.out << v.err;
  EXPECT_THAT(v.out, HasSubstr("game 1: ok, chain intact (38 events)\n"));  // the existing line, unchanged
  EXPECT_THAT(v.out, MatchesRegex(".*\n  signed by Alice \\(key " + key_id_ +
                                      "\\) at [0-9T:Z-]+ over 38 events, 0 annotations: valid\n"));
}

TEST_F(SigningCli, AFlippedByteBreaksTheChainAndTheSignature) {
  ASSERT_EQ(run_warlog("sign " + store_ + " --game 1 --key " + key_ + " --signer Alice").code, 0);
  store::test::edit_raw(dir_.store(), store::kDbEvents, [](MDB_txn* txn, MDB_dbi dbi) {
    std::string bytes = store::test::raw_event(txn, dbi, 1, 27);
    const auto at = bytes.find("Paw Slin");  // a text's first word packs contiguously
    ASSERT_NE(at, std::string::npos);
    bytes[at + 1] ^= 0x20;
    store::test::put_raw(txn, dbi, store::view(store::event_key(1, 27)), bytes);
  });
  auto v = run_warlog("verify " + store_);
  EXPECT_EQ(v.code, 1) << v.out << v.err;
  EXPECT_THAT(v.out, HasSubstr("game 1: BROKEN at seq 28"));
  EXPECT_THAT(v.out, HasSubstr("signed by Alice"));
  EXPECT_THAT(v.out, HasSubstr("INVALID: events 0..37 are not what was signed"));
}

TEST_F(SigningCli, SigningNeedsAKeyANameAndAGame) {
  EXPECT_EQ(run_warlog("sign " + store_ + " --game 1 --key " + key_).code, 2);
  auto missing = run_warlog("sign " + store_ + " --game 1 --key /nonexistent.key --signer A");
  EXPECT_EQ(missing.code, 2);
  EXPECT_EQ(testing::count_lines(missing.err), 1u);
  auto no_game = run_warlog("sign " + store_ + " --game 4 --key " + key_ + " --signer A");
  EXPECT_EQ(no_game.code, 2);
  EXPECT_THAT(no_game.err, HasSubstr("game 4 does not exist"));
  ::chmod(key_.c_str(), 0644);
  auto open_key = run_warlog("sign " + store_ + " --game 1 --key " + key_ + " --signer A");
  EXPECT_EQ(open_key.code, 2);
  EXPECT_THAT(open_key.err, HasSubstr("chmod 600"));
}

}  // namespace
}  // namespace warlog
