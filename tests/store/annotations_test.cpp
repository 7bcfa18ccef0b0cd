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

// The value stored under (game, n), split into its stored A(n) and bytes.
std::pair<std::string, std::string> raw_annotation(const fs::path& store, core::GameId game, std::uint64_t n) {
  std::pair<std::string, std::string> out;
  edit_raw(store, kDbAnnotations, [&](MDB_txn* txn, MDB_dbi dbi) {
    auto v = lmdb::get(txn, dbi, view(annotation_key(game, n)));
    ASSERT_TRUE(v && *v);
    out = {std::string((*v)->substr(0, 32)), std::string((*v)->substr(32))};
  });
  return out;
}

core::Digest digest_of(std::string_view s) {
  core::Digest d{};
  std::copy(s.begin(), s.end(), d.begin());
  return d;
}

BrokenLink broken_link(const fs::path& store_dir, core::GameId game) {
  auto store = open_store(store_dir, Options{.read_only = true});
  auto report = store.reader()->verify(game);
  EXPECT_TRUE(report) << report.error().message;
  EXPECT_TRUE(report->broken) << "verify saw nothing wrong";
  return report->broken.value_or(BrokenLink{});
}

class AnnotationsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = open_store(dir_.store());
    ASSERT_EQ(store.import_game(make_game("One", 400)).value(), 1u);  // seqs past 256
    ASSERT_EQ(store.import_game(make_game("Two", 10)).value(), 2u);
  }
  // Game 1 with three annotations: two disputes and a ruling.
  void three() {
    auto store = open_store(dir_.store());
    ASSERT_TRUE(store.append_annotation(1, 5, dispute("first")));
    ASSERT_TRUE(store.append_annotation(1, 300, dispute("second")));
    ASSERT_TRUE(store.append_annotation(1, 5, ruling(0)));
  }
  TempDir dir_;
};

