// warlog keygen, sign, trust and verify: who signed (against the keyring),
// whether the game is still what was signed, and what a consistent edit by
// someone with write access still cannot hide.

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
    keyring_ = (dir_.path() / "config" / "keyring").string();
    store_ = "--store " + dir_.store() + " --keyring " + keyring_;
    key_ = (dir_.path() / "alice.key").string();
    ASSERT_EQ(run_warlog("import --store " + dir_.store() + " " + kSample).code, 0);
    auto k = run_warlog("keygen --out " + key_);
    ASSERT_EQ(k.code, 0) << k.err;
    ASSERT_THAT(k.out, MatchesRegex("public key [0-9a-f]{64}\n.*"));
    public_hex_ = k.out.substr(11, 64);
    ASSERT_THAT(k.out, HasSubstr("\nkey id "));
    key_id_ = k.out.substr(k.out.find("\nkey id ") + 8, 16);
  }
  testing::TempDir dir_;
    testing::CliResult verify(const std::string& more = "") { return run_warlog("verify " + store_ + more); }
  void trust(const std::string& name) {
    auto t = run_warlog("trust add '" + name + "' " + key_ + " --keyring " + keyring_ + " --store " + dir_.store());
    ASSERT_EQ(t.code, 0) << t.err;
  }
  void sign_as(const std::string& who) {
    auto s = run_warlog("sign --store " + dir_.store() + " --game 1 --key " + key_ + " --signer '" + who + "'");
    ASSERT_EQ(s.code, 0) << s.err;
  }
  void dispute_and_rule() {
    ASSERT_EQ(run_warlog("dispute add --store " + dir_.store() + " --game 1 --seq 27 --claim 'three' --by Ines").code, 0);
    ASSERT_EQ(run_warlog("dispute resolve 1:27:0 --store " + dir_.store() + " --ruling upheld --by Judge").code, 0);
  }
  std::string store_, keyring_, key_, public_hex_, key_id_;
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
  auto sign = run_warlog("sign --store " + dir_.store() + " --game 1 --key " + key_ + " --signer Alice");
  ASSERT_EQ(sign.code, 0) << sign.err;
  EXPECT_THAT(sign.out, HasSubstr("game 1 signed by Alice (key " + key_id_ + ") over 38 events and 0 annotations"));
  auto v = run_warlog("verify " + store_);
  EXPECT_EQ(v.code, 0) << v.out << v.err;
  EXPECT_THAT(v.out, HasSubstr("game 1: ok, chain intact (38 events, 1 annotation)\n"));
  EXPECT_THAT(v.out, HasSubstr("\n  valid signature by an unknown key " + key_id_ + ", self-declared 'Alice'"));
  EXPECT_THAT(v.out, MatchesRegex(".*\n  - signed by Alice \\(key " + key_id_ +
                                      "\\) at [0-9T:Z-]+ over 38 events, 0 annotations: valid\n"));
}

void flip_slinger(std::string& bytes) {
  const auto at = bytes.find("Paw Slin");
  ASSERT_NE(at, std::string::npos);
  bytes[at + 1] ^= 0x20;
}

TEST_F(SigningCli, AFlippedByteBreaksTheChainAndTheSignature) {
  sign_as("Alice");
  store::test::forge_event(dir_.store(), 1, 27, flip_slinger, store::test::Forge::Bytes);
  auto v = run_warlog("verify " + store_);
  EXPECT_EQ(v.code, 1) << v.out << v.err;
  EXPECT_THAT(v.out, HasSubstr("game 1: BROKEN at seq 27"));
  EXPECT_THAT(v.out, HasSubstr("signed by Alice"));
  EXPECT_THAT(v.out, HasSubstr("INVALID: the signed events cannot be read back"));
}

// Every tag, S and the head recomputed: the store is consistent, verify's
// chain says ok, and only the signature tells (Store format 2 › 4).
TEST_F(SigningCli, AConsistentForgeryFoolsTheChainNotTheSignature) {
  sign_as("Alice");
  store::test::forge_event(dir_.store(), 1, 27, flip_slinger, store::test::Forge::Consistent);
  auto v = run_warlog("verify --store " + dir_.store() + " --keyring " + keyring_);
  EXPECT_EQ(v.code, 1) << v.out << v.err;
  EXPECT_THAT(v.out, HasSubstr("game 1: ok"));
  EXPECT_THAT(v.out, HasSubstr("INVALID"));
}

