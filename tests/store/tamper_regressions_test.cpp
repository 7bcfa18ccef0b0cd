// Holes the tamper suite (tamper_*_test.cpp) found, each as the smallest
// store that shows it: edits verify passed before its fix.

#include <gtest/gtest.h>

#include <string>

#include "store/store_fixtures.hpp"
#include "warlog/events/annotation_codec.hpp"
#include "warlog/replay/keyring.hpp"
#include "warlog/replay/replay.hpp"
#include "warlog/store/signature.hpp"

namespace warlog::store {
namespace {

using test::make_game;
using test::open_store;
using test::TempDir;

bool verifies(const test::fs::path& path, core::GameId game) {
  auto store = Store::open(path, Options{.read_only = true});
  if (!store) return false;
  auto reader = store->reader();
  if (!reader) return false;
  auto report = reader->verify(game);
  return report && report->ok();
}

struct Entry {
  std::string key, value;
};

std::vector<Entry> index_entries(const test::fs::path& path) {
  std::vector<Entry> out;
  test::edit_raw(path, kDbIdentity, [&](MDB_txn* txn, MDB_dbi dbi) {
    auto cursor = lmdb::Cursor::open(txn, dbi);
    ASSERT_TRUE(cursor);
    for (auto e = cursor->get(MDB_FIRST); e && *e; e = cursor->get(MDB_NEXT)) {
      out.push_back({std::string(cursor->key()), std::string(cursor->value())});
    }
  });
  return out;
}

class IdentityIndexTamper : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = open_store(dir_.store());
    ASSERT_EQ(store.import_game(make_game("First", 70)).value(), 1u);
    ASSERT_EQ(store.import_game(make_game("Second", 10)).value(), 2u);
  }
  TempDir dir_;
};

// The index entry of an imported game is keyed by its head as imported;
// verify found it by value when the key was neither identity nor head, so
// any key passed: one flipped key byte (tamper suite: 1,600 of 2,000
// identity-index positions passed).
TEST_F(IdentityIndexTamper, AnIndexEntryUnderAnAlteredKeyIsCaught) {
  const auto entries = index_entries(dir_.store());
  ASSERT_EQ(entries.size(), 2u);
  const Entry& first = get_be64(entries[0].value.data()) == 1 ? entries[0] : entries[1];
  std::string key = first.key;
  key[5] = static_cast<char>(key[5] ^ 0x01);
  test::edit_raw(dir_.store(), kDbIdentity, [&](MDB_txn* txn, MDB_dbi dbi) {
    ASSERT_TRUE(lmdb::del(txn, dbi, first.key).value());
    test::put_raw(txn, dbi, key, first.value);
  });
  EXPECT_FALSE(verifies(dir_.store(), 1));
  EXPECT_TRUE(verifies(dir_.store(), 2));
}

// Two games' entries swapped (each key now names the other game) passed for
// both: each game id was still found under some key.
TEST_F(IdentityIndexTamper, TwoGamesEntriesSwappedAreCaughtForBoth) {
  const auto entries = index_entries(dir_.store());
  ASSERT_EQ(entries.size(), 2u);
  test::edit_raw(dir_.store(), kDbIdentity, [&](MDB_txn* txn, MDB_dbi dbi) {
    test::put_raw(txn, dbi, entries[0].key, entries[1].value);
    test::put_raw(txn, dbi, entries[1].key, entries[0].value);
  });
  EXPECT_FALSE(verifies(dir_.store(), 1));
  EXPECT_FALSE(verifies(dir_.store(), 2));
}

// What the check must still accept: a game appended to since its import is
// keyed by an older head than its record's.
TEST_F(IdentityIndexTamper, AGameAppendedToSinceItsImportStillVerifies) {
  {
    auto store = open_store(dir_.store());
    auto more = make_game("First", 75);
    std::vector<core::Event> tail(more.begin() + 71, more.end());
    ASSERT_TRUE(store.append(1, 71, tail));
  }
  EXPECT_TRUE(verifies(dir_.store(), 1));
}

// --- A signature's own record (store/src/signature.cpp) ------------------------------------

