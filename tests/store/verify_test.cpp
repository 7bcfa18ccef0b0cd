// verify names the first broken link for each way a stored stream can be
// damaged (docs/architecture.md › "Store format 2" › 4). Each test closes the
// store, edits the raw LMDB with the C API the way a failing disk or a
// forger would (block_edit.hpp), reopens and verifies.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <span>

#include "store/store_fixtures.hpp"
#include "warlog/store/snapshot_cache.hpp"

namespace warlog::store {
namespace {

using test::edit_raw;
using test::make_game;
using test::open_store;
using test::raw_event;
using test::TestBlock;
using test::TempDir;
using ::testing::HasSubstr;
using Kind = BrokenLink::Kind;


// Events seq 0..150: block 0 (GameCreated), blocks at 1..64 and 65..128
// (sealed), and the open tail 129..150.
constexpr std::size_t kDraws = 150;
constexpr core::Seq kLast = kDraws;
constexpr core::Seq kMid = 65;    // a sealed block in the middle
constexpr core::Seq kTail = 129;  // the open tail

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

  // Rewrites the block of game 1 starting at `first` with edit(block).
  template <class Edit>
  void rewrite_block(core::Seq first, Edit&& edit) {
    edit_raw(dir_.store(), kDbEvents, [&](MDB_txn* txn, MDB_dbi dbi) {
      TestBlock b = test::read_block(txn, dbi, 1, first);
      edit(b);
      test::write_block(txn, dbi, 1, first, b);
    });
  }

  // Flips the case of one letter of a card name in event seq: the bytes
  // still decode, only the tags and the chain can tell.
  static void flip_card_letter(TestBlock& b, core::Seq first, core::Seq seq) {
    std::string& bytes = b.events.at(seq - first);
    std::size_t pos = std::string::npos;
    for (const char* word : {"Ironclaw", "Claw Mus", "Paw Mili", "Grain Ca", "Talon Se"}) {
      pos = std::min(pos, bytes.find(word));
    }
    ASSERT_NE(pos, std::string::npos) << "no card name in the canonical bytes";
    bytes[pos + 1] ^= 0x20;  // "Ironclaw" -> "IRonclaw"
  }