TEST_F(SigningCli, SigningNeedsAKeyANameAndAGame) {
  EXPECT_EQ(run_warlog("sign --store " + dir_.store() + " --game 1 --key " + key_).code, 2);
  auto missing = run_warlog("sign --store " + dir_.store() + " --game 1 --key /nonexistent.key --signer A");
  EXPECT_EQ(missing.code, 2);
  EXPECT_EQ(testing::count_lines(missing.err), 1u);
  auto no_game = run_warlog("sign --store " + dir_.store() + " --game 4 --key " + key_ + " --signer A");
  EXPECT_EQ(no_game.code, 2);
  EXPECT_THAT(no_game.err, HasSubstr("game 4 does not exist"));
  ::chmod(key_.c_str(), 0644);
  auto open_key = run_warlog("sign --store " + dir_.store() + " --game 1 --key " + key_ + " --signer A");
  EXPECT_EQ(open_key.code, 2);
  EXPECT_THAT(open_key.err, HasSubstr("chmod 600"));
}

TEST_F(SigningCli, UnsignedIsConsistentAndNobodyAttestsIt) {
  auto v = verify();
  EXPECT_EQ(v.code, 0) << v.err;
  EXPECT_THAT(v.out, HasSubstr("\n  unsigned: consistent, nobody attests it\n"));
  EXPECT_FALSE(std::filesystem::exists(keyring_)) << "verify wrote a keyring nobody asked for";
}

TEST_F(SigningCli, ATrustedKeyIsNamedByTheKeyringAndAMismatchedSelfDeclaredNameIsFlagged) {
  trust("Head Judge");
  sign_as("Head Judge");
  auto v = verify();
  EXPECT_EQ(v.code, 0) << v.err;
  EXPECT_THAT(v.out, HasSubstr("  valid, signed by trusted 'Head Judge' (key " + key_id_ + "), self-declared 'Head Judge'\n"));
  sign_as("Somebody Else");  // the same key, another claimed name
  v = verify();
  EXPECT_THAT(v.out, HasSubstr("self-declared 'Somebody Else': NOT the keyring's name"));
  auto list = run_warlog("trust list --keyring " + keyring_);
  EXPECT_EQ(list.code, 0);
  EXPECT_THAT(list.out, HasSubstr(key_id_ + "  Head Judge\n"));
  EXPECT_THAT(list.out, HasSubstr("2 signed states remembered"));
  auto removed = run_warlog("trust remove " + key_id_ + " --keyring " + keyring_);
  EXPECT_EQ(removed.code, 0) << removed.err;
  EXPECT_THAT(verify().out, HasSubstr("valid signature by an unknown key " + key_id_));
  EXPECT_EQ(run_warlog("trust remove 'Head Judge' --keyring " + keyring_).code, 2) << "gone already";
}

TEST_F(SigningCli, RequireSignedExitsOneWithoutACurrentTrustedSignature) {
  EXPECT_EQ(verify(" --require-signed").code, 1) << "unsigned";
  sign_as("Alice");
  EXPECT_EQ(verify(" --require-signed").code, 1) << "signed by an unknown key";
  trust("Alice");
  auto ok = verify(" --require-signed");
  EXPECT_EQ(ok.code, 0) << ok.out << ok.err;
  ASSERT_EQ(run_warlog("dispute add --store " + dir_.store() + " --game 1 --seq 3 --claim x --by Ines").code, 0);
  auto stale = verify(" --require-signed");
  EXPECT_EQ(stale.code, 1) << "stale: a dispute added since";
  EXPECT_THAT(stale.out, HasSubstr("stale: 1 annotation since (signed by trusted 'Alice'"));
  EXPECT_EQ(verify().code, 0) << "stale is not a failure without --require-signed";
}

TEST_F(SigningCli, AKeyringInTheStoresFolderIsRefused) {
  const std::string inside = (std::filesystem::path(dir_.store()) / "keyring").string();
  for (const std::string& cmd : {"verify --store " + dir_.store() + " --keyring " + inside,
                                 "trust add X " + key_ + " --store " + dir_.store() + " --keyring " + inside,
                                 "trust list --store " + dir_.store() + " --keyring " + dir_.store()}) {
    auto r = run_warlog(cmd);
    EXPECT_EQ(r.code, 2) << cmd;
    EXPECT_EQ(testing::count_lines(r.err), 1u) << r.err;
    EXPECT_THAT(r.err, HasSubstr("is inside the store")) << cmd;
  }
  auto env = run_warlog("verify --store " + dir_.store(), "WARLOG_KEYRING=" + inside);
  EXPECT_EQ(env.code, 2) << "WARLOG_KEYRING is checked too";
  EXPECT_FALSE(std::filesystem::exists(inside));
}

