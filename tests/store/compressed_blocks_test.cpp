// Codec 1: sealed blocks are stored as one zstd frame of their body and an
// 8-byte check of the frame, the
// open tail raw (docs/architecture.md › "Store format 2" › 3). The chain is
// over the raw body, so the stored form may change without a hash changing;
// a compressed body that does not decode, or decodes to another length than
// its header states, is DataLoss naming its seq range, never a crash.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "store/store_fixtures.hpp"
#include "warlog/events/codec.hpp"

namespace warlog::store {
namespace {

using test::edit_raw;
using test::make_game;
using test::open_store;
using test::TempDir;
using test::TestBlock;
using ::testing::HasSubstr;

// Seqs 0..150: block 0, sealed 1..64 and 65..128, the open tail 129..150.
constexpr std::size_t kDraws = 150;
constexpr core::Seq kMid = 65;

std::vector<std::pair<core::Seq, std::uint8_t>> codecs_of(const std::filesystem::path& store, core::GameId game) {
  std::vector<std::pair<core::Seq, std::uint8_t>> out;
  edit_raw(store, kDbEvents, [&](MDB_txn* txn, MDB_dbi dbi) {
    auto cursor = lmdb::Cursor::open(txn, dbi);
    for (auto e = cursor->get(MDB_FIRST); e && *e; e = cursor->get(MDB_NEXT)) {
      const auto k = parse_event_key(cursor->key());
      if (k && k->game == game) out.emplace_back(k->seq, static_cast<std::uint8_t>(cursor->value()[1]));
    }
  });
  return out;
}

std::string stored_value(const std::filesystem::path& store, core::Seq first) {
  std::string v;
  edit_raw(store, kDbEvents, [&](MDB_txn* txn, MDB_dbi dbi) { v = std::string(*lmdb::get(txn, dbi, view(event_key(1, first))).value()); });
  return v;
}

void put_value(const std::filesystem::path& store, core::Seq first, const std::string& v) {
  edit_raw(store, kDbEvents, [&](MDB_txn* txn, MDB_dbi dbi) { test::put_raw(txn, dbi, view(event_key(1, first)), v); });
}

// Every block of game 1 rewritten raw (codec 0), tags and S kept: what a
// build before codec 1 wrote.
void store_all_raw(const std::filesystem::path& store) {
  edit_raw(store, kDbEvents, [&](MDB_txn* txn, MDB_dbi dbi) {
    for (const core::Seq first : {core::Seq{0}, core::Seq{1}, core::Seq{65}, core::Seq{129}}) {
      TestBlock b = test::read_block(txn, dbi, 1, first);
      b.codec = 0;
      test::write_block(txn, dbi, 1, first, b);
    }
  });
}

class CompressedBlocks : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = open_store(dir_.store());
    ASSERT_EQ(store.import_game(make_game("Packed", kDraws)).value(), 1u);
  }

  VerifyReport verify() {
    auto store = open_store(dir_.store(), Options{.read_only = true});
    auto r = store.reader();
    EXPECT_TRUE(r);
    auto report = r->verify(1);
    EXPECT_TRUE(report) << report.error().message;
    return *report;
  }
  // What a reading verb gets: the scan's error.
  std::string scan_error() {
    auto store = open_store(dir_.store(), Options{.read_only = true});
    auto r = store.reader();
    auto n = r->scan(1, 0, kEndSeq, [](const core::Event&) { return true; });
    return n ? std::string() : n.error().message;
  }
  // The stored block at kMid with its body replaced by `body` and its
  // header's raw length by `raw` (S and tags kept).
  void replace_mid(const std::string& body, std::uint32_t raw) {
    std::string v = stored_value(dir_.store(), kMid);
    const std::size_t header = 40 + 64 * 8;
    v.resize(header);
    for (int i = 0; i < 4; ++i) v[4 + static_cast<std::size_t>(i)] = static_cast<char>(raw >> (8 * i) & 0xFF);
    put_value(dir_.store(), kMid, v + body);
  }
  void expect_data_loss_at_mid(std::string_view says) {
    const std::string e = scan_error();
    EXPECT_THAT(e, HasSubstr("the block at seq 65..128")) << e;
    EXPECT_THAT(e, HasSubstr(says)) << e;
    const auto report = verify();
    ASSERT_TRUE(report.broken) << "verify missed it";
    EXPECT_EQ(report.broken->seq, kMid) << report.broken->to_string();
    EXPECT_EQ(report.broken->kind, BrokenLink::Kind::Undecodable) << report.broken->to_string();
    EXPECT_THAT(report.broken->what, HasSubstr("seq 65..128"));
  }

