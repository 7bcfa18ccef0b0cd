// Ed25519 signatures over a stored game: key files, signing, and checking
// against the stored bytes after appends, tampering and forgery.

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <functional>

#include "store/store_fixtures.hpp"
#include "warlog/events/annotation_codec.hpp"
#include "warlog/store/game_meta.hpp"
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

core::DisputeRaised dispute(std::string claim) { return {std::move(claim), "Ines", {}, "2026-03-20T10:00:00Z"}; }
core::DisputeRuled ruling(std::uint32_t on, std::string text = "upheld") {
  core::DisputeRuled r;
  r.dispute = on;
  r.ruling = std::move(text);
  r.ruled_by = "Judge";
  return r;
}

void rewrite_annotations(const fs::path& store_dir, const std::function<void(std::vector<std::string>&)>& edit) {
  test::rewrite_annotations(store_dir, 1, edit);
}

bool verifies(const fs::path& store_dir) {
  auto store = open_store(store_dir, Options{.read_only = true});
  return store.reader()->verify(1)->ok();
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
    auto r = sign_game(store, 1, key_, who, 1'774'000'000'000);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->seq, last);  // concerns the last event it covers
  }
  void annotate(core::Seq seq, const core::Annotation& a) {
    auto store = open_store(dir_.store());
    auto r = store.append_annotation(1, seq, a);
    ASSERT_TRUE(r) << r.error().message;
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
      const core::Digest old_head = meta->head;
      meta->head = head;
      test::put_raw(txn, dbi, view(game_key(1)), encode_game_meta(*meta));
      // The identity-index key of an imported game is its head: a
      // consistent forger re-keys it too (verify checks it).
      MDB_dbi identity = 0;
      ASSERT_EQ(mdb_dbi_open(txn, kDbIdentity, 0, &identity), 0);
      const std::string_view old_key(reinterpret_cast<const char*>(old_head.data()), 32);
      ASSERT_TRUE(lmdb::del(txn, identity, old_key).value());
      test::put_raw(txn, identity, std::string_view(reinterpret_cast<const char*>(head.data()), 32),
                    std::string(view(game_key(1))));
    });
  }

  TempDir dir_;
  KeyPair key_ = key();
};

core::GameSigned example() {
  core::GameSigned s;
  s.signer = "Head Judge";
  s.signed_at_ms = 1'774'000'000'000;
  s.key_id = {1, 2, 3, 4, 5, 6, 7, 8};
  s.identity[0] = 9;
  s.event_count = 58;
  s.head[0] = 1;
  s.annotation_count = 2;
  s.annotation_head[0] = 3;
  return s;
}