class SignatureRecordTamper : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = open_store(dir_.store());
    ASSERT_EQ(store.import_game(make_game("Signed", 30)).value(), 1u);
    ASSERT_TRUE(sign_game(store, 1, key_, "Head Judge", 1'774'000'000'000));
  }
  std::vector<SignatureCheck> checks() {
    auto store = open_store(dir_.store(), Options{.read_only = true});
    auto c = check_signatures(*store.reader(), 1);
    EXPECT_TRUE(c);
    return c ? *c : std::vector<SignatureCheck>{};
  }
  TempDir dir_;
  KeyPair key_ = keypair_from_seed({7});
};

// The annotation's seq is outside the signed message: moved to another
// event and the chain resealed, the signature passed as valid (tamper
// suite: resealed flips of bytes 16..23 of the signature's record).
TEST_F(SignatureRecordTamper, ASignatureMovedToAnotherSeqIsInvalid) {
  test::rewrite_annotations(dir_.store(), 1, [](std::vector<std::string>& v) {
    auto a = events::decode_annotation(v.at(0)).value();
    v[0] = events::encode_annotation(a.seq - 4, a.value);
  });
  const auto c = checks();
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].status, SignatureCheck::Status::Invalid);
  EXPECT_NE(c[0].detail.find("stands at seq 26 but signed 31 events"), std::string::npos) << c[0].detail;
}

// Bits in the unused part of the record's first data word decode to the
// same signature: resealed, they passed (tamper suite: bytes 10..15).
TEST_F(SignatureRecordTamper, ASignatureWithBitsSetOutsideItsFieldsIsInvalid) {
  test::rewrite_annotations(dir_.store(), 1, [](std::vector<std::string>& v) {
    ASSERT_TRUE(events::decode_annotation(v.at(0)));
    v[0][12] = static_cast<char>(v[0][12] ^ 0x02);
    ASSERT_TRUE(events::decode_annotation(v[0])) << "still decodes";
  });
  const auto c = checks();
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].status, SignatureCheck::Status::Invalid);
  EXPECT_NE(c[0].detail.find("not the encoding of what it says"), std::string::npos) << c[0].detail;
}

// The keyring remembered a trusted signature over a state that is still
// here, but the signature record was removed and the chain resealed: verify
// said "unsigned: consistent, nobody attests it" (tamper suite). Now stale,
// with a WITHDRAWN note.
TEST_F(SignatureRecordTamper, ATrustedSignatureRemovedIsStaleWithdrawnNotUnsigned) {
  auto ring = replay::Keyring::load(dir_.path() / "keyring").value();
  ASSERT_TRUE(ring.add("Head Judge", key_.public_key));
  {
    auto archive = replay::Archive::open(dir_.store().string(), replay::Archive::Mode::ReadOnly);
    ASSERT_TRUE(archive);
    auto trust = replay::assess_game(*archive, 1, ring);
    ASSERT_TRUE(trust);
    ASSERT_EQ(trust->verdict, replay::GameTrust::Verdict::Trusted);
    for (const auto& st : trust->to_remember) ring.remember(st);
  }
  test::rewrite_annotations(dir_.store(), 1, [](std::vector<std::string>& v) { v.clear(); });
  auto archive = replay::Archive::open(dir_.store().string(), replay::Archive::Mode::ReadOnly);
  ASSERT_TRUE(archive);
  ASSERT_TRUE(archive->verify(1)->ok) << "a consistent store";
  auto trust = replay::assess_game(*archive, 1, ring);
  ASSERT_TRUE(trust);
  EXPECT_EQ(trust->verdict, replay::GameTrust::Verdict::Stale) << trust->line;
  EXPECT_NE(trust->line.find("its signature was removed"), std::string::npos) << trust->line;
  ASSERT_EQ(trust->notes.size(), 1u);
  EXPECT_NE(trust->notes[0].find("WITHDRAWN"), std::string::npos) << trust->notes[0];
  // A keyring that never saw it cannot tell: the documented limit.
  auto fresh = replay::Keyring::load(dir_.path() / "fresh").value();
  ASSERT_TRUE(fresh.add("Head Judge", key_.public_key));
  EXPECT_EQ(replay::assess_game(*archive, 1, fresh)->verdict, replay::GameTrust::Verdict::Unsigned);
}

}  // namespace
}  // namespace warlog::store
