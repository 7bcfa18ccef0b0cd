// Holes the tamper suite (tamper_*_test.cpp) found, each as the smallest
// store that shows it: edits verify passed before its fix.

#include <gtest/gtest.h>

#include <string>

#include "store/store_fixtures.hpp"

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

}  // namespace
}  // namespace warlog::store
