// Ed25519 signatures over a stored game: key files, signing, and checking
// against the stored bytes after appends, tampering and forgery.

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>

#include "store/store_fixtures.hpp"
#include "warlog/events/annotation_codec.hpp"
#include "warlog/store/signature.hpp"

namespace warlog::store {
namespace {

namespace fs = std::filesystem;
using test::edit_raw;
using test::make_game;
using test::open_store;
using test::TempDir;
using ::testing::HasSubstr;
using Status = SignatureCheck::Status;

KeyPair key() {
  auto k = generate_keypair();
  EXPECT_TRUE(k);
  return *k;
}

std::vector<SignatureCheck> checks(const fs::path& store_dir, core::GameId game) {
  auto store = open_store(store_dir, Options{.read_only = true});
  auto r = check_signatures(*store.reader(), game);
  EXPECT_TRUE(r) << r.error().message;
  return r ? *r : std::vector<SignatureCheck>{};
}

class SignatureTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = open_store(dir_.store());
    ASSERT_EQ(store.import_game(make_game("Signed", 30)).value(), 1u);  // seq 0..30
    ASSERT_EQ(store.import_game(make_game("Bystander", 5)).value(), 2u);
  }
  void sign(const std::string& who, core::Seq last = 30) {
    auto store = open_store(dir_.store());
    auto r = sign_game(store, 1, key_, who, "2026-03-20T10:00:00Z");
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->seq, last);  // kept at the last event it covers
  }
  // Flips the case of one letter of a card name in game 1's event `seq`
  // (seq >= 1: game 1's block 1..30) and recomputes the block's tags: the
  // bytes still decode; only hashes can tell. With `consistent`, also the
  // block's S and the record's head: a consistent store, which only a
  // signature tells apart (docs/architecture.md › "Store format 2" › 4).
  void flip_letter(core::Seq seq, bool consistent = false) {
    core::Digest head{};
    edit_raw(dir_.store(), kDbEvents, [&](MDB_txn* txn, MDB_dbi dbi) {
      test::TestBlock b = test::read_block(txn, dbi, 1, 1);
      std::string& bytes = b.events.at(seq - 1);
      const auto pos = std::min({bytes.find("Ironclaw"), bytes.find("Claw Mus"), bytes.find("Paw Mili"),
                                 bytes.find("Grain Ca"), bytes.find("Talon Se")});
      ASSERT_NE(pos, std::string::npos);
      bytes[pos + 1] ^= 0x20;
      b.retag(1);
      if (consistent) b.rehash(test::read_block(txn, dbi, 1, 0).s);
      head = b.s;
      test::write_block(txn, dbi, 1, 1, b);
    });
    if (!consistent) return;
    edit_raw(dir_.store(), kDbGames, [&](MDB_txn* txn, MDB_dbi dbi) {
      auto meta = decode_game_meta(*lmdb::get(txn, dbi, view(game_key(1))).value());
      ASSERT_TRUE(meta);
      meta->head = head;
      test::put_raw(txn, dbi, view(game_key(1)), encode_game_meta(*meta));
    });
  }

  TempDir dir_;
  KeyPair key_ = key();
};

TEST(SignatureMessage, BindsGameCountAndHead) {
  core::Digest head{};
  head[0] = 1;
  const std::string m = signed_message(3, 58, head);
  EXPECT_EQ(m.size(), 23u + 8 + 8 + 32);
  EXPECT_EQ(m.rfind("warlog.game-signature.1", 0), 0u);
  EXPECT_NE(m, signed_message(4, 58, head));
  EXPECT_NE(m, signed_message(3, 59, head));
  EXPECT_NE(m, signed_message(3, 58, core::Digest{}));
  const KeyPair k = key();
  const auto sig = sign_message(k, m);
  EXPECT_TRUE(signature_matches(k.public_key, m, sig));
  EXPECT_FALSE(signature_matches(k.public_key, signed_message(3, 59, head), sig));
  EXPECT_FALSE(signature_matches(key().public_key, m, sig));
}

TEST(KeyFile, IsWrittenPrivateNeverOverwrittenAndReadBack) {
  TempDir dir;
  const auto file = dir.path() / "judge.key";
  const KeyPair k = key();
  ASSERT_TRUE(write_key_file(file, k));
  struct stat st {};
  ASSERT_EQ(::stat(file.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  auto again = write_key_file(file, key());
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, ErrorCode::Conflict);
  auto back = read_key_file(file);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->seed, k.seed);
  EXPECT_EQ(back->public_key, k.public_key);
}

TEST(KeyFile, ReadableByOthersOrDamagedIsRefused) {
  TempDir dir;
  const auto file = dir.path() / "k.key";
  ASSERT_TRUE(write_key_file(file, key()));
  ::chmod(file.c_str(), 0644);
  auto open_to_all = read_key_file(file);
  ASSERT_FALSE(open_to_all);
  EXPECT_THAT(open_to_all.error().message, HasSubstr("chmod 600"));

  const auto other = dir.path() / "damaged.key";
  {
    std::ofstream(other) << "seed " << std::string(64, '1') << "\npublic " << std::string(64, '2') << "\n";
  }
  ::chmod(other.c_str(), 0600);
  auto damaged = read_key_file(other);
  ASSERT_FALSE(damaged);
  EXPECT_EQ(damaged.error().code, ErrorCode::DataLoss);
  EXPECT_EQ(read_key_file(dir.path() / "absent.key").error().code, ErrorCode::NotFound);
}

