// verify names the first broken link for each way a stored stream can be
// damaged. Each test closes the store, edits the raw LMDB with the C API the
// way a failing disk or a forger would, reopens and verifies.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "store/store_fixtures.hpp"

namespace warlog::store {
namespace {

using test::edit_raw;
using test::make_game;
using test::open_store;
using test::raw_event;
using test::TempDir;
using ::testing::HasSubstr;
using Kind = BrokenLink::Kind;

constexpr std::size_t kDraws = 30;  // events seq 0..30
constexpr core::Seq kLast = kDraws;

// Two games, so damage to game 1 is shown not to leak into game 2.
class VerifyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = open_store(dir_.store());
    ASSERT_EQ(store.import_game(make_game("Victim", kDraws)).value(), 1u);
    ASSERT_EQ(store.import_game(make_game("Bystander", kDraws)).value(), 2u);
  }

  VerifyReport verify(core::GameId game) {
    auto store = open_store(dir_.store(), Options{.read_only = true});
    auto r = store.reader();
    EXPECT_TRUE(r);
    auto report = r->verify(game);
    EXPECT_TRUE(report) << report.error().message;
    return *report;
  }

  // Broken in game 1 at seq with kind; game 2 intact.
  void expect_broken(core::Seq seq, Kind kind, std::string_view says) {
    const auto report = verify(1);
    ASSERT_TRUE(report.broken) << "verify missed the damage";
    EXPECT_EQ(report.broken->game, 1u);
    EXPECT_EQ(report.broken->seq, seq) << report.broken->to_string();
    EXPECT_EQ(report.broken->kind, kind) << report.broken->to_string();
    EXPECT_THAT(report.broken->what, HasSubstr(says));
    EXPECT_TRUE(verify(2).ok());
  }

  // Rewrites the value of game 1, seq with edit(bytes).
  template <class Edit>
  void rewrite_event(core::Seq seq, Edit&& edit) {
    edit_raw(dir_.store(), kDbEvents, [&](MDB_txn* txn, MDB_dbi dbi) {
      std::string bytes = raw_event(txn, dbi, 1, seq);
      edit(bytes);
      test::put_raw(txn, dbi, view(event_key(1, seq)), bytes);
    });
  }

  // Flips the case of one letter of a card name: the bytes still decode, only
  // the hash chain can tell. A text starts on a word boundary, so its first
  // 8 bytes are contiguous in the packed encoding.
  void flip_card_letter(core::Seq seq) {
    rewrite_event(seq, [](std::string& bytes) {
      std::size_t pos = std::string::npos;
      for (const char* word : {"Ironclaw", "Claw Mus", "Paw Mili", "Grain Ca", "Talon Se"}) {
        pos = std::min(pos, bytes.find(word));
      }
      ASSERT_NE(pos, std::string::npos) << "no card name in the packed bytes";
      bytes[pos + 1] ^= 0x20;  // "Ironclaw" -> "IRonclaw"
    });
  }

  TempDir dir_;
};

TEST_F(VerifyTest, CleanStoreVerifies) {
  for (core::GameId g : {1, 2}) {
    const auto report = verify(g);
    EXPECT_TRUE(report.ok()) << report.broken->to_string();
    EXPECT_EQ(report.events_checked, kDraws + 1);
  }
}

TEST_F(VerifyTest, FlippedByteBreaksTheNextLink) {
  flip_card_letter(11);
  expect_broken(12, Kind::ChainMismatch, "does not match the hash of event 11");
}

TEST_F(VerifyTest, FlippedByteInTheLastEventBreaksTheHead) {
  flip_card_letter(kLast);
  expect_broken(kLast, Kind::HeadMismatch, "head");
}

TEST_F(VerifyTest, TruncatedValueIsUndecodable) {
  rewrite_event(7, [](std::string& bytes) { bytes.resize(bytes.size() / 2); });
  expect_broken(7, Kind::Undecodable, "do not decode");
}