TEST(SignatureMessage, IsTheArchitecturesLayoutAndBindsEveryField) {
  const core::GameSigned s = example();
  const std::string m = signed_message(s).value();
  const std::string tag = "warlog.game-signature.2";
  ASSERT_EQ(m.size(), tag.size() + 2 + s.signer.size() + 8 + 8 + 32 + 8 + 32 + 8 + 32);
  EXPECT_EQ(m.substr(0, tag.size()), tag);
  EXPECT_EQ(m.substr(tag.size(), 2), std::string("\x0a\x00", 2)) << "u16 LE signer length";
  EXPECT_EQ(m.substr(tag.size() + 2, 10), "Head Judge");
  EXPECT_EQ(m.substr(tag.size() + 12 + 8 + 8 + 32, 8), std::string("\x3a\0\0\0\0\0\0\0", 8)) << "u64 LE count 58";
  auto differs = [&](auto change) {
    core::GameSigned t = s;
    change(t);
    return signed_message(t).value() != m;
  };
  EXPECT_TRUE(differs([](core::GameSigned& t) { t.signer[0] ^= 1; }));
  EXPECT_TRUE(differs([](core::GameSigned& t) { t.signer += " "; }));
  EXPECT_TRUE(differs([](core::GameSigned& t) { ++t.signed_at_ms; }));
  EXPECT_TRUE(differs([](core::GameSigned& t) { t.key_id[7] ^= 1; }));
  EXPECT_TRUE(differs([](core::GameSigned& t) { t.identity[31] ^= 1; }));
  EXPECT_TRUE(differs([](core::GameSigned& t) { ++t.event_count; }));
  EXPECT_TRUE(differs([](core::GameSigned& t) { t.head[5] ^= 1; }));
  EXPECT_TRUE(differs([](core::GameSigned& t) { ++t.annotation_count; }));
  EXPECT_TRUE(differs([](core::GameSigned& t) { t.annotation_head[5] ^= 1; }));
  EXPECT_FALSE(differs([](core::GameSigned& t) { t.signature[0] ^= 1; })) << "the signature is not in its message";
  core::GameSigned too_long = s;
  too_long.signer.assign(70'000, 'x');
  EXPECT_EQ(signed_message(too_long).error().code, ErrorCode::InvalidArgument);
  const KeyPair k = key();
  const auto sig = sign_message(k, m);
  EXPECT_TRUE(signature_matches(k.public_key, m, sig));
  EXPECT_FALSE(signature_matches(key().public_key, m, sig));
}

TEST(KeyIds, AreTheFirstEightBytesOfTheKeysBlake2b) {
  const KeyPair k = key();
  const auto d = core::blake2b(std::string_view(reinterpret_cast<const char*>(k.public_key.data()), 32));
  const core::KeyId id = key_id_of(k.public_key);
  EXPECT_TRUE(std::equal(id.begin(), id.end(), d.begin()));
  EXPECT_EQ(key_id_hex(id), core::to_hex(d).substr(0, 16));
}

TEST(PublicKeyFile, IsWrittenAndReadBackAsIsTheKeyOfASecretKeyFile) {
  TempDir dir;
  const KeyPair k = key();
  ASSERT_TRUE(write_key_file(dir.path() / "judge.key", k));
  ASSERT_TRUE(write_public_key_file(dir.path() / "judge.pub", k.public_key));
  EXPECT_EQ(write_public_key_file(dir.path() / "judge.pub", k.public_key).error().code, ErrorCode::Conflict);
  EXPECT_EQ(read_public_key(dir.path() / "judge.pub").value(), k.public_key);
  EXPECT_EQ(read_public_key(dir.path() / "judge.key").value(), k.public_key);
  std::ofstream(dir.path() / "notes.txt") << "hello\n";
  EXPECT_EQ(read_public_key(dir.path() / "notes.txt").error().code, ErrorCode::InvalidArgument);
  EXPECT_EQ(read_public_key(dir.path() / "absent.pub").error().code, ErrorCode::NotFound);
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

TEST_F(SignatureTest, AFreshSignatureIsValidAndSaysWhatItCovers) {
  annotate(4, dispute("a dispute before the signature"));
  sign("Alice");
  const auto c = checks(dir_.store(), 1);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].status, Status::Valid) << c[0].detail;
  EXPECT_EQ(c[0].detail, "valid");
  const auto& s = c[0].signature();
  EXPECT_EQ(s.signer, "Alice");
  EXPECT_EQ(s.public_key, key_.public_key);
  EXPECT_EQ(s.key_id, key_id_of(key_.public_key));
  EXPECT_EQ(s.signed_at_ms, 1'774'000'000'000);
  EXPECT_EQ(s.event_count, 31u);
  EXPECT_EQ(s.annotation_count, 1u);
  auto store = open_store(dir_.store(), Options{.read_only = true});
  const auto meta = store.reader()->game(1).value();
  EXPECT_EQ(s.identity, meta.identity);
  EXPECT_EQ(s.head, meta.head);
  EXPECT_TRUE(check_signatures(*store.reader(), 2)->empty());
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
  EXPECT_EQ(c[0].detail, "stale: 3 events since");
  sign("Alice again", 33);  // a second signature over the longer game; the first stays
  const auto both = checks(dir_.store(), 1);
  ASSERT_EQ(both.size(), 2u);
  EXPECT_EQ(both[0].status, Status::Stale);
  EXPECT_EQ(both[1].status, Status::Valid);
}

TEST_F(SignatureTest, ARulingAddedAfterwardsMakesItStaleAndASecondSignatureDoesNot) {
  annotate(4, dispute("raised"));
  sign("Alice");
  sign("Bruno");  // a co-signature changes nothing that Alice signed
  auto c = checks(dir_.store(), 1);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].status, Status::Valid) << c[0].detail;
  EXPECT_EQ(c[1].status, Status::Valid) << c[1].detail;
  annotate(4, ruling(0));
  c = checks(dir_.store(), 1);
  EXPECT_EQ(c[0].status, Status::Stale);
  EXPECT_EQ(c[0].annotations_since, 1u);
  EXPECT_EQ(c[0].detail, "stale: 1 annotation since");
  EXPECT_EQ(c[1].status, Status::Stale);
}

TEST_F(SignatureTest, ARulingRemovedFromASignedGameMakesItInvalidThoughVerifySeesNothing) {
  annotate(4, dispute("raised"));
  annotate(4, ruling(0));
  sign("Alice");
  // The editor removes the ruling (#1) and renumbers the signature into its
  // place, every hash and the record recomputed.
  rewrite_annotations(dir_.store(), [](std::vector<std::string>& v) { v.erase(v.begin() + 1); });
  EXPECT_TRUE(verifies(dir_.store())) << "a consistent edit: verify alone cannot see it";
  const auto c = checks(dir_.store(), 1);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].status, Status::Invalid);
  EXPECT_THAT(c[0].detail, HasSubstr("INVALID: it signed 2 annotations before it and is now annotation #1"));
}

