// The annotations database: append-only records beside the streams, keyed
// game ‖ seq ‖ n, read back in order; the events are never touched.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "store/store_fixtures.hpp"
#include "warlog/events/annotation_codec.hpp"
#include "warlog/store/annotations.hpp"

namespace warlog::store {
namespace {

namespace fs = std::filesystem;
using test::edit_raw;
using test::make_game;
using test::open_store;
using test::TempDir;
using ::testing::HasSubstr;

core::DisputeRaised dispute(std::string claim) { return {std::move(claim), "Alice", {}, "2026-03-20T10:00:00Z"}; }

core::DisputeRuled ruling(std::uint32_t on) {
  core::DisputeRuled r;
  r.dispute = on;
  r.ruling = "upheld";
  r.ruled_by = "Judge";
  return r;
}

// Every key and value of the events database, to show it unchanged.
std::vector<std::pair<std::string, std::string>> dump_events(const fs::path& store) {
  std::vector<std::pair<std::string, std::string>> out;
  edit_raw(store, kDbEvents, [&](MDB_txn* txn, MDB_dbi dbi) {
    auto c = lmdb::Cursor::open(txn, dbi);
    ASSERT_TRUE(c);
    for (auto e = c->get(MDB_FIRST); e && *e; e = c->get(MDB_NEXT)) out.emplace_back(c->key(), c->value());
  });
  return out;
}

class AnnotationsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = open_store(dir_.store());
    ASSERT_EQ(store.import_game(make_game("One", 400)).value(), 1u);  // seqs past 256
    ASSERT_EQ(store.import_game(make_game("Two", 10)).value(), 2u);
  }
  TempDir dir_;
};