  TempDir dir_;
};

// Import writes a finished record: every block compressed but block 0,
// which listing reads.
TEST_F(CompressedBlocks, ImportCompressesEveryBlockButBlockZero) {
  using Codecs = std::vector<std::pair<core::Seq, std::uint8_t>>;
  EXPECT_EQ(codecs_of(dir_.store(), 1), (Codecs{{0, 0}, {1, 1}, {65, 1}, {129, 1}}));
  EXPECT_EQ(test::read_all(open_store(dir_.store()), 1), test::as_stored(make_game("Packed", kDraws), 1));
  EXPECT_TRUE(verify().ok());
  const std::string raw = stored_value(dir_.store(), kMid);
  EXPECT_LT(raw.size(), 40 + 64 * 8 + TestBlock::parse(raw).body().size() / 2) << "the body is not compressed";
}

// An append reads the imported (compressed) tail and rewrites it raw; the
// append that fills it seals it, compressed in the same transaction.
TEST_F(CompressedBlocks, AppendsKeepTheTailRawUntilTheOneThatSealsIt) {
  const auto more = make_game("Packed", kDraws + 50);
  {
    auto store = open_store(dir_.store());
    for (std::size_t seq = kDraws + 1; seq <= kDraws + 50; ++seq) {
      ASSERT_TRUE(store.append(1, seq, std::span(&more[seq], 1), Durability::Relaxed)) << seq;
      const auto codecs = codecs_of(dir_.store(), 1);
      const std::size_t block = seq < 193 ? 3 : 4;
      const std::uint8_t codec = seq == 192 ? 1 : 0;  // 129..192 is full at seq 192
      ASSERT_EQ(codecs.size(), block + 1);
      EXPECT_EQ(codecs[block].second, codec) << "after seq " << seq;
    }
  }
  using Codecs = std::vector<std::pair<core::Seq, std::uint8_t>>;
  EXPECT_EQ(codecs_of(dir_.store(), 1), (Codecs{{0, 0}, {1, 1}, {65, 1}, {129, 1}, {193, 0}}));
  EXPECT_EQ(test::read_all(open_store(dir_.store()), 1), test::as_stored(more, 1));
  EXPECT_TRUE(verify().ok());
}

// The chain is over the raw body: the same game stored raw has the same
// head, verifies, reads the same; recompress_sealed (backup's) writes it
// back compressed, again with no hash changed.
TEST_F(CompressedBlocks, StoredRawOrRecompressedTheChainIsTheSame) {
  const auto head = [&] {
    auto store = open_store(dir_.store(), Options{.read_only = true});
    return store.reader()->record(1)->head;
  };
  const core::Digest before = head();
  store_all_raw(dir_.store());
  using Codecs = std::vector<std::pair<core::Seq, std::uint8_t>>;
  ASSERT_EQ(codecs_of(dir_.store(), 1), (Codecs{{0, 0}, {1, 0}, {65, 0}, {129, 0}}));
  EXPECT_TRUE(verify().ok());
  EXPECT_EQ(head(), before);
  {
    auto store = open_store(dir_.store());
    EXPECT_EQ(store.recompress_sealed().value(), 2u) << "the two sealed blocks, not block 0 or the tail";
    EXPECT_EQ(store.recompress_sealed().value(), 0u) << "nothing left to do";
  }
  EXPECT_EQ(codecs_of(dir_.store(), 1), (Codecs{{0, 0}, {1, 1}, {65, 1}, {129, 0}}));
  EXPECT_TRUE(verify().ok());
  EXPECT_EQ(head(), before);
  EXPECT_EQ(test::read_all(open_store(dir_.store()), 1), test::as_stored(make_game("Packed", kDraws), 1));
}

