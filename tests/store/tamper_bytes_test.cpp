// The tamper suite's in-process part for one short game ("Trust the store" ›
// Done means): every byte of every record of the events and games
// databases, flipped one at a time in a closed store, is caught by verify.
// An edit that recomputes the hashes is the forge_event / rewrite_annotations
// tests' business (verify_test, signature_test, annotations_test).

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "store/store_fixtures.hpp"
#include "store/tamper_store.hpp"

namespace warlog::store {
namespace {

using test::make_game;
using test::open_store;
using test::TempDir;
namespace fs = std::filesystem;

struct Record {
  std::string key, value;
};

std::vector<Record> records_of(const fs::path& path, const char* db) {
  std::vector<Record> out;
  test::edit_raw(path, db, [&](MDB_txn* txn, MDB_dbi dbi) {
    auto cursor = lmdb::Cursor::open(txn, dbi);
    ASSERT_TRUE(cursor);
    for (auto e = cursor->get(MDB_FIRST); e && *e; e = cursor->get(MDB_NEXT)) {
      out.push_back({std::string(cursor->key()), std::string(cursor->value())});
    }
  });
  return out;
}

// verify's verdict on game 1, or the error it gave (an error is also "not ok").
bool verifies(const fs::path& path) {
  auto store = Store::open(path, Options{.read_only = true});
  if (!store) return false;
  auto reader = store->reader();
  if (!reader) return false;
  auto report = reader->verify(1);
  return report && report->ok();
}

// Flips bit `mask` of every byte of every record of `db`, one at a time, and
// counts the flips verify passed (each is restored before the next).
std::size_t flips_passed(const fs::path& path, const char* db, unsigned char mask, std::size_t& tried) {
  std::size_t passed = 0;
  tamper::Editor editor(path);  // no fsync per flip, each undone in the next one's commit
  for (const Record& r : records_of(path, db)) {
    for (std::size_t i = 0; i < r.value.size(); ++i) {
      std::string edited = r.value;
      edited[i] = static_cast<char>(edited[i] ^ mask);
      editor.apply({{db, r.key, edited}});
      ++tried;
      if (verifies(path)) {
        ++passed;
        ADD_FAILURE() << db << " record of " << r.value.size() << " bytes, byte " << i << " ^ " << int{mask}
                      << ": verify passed";
      }
    }
  }
  editor.restore();
  return passed;
}

class TamperBytes : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = open_store(dir_.store());
    ASSERT_EQ(store.import_game(make_game("Short", 30)).value(), 1u);  // blocks 0 and 1
  }
  TempDir dir_;
};

TEST_F(TamperBytes, EveryFlippedByteOfTheGameRecordIsCaught) {
  ASSERT_TRUE(verifies(dir_.store()));
  std::size_t tried = 0;
  EXPECT_EQ(flips_passed(dir_.store(), kDbGames, 0x01, tried), 0u);
  EXPECT_EQ(tried, 114u) << "the record is 114 bytes";
  ASSERT_TRUE(verifies(dir_.store())) << "every flip was restored";
}

TEST_F(TamperBytes, EveryFlippedByteOfEveryBlockIsCaught) {
  std::size_t tried = 0;
  EXPECT_EQ(flips_passed(dir_.store(), kDbEvents, 0x01, tried), 0u);
  EXPECT_GT(tried, 1000u);
  ASSERT_TRUE(verifies(dir_.store()));
}

// Sealed blocks are one zstd frame of their body: every flip inside a
// compressed body either stops it decoding within its stated length or
// changes what it decodes to, and the tags and S see that.
TEST(TamperCompressedBytes, EveryFlippedByteOfEveryCompressedBlockIsCaught) {
  TempDir dir;
  {
    auto store = open_store(dir.store());
    // Sealed 1..64 and 65..128, and the tail 129..130, compressed by import.
    ASSERT_EQ(store.import_game(make_game("Sealed", 130)).value(), 1u);
  }
  std::size_t compressed = 0;
  for (const Record& r : records_of(dir.store(), kDbEvents)) compressed += r.value.size() > 1 && r.value[1] == 1;
  ASSERT_EQ(compressed, 3u) << "the blocks are not compressed: this test would prove nothing";
  ASSERT_TRUE(verifies(dir.store()));
  for (const unsigned char mask : {0x01, 0x80}) {
    std::size_t tried = 0;
    EXPECT_EQ(flips_passed(dir.store(), kDbEvents, mask, tried), 0u) << "mask " << int{mask};
    EXPECT_GT(tried, 500u);
  }
  ASSERT_TRUE(verifies(dir.store()));
}

}  // namespace
}  // namespace warlog::store
