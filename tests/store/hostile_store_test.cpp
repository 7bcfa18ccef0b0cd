// Hostile stores (issue 9): a store someone else wrote, damaged by a disk, a
// transfer or a newer warlog. Each case gives a clear error, never a crash;
// nothing is written (the data file stays byte-identical); and where the
// damage is inside one game, the other games stay readable. Cases covered
// elsewhere: garbage and truncated event values (verify_test.cpp and
// cli/audit_robustness_test.cpp), a newer format version
// (store_test.cpp, StoreOpen.NewerFormatIsUnsupported), snapshots of
// another engine version (replay/seek_test.cpp, StaleSnapshot.*).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "events/samples.hpp"
#include "store/store_fixtures.hpp"
#include "warlog/core/hash.hpp"
#include "warlog/events/codec.hpp"
#include "warlog/store/game_meta.hpp"
#include "warlog/store/reader.hpp"

namespace warlog::store {
namespace {

using test::edit_raw;
using test::make_game;
using test::open_store;
using test::TempDir;
using ::testing::HasSubstr;
namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Two games of 300 events each: data.mdb spans many pages.
class HostileStore : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = open_store(dir_.store());
    ASSERT_EQ(store.import_game(make_game("Victim", 300)).value(), 1u);
    ASSERT_EQ(store.import_game(make_game("Bystander", 300)).value(), 2u);
  }
  fs::path data() const { return dir_.store() / "data.mdb"; }

  // Opening refuses with `code` and a message holding `says`, read-only and
  // read-write alike, and leaves data.mdb byte-identical.
  void expect_refused(ErrorCode code, std::string_view says) {
    const std::string before = slurp(data());
    for (bool ro : {true, false}) {
      SCOPED_TRACE(ro ? "read-only" : "read-write");
      auto s = Store::open(dir_.store(), Options{.read_only = ro});
      ASSERT_FALSE(s) << "opened";
      EXPECT_EQ(s.error().code, code) << s.error().message;
      EXPECT_THAT(s.error().message, HasSubstr(says));
      EXPECT_EQ(s.error().message.find('\n'), std::string::npos);
    }
    EXPECT_TRUE(slurp(data()) == before) << "data.mdb changed";
  }

  void set_format(std::string_view value) {
    edit_raw(dir_.store(), kDbMeta, [&](MDB_txn* txn, MDB_dbi dbi) { test::put_raw(txn, dbi, kFormatKey, value); });
  }

  TempDir dir_;
};

// --- The data file ------------------------------------------------------------

// Before the check, LMDB mapped the cut file and a read of a page past its
// end killed the process with SIGBUS.
TEST_F(HostileStore, ATruncatedDataFileIsDataLoss) {
  const auto size = fs::file_size(data());
  ASSERT_GT(size, 8u * 4096) << "the store should span many pages";
  fs::resize_file(data(), size / 2);
  expect_refused(ErrorCode::DataLoss, "data.mdb is truncated");
  EXPECT_EQ(fs::file_size(data()), size / 2);
}

TEST_F(HostileStore, ADataFileCutToItsMetaPagesIsDataLoss) {
  fs::resize_file(data(), 2 * 4096);
  expect_refused(ErrorCode::DataLoss, "data.mdb is truncated");
}

TEST_F(HostileStore, ADataFileCutInsideItsMetaPagesIsDataLoss) {
  fs::resize_file(data(), 100);
  expect_refused(ErrorCode::DataLoss, "not an LMDB file");
}

// LMDB would take an empty file for a new environment and write a fresh,
// empty store over the games that were there.
TEST_F(HostileStore, AnEmptyDataFileIsDataLossNotANewStore) {
  fs::resize_file(data(), 0);
  expect_refused(ErrorCode::DataLoss, "data.mdb is empty");
  EXPECT_EQ(fs::file_size(data()), 0u);
}

// --- The format version ---------------------------------------------------------

TEST_F(HostileStore, AFormatVersionOfTheWrongSizeIsDataLoss) {
  set_format(std::string_view("\0\0\1", 3));
  expect_refused(ErrorCode::DataLoss, "format version in meta is missing or corrupt");
}