// copy_compact (warlog backup's copy) compresses the raw sealed blocks of
// the copy and compacts it again: the copy is smaller and verifies.
TEST_F(CompressedBlocks, ACompactCopyOfARawStoreIsCompressed) {
  store_all_raw(dir_.store());
  TempDir copy;
  std::filesystem::create_directories(copy.store());
  {
    auto store = open_store(dir_.store(), Options{.read_only = true});
    ASSERT_TRUE(store.copy_compact(copy.store()));
  }
  EXPECT_FALSE(std::filesystem::exists(copy.store() / "lock.mdb"));
  EXPECT_FALSE(std::filesystem::exists(copy.store() / ".compact"));
  using Codecs = std::vector<std::pair<core::Seq, std::uint8_t>>;
  EXPECT_EQ(codecs_of(copy.store(), 1), (Codecs{{0, 0}, {1, 1}, {65, 1}, {129, 0}}));
  auto store = open_store(copy.store(), Options{.read_only = true});
  auto report = store.reader()->verify(1);
  ASSERT_TRUE(report);
  EXPECT_TRUE(report->ok());
}

TEST_F(CompressedBlocks, AFrameOfAnotherLengthThanTheHeaderIsDataLoss) {
  const std::string body = TestBlock::parse(stored_value(dir_.store(), kMid)).body();
  replace_mid(test::zstd_body(body), static_cast<std::uint32_t>(body.size() + 8));
  expect_data_loss_at_mid("decompresses to");
}

TEST_F(CompressedBlocks, AHeaderOverTheLimitIsRefusedBeforeDecompressing) {
  const std::string body = TestBlock::parse(stored_value(dir_.store(), kMid)).body();
  replace_mid(test::zstd_body(body), static_cast<std::uint32_t>(64 * events::kMaxEventBytes + 1));
  const std::string e = scan_error();
  EXPECT_THAT(e, HasSubstr("the block at seq 65")) << e;
  EXPECT_THAT(e, HasSubstr("states a body of")) << e;
  const auto report = verify();
  ASSERT_TRUE(report.broken);
  EXPECT_EQ(report.broken->seq, kMid);
}

// A decompression bomb: a frame of 16 MiB of zeros (1.5 KB stored) under a
// header that states 4,000 bytes is refused by the size the frame states,
// before anything is decompressed.
TEST_F(CompressedBlocks, ABombIsRefusedByItsStatedSize) {
  const std::string zeros(std::size_t{16} << 20, '\0');
  replace_mid(test::zstd_body(zeros, 1), 4000);
  expect_data_loss_at_mid("decompresses to 16777216 bytes");
}

// The stored frame of kMid (its check dropped) and the header's raw length.
std::pair<std::string, std::uint32_t> frame_of(const std::string& v) {
  std::uint32_t raw = 0;
  for (int i = 3; i >= 0; --i) raw = raw << 8 | static_cast<unsigned char>(v[4 + static_cast<std::size_t>(i)]);
  const std::string body = v.substr(40 + 64 * 8);
  return {body.substr(0, body.size() - 8), raw};
}

TEST_F(CompressedBlocks, BytesAfterTheFrameAreDataLoss) {
  const auto [frame, raw] = frame_of(stored_value(dir_.store(), kMid));
  const std::string more = frame + std::string("\x50\x2a\x4d\x18\x00\x00\x00\x00", 8);  // an empty skippable frame
  replace_mid(more + test::frame_check(more), raw);
  expect_data_loss_at_mid("after its frame");
}

TEST_F(CompressedBlocks, GarbageForAFrameIsDataLossNotACrash) {
  const std::string garbage(600, '\x5a');
  replace_mid(garbage + test::frame_check(garbage), 4000);
  expect_data_loss_at_mid("is not a zstd frame");
  replace_mid(garbage, 4000);
  expect_data_loss_at_mid("does not match the check");
}

TEST_F(CompressedBlocks, ATruncatedFrameIsDataLoss) {
  const auto [frame, raw] = frame_of(stored_value(dir_.store(), kMid));
  const std::string half = frame.substr(0, frame.size() / 2);
  replace_mid(half + test::frame_check(half), raw);
  expect_data_loss_at_mid("is not a zstd frame");
}

// A bit zstd does not read (the tamper suite found some in the tables of a
// frame): the frame still decodes to the same body, the check sees it.
TEST_F(CompressedBlocks, AFlippedBitInTheFrameIsCaughtByTheCheckFirst) {
  auto [frame, raw] = frame_of(stored_value(dir_.store(), kMid));
  const std::string check = test::frame_check(frame);
  frame[frame.size() / 2] = static_cast<char>(frame[frame.size() / 2] ^ 0x01);
  replace_mid(frame + check, raw);
  expect_data_loss_at_mid("does not match the check");
}

}  // namespace
}  // namespace warlog::store
