// The snapshots database (store/snapshots.cpp): keys in numeric order past 256
// and 65,536, nearest_snapshot picks the greatest seq <= asked under the same
// ruleset digest and engine version, writes are bounded by the stream, and
// replace / delete / drop remove what they say and nothing else.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "store_fixtures.hpp"
#include "warlog/events/snapshot.hpp"
#include "warlog/store/reader.hpp"

namespace warlog::store {
namespace {

using test::make_game;
using test::open_store;
using test::TempDir;

core::Digest digest_of(std::uint8_t b) {
  core::Digest d{};
  d.fill(b);
  d[31] = static_cast<std::uint8_t>(b ^ 0x5A);  // not all one byte: a wrong offset shows
  return d;
}
const core::Digest kRuleset = digest_of(0x42);
const core::Digest kOtherRuleset = digest_of(0x41);  // sorts before kRuleset
const core::Digest kLaterRuleset = digest_of(0x43);  // sorts after it
constexpr std::uint32_t kVersion = 7;

std::string value(core::Seq seq, const std::string& tag = "") { return "snap@" + std::to_string(seq) + tag; }

std::optional<StoredSnapshot> nearest(const Store& st, core::GameId game, core::Seq seq,
                                      const core::Digest& ruleset = kRuleset, std::uint32_t version = kVersion) {
  auto r = st.reader();
  EXPECT_TRUE(r);
  auto n = r->nearest_snapshot(game, seq, ruleset, version);
  EXPECT_TRUE(n) << n.error().message;
  return n ? *n : std::nullopt;
}

TEST(SnapshotKeys, EncodeAndParseBackBigEndian) {
  const auto k = snapshot_key(0x0102030405060708ull, 0x1112131415161718ull, kRuleset, 0xA1B2C3D4u);
  EXPECT_EQ(k[0], '\x01');
  EXPECT_EQ(k[15], '\x18');
  EXPECT_EQ(static_cast<std::uint8_t>(k[16]), 0x42);
  EXPECT_EQ(static_cast<std::uint8_t>(k[48]), 0xA1);
  EXPECT_EQ(static_cast<std::uint8_t>(k[51]), 0xD4);
  auto parts = parse_snapshot_key(view(k));
  ASSERT_TRUE(parts);
  EXPECT_EQ(*parts, (SnapshotKeyParts{0x0102030405060708ull, 0x1112131415161718ull, kRuleset, 0xA1B2C3D4u}));
  EXPECT_FALSE(parse_snapshot_key(std::string_view(k.data(), 51)));
}

TEST(Snapshots, NearestPicksTheGreatestSeqAtOrBelow) {
  TempDir dir;
  Store st = open_store(dir.store());
  auto id = st.import_game(make_game("nearest", 40));
  ASSERT_TRUE(id);
  for (core::Seq s : {9, 19, 29}) ASSERT_TRUE(st.put_snapshot(*id, s, kRuleset, kVersion, value(s)));

  EXPECT_FALSE(nearest(st, *id, 0));
  EXPECT_FALSE(nearest(st, *id, 8));
  for (auto [asked, want] : std::vector<std::pair<core::Seq, core::Seq>>{
           {9, 9}, {10, 9}, {18, 9}, {19, 19}, {28, 19}, {29, 29}, {40, 29}, {kEndSeq, 29}}) {
    auto n = nearest(st, *id, asked);
    ASSERT_TRUE(n) << asked;
    EXPECT_EQ(n->seq, want) << asked;
    EXPECT_EQ(n->bytes, value(want)) << asked;
  }
}

TEST(Snapshots, NearestSkipsOtherRulesetsVersionsAndGames) {
  TempDir dir;
  Store st = open_store(dir.store());
  auto a = st.import_game(make_game("a", 40));
  auto b = st.import_game(make_game("b", 40));
  auto c = st.import_game(make_game("c", 40));
  ASSERT_TRUE(a && b && c);
  ASSERT_TRUE(st.put_snapshot(*b, 5, kRuleset, kVersion, value(5, "mine")));
  // Closer to seq 30, but each differs in one part of the key.
  ASSERT_TRUE(st.put_snapshot(*b, 20, kOtherRuleset, kVersion, value(20, "other ruleset")));
  ASSERT_TRUE(st.put_snapshot(*b, 21, kLaterRuleset, kVersion, value(21, "later ruleset")));
  ASSERT_TRUE(st.put_snapshot(*b, 22, kRuleset, kVersion - 1, value(22, "older engine")));
  ASSERT_TRUE(st.put_snapshot(*b, 23, kRuleset, kVersion + 1, value(23, "newer engine")));
  ASSERT_TRUE(st.put_snapshot(*b, 30, kOtherRuleset, kVersion, value(30, "same seq, other ruleset")));
  ASSERT_TRUE(st.put_snapshot(*b, 30, kLaterRuleset, kVersion, value(30, "same seq, later ruleset")));
  ASSERT_TRUE(st.put_snapshot(*a, 35, kRuleset, kVersion, value(35, "game a")));
  ASSERT_TRUE(st.put_snapshot(*c, 1, kRuleset, kVersion, value(1, "game c")));

  auto n = nearest(st, *b, 30);
  ASSERT_TRUE(n);
  EXPECT_EQ(n->seq, 5u);
  EXPECT_EQ(n->bytes, value(5, "mine"));
  n = nearest(st, *b, 30, kOtherRuleset);
  ASSERT_TRUE(n);
  EXPECT_EQ(n->bytes, value(30, "same seq, other ruleset"));
  n = nearest(st, *b, 29, kOtherRuleset);
  ASSERT_TRUE(n);
  EXPECT_EQ(n->bytes, value(20, "other ruleset"));
  n = nearest(st, *b, 39, kRuleset, kVersion - 1);
  ASSERT_TRUE(n);
  EXPECT_EQ(n->seq, 22u);
  // Never another game's, in either direction.
  EXPECT_FALSE(nearest(st, *b, 4));
  EXPECT_FALSE(nearest(st, *a, 34));
  n = nearest(st, *c, kEndSeq);
  ASSERT_TRUE(n);
  EXPECT_EQ(n->bytes, value(1, "game c"));
  EXPECT_FALSE(nearest(st, 99, kEndSeq));
}

TEST(Snapshots, KeysReadInNumericOrderPast256And65536) {
  TempDir dir;
  Store st = open_store(dir.store());
  auto id = st.import_game(make_game("long", 70'000));
  ASSERT_TRUE(id);
  // Written out of order; seqs whose little-endian bytes would sort otherwise.
  const std::vector<core::Seq> seqs = {65'536, 255, 69'999, 256, 65'535, 1, 511, 66'000};
  for (core::Seq s : seqs) ASSERT_TRUE(st.put_snapshot(*id, s, kRuleset, kVersion, value(s)));

  auto r = st.reader();
  ASSERT_TRUE(r);
  auto keys = r->snapshot_keys(*id);
  ASSERT_TRUE(keys);
  std::vector<core::Seq> got;
  for (const auto& k : *keys) got.push_back(k.seq);
  EXPECT_EQ(got, (std::vector<core::Seq>{1, 255, 256, 511, 65'535, 65'536, 66'000, 69'999}));

  for (auto [asked, want] : std::vector<std::pair<core::Seq, core::Seq>>{
           {255, 255}, {256, 256}, {257, 256}, {65'535, 65'535}, {65'536, 65'536}, {65'999, 65'536},
           {66'000, 66'000}, {69'998, 66'000}, {69'999, 69'999}}) {
    auto n = nearest(st, *id, asked);
    ASSERT_TRUE(n) << asked;
    EXPECT_EQ(n->seq, want) << asked;
  }
}

TEST(Snapshots, WritesAreBoundedByTheStream) {
  TempDir dir;
  Store st = open_store(dir.store());
  auto id = st.import_game(make_game("bounded", 9));  // seqs 0..9
  ASSERT_TRUE(id);
  EXPECT_TRUE(st.put_snapshot(*id, 9, kRuleset, kVersion, "last"));
  auto past = st.put_snapshot(*id, 10, kRuleset, kVersion, "past the end");
  ASSERT_FALSE(past);
  EXPECT_EQ(past.error().code, ErrorCode::InvalidArgument);
  auto unknown = st.put_snapshot(*id + 1, 0, kRuleset, kVersion, "no game");
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code, ErrorCode::NotFound);
  auto huge = st.put_snapshot(*id, 1, kRuleset, kVersion, std::string(events::kMaxSnapshotBytes + 1, 'x'));
  ASSERT_FALSE(huge);
  EXPECT_EQ(huge.error().code, ErrorCode::InvalidArgument);
  // A batch with one bad record writes nothing.
  const std::vector<StoredSnapshot> batch = {{2, "two"}, {12, "twelve"}};
  EXPECT_FALSE(st.put_snapshots(*id, kRuleset, kVersion, batch));
  EXPECT_EQ(nearest(st, *id, 8), std::nullopt);
}

TEST(Snapshots, PutReplacesAndReplaceDropsThisRulesetAndOtherVersions) {
  TempDir dir;
  Store st = open_store(dir.store());
  auto id = st.import_game(make_game("replace", 50));
  auto other = st.import_game(make_game("other game", 50));
  ASSERT_TRUE(id && other);
  ASSERT_TRUE(st.put_snapshot(*id, 10, kRuleset, kVersion, "old 10"));
  ASSERT_TRUE(st.put_snapshot(*id, 10, kRuleset, kVersion, "new 10"));
  EXPECT_EQ(nearest(st, *id, 10)->bytes, "new 10");

  ASSERT_TRUE(st.put_snapshot(*id, 20, kRuleset, kVersion, "20"));
  ASSERT_TRUE(st.put_snapshot(*id, 30, kRuleset, kVersion - 1, "old engine"));
  ASSERT_TRUE(st.put_snapshot(*id, 30, kOtherRuleset, kVersion, "other ruleset"));
  ASSERT_TRUE(st.put_snapshot(*other, 10, kRuleset, kVersion, "other game"));
  const std::vector<StoredSnapshot> fresh = {{15, "15"}, {25, "25"}};
  ASSERT_TRUE(st.put_snapshots(*id, kRuleset, kVersion, fresh, /*replace=*/true));

  auto r = st.reader();
  ASSERT_TRUE(r);
  auto keys = r->snapshot_keys(*id);
  ASSERT_TRUE(keys);
  ASSERT_EQ(keys->size(), 3u);
  EXPECT_EQ((*keys)[0], (SnapshotKeyParts{*id, 15, kRuleset, kVersion}));
  EXPECT_EQ((*keys)[1], (SnapshotKeyParts{*id, 25, kRuleset, kVersion}));
  EXPECT_EQ((*keys)[2], (SnapshotKeyParts{*id, 30, kOtherRuleset, kVersion}));
  auto others = r->snapshot_keys(*other);
  ASSERT_TRUE(others);
  EXPECT_EQ(others->size(), 1u);
}

TEST(Snapshots, DeleteAndDropRemoveOnlyTheirOwn) {
  TempDir dir;
  Store st = open_store(dir.store());
  auto id = st.import_game(make_game("drop", 3000));
  auto other = st.import_game(make_game("keep", 50));
  ASSERT_TRUE(id && other);
  std::vector<StoredSnapshot> many;
  for (core::Seq s = 0; s < 3000; s += 3) many.push_back({s, std::string(200, static_cast<char>('a' + s % 26))});
  ASSERT_TRUE(st.put_snapshots(*id, kRuleset, kVersion, many));
  ASSERT_TRUE(st.put_snapshot(*other, 7, kRuleset, kVersion, "kept"));

  auto gone = st.delete_snapshot(*id, 3, kRuleset, kVersion);
  ASSERT_TRUE(gone);
  EXPECT_TRUE(*gone);
  auto again = st.delete_snapshot(*id, 3, kRuleset, kVersion);
  ASSERT_TRUE(again);
  EXPECT_FALSE(*again);
  EXPECT_EQ(nearest(st, *id, 5)->seq, 0u);

  auto dropped = st.drop_snapshots(*id);
  ASSERT_TRUE(dropped);
  EXPECT_EQ(*dropped, many.size() - 1);
  EXPECT_FALSE(nearest(st, *id, kEndSeq));
  EXPECT_EQ(nearest(st, *other, kEndSeq)->bytes, "kept");
}

TEST(Snapshots, AReadOnlyStoreRefusesWritesAndStillReads) {
  TempDir dir;
  core::GameId id = 0;
  {
    Store st = open_store(dir.store());
    auto g = st.import_game(make_game("ro", 20));
    ASSERT_TRUE(g);
    id = *g;
    ASSERT_TRUE(st.put_snapshot(id, 10, kRuleset, kVersion, "ten"));
  }
  Options ro;
  ro.read_only = true;
  Store st = open_store(dir.store(), ro);
  EXPECT_FALSE(st.put_snapshot(id, 11, kRuleset, kVersion, "eleven"));
  EXPECT_FALSE(st.drop_snapshots(id));
  EXPECT_EQ(nearest(st, id, 15)->bytes, "ten");
}

TEST(Snapshots, AnOpenReaderKeepsItsViewWhileSnapshotsChange) {
  TempDir dir;
  Store st = open_store(dir.store());
  auto id = st.import_game(make_game("mvcc", 20));
  ASSERT_TRUE(id);
  ASSERT_TRUE(st.put_snapshot(*id, 10, kRuleset, kVersion, "before"));
  auto r = st.reader();
  ASSERT_TRUE(r);
  ASSERT_TRUE(st.put_snapshot(*id, 10, kRuleset, kVersion, "after"));
  auto n = r->nearest_snapshot(*id, 15, kRuleset, kVersion);
  ASSERT_TRUE(n && *n);
  EXPECT_EQ((*n)->bytes, "before");
}

}  // namespace
}  // namespace warlog::store