TEST_F(SigningCli, ARulingRemovedFromASignedGameIsInvalidAndItsSignedStateVanished) {
  trust("Head Judge");
  dispute_and_rule();
  sign_as("Head Judge");
  ASSERT_EQ(verify(" --require-signed").code, 0);  // the keyring now remembers the signed state
  // The editor removes the ruling (#1) and moves the signature into its place,
  // every hash recomputed: the chains are consistent again.
  store::test::rewrite_annotations(dir_.store(), 1, [](std::vector<std::string>& v) { v.erase(v.begin() + 1); });
  auto v = verify();
  EXPECT_EQ(v.code, 1) << v.out;
  EXPECT_THAT(v.out, HasSubstr("game 1: ok, chain intact (38 events, 2 annotations)"));
  EXPECT_THAT(v.out, HasSubstr("  INVALID: it signed 2 annotations before it and is now annotation #1"));
  EXPECT_THAT(v.out, HasSubstr("VANISHED: the state signed by trusted 'Head Judge'"));
  // Removing the signature as well leaves a consistent, unsigned game: only
  // the keyring's memory still tells.
  store::test::rewrite_annotations(dir_.store(), 1, [](std::vector<std::string>& v) { v.pop_back(); });
  v = verify();
  EXPECT_EQ(v.code, 1) << v.out;
  EXPECT_THAT(v.out, HasSubstr("  unsigned: consistent, nobody attests it\n"));
  EXPECT_THAT(v.out, HasSubstr("VANISHED: the state signed by trusted 'Head Judge'"));
  EXPECT_THAT(v.out, HasSubstr("(38 events, 2 annotations) is no longer in this game: annotations were removed"));
}

TEST_F(SigningCli, AFlippedSignerByteIsInvalidEvenWithEveryHashRecomputed) {
  trust("Head Judge");
  sign_as("Head Judge");
  store::test::rewrite_annotations(dir_.store(), 1, [](std::vector<std::string>& v) {
    const auto at = v[0].find("Head Judge");
    ASSERT_NE(at, std::string::npos);
    v[0][at] = 'D';  // "Dead Judge"
  });
  auto v = verify();
  EXPECT_EQ(v.code, 1) << v.out;
  EXPECT_THAT(v.out, HasSubstr("game 1: ok"));
  EXPECT_THAT(v.out, HasSubstr("INVALID: the signature does not match its public key"));
}

TEST_F(SigningCli, AJudgesSignedRulingIsCheckedByVerify) {
  trust("Head Judge");
  ASSERT_EQ(run_warlog("dispute add --store " + dir_.store() + " --game 1 --seq 27 --claim three --by Ines").code, 0);
  auto r = run_warlog("dispute resolve 1:27:0 --store " + dir_.store() + " --ruling upheld --by Carla --key " + key_);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("signed with key " + key_id_));
  auto v = verify();
  EXPECT_EQ(v.code, 0) << v.out;
  EXPECT_THAT(v.out, HasSubstr("the ruling on dispute 1:27:0 (annotation #1) signed by trusted 'Head Judge' (key " +
                               key_id_ + "), as 'Carla': valid"));
  store::test::rewrite_annotations(dir_.store(), 1, [](std::vector<std::string>& v) {
    const auto at = v[1].find("upheld");
    ASSERT_NE(at, std::string::npos);
    v[1][at] = 'U';
  });
  v = verify();
  EXPECT_EQ(v.code, 1) << v.out;
  EXPECT_THAT(v.out, HasSubstr("as 'Carla': INVALID: the ruling is not what its judge signed"));
}

TEST_F(SigningCli, KeygenWritesAPublicKeyFileThatTrustAccepts) {
  const std::string pub = (dir_.path() / "judge.pub").string();
  auto k = run_warlog("keygen --out " + (dir_.path() / "judge.key").string() + " --public-out " + pub);
  ASSERT_EQ(k.code, 0) << k.err;
  auto t = run_warlog("trust add 'Head Judge' " + pub + " --keyring " + keyring_);
  EXPECT_EQ(t.code, 0) << t.err;
  auto again = run_warlog("trust add 'Other Name' " + pub + " --keyring " + keyring_);
  EXPECT_EQ(again.code, 2);
  EXPECT_THAT(again.err, HasSubstr("already trusted as 'Head Judge'"));
}

}  // namespace
}  // namespace warlog