TEST_F(SignatureTest, AFreshSignatureIsValid) {
  sign("Alice");
  const auto c = checks(dir_.store(), 1);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].status, Status::Valid) << c[0].detail;
  EXPECT_EQ(c[0].detail, "valid");
  EXPECT_EQ(c[0].signature().signer, "Alice");
  EXPECT_EQ(c[0].signature().public_key, key_.public_key);
  EXPECT_EQ(c[0].signature().event_count, 31u);
  EXPECT_TRUE(checks(dir_.store(), 2).empty());
}

TEST_F(SignatureTest, EventsAppendedAfterwardsMakeItStale) {
  sign("Alice");
  {
    auto store = open_store(dir_.store());
    const auto more = make_game("Signed", 3);
    ASSERT_TRUE(store.append(1, 31, std::span(more).subspan(1)));
  }
  const auto c = checks(dir_.store(), 1);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].status, Status::Stale);
  EXPECT_EQ(c[0].events_since, 3u);
  EXPECT_EQ(c[0].detail, "stale: game has 3 events since");
  sign("Alice again", 33);  // a second signature over the longer game; the first stays
  const auto both = checks(dir_.store(), 1);
  ASSERT_EQ(both.size(), 2u);
  EXPECT_EQ(both[0].status, Status::Stale);
  EXPECT_EQ(both[1].status, Status::Valid);
}

TEST_F(SignatureTest, AFlippedByteInTheSignedEventsInvalidatesIt) {
  sign("Alice");
  flip_letter(12);
  auto store = open_store(dir_.store(), Options{.read_only = true});
  auto report = store.reader()->verify(1);
  ASSERT_TRUE(report->broken) << "verify must see the chain break";
  EXPECT_EQ(report->broken->seq, 1u) << "the block at seq 1..30";
  const auto c = check_signatures(*store.reader(), 1);
  ASSERT_TRUE(c);
  ASSERT_EQ(c->size(), 1u);
  EXPECT_EQ((*c)[0].status, Status::Invalid);
  EXPECT_THAT((*c)[0].detail, HasSubstr("cannot be read back"));
}

// Every tag, S and head recomputed: verify sees a consistent store; the
// signature still knows what was signed.
TEST_F(SignatureTest, AConsistentlyRehashedStoreVerifiesButItsSignatureIsInvalid) {
  sign("Alice");
  flip_letter(12, true);
  auto store = open_store(dir_.store(), Options{.read_only = true});
  auto report = store.reader()->verify(1);
  ASSERT_TRUE(report);
  EXPECT_TRUE(report->ok()) << report->broken->to_string();
  auto c = check_signatures(*store.reader(), 1);
  ASSERT_TRUE(c);
  ASSERT_EQ(c->size(), 1u);
  EXPECT_EQ((*c)[0].status, Status::Invalid);
  EXPECT_THAT((*c)[0].detail, HasSubstr("INVALID: events 0..30 are not what was signed"));
}

TEST_F(SignatureTest, AFlippedByteInTheLastEventInvalidatesIt) {
  // The metadata's head still names the old bytes: the check must not trust it.
  sign("Alice");
  flip_letter(30);
  const auto c = checks(dir_.store(), 1);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].status, Status::Invalid);
}

TEST_F(SignatureTest, AnAlteredRecordDoesNotMatchItsKey) {
  sign("Alice");
  edit_raw(dir_.store(), kDbAnnotations, [](MDB_txn* txn, MDB_dbi dbi) {
    const auto k = annotation_key(1, 30, 0);
    auto v = lmdb::get(txn, dbi, view(k));
    ASSERT_TRUE(v && *v);
    auto record = events::decode_annotation(**v);
    ASSERT_TRUE(record);
    std::get<core::GameSigned>(*record).event_count = 31;  // unchanged: then forge the head
    std::get<core::GameSigned>(*record).head[0] ^= 1;
    test::put_raw(txn, dbi, view(k), events::encode_annotation(*record));
  });
  const auto c = checks(dir_.store(), 1);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].status, Status::Invalid);
  EXPECT_THAT(c[0].detail, HasSubstr("does not match its public key"));
}

TEST_F(SignatureTest, ARemovedEventInvalidatesIt) {
  sign("Alice");
  edit_raw(dir_.store(), kDbEvents, [](MDB_txn* txn, MDB_dbi dbi) {
    ASSERT_TRUE(lmdb::del(txn, dbi, view(event_key(1, 1))).value());  // the block at seq 1..30
  });
  const auto c = checks(dir_.store(), 1);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].status, Status::Invalid);
  EXPECT_THAT(c[0].detail, HasSubstr("cannot be read back"));
}

TEST_F(SignatureTest, ABrokenChainIsNotSigned) {
  flip_letter(5);
  auto store = open_store(dir_.store());
  auto r = sign_game(store, 1, key_, "Alice", "");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::DataLoss);
  EXPECT_THAT(r.error().message, HasSubstr("does not verify"));
  EXPECT_TRUE(store.reader()->annotations(1)->empty());
}

}  // namespace
}  // namespace warlog::store