TEST_F(VerifyTest, GarbageValueIsUndecodableNotACrash) {
  rewrite_event(3, [](std::string& bytes) { bytes.assign(bytes.size(), '\xff'); });
  const auto report = verify(1);
  ASSERT_TRUE(report.broken);
  EXPECT_EQ(report.broken->seq, 3u);
}

TEST_F(VerifyTest, RemovedEventIsAGap) {
  edit_raw(dir_.store(), kDbEvents, [](MDB_txn* txn, MDB_dbi dbi) {
    ASSERT_TRUE(lmdb::del(txn, dbi, view(event_key(1, 9))).value());
  });
  expect_broken(9, Kind::Gap, "event 9 is missing");
  // Readers refuse to stream past the gap rather than skip it.
  auto store = open_store(dir_.store(), Options{.read_only = true});
  std::size_t seen = 0;
  auto n = store.reader()->scan(1, 0, kEndSeq, [&](const core::Event&) { return ++seen, true; });
  ASSERT_FALSE(n);
  EXPECT_EQ(n.error().code, ErrorCode::DataLoss);
  EXPECT_EQ(seen, 9u);
}

TEST_F(VerifyTest, RemovedLastEventIsACountMismatch) {
  edit_raw(dir_.store(), kDbEvents, [](MDB_txn* txn, MDB_dbi dbi) {
    ASSERT_TRUE(lmdb::del(txn, dbi, view(event_key(1, kLast))).value());
  });
  expect_broken(kLast, Kind::CountMismatch, "the stream ends there");
}

TEST_F(VerifyTest, SwappedEventsAreAReordering) {
  edit_raw(dir_.store(), kDbEvents, [](MDB_txn* txn, MDB_dbi dbi) {
    const std::string a = raw_event(txn, dbi, 1, 4);
    const std::string b = raw_event(txn, dbi, 1, 5);
    test::put_raw(txn, dbi, view(event_key(1, 4)), b);
    test::put_raw(txn, dbi, view(event_key(1, 5)), a);
  });
  expect_broken(4, Kind::HeaderMismatch, "header says game 1, seq 5");
}

TEST_F(VerifyTest, EventCopiedFromAnotherGameIsCaught) {
  edit_raw(dir_.store(), kDbEvents, [](MDB_txn* txn, MDB_dbi dbi) {
    test::put_raw(txn, dbi, view(event_key(1, 6)), raw_event(txn, dbi, 2, 6));
  });
  expect_broken(6, Kind::HeaderMismatch, "header says game 2");
}

TEST_F(VerifyTest, ForgedHeadIsAHeadMismatch) {
  edit_raw(dir_.store(), kDbGames, [](MDB_txn* txn, MDB_dbi dbi) {
    auto raw = lmdb::get(txn, dbi, view(game_key(1)));
    ASSERT_TRUE(raw && *raw);
    auto meta = decode_game_meta(**raw);
    ASSERT_TRUE(meta);
    meta->head[0] ^= 1;
    test::put_raw(txn, dbi, view(game_key(1)), encode_game_meta(*meta));
  });
  expect_broken(kLast, Kind::HeadMismatch, "metadata");
  // And nothing is appended onto the broken chain.
  auto store = open_store(dir_.store());
  const auto more = make_game("Victim", 1);
  auto r = store.append(1, kLast + 1, std::span(more).subspan(1));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::DataLoss);
}

TEST_F(VerifyTest, CorruptMetadataIsReportedNotThrown) {
  edit_raw(dir_.store(), kDbGames, [](MDB_txn* txn, MDB_dbi dbi) {
    test::put_raw(txn, dbi, view(game_key(1)), "\x01garbage");
  });
  expect_broken(0, Kind::BadMetadata, "corrupt");
  auto store = open_store(dir_.store(), Options{.read_only = true});
  EXPECT_EQ(store.reader()->game_ids().value(), (std::vector<core::GameId>{1, 2}));
}

}  // namespace
}  // namespace warlog::store