TEST(AnnotationKeys, AreBigEndianSoMemcmpOrderIsNumericOrder) {
  EXPECT_LT(annotation_key(1, 255, 0), annotation_key(1, 256, 0));
  EXPECT_LT(annotation_key(1, 7, 255), annotation_key(1, 7, 256));
  EXPECT_LT(annotation_key(1, 70'000, 9), annotation_key(2, 0, 0));
  const auto parts = parse_annotation_key(view(annotation_key(3, 65'536, 70'000)));
  ASSERT_TRUE(parts);
  EXPECT_EQ(parts->game, 3u);
  EXPECT_EQ(parts->seq, 65'536u);
  EXPECT_EQ(parts->n, 70'000u);
  EXPECT_FALSE(parse_annotation_key(view(event_key(1, 2))));
}

TEST_F(AnnotationsTest, AppendNumbersPerEventAndReadsBackInKeyOrder) {
  const auto before = dump_events(dir_.store());
  {
    auto store = open_store(dir_.store());
    EXPECT_EQ(store.append_annotation(1, 300, dispute("late")).value(), 0u);
    EXPECT_EQ(store.append_annotation(1, 2, dispute("early")).value(), 0u);
    EXPECT_EQ(store.append_annotation(2, 0, dispute("other game")).value(), 0u);
    EXPECT_EQ(store.append_annotation(1, 2, dispute("early, again")).value(), 1u);
    EXPECT_EQ(store.append_annotation(1, 2, ruling(0)).value(), 2u);
  }
  {
    auto store = open_store(dir_.store(), Options{.read_only = true});
    auto reader = store.reader();
    ASSERT_TRUE(reader);
    auto one = reader->annotations(1);
    ASSERT_TRUE(one) << one.error().message;
    ASSERT_EQ(one->size(), 4u);
    EXPECT_EQ((*one)[0], (AnnotationRecord{1, 2, 0, dispute("early")}));
    EXPECT_EQ((*one)[1], (AnnotationRecord{1, 2, 1, dispute("early, again")}));
    EXPECT_EQ((*one)[2], (AnnotationRecord{1, 2, 2, ruling(0)}));
    EXPECT_EQ((*one)[3], (AnnotationRecord{1, 300, 0, dispute("late")}));  // 300 after 2: big-endian

    auto all = reader->annotations(std::nullopt);
    ASSERT_TRUE(all);
    ASSERT_EQ(all->size(), 5u);
    EXPECT_EQ(all->back().game, 2u);
    auto at = reader->annotations_at(1, 2);
    ASSERT_TRUE(at);
    EXPECT_EQ(at->size(), 3u);
    EXPECT_TRUE(reader->annotations_at(1, 3)->empty());

    EXPECT_TRUE(reader->verify(1)->ok());
  }
  // The streams are byte for byte what they were (read with the store closed:
  // LMDB allows one open of an environment per process).
  EXPECT_EQ(dump_events(dir_.store()), before);
}

TEST_F(AnnotationsTest, UnknownGameOrEventIsNotFoundAndWritesNothing) {
  auto store = open_store(dir_.store());
  auto r = store.append_annotation(9, 0, dispute("x"));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::NotFound);
  EXPECT_THAT(r.error().message, HasSubstr("game 9 does not exist"));
  r = store.append_annotation(2, 11, dispute("x"));  // game 2 has seq 0..10
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::NotFound);
  EXPECT_THAT(r.error().message, HasSubstr("has no event 11"));
  EXPECT_TRUE(store.reader()->annotations(std::nullopt)->empty());
}

TEST_F(AnnotationsTest, ARulingMustReferToADisputeAtTheSameEvent) {
  auto store = open_store(dir_.store());
  ASSERT_TRUE(store.append_annotation(1, 5, dispute("here")));
  auto elsewhere = store.append_annotation(1, 6, ruling(0));
  ASSERT_FALSE(elsewhere);
  EXPECT_EQ(elsewhere.error().code, ErrorCode::NotFound);
  auto missing = store.append_annotation(1, 5, ruling(3));
  ASSERT_FALSE(missing);
  ASSERT_TRUE(store.append_annotation(1, 5, ruling(0)));
  auto on_a_ruling = store.append_annotation(1, 5, ruling(1));  // n 1 is a ruling, not a dispute
  ASSERT_FALSE(on_a_ruling);
  EXPECT_EQ(on_a_ruling.error().code, ErrorCode::NotFound);
}

TEST_F(AnnotationsTest, AStaleExpectedCountIsAConflict) {
  auto store = open_store(dir_.store());
  ASSERT_TRUE(store.append_annotation(1, 5, dispute("here")));
  // Two judges read one record; the first appends, the second is refused.
  ASSERT_EQ(store.append_annotation(1, 5, ruling(0), 1u).value(), 1u);
  auto late = store.append_annotation(1, 5, ruling(0), 1u);
  ASSERT_FALSE(late);
  EXPECT_EQ(late.error().code, ErrorCode::Conflict);
  EXPECT_EQ(store.reader()->annotations_at(1, 5)->size(), 2u);
}

TEST_F(AnnotationsTest, ASignatureIsKeptAtTheLastEventItCovers) {
  auto store = open_store(dir_.store());
  core::GameSigned s;
  s.signer = "Alice";
  s.event_count = 11;
  EXPECT_TRUE(store.append_annotation(2, 10, s));
  auto wrong = store.append_annotation(2, 9, s);
  ASSERT_FALSE(wrong);
  EXPECT_EQ(wrong.error().code, ErrorCode::InvalidArgument);
}

TEST_F(AnnotationsTest, ACorruptValueIsDataLossNamingItsKey) {
  {
    auto store = open_store(dir_.store());
    ASSERT_TRUE(store.append_annotation(1, 4, dispute("soon damaged")));
  }
  edit_raw(dir_.store(), kDbAnnotations, [](MDB_txn* txn, MDB_dbi dbi) {
    test::put_raw(txn, dbi, view(annotation_key(1, 4, 0)), std::string(24, '\xff'));
  });
  auto store = open_store(dir_.store());
  auto r = store.reader()->annotations(1);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::DataLoss);
  EXPECT_THAT(r.error().message, HasSubstr("annotation 1:4:0"));
  // Other games' annotations still read.
  EXPECT_TRUE(store.append_annotation(2, 0, dispute("fine")));
  EXPECT_EQ(store.reader()->annotations(2)->size(), 1u);
  // Nothing is appended on top of a damaged record at the same event.
  EXPECT_FALSE(store.append_annotation(1, 4, dispute("after the damage")));
}

TEST_F(AnnotationsTest, AnOversizedAnnotationIsRefused) {
  auto store = open_store(dir_.store());
  auto r = store.append_annotation(1, 0, dispute(std::string(events::kMaxAnnotationBytes + 1, 'x')));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::ResourceExhausted);
}

TEST_F(AnnotationsTest, AReadOnlyStoreReadsButDoesNotWrite) {
  {
    auto store = open_store(dir_.store());
    ASSERT_TRUE(store.append_annotation(1, 1, dispute("x")));
  }
  auto store = open_store(dir_.store(), Options{.read_only = true});
  EXPECT_EQ(store.reader()->annotations(1)->size(), 1u);
  EXPECT_FALSE(store.append_annotation(1, 1, dispute("y")));
}

}  // namespace
}  // namespace warlog::store