TEST(AnnotationKeys, AreBigEndianSoMemcmpOrderIsNumericOrder) {
  EXPECT_LT(annotation_key(1, 255), annotation_key(1, 256));
  EXPECT_LT(annotation_key(1, 70'000), annotation_key(2, 0));
  const auto parts = parse_annotation_key(view(annotation_key(3, 65'536)));
  ASSERT_TRUE(parts);
  EXPECT_EQ(parts->game, 3u);
  EXPECT_EQ(parts->n, 65'536u);
  EXPECT_FALSE(parse_annotation_key(std::string_view("0123456789abcdefghij")));  // format 1's 20 bytes
}

TEST(AnnotationChain, StartsFromTheIdentityAndHashesLengthAndBytes) {
  core::Digest one{}, two{};
  two[0] = 1;
  const auto a = annotation_chain_start(one);
  EXPECT_NE(a, annotation_chain_start(two));
  std::string m(kAnnotationChainTag);
  m.append(32, '\0');
  EXPECT_EQ(a, core::blake2b(m)) << "A(-1) = BLAKE2b-256(tag ‖ identity)";
  std::string link(a.begin(), a.end());
  link += std::string("\x03\0\0\0abc", 7);  // u32 LE length, then the bytes
  EXPECT_EQ(annotation_chain_next(a, "abc"), core::blake2b(link));
}

TEST_F(AnnotationsTest, AppendNumbersPerGameInOrderAndChains) {
  const auto before = dump_events(dir_.store());
  core::Digest first_chain{};
  {
    auto store = open_store(dir_.store());
    EXPECT_EQ(store.append_annotation(1, 300, dispute("late")).value(), 0u);
    EXPECT_EQ(store.append_annotation(1, 2, dispute("early")).value(), 1u);
    EXPECT_EQ(store.append_annotation(2, 0, dispute("other game")).value(), 0u);
    EXPECT_EQ(store.append_annotation(1, 2, dispute("early, again")).value(), 2u);
    EXPECT_EQ(store.append_annotation(1, 2, ruling(1)).value(), 3u);
  }
  {
    auto store = open_store(dir_.store(), Options{.read_only = true});
    auto reader = store.reader();
    ASSERT_TRUE(reader);
    auto one = reader->annotations(1);
    ASSERT_TRUE(one) << one.error().message;
    ASSERT_EQ(one->size(), 4u);
    // In the order appended, each naming its seq.
    const std::vector<std::pair<core::Seq, core::Annotation>> want = {
        {300, dispute("late")}, {2, dispute("early")}, {2, dispute("early, again")}, {2, ruling(1)}};
    const auto meta = reader->game(1).value();
    core::Digest chain = annotation_chain_start(meta.identity);
    for (std::size_t i = 0; i < want.size(); ++i) {
      const auto& r = (*one)[i];
      EXPECT_EQ(r.game, 1u);
      EXPECT_EQ(r.n, i);
      EXPECT_EQ(r.seq, want[i].first);
      EXPECT_EQ(r.value, want[i].second);
      chain = annotation_chain_next(chain, events::encode_annotation(want[i].first, want[i].second));
      EXPECT_EQ(r.chain, chain) << "A(" << i << ")";
    }
    first_chain = (*one)[0].chain;
    // The record holds the count and A(count - 1).
    EXPECT_EQ(meta.annotation_count, 4u);
    EXPECT_EQ(meta.annotation_head, chain);
    EXPECT_EQ(reader->game(2)->annotation_count, 1u);

    auto all = reader->annotations(std::nullopt);
    ASSERT_TRUE(all);
    ASSERT_EQ(all->size(), 5u);
    EXPECT_EQ(all->back().game, 2u);
    auto at = reader->annotations_at(1, 2);
    ASSERT_TRUE(at);
    ASSERT_EQ(at->size(), 3u);
    EXPECT_EQ((*at)[0].n, 1u);
    EXPECT_TRUE(reader->annotations_at(1, 3)->empty());

    auto report = reader->verify(1);
    ASSERT_TRUE(report);
    EXPECT_TRUE(report->ok()) << report->broken->to_string();
    EXPECT_EQ(report->annotations_checked, 4u);
  }
  // The value is A(n) ‖ the canonical bytes, and the streams are byte for
  // byte what they were (read with the store closed: LMDB allows one open of
  // an environment per process).
  const auto [stored, bytes] = raw_annotation(dir_.store(), 1, 0);
  EXPECT_EQ(digest_of(stored), first_chain);
  EXPECT_EQ(bytes, events::encode_annotation(300, dispute("late")));
  EXPECT_EQ(dump_events(dir_.store()), before);
}

TEST_F(AnnotationsTest, AGameWithoutAnnotationsHasTheChainStartAsHead) {
  auto store = open_store(dir_.store());
  const auto meta = store.reader()->game(2).value();
  EXPECT_EQ(meta.annotation_count, 0u);
  EXPECT_EQ(meta.annotation_head, annotation_chain_start(meta.identity));
  EXPECT_TRUE(store.reader()->verify(2)->ok());
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
  EXPECT_EQ(store.reader()->game(2)->annotation_count, 0u);
}

// An attacker's trial: a claim with an invalid byte and a terminal escape
// (`--claim $'bad \xff\x1b[2J ruling'`) was stored; every JSON output of the
// store then failed and `dispute list` cleared the judge's screen.
TEST_F(AnnotationsTest, AClaimOrRulingThatIsNotCleanTextIsRefusedAndWritesNothing) {
  auto store = open_store(dir_.store());
  auto r = store.append_annotation(2, 3, dispute("bad \xff ruling"));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::InvalidArgument);
  EXPECT_THAT(r.error().message, HasSubstr("the claim holds invalid UTF-8 (byte 0xff) at byte 4"));
  r = store.append_annotation(2, 3, dispute("clears \x1b[2J the screen"));
  ASSERT_FALSE(r);
  EXPECT_THAT(r.error().message, HasSubstr("the claim holds a control character (U+001B)"));
  ASSERT_TRUE(store.append_annotation(2, 3, dispute("a clean claim,\nover two lines")));
  auto bad_ruling = ruling(0);
  bad_ruling.ruled_by = std::string("Judge\x07");
  r = store.append_annotation(2, 3, bad_ruling);
  ASSERT_FALSE(r);
  EXPECT_THAT(r.error().message, HasSubstr("the name of who ruled holds a control character (U+0007)"));
  EXPECT_EQ(store.reader()->game(2)->annotation_count, 1u) << "only the clean claim";
}

TEST_F(AnnotationsTest, ARulingNamesTheNthDisputeAtItsSeq) {
  auto store = open_store(dir_.store());
  ASSERT_TRUE(store.append_annotation(1, 5, dispute("here")));
  ASSERT_TRUE(store.append_annotation(1, 6, dispute("elsewhere")));
  ASSERT_TRUE(store.append_annotation(1, 5, dispute("here, second")));
  auto elsewhere = store.append_annotation(1, 7, ruling(0));  // no dispute at seq 7
  ASSERT_FALSE(elsewhere);
  EXPECT_EQ(elsewhere.error().code, ErrorCode::NotFound);
  EXPECT_THAT(elsewhere.error().message, HasSubstr("no dispute 1:7:0"));
  EXPECT_FALSE(store.append_annotation(1, 5, ruling(2))) << "seq 5 has disputes 0 and 1 only";
  EXPECT_TRUE(store.append_annotation(1, 5, ruling(1)));  // the second at seq 5: n 2, not n 1
  EXPECT_TRUE(store.append_annotation(1, 6, ruling(0)));
}

TEST_F(AnnotationsTest, AStaleExpectedCountIsAConflict) {
  auto store = open_store(dir_.store());
  ASSERT_TRUE(store.append_annotation(1, 5, dispute("here")));
  // Two judges read the game's one annotation; the first appends, the second is refused,
  // even though the first wrote about another event: the chain has one order.
  ASSERT_EQ(store.append_annotation(1, 9, dispute("there"), 1u).value(), 1u);
  auto late = store.append_annotation(1, 5, ruling(0), 1u);
  ASSERT_FALSE(late);
  EXPECT_EQ(late.error().code, ErrorCode::Conflict);
  EXPECT_EQ(store.reader()->annotations(1)->size(), 2u);
}

TEST_F(AnnotationsTest, ASignatureConcernsTheLastEventItCoversAndTheCountBeforeIt) {
  auto store = open_store(dir_.store());
  core::GameSigned s;
  s.signer = "Alice";
  s.event_count = 11;
  EXPECT_TRUE(store.append_annotation(2, 10, s));
  auto wrong = store.append_annotation(2, 9, s);
  ASSERT_FALSE(wrong);
  EXPECT_EQ(wrong.error().code, ErrorCode::InvalidArgument);
  auto stale = store.append_annotation(2, 10, s);  // it says 0 annotations before it; there is 1
  ASSERT_FALSE(stale);
  EXPECT_EQ(stale.error().code, ErrorCode::Conflict);
}

TEST_F(AnnotationsTest, VerifyNamesTheFirstAlteredAnnotation) {
  three();
  // Flip a letter of the second dispute's claim ("second" -> "Second"): it still decodes.
  edit_raw(dir_.store(), kDbAnnotations, [](MDB_txn* txn, MDB_dbi dbi) {
    auto v = lmdb::get(txn, dbi, view(annotation_key(1, 1)));
    ASSERT_TRUE(v && *v);
    std::string value(**v);
    const auto pos = value.find("second");
    ASSERT_NE(pos, std::string::npos);
    value[pos] = 'S';
    test::put_raw(txn, dbi, view(annotation_key(1, 1)), value);
  });
  const auto b = broken_link(dir_.store(), 1);
  EXPECT_EQ(b.kind, BrokenLink::Kind::AnnotationChainMismatch);
  EXPECT_EQ(b.annotation, 1u);
  EXPECT_EQ(b.seq, 300u);
  EXPECT_THAT(b.what, HasSubstr("annotation 1#1"));
}

TEST_F(AnnotationsTest, ARecomputedChainStillDisagreesWithTheRecord) {
  three();
  // An editor removes the ruling (the last annotation) and leaves every
  // stored hash consistent: only the record's count and head tell.
  edit_raw(dir_.store(), kDbAnnotations, [](MDB_txn* txn, MDB_dbi dbi) {
    ASSERT_TRUE(lmdb::del(txn, dbi, view(annotation_key(1, 2))).value());
  });
  const auto b = broken_link(dir_.store(), 1);
  EXPECT_EQ(b.kind, BrokenLink::Kind::AnnotationCountMismatch);
  EXPECT_THAT(b.what, HasSubstr("2 annotations are stored, the game record counts 3"));
  // And nothing is appended on a chain that does not end where the record says.
  auto store = open_store(dir_.store());
  auto r = store.append_annotation(1, 5, dispute("after the removal"));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::DataLoss);
  EXPECT_THAT(r.error().message, HasSubstr("run verify"));
}

TEST_F(AnnotationsTest, ARemovedAnnotationInTheMiddleIsAGap) {
  three();
  edit_raw(dir_.store(), kDbAnnotations, [](MDB_txn* txn, MDB_dbi dbi) {
    ASSERT_TRUE(lmdb::del(txn, dbi, view(annotation_key(1, 1))).value());
  });
  const auto b = broken_link(dir_.store(), 1);
  EXPECT_EQ(b.kind, BrokenLink::Kind::BadAnnotation);
  EXPECT_EQ(b.annotation, 1u);
  EXPECT_THAT(b.what, HasSubstr("the next stored annotation is #2"));
}

TEST_F(AnnotationsTest, AnAlteredRecordHeadIsNamed) {
  three();
  edit_raw(dir_.store(), kDbGames, [](MDB_txn* txn, MDB_dbi dbi) {
    auto v = lmdb::get(txn, dbi, view(game_key(1)));
    ASSERT_TRUE(v && *v);
    auto meta = decode_game_meta(**v).value();
    meta.annotation_head[0] ^= 1;
    test::put_raw(txn, dbi, view(game_key(1)), encode_game_meta(meta));
  });
  const auto b = broken_link(dir_.store(), 1);
  EXPECT_EQ(b.kind, BrokenLink::Kind::AnnotationHeadMismatch);
}

TEST_F(AnnotationsTest, ACorruptValueIsDataLossNamingIt) {
  {
    auto store = open_store(dir_.store());
    ASSERT_TRUE(store.append_annotation(1, 4, dispute("soon damaged")));
  }
  edit_raw(dir_.store(), kDbAnnotations, [](MDB_txn* txn, MDB_dbi dbi) {
    test::put_raw(txn, dbi, view(annotation_key(1, 0)), std::string(32, 'A') + std::string(24, '\xff'));
  });
  auto store = open_store(dir_.store());
  auto r = store.reader()->annotations(1);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::DataLoss);
  EXPECT_THAT(r.error().message, HasSubstr("game 1: trust: BROKEN at annotation 0: does not decode"));
  EXPECT_EQ(store.reader()->verify(1)->broken->kind, BrokenLink::Kind::BadAnnotation);
  EXPECT_THAT(store.reader()->verify(1)->broken->what, HasSubstr("annotation 1#0"));
  // Other games' annotations still read.
  EXPECT_TRUE(store.append_annotation(2, 0, dispute("fine")));
  EXPECT_EQ(store.reader()->annotations(2)->size(), 1u);
  // Nothing is appended on top of a damaged chain.
  EXPECT_FALSE(store.append_annotation(1, 4, dispute("after the damage")));
}

// Issue 14, an attacker's trial on main: a claim edited in place (its
// stored A(n) left as it was) was read back by every reader as if recorded;
// only verify objected. Reading now checks the chain as verify does and
// refuses the game's annotations whole, while other games' still read.
TEST_F(AnnotationsTest, AnAnnotationEditedInPlaceIsRefusedOnReadAndOtherGamesStillRead) {
  three();
  ASSERT_TRUE(open_store(dir_.store()).append_annotation(2, 3, dispute("the other game's")));
  edit_raw(dir_.store(), kDbAnnotations, [](MDB_txn* txn, MDB_dbi dbi) {
    std::string value(*lmdb::get(txn, dbi, view(annotation_key(1, 1))).value());
    const auto pos = value.find("second");
    ASSERT_NE(pos, std::string::npos);
    value[pos] = 'S';
    test::put_raw(txn, dbi, view(annotation_key(1, 1)), value);
  });
  auto store = open_store(dir_.store(), Options{.read_only = true});
  auto reader = store.reader();
  auto r = reader->annotations(1);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::DataLoss);
  EXPECT_THAT(r.error().message, HasSubstr("game 1: trust: BROKEN at annotation 1: its stored chain hash"));
  EXPECT_THAT(r.error().message, HasSubstr("refused"));
  EXPECT_FALSE(reader->annotations_at(1, 300));
  EXPECT_FALSE(reader->annotations(std::nullopt));  // the whole list: read game by game to go on
  ASSERT_TRUE(reader->annotations(2));
  EXPECT_EQ(reader->annotations(2)->size(), 1u);
}

// The chain's stored hashes consistent, but the record counts the removed
// last annotation (a ruling): refused on read, not an older history.
TEST_F(AnnotationsTest, ALastAnnotationRemovedIsRefusedOnRead) {
  three();
  edit_raw(dir_.store(), kDbAnnotations, [](MDB_txn* txn, MDB_dbi dbi) {
    ASSERT_TRUE(lmdb::del(txn, dbi, view(annotation_key(1, 2))).value());
  });
  auto store = open_store(dir_.store(), Options{.read_only = true});
  auto r = store.reader()->annotations(1);
  ASSERT_FALSE(r);
  EXPECT_THAT(r.error().message, HasSubstr("game 1: trust: BROKEN at annotation 2: 2 annotations are stored, "
                                           "the game record counts 3"));
}

// Issue 14: annotations stored under a game id with no game record passed
// verify (it looked for events only) and failed every dispute listing.
// They are an orphan, named as such, and other games still read.
TEST_F(AnnotationsTest, AnnotationsUnderAGameIdWithNoRecordAreAnOrphan) {
  three();
  edit_raw(dir_.store(), kDbAnnotations, [](MDB_txn* txn, MDB_dbi dbi) {
    const std::string value(*lmdb::get(txn, dbi, view(annotation_key(1, 0))).value());
    test::put_raw(txn, dbi, view(annotation_key(7, 0)), value);
  });
  auto store = open_store(dir_.store(), Options{.read_only = true});
  auto reader = store.reader();
  EXPECT_EQ(reader->orphan_games().value(), (std::vector<core::GameId>{7}));
  const auto report = reader->verify(7);
  ASSERT_TRUE(report) << report.error().message;
  ASSERT_TRUE(report->broken);
  EXPECT_EQ(report->broken->kind, BrokenLink::Kind::Orphan);
  const std::string said = "game 7: annotations (disputes, rulings or signatures) with no game record";
  EXPECT_THAT(report->broken->what, HasSubstr(said));
  auto r = reader->annotations(7);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::DataLoss);
  EXPECT_THAT(r.error().message, HasSubstr(said));
  EXPECT_THAT(reader->game(7).error().message, HasSubstr(said));
  EXPECT_EQ(reader->annotations(1)->size(), 3u);
  EXPECT_TRUE(reader->verify(1)->ok());
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