TEST_F(HostileStore, FormatVersionZeroIsDataLoss) {
  set_format(std::string_view("\0\0\0\0", 4));
  expect_refused(ErrorCode::DataLoss, "format version 0 is invalid");
}

TEST_F(HostileStore, AGarbageFormatVersionReadsAsNewerAndIsUnsupported) {
  set_format("\xFF\xFF\xFF\xFF");
  expect_refused(ErrorCode::Unsupported, "has format 4294967295, newer than this warlog reads");
}

// --- An event of a payload kind this build does not know --------------------------

// Game 1's last event rewritten as a payload kind from a newer warlog, with
// the chain and the head kept sound (as that warlog would have written it).
TEST_F(HostileStore, AnUnknownPayloadKindIsUnsupportedForThatGameOnly) {
  constexpr core::Seq kLast = 300;
  edit_raw(dir_.store(), kDbEvents, [&](MDB_txn* txn, MDB_dbi dbi) {
    const core::Seq first = test::block_first(kLast);
    test::TestBlock block = test::read_block(txn, dbi, 1, first);
    const std::string old = block.events.at(kLast - first);
    auto ev = events::decode_event(old);
    ASSERT_TRUE(ev);
    auto other = *ev;
    other.payload = core::TurnStarted{};
    events::test::RawMessage a(old);
    events::test::RawMessage b(events::encode_event(other));
    const auto offset = events::test::first_difference(a.event().getDataSection(), b.event().getDataSection());
    ASSERT_LT(offset, a.event().getDataSection().size());
    events::test::put_u16(a.event().getDataSection(), offset, 1000);
    block.events.at(kLast - first) = a.canonical();
    // Tags, S and the record's head over the new bytes, as that warlog would write them.
    block.retag(first);
    block.rehash(test::read_block(txn, dbi, 1, test::block_first(first - 1)).s);
    test::write_block(txn, dbi, 1, first, block);
    MDB_dbi games = 0;
    ASSERT_TRUE(lmdb::dbi_open(txn, kDbGames, 0, games));
    const auto key = game_key(1);
    auto raw = lmdb::get(txn, games, view(key));
    ASSERT_TRUE(raw && *raw);
    auto meta = decode_game_meta(**raw);
    ASSERT_TRUE(meta);
    const core::Digest old_head = meta->head;
    meta->head = block.s;
    test::put_raw(txn, games, view(key), encode_game_meta(*meta));
    // And the identity-index entry, keyed by the head as imported (verify checks the key).
    MDB_dbi identity = 0;
    ASSERT_TRUE(lmdb::dbi_open(txn, kDbIdentity, 0, identity));
    const std::string_view old_key(reinterpret_cast<const char*>(old_head.data()), 32);
    ASSERT_TRUE(lmdb::del(txn, identity, old_key).value());
    test::put_raw(txn, identity, std::string_view(reinterpret_cast<const char*>(block.s.data()), 32),
                  std::string(view(key)));
  });
  const std::string before = slurp(data());

  auto store = open_store(dir_.store(), Options{.read_only = true});
  auto reader = store.reader();
  ASSERT_TRUE(reader);
  // Reading game 1 stops at the unknown event with a message that says why.
  core::Seq seen = 0;
  auto scanned = reader->scan(1, 0, kEndSeq, [&](const core::Event&) { return ++seen, true; });
  ASSERT_FALSE(scanned);
  EXPECT_EQ(scanned.error().code, ErrorCode::Unsupported);
  EXPECT_EQ(scanned.error().message, "game 1, seq 300: event payload kind 1000 is not known to this build");
  EXPECT_EQ(seen, kLast);
  // The chain is sound: verify checks tags and blocks, and counts what it cannot decode.
  auto report = reader->verify(1);
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_TRUE(report->ok()) << report->broken->to_string();
  EXPECT_EQ(report->unknown_payloads, 1u);
  // Game 2 reads and verifies in full.
  EXPECT_EQ(test::read_all(store, 2).size(), 301u);
  auto report2 = reader->verify(2);
  ASSERT_TRUE(report2);
  EXPECT_TRUE(report2->ok());
  EXPECT_TRUE(slurp(data()) == before) << "data.mdb changed";
}

}  // namespace
}  // namespace warlog::store