  // The stored S of game 1's block at first.
  core::Digest stored_s(core::Seq first) {
    core::Digest s{};
    edit_raw(dir_.store(), kDbEvents, [&](MDB_txn* txn, MDB_dbi dbi) { s = test::read_block(txn, dbi, 1, first).s; });
    return s;
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

// An editor who did not recompute the tags: verify names the event.
TEST_F(VerifyTest, FlippedByteIsTheFirstAlteredEventByItsTag) {
  rewrite_block(kMid, [](TestBlock& b) { flip_card_letter(b, kMid, 70); });
  expect_broken(70, Kind::TagMismatch, "event 70's tag does not hold");
}

// Tags recomputed, S not: the block's S names the block.
TEST_F(VerifyTest, FlippedByteWithRecomputedTagsNamesTheBlock) {
  rewrite_block(kMid, [](TestBlock& b) {
    flip_card_letter(b, kMid, 70);
    b.retag(kMid);
  });
  expect_broken(kMid, Kind::ChainMismatch, "the chain breaks in the block at seq 65..128");
}

// Tags and the block's S recomputed: the next block's S no longer follows.
TEST_F(VerifyTest, ARehashedBlockBreaksTheNextOne) {
  const core::Digest before = stored_s(1);
  rewrite_block(kMid, [&](TestBlock& b) {
    flip_card_letter(b, kMid, 70);
    b.retag(kMid);
    b.rehash(before);
  });
  expect_broken(kTail, Kind::ChainMismatch, "the chain breaks in the block at seq 129..150");
}

// Every tag and S recomputed to the end: only the record's head tells.
TEST_F(VerifyTest, EveryBlockRehashedLeavesTheRecordsHead) {
  const core::Digest before = stored_s(1);
  core::Digest mid{};
  rewrite_block(kMid, [&](TestBlock& b) {
    flip_card_letter(b, kMid, 70);
    b.retag(kMid);
    b.rehash(before);
    mid = b.s;
  });
  rewrite_block(kTail, [&](TestBlock& b) { b.rehash(mid); });
  expect_broken(kLast, Kind::HeadMismatch, "does not end at the head in the game record");
}

TEST_F(VerifyTest, FlippedByteInTheLastEventBreaksTheHead) {
  const core::Digest before = stored_s(kMid);
  rewrite_block(kTail, [&](TestBlock& b) {
    flip_card_letter(b, kTail, kLast);
    b.retag(kTail);
    b.rehash(before);
  });
  expect_broken(kLast, Kind::HeadMismatch, "head");
}

// verify(game, fn): one walk checks and gives (Archive::audit folds
// through it). What is given is the stream, in order, and only what held.
class VerifyGivingTest : public VerifyTest {
 protected:
  struct Given {
    VerifyReport report;
    std::vector<core::Event> events;
  };
  Given walk(core::GameId game, std::size_t stop_after = SIZE_MAX, std::span<const core::Digest> walked = {}) {
    auto store = open_store(dir_.store(), Options{.read_only = true});
    auto r = store.reader();
    EXPECT_TRUE(r);
    Given g;
    auto report = r->verify(game, [&](const core::Event& ev) {
      g.events.push_back(ev);
      return g.events.size() < stop_after;
    }, walked);
    EXPECT_TRUE(report) << report.error().message;
    g.report = *report;
    return g;
  }
};

TEST_F(VerifyGivingTest, AnIntactGameIsGivenWholeInOrderAsTheScanReadsIt) {
  const Given g = walk(1);
  EXPECT_TRUE(g.report.ok());
  EXPECT_EQ(g.report.events_given, kDraws + 1);
  EXPECT_FALSE(g.report.not_given);
  auto store = open_store(dir_.store(), Options{.read_only = true});
  EXPECT_EQ(g.events, test::read_all(store, 1));
}

TEST_F(VerifyGivingTest, AFalseStopsTheGivingNeverTheCheck) {
  rewrite_block(kTail, [](TestBlock& b) { flip_card_letter(b, kTail, kLast); });
  const Given g = walk(1, 10);
  EXPECT_EQ(g.report.events_given, 10u);
  ASSERT_TRUE(g.report.broken) << "the check went on to the damage in the tail";
  EXPECT_EQ(g.report.broken->seq, kLast);
}

TEST_F(VerifyGivingTest, NothingOfABlockWhoseTagsOrChainBreakIsGiven) {
  rewrite_block(kMid, [](TestBlock& b) { flip_card_letter(b, kMid, 70); });
  Given g = walk(1);
  EXPECT_EQ(g.report.events_given, kMid) << "the blocks before it, not one event of it";
  ASSERT_TRUE(g.report.broken);
  EXPECT_EQ(g.report.broken->kind, Kind::TagMismatch);
  rewrite_block(kMid, [](TestBlock& b) { b.retag(kMid); });
  g = walk(1);
  EXPECT_EQ(g.report.events_given, kMid);
  EXPECT_EQ(g.report.broken->kind, Kind::ChainMismatch);
}

TEST_F(VerifyGivingTest, TheLastBlockIsGivenOnlyWhenItEndsAtTheRecordsHead) {
  const core::Digest before = stored_s(kMid);
  rewrite_block(kTail, [&](TestBlock& b) {
    flip_card_letter(b, kTail, kLast);
    b.retag(kTail);
    b.rehash(before);
  });
  const Given g = walk(1);
  EXPECT_EQ(g.report.events_given, kTail) << "every tag and S of the tail holds, but not the head";
  ASSERT_TRUE(g.report.broken);
  EXPECT_EQ(g.report.broken->kind, Kind::HeadMismatch);
}

TEST_F(VerifyTest, TruncatedBlockIsUndecodable) {
  edit_raw(dir_.store(), kDbEvents, [](MDB_txn* txn, MDB_dbi dbi) {
    std::string v(*lmdb::get(txn, dbi, view(event_key(1, kMid))).value());
    v.resize(v.size() / 2);
    test::put_raw(txn, dbi, view(event_key(1, kMid)), v);
  });
  // A sealed block is compressed: half of it ends inside its tags.
  expect_broken(kMid, Kind::Undecodable, "the block at seq 65");
}

TEST_F(VerifyTest, GarbageBlockIsUndecodableNotACrash) {
  edit_raw(dir_.store(), kDbEvents, [](MDB_txn* txn, MDB_dbi dbi) {
    const std::size_t n = lmdb::get(txn, dbi, view(event_key(1, kMid))).value()->size();
    test::put_raw(txn, dbi, view(event_key(1, kMid)), std::string(n, '\xff'));
  });
  const auto report = verify(1);
  ASSERT_TRUE(report.broken);
  EXPECT_EQ(report.broken->seq, kMid);
}

// A truncated event inside an intact block layout, tags recomputed: decoding
// within the limits names it.
TEST_F(VerifyTest, TruncatedEventIsUndecodable) {
  rewrite_block(kMid, [](TestBlock& b) {
    b.events[7].resize(b.events[7].size() - 8);
    b.retag(kMid);
  });
  expect_broken(kMid + 7, Kind::Undecodable, "does not decode");
}

TEST_F(VerifyTest, RemovedBlockIsAGap) {
  edit_raw(dir_.store(), kDbEvents, [](MDB_txn* txn, MDB_dbi dbi) {
    ASSERT_TRUE(lmdb::del(txn, dbi, view(event_key(1, kMid))).value());
  });
  expect_broken(kMid, Kind::Gap, "the block at seq 65 is missing");
  // Readers refuse to stream past the gap rather than skip it.
  auto store = open_store(dir_.store(), Options{.read_only = true});
  std::size_t seen = 0;
  auto n = store.reader()->scan(1, 0, kEndSeq, [&](const core::Event&) { return ++seen, true; });
  ASSERT_FALSE(n);
  EXPECT_EQ(n.error().code, ErrorCode::DataLoss);
  EXPECT_EQ(seen, kMid);
}

TEST_F(VerifyTest, RemovedLastBlockIsACountMismatch) {
  edit_raw(dir_.store(), kDbEvents, [](MDB_txn* txn, MDB_dbi dbi) {
    ASSERT_TRUE(lmdb::del(txn, dbi, view(event_key(1, kTail))).value());
  });
  expect_broken(kTail, Kind::CountMismatch, "the stream ends there");
}

// Swapped inside their block with the tags recomputed (a tag covers its seq,
// so without that the tag of seq 4 names it first): the headers tell.
TEST_F(VerifyTest, SwappedEventsAreAReordering) {
  rewrite_block(1, [](TestBlock& b) {
    std::swap(b.events[3], b.events[4]);  // seqs 4 and 5
    b.retag(1);
  });
  expect_broken(4, Kind::HeaderMismatch, "header says seq 5");
}

TEST_F(VerifyTest, SwappedEventsWithStaleTagsAreTheFirstAlteredEvent) {
  rewrite_block(1, [](TestBlock& b) { std::swap(b.events[3], b.events[4]); });
  expect_broken(4, Kind::TagMismatch, "event 4's tag");
}

// The same moves in another game: tags hold (same seqs, same bytes), but S
// chains from that game's own GameCreated.
TEST_F(VerifyTest, BlockCopiedFromAnotherGameIsCaught) {
  edit_raw(dir_.store(), kDbEvents, [](MDB_txn* txn, MDB_dbi dbi) {
    test::write_block(txn, dbi, 1, 1, test::read_block(txn, dbi, 2, 1));
  });
  expect_broken(1, Kind::ChainMismatch, "block at seq 1..64");
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
  expect_broken(kLast, Kind::HeadMismatch, "game record");
  // And nothing is appended onto the broken chain.
  auto store = open_store(dir_.store());
  const auto more = make_game("Victim", 1);
  auto r = store.append(1, kLast + 1, std::span(more).subspan(1));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::DataLoss);
}

TEST_F(VerifyTest, ForgedIdentityIsAnIdentityMismatch) {
  edit_raw(dir_.store(), kDbGames, [](MDB_txn* txn, MDB_dbi dbi) {
    auto meta = decode_game_meta(*lmdb::get(txn, dbi, view(game_key(1))).value());
    ASSERT_TRUE(meta);
    meta->identity[5] ^= 1;
    test::put_raw(txn, dbi, view(game_key(1)), encode_game_meta(*meta));
  });
  expect_broken(0, Kind::IdentityMismatch, "event 0 does not hash to the identity");
}

TEST_F(VerifyTest, RemovedIndexEntryIsAnIdentityMismatch) {
  edit_raw(dir_.store(), kDbIdentity, [](MDB_txn* txn, MDB_dbi dbi) {
    std::string key;
    {
      auto cursor = lmdb::Cursor::open(txn, dbi);
      ASSERT_TRUE(cursor);
      for (auto e = cursor->get(MDB_FIRST); e && *e; e = cursor->get(MDB_NEXT)) {
        if (get_be64(cursor->value().data()) == 1) key = std::string(cursor->key());
      }
    }
    ASSERT_EQ(key.size(), 32u);
    ASSERT_TRUE(lmdb::del(txn, dbi, key).value());
  });
  expect_broken(0, Kind::IdentityMismatch, "no identity-index entry");
}

TEST_F(VerifyTest, CorruptMetadataIsReportedNotThrown) {
  edit_raw(dir_.store(), kDbGames, [](MDB_txn* txn, MDB_dbi dbi) {
    test::put_raw(txn, dbi, view(game_key(1)), "\x02garbage");
  });
  expect_broken(0, Kind::BadMetadata, "corrupt");
  auto store = open_store(dir_.store(), Options{.read_only = true});
  EXPECT_EQ(store.reader()->game_ids().value(), (std::vector<core::GameId>{1, 2}));
}

// A deleted game record no longer hides a game: its events are an orphan.
TEST_F(VerifyTest, EventsWithoutARecordAreAnOrphan) {
  edit_raw(dir_.store(), kDbGames, [](MDB_txn* txn, MDB_dbi dbi) {
    ASSERT_TRUE(lmdb::del(txn, dbi, view(game_key(1))).value());
  });
  auto store = open_store(dir_.store(), Options{.read_only = true});
  auto r = store.reader();
  EXPECT_EQ(r->game_ids().value(), (std::vector<core::GameId>{2}));
  EXPECT_EQ(r->orphan_games().value(), (std::vector<core::GameId>{1}));
  const auto report = r->verify(1);
  ASSERT_TRUE(report);
  ASSERT_TRUE(report->broken);
  EXPECT_EQ(report->broken->kind, Kind::Orphan);
  EXPECT_THAT(report->broken->what, HasSubstr("no game record"));
  EXPECT_EQ(r->verify(3).error().code, ErrorCode::NotFound);
}

// Issue 14: a deleted record hid the game from every reader but verify
// ("game 1 does not exist"). Reading it now says what is there.
TEST_F(VerifyTest, ReadingAGameWhoseRecordWasDeletedSaysItsEventsHaveNoRecord) {
  edit_raw(dir_.store(), kDbGames, [](MDB_txn* txn, MDB_dbi dbi) {
    ASSERT_TRUE(lmdb::del(txn, dbi, view(game_key(1))).value());
  });
  auto store = open_store(dir_.store(), Options{.read_only = true});
  auto r = store.reader();
  for (auto got : {r->game(1), r->record(1)}) {
    ASSERT_FALSE(got);
    EXPECT_EQ(got.error().code, ErrorCode::DataLoss);
    EXPECT_THAT(got.error().message, HasSubstr("game 1: events with no game record"));
  }
  EXPECT_THAT(r->verify(1)->broken->what, HasSubstr("game 1: events with no game record"));
  EXPECT_EQ(r->game(3).error().code, ErrorCode::NotFound);  // nothing stored: still "does not exist"
  EXPECT_THAT(r->game(3).error().message, HasSubstr("game 3 does not exist"));
}

// Store format 2 › 2: catalog and ruleset blobs are re-hashed on every read.
TEST_F(VerifyTest, AlteredBlobIsABlobMismatch) {
  edit_raw(dir_.store(), kDbBlobs, [](MDB_txn* txn, MDB_dbi dbi) {
    const auto key = blob_key(BlobKind::Ruleset, core::blake2b(test::kTestRuleset));
    std::string v(*lmdb::get(txn, dbi, view(key)).value());
    v[0] ^= 1;
    test::put_raw(txn, dbi, view(key), v);
  });
  const auto report = verify(1);
  ASSERT_TRUE(report.broken);
  EXPECT_EQ(report.broken->kind, Kind::BlobMismatch);
  EXPECT_THAT(report.broken->what, HasSubstr("does not hash to its name"));
  auto store = open_store(dir_.store(), Options{.read_only = true});
  auto blob = store.reader()->get_blob(BlobKind::Ruleset, core::blake2b(test::kTestRuleset));
  ASSERT_FALSE(blob);
  EXPECT_EQ(blob.error().code, ErrorCode::DataLoss);
}

}  // namespace
}  // namespace warlog::store