TEST_F(SignatureTest, AnAlteredRulingUnderASignatureMakesItInvalid) {
  annotate(4, dispute("raised"));
  annotate(4, ruling(0, "upheld"));
  sign("Alice");
  rewrite_annotations(dir_.store(), [](std::vector<std::string>& v) {
    auto r = events::decode_annotation(v[1]).value();
    std::get<core::DisputeRuled>(r.value).ruling = "rejected";
    v[1] = events::encode_annotation(r.seq, r.value);
  });
  EXPECT_TRUE(verifies(dir_.store()));
  const auto c = checks(dir_.store(), 1);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].status, Status::Invalid);
  EXPECT_THAT(c[0].detail, HasSubstr("the annotations before it are not what was signed"));
}

TEST_F(SignatureTest, AFlippedSignerByteCannotRenameTheSigner) {
  sign("Alice");
  // Even with every hash recomputed, "Alice" cannot become "Blice".
  rewrite_annotations(dir_.store(), [](std::vector<std::string>& v) {
    const auto pos = v[0].find("Alice");
    ASSERT_NE(pos, std::string::npos);
    v[0][pos] ^= 0x03;
  });
  EXPECT_TRUE(verifies(dir_.store()));
  const auto c = checks(dir_.store(), 1);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].signature().signer, "Blice");
  EXPECT_EQ(c[0].status, Status::Invalid);
  EXPECT_THAT(c[0].detail, HasSubstr("does not match its public key"));
}

TEST_F(SignatureTest, ASignatureCopiedFromAnotherGameIsInvalid) {
  {
    auto store = open_store(dir_.store());
    ASSERT_TRUE(sign_game(store, 2, key_, "Alice", 1));  // game 2: 6 events
  }
  // Game 2's signature, planted in game 1 (whose first events are the same
  // shape): its identity is game 2's.
  std::string planted;
  edit_raw(dir_.store(), kDbAnnotations, [&](MDB_txn* txn, MDB_dbi dbi) {
    planted = std::string(lmdb::get(txn, dbi, view(annotation_key(2, 0))).value()->substr(32));
  });
  rewrite_annotations(dir_.store(), [&](std::vector<std::string>& v) { v.push_back(planted); });
  const auto c = checks(dir_.store(), 1);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].status, Status::Invalid);
  EXPECT_THAT(c[0].detail, HasSubstr("signed another game"));
}

TEST_F(SignatureTest, AJudgesRulingSignatureHoldsUntilTheRulingIsAltered) {
  annotate(4, dispute("raised"));
  core::DisputeRuled r = ruling(0, "upheld");
  {
    auto store = open_store(dir_.store());
    const auto identity = store.reader()->game(1)->identity;
    ASSERT_TRUE(sign_ruling(r, 4, identity, key_, 1'774'000'000'000));
  }
  annotate(4, r);
  auto store = open_store(dir_.store(), Options{.read_only = true});
  auto c = check_ruling_signatures(*store.reader(), 1);
  ASSERT_TRUE(c);
  ASSERT_EQ(c->size(), 1u);
  EXPECT_TRUE((*c)[0].valid) << (*c)[0].detail;
  EXPECT_EQ((*c)[0].signature().public_key, key_.public_key);
}

TEST_F(SignatureTest, AnAlteredSignedRulingIsInvalid) {
  annotate(4, dispute("raised"));
  core::DisputeRuled r = ruling(0, "upheld");
  {
    auto store = open_store(dir_.store());
    ASSERT_TRUE(sign_ruling(r, 4, store.reader()->game(1)->identity, key_, 5));
  }
  annotate(4, r);
  rewrite_annotations(dir_.store(), [](std::vector<std::string>& v) {
    auto a = events::decode_annotation(v[1]).value();
    std::get<core::DisputeRuled>(a.value).ruling = "rejected";
    v[1] = events::encode_annotation(a.seq, a.value);
  });
  auto store = open_store(dir_.store(), Options{.read_only = true});
  auto c = check_ruling_signatures(*store.reader(), 1).value();
  ASSERT_EQ(c.size(), 1u);
  EXPECT_FALSE(c[0].valid);
  EXPECT_THAT(c[0].detail, HasSubstr("not what its judge signed"));
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

TEST_F(SignatureTest, AForgedHeadDoesNotMatchTheKey) {
  sign("Alice");
  rewrite_annotations(dir_.store(), [](std::vector<std::string>& v) {
    auto record = events::decode_annotation(v[0]).value();
    std::get<core::GameSigned>(record.value).head[0] ^= 1;
    v[0] = events::encode_annotation(record.seq, record.value);
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
  auto r = sign_game(store, 1, key_, "Alice", 0);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::DataLoss);
  EXPECT_THAT(r.error().message, HasSubstr("does not verify"));
  EXPECT_TRUE(store.reader()->annotations(1)->empty());
}

}  // namespace
}  // namespace warlog::store