namespace warlog::store {
namespace {

// Blocks walked once (docs/architecture.md › Store format 2 › 4): given the
// S of the blocks an earlier verify walked whole, verify decodes a block's
// events without the whole-message walk only while its S, recomputed, is
// the one recorded at its place.
using VerifyWalkedTest = VerifyGivingTest;

TEST_F(VerifyWalkedTest, ASecondWalkGivenTheFirstsBlocksSkipsTheWholeWalkAndGivesTheSameEvents) {
  const Given first = walk(1);
  ASSERT_TRUE(first.report.ok());
  EXPECT_EQ(first.report.events_known, 0u) << "nothing was known before";
  ASSERT_EQ(first.report.blocks.size(), 4u) << "blocks at 0, 1, 65 and 129";
  const Given again = walk(1, SIZE_MAX, first.report.blocks);
  EXPECT_TRUE(again.report.ok());
  EXPECT_EQ(again.report.events_known, kDraws + 1);
  EXPECT_EQ(again.events, first.events);
  EXPECT_EQ(again.report.blocks, first.report.blocks);
}

TEST_F(VerifyWalkedTest, OnlyTheBlocksWhoseSIsTheOneRecordedAtTheirPlaceAreKnown) {
  const Given first = walk(1);
  std::vector<core::Digest> walked = first.report.blocks;
  walked[2][0] ^= 1;  // the block at 65..128: another S
  EXPECT_EQ(walk(1, SIZE_MAX, walked).report.events_known, kDraws + 1 - 64);
  // Another game's record: its S never follow this game's chain.
  EXPECT_EQ(walk(1, SIZE_MAX, walk(2).report.blocks).report.events_known, 0u);
  // A shorter record (the tail grew since): the blocks it names.
  walked = first.report.blocks;
  walked.pop_back();
  EXPECT_EQ(walk(1, SIZE_MAX, walked).report.events_known, kTail);
}

// The case the record exists for: after the walk, a forger makes event 70
// non-canonical (a trailing word: it still decodes, and would hash as
// another event while reading as this one) and redoes every tag, S, the
// head and the index. The old record names the old S, so the block is
// walked whole and refused.
TEST_F(VerifyWalkedTest, ABlockMadeNonCanonicalAndResealedAfterItsWalkIsWalkedWholeAndRefused) {
  const Given first = walk(1);
  ASSERT_TRUE(first.report.ok());
  test::forge_event(dir_.store(), 1, 70, [](std::string& bytes) { bytes.append(8, '\0'); }, test::Forge::Consistent);
  const Given again = walk(1, SIZE_MAX, first.report.blocks);
  ASSERT_TRUE(again.report.broken) << "a non-canonical event passed under an old record";
  EXPECT_EQ(again.report.broken->seq, 70u);
  EXPECT_EQ(again.report.broken->kind, Kind::Undecodable);
  EXPECT_THAT(again.report.broken->what, HasSubstr("not one canonical message"));
  EXPECT_EQ(again.report.events_known, kMid) << "the blocks before it are the same bytes";
}

}  // namespace
}  // namespace warlog::store

