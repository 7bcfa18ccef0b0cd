// Streams: import, append, scan, conflicts, isolation, blobs, opening.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>

#include "store/store_fixtures.hpp"
#include "warlog/core/hash.hpp"
#include "warlog/events/codec.hpp"

namespace warlog::store {
namespace {

namespace fs = std::filesystem;
using test::as_stored;
using test::make_game;
using test::open_store;
using test::read_all;
using test::TempDir;
using ::testing::HasSubstr;

TEST(StoreImport, ScanReturnsTheImportedEventsWithIdsAndSeqsAssigned) {
  TempDir dir;
  auto store = open_store(dir.store());
  const auto events = make_game("Mill Road", 40);
  auto id = store.import_game(events);
  ASSERT_TRUE(id) << id.error().message;
  EXPECT_EQ(*id, 1u);
  EXPECT_EQ(read_all(store, *id), as_stored(events, *id));

  auto r = store.reader();
  ASSERT_TRUE(r);
  auto meta = r->game(*id);
  ASSERT_TRUE(meta);
  EXPECT_EQ(meta->id, 1u);
  EXPECT_EQ(meta->event_count, 41u);
  EXPECT_EQ(meta->title, "Mill Road");
  EXPECT_EQ(meta->date, "2026-03-14");
  EXPECT_EQ(meta->ruleset_hash, core::to_hex(core::blake2b(test::kTestRuleset)));
  EXPECT_EQ(meta->catalog_hash, core::to_hex(core::blake2b(test::kTestCatalog)));
  ASSERT_EQ(meta->seats.size(), 2u);
  EXPECT_EQ(meta->seats[1].player, "Bo");
  EXPECT_EQ(meta->seats[1].allegiance, core::Allegiance::PawCoalition);
}

// Store format 2 › 1: S(-1) = BLAKE2b("warlog.event-chain.2"), S(k) =
// BLAKE2b(S(k-1) ‖ body(k)) over segments 0 | 1..64 | 65..128 | ..., the
// body being u32 LE length ‖ canonical bytes per event: recomputed here from
// the canonical bytes scan_raw gives, it is the record's head and head_at's.
TEST(StoreImport, ChainsSegmentsOfCanonicalBytes) {
  TempDir dir;
  auto store = open_store(dir.store());
  const auto events = make_game("Chain", 140);
  auto id = store.import_game(events);
  ASSERT_TRUE(id);
  auto r = store.reader();
  ASSERT_TRUE(r);
  core::Digest s = core::blake2b("warlog.event-chain.2");
  std::string body;
  std::vector<core::Digest> heads;  // the head after seq + 1 events
  auto n = r->scan_raw(*id, 0, kEndSeq, [&](core::Seq seq, std::string_view bytes) {
    EXPECT_EQ(bytes, events::encode_event(events[seq], seq)) << "seq " << seq;
    auto h = events::decode_header(bytes);
    EXPECT_TRUE(h);
    EXPECT_EQ(h->seq, seq);
    if (seq == 1 || (seq > 1 && (seq - 1) % 64 == 0)) {  // a segment starts
      s = core::chain_hash(s, body);
      body.clear();
    }
    for (int i = 0; i < 4; ++i) body.push_back(static_cast<char>(bytes.size() >> (8 * i) & 0xFF));
    body.append(bytes);
    heads.push_back(core::chain_hash(s, body));
    return true;
  });
  ASSERT_TRUE(n);
  EXPECT_EQ(*n, 141u);
  EXPECT_EQ(r->game(*id)->head, heads.back());
  for (core::Seq count : {1u, 2u, 64u, 65u, 66u, 129u, 130u, 141u}) {
    EXPECT_EQ(r->head_at(*id, count).value(), heads[count - 1]) << "count " << count;
  }
  EXPECT_EQ(r->head_at(*id, 0).error().code, ErrorCode::InvalidArgument);
  EXPECT_EQ(r->head_at(*id, 142).error().code, ErrorCode::InvalidArgument);
}

// The same game in two stores, under other local ids, has the same chain.
TEST(StoreImport, TheChainDoesNotDependOnTheLocalId) {
  TempDir one, two;
  auto a = open_store(one.store());
  auto b = open_store(two.store());
  ASSERT_TRUE(b.import_game(make_game("Other", 3)));
  const auto events = make_game("Travels", 70);
  ASSERT_EQ(a.import_game(events).value(), 1u);
  ASSERT_EQ(b.import_game(events).value(), 2u);
  const auto ma = a.reader()->game(1).value();
  const auto mb = b.reader()->game(2).value();
  EXPECT_EQ(ma.head, mb.head);
  EXPECT_EQ(ma.identity, mb.identity);
}

TEST(StoreImport, ScanHonoursTheRangeAndStopsWhenAsked) {
  TempDir dir;
  auto store = open_store(dir.store());
  auto id = store.import_game(make_game("Range", 20));
  ASSERT_TRUE(id);
  auto r = store.reader();
  std::vector<core::Seq> seen;
  auto n = r->scan(*id, 5, 9, [&](const core::Event& ev) {
    seen.push_back(ev.seq);
    return true;
  });
  ASSERT_TRUE(n);
  EXPECT_EQ(seen, (std::vector<core::Seq>{5, 6, 7, 8}));
  seen.clear();
  n = r->scan(*id, 0, kEndSeq, [&](const core::Event& ev) {
    seen.push_back(ev.seq);
    return ev.seq < 2;
  });
  ASSERT_TRUE(n);
  EXPECT_EQ(*n, 3u);
  EXPECT_EQ(r->scan(*id, 50, kEndSeq, [](const core::Event&) { return true; }).value(), 0u);
}

TEST(StoreImport, FirstEventMustBeGameCreated) {
  TempDir dir;
  auto store = open_store(dir.store());
  auto events = make_game("x", 3);
  events.erase(events.begin());
  auto id = store.import_game(events);
  ASSERT_FALSE(id);
  EXPECT_EQ(id.error().code, ErrorCode::InvalidArgument);
  EXPECT_THAT(id.error().message, HasSubstr("not GameCreated"));
  EXPECT_EQ(store.import_game({}).error().code, ErrorCode::InvalidArgument);
}

TEST(StoreImport, ReimportingTheSameGameIsAConflictAndWritesNothing) {
  TempDir dir;
  auto store = open_store(dir.store());
  const auto events = make_game("Twice", 10);
  ASSERT_TRUE(store.import_game(events));
  auto again = store.import_game(events);
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, ErrorCode::Conflict);
  EXPECT_THAT(again.error().message, HasSubstr("already imported as game 1"));
  auto r = store.reader();
  EXPECT_EQ(r->game_ids().value(), std::vector<core::GameId>{1});
  EXPECT_EQ(r->game(1)->event_count, 11u);
  // The id was not consumed either.
  EXPECT_EQ(store.import_game(make_game("Other", 1)).value(), 2u);
}

// Store format 2 › 3: an imported game is indexed by the head of its whole
// stream, so the same GameCreated with other moves is another game.
TEST(StoreImport, SameGameCreatedWithOtherMovesIsAnotherGame) {
  TempDir dir;
  auto store = open_store(dir.store());
  ASSERT_EQ(store.import_game(make_game("Twice", 10)).value(), 1u);
  EXPECT_EQ(store.import_game(make_game("Twice", 12)).value(), 2u);
  auto r = store.reader();
  EXPECT_EQ(r->game(1)->identity, r->game(2)->identity);  // one GameCreated, one identity
  EXPECT_NE(r->game(1)->head, r->game(2)->head);
}

// import_games reports an identical stream (stored before or earlier in the
// batch) as already stored, with its id, and writes nothing for it.
TEST(StoreImport, IdenticalStreamInABatchIsAlreadyStored) {
  TempDir dir;
  auto store = open_store(dir.store());
  const auto a = make_game("A", 5);
  const auto b = make_game("B", 5);
  ASSERT_EQ(store.import_game(a).value(), 1u);
  const std::vector<std::span<const core::Event>> batch{a, b, b};
  auto out = store.import_games(batch);
  ASSERT_TRUE(out) << out.error().message;
  ASSERT_EQ(out->size(), 3u);
  EXPECT_EQ((*out)[0].value(), (ImportedGame{1, true}));
  EXPECT_EQ((*out)[1].value(), (ImportedGame{2, false}));
  EXPECT_EQ((*out)[2].value(), (ImportedGame{2, true}));
  EXPECT_EQ(store.reader()->game_ids().value(), (std::vector<core::GameId>{1, 2}));
}

TEST(StoreImport, SameTitleOnAnotherDateIsAnotherGame) {
  TempDir dir;
  auto store = open_store(dir.store());
  ASSERT_TRUE(store.import_game(make_game("Weekly", 3)));
  auto next_week = make_game("Weekly", 3);
  std::get<core::GameCreated>(next_week[0].payload).date = "2026-03-21";
  EXPECT_EQ(store.import_game(next_week).value(), 2u);
}

// identity = BLAKE2b-256("warlog.game-identity.2" ‖ canonical(event 0)):
// every setup field is in it, the local game id is not.
TEST(StoreImport, IdentityCoversEverySetupFieldButNotTheLocalId) {
  const auto base = make_game("Id", 0)[0];
  const core::Digest id = game_identity(events::encode_event(base));
  std::string tagged = "warlog.game-identity.2";
  tagged += events::encode_event(base);
  EXPECT_EQ(id, core::blake2b(tagged));
  auto changed = [&](auto edit) {
    core::Event e = base;
    edit(std::get<core::GameCreated>(e.payload));
    return game_identity(events::encode_event(e)) != id;
  };
  EXPECT_TRUE(changed([](core::GameCreated& c) { c.title += "!"; }));
  EXPECT_TRUE(changed([](core::GameCreated& c) { c.ruleset_hash[0] = 'b'; }));
  EXPECT_TRUE(changed([](core::GameCreated& c) { c.catalog_hash[0] = 'b'; }));
  EXPECT_TRUE(changed([](core::GameCreated& c) { c.seats[1].player = "Cy"; }));
  EXPECT_TRUE(changed([](core::GameCreated& c) { c.seats[0].allegiance = core::Allegiance::Weald; }));
  EXPECT_TRUE(changed([](core::GameCreated& c) { c.territories[0].space.row = 2; }));
  EXPECT_TRUE(changed([](core::GameCreated& c) { c.rows = 6; }));
  EXPECT_TRUE(changed([](core::GameCreated& c) { c.game_uuid = std::string(16, '\x07'); }));
  // "ab" + "c" and "a" + "bc" must not collide: Cap'n Proto texts have lengths.
  EXPECT_TRUE(changed([](core::GameCreated& c) {
    c.title = "Id" + c.date.substr(0, 1);
    c.date = c.date.substr(1);
  }));
  core::Event elsewhere = base;
  elsewhere.game = 42;
  EXPECT_EQ(game_identity(events::encode_event(elsewhere)), id);
}

TEST(StoreImport, UnknownGameIsNotFoundInOneLine) {
  TempDir dir;
  auto store = open_store(dir.store());
  auto r = store.reader();
  ASSERT_TRUE(r);
  auto m = r->game(17);
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().code, ErrorCode::NotFound);
  EXPECT_EQ(m.error().message, "game 17 does not exist");
  EXPECT_EQ(r->scan(17, 0, kEndSeq, [](const core::Event&) { return true; }).error().code,
            ErrorCode::NotFound);
  EXPECT_EQ(r->verify(17).error().code, ErrorCode::NotFound);
  const auto more = make_game("x", 1);
  EXPECT_EQ(store.append(17, 0, std::span(more).subspan(1)).error().message,
            "game 17 does not exist");
}

TEST(StoreImport, OversizedEventIsRefusedAndNothingWritten) {
  TempDir dir;
  auto store = open_store(dir.store());
  auto events = make_game("Big", 2);
  std::get<core::CardsDrawn>(events[2].payload)
      .cards.push_back(std::string(events::kMaxEventBytes, 'x'));
  auto id = store.import_game(events);
  ASSERT_FALSE(id);
  EXPECT_EQ(id.error().code, ErrorCode::ResourceExhausted);
  EXPECT_TRUE(store.reader()->game_ids().value().empty());
}

TEST(StoreAppend, AppendsAtTheExpectedSeq) {
  TempDir dir;
  auto store = open_store(dir.store());
  auto events = make_game("Live", 10);
  const std::vector<core::Event> first(events.begin(), events.begin() + 4);
  const std::vector<core::Event> rest(events.begin() + 4, events.end());
  auto id = store.import_game(first);
  ASSERT_TRUE(id);
  auto count = store.append(*id, 4, rest);
  ASSERT_TRUE(count) << count.error().message;
  EXPECT_EQ(*count, 11u);
  EXPECT_EQ(read_all(store, *id), as_stored(events, *id));
  EXPECT_TRUE(store.reader()->verify(*id)->ok());
}

// The open tail is rewritten by each append and a new block begins after
// seq 64k: appending one event at a time across block ends gives the same
// chain, head and blocks as importing the whole game at once.
TEST(StoreAppend, OneAtATimeAcrossBlockEndsChainsAsAnImport) {
  TempDir one, two;
  auto live = open_store(one.store());
  auto bulk = open_store(two.store());
  const auto events = make_game("Tail", 200);
  ASSERT_TRUE(bulk.import_game(events));
  ASSERT_TRUE(live.import_game(std::span(events).first(2)));
  for (core::Seq next = 2; next < events.size(); ++next) {
    auto n = live.append(1, next, std::span(events).subspan(next, 1));
    ASSERT_TRUE(n) << "seq " << next << ": " << n.error().message;
  }
  EXPECT_EQ(read_all(live, 1), as_stored(events, 1));
  EXPECT_EQ(live.reader()->game(1)->head, bulk.reader()->game(1)->head);
  EXPECT_TRUE(live.reader()->verify(1)->ok());
  for (core::Seq count : {64u, 65u, 66u, 129u, 201u}) {
    EXPECT_EQ(live.reader()->head_at(1, count).value(), bulk.reader()->head_at(1, count).value()) << count;
  }
}

TEST(StoreAppend, StaleExpectedSeqIsAConflictAndWritesNothing) {
  TempDir dir;
  auto store = open_store(dir.store());
  auto events = make_game("Race", 10);
  auto id = store.import_game(events);
  ASSERT_TRUE(id);
  const auto more = make_game("Race", 3);
  const std::span tail = std::span(more).subspan(1);
  auto stale = store.append(*id, 9, tail);
  ASSERT_FALSE(stale);
  EXPECT_EQ(stale.error().code, ErrorCode::Conflict);
  EXPECT_THAT(stale.error().message, HasSubstr("has 11 events"));
  EXPECT_EQ(store.append(*id, 12, tail).error().code, ErrorCode::Conflict);
  EXPECT_EQ(read_all(store, *id), as_stored(events, *id));
  EXPECT_TRUE(store.reader()->verify(*id)->ok());
}

TEST(StoreAppend, AppendsToAnEarlierGameBetweenOthersKeepStreamsApart) {
  TempDir dir;
  auto store = open_store(dir.store());
  auto a = make_game("A", 3);
  ASSERT_EQ(store.import_game(a).value(), 1u);
  ASSERT_EQ(store.import_game(make_game("B", 3)).value(), 2u);
  const auto more = make_game("A", 5);
  ASSERT_EQ(store.append(1, 4, std::span(more).subspan(1), Durability::Relaxed).value(), 9u);
  ASSERT_TRUE(store.sync());
  auto r = store.reader();
  EXPECT_TRUE(r->verify(1)->ok());
  EXPECT_TRUE(r->verify(2)->ok());
  EXPECT_EQ(r->game(2)->event_count, 4u);
}

TEST(StoreAppend, GameCreatedCannotBeAppended) {
  TempDir dir;
  auto store = open_store(dir.store());
  const auto events = make_game("x", 1);
  ASSERT_TRUE(store.import_game(events));
  EXPECT_EQ(store.append(1, 2, events).error().code, ErrorCode::InvalidArgument);
}

TEST(StoreReader, SeesTheSnapshotItBeganWith) {
  TempDir dir;
  auto store = open_store(dir.store());
  auto events = make_game("Snap", 9);
  auto id = store.import_game(events);
  ASSERT_TRUE(id);
  auto before = store.reader();
  ASSERT_TRUE(before);
  const auto more = make_game("Snap", 5);
  ASSERT_TRUE(store.append(*id, 10, std::span(more).subspan(1)));
  auto after = store.reader();
  ASSERT_TRUE(after);
  EXPECT_EQ(before->game(*id)->event_count, 10u);
  EXPECT_EQ(after->game(*id)->event_count, 15u);
  std::size_t seen = 0;
  ASSERT_TRUE(before->scan(*id, 0, kEndSeq, [&](const core::Event&) { return ++seen, true; }));
  EXPECT_EQ(seen, 10u);
  EXPECT_TRUE(before->verify(*id)->ok());  // the old head matches the old stream
  // A Reader is movable and may outlive the Store.
  Reader moved = std::move(*after);
  { auto gone = std::move(store); }
  EXPECT_EQ(moved.game(*id)->event_count, 15u);
}

TEST(StoreKeys, BigEndianKeysSortNumerically) {
  EXPECT_LT(view(event_key(1, 255)), view(event_key(1, 256)));
  EXPECT_LT(view(event_key(1, 65535)), view(event_key(1, 65536)));
  EXPECT_LT(view(event_key(1, ~core::Seq{0})), view(event_key(2, 0)));
  EXPECT_LT(view(game_key(255)), view(game_key(256)));
  const auto parts = parse_event_key(view(event_key(7, 65536)));
  ASSERT_TRUE(parts);
  EXPECT_EQ(parts->game, 7u);
  EXPECT_EQ(parts->seq, 65536u);
}

TEST(StoreKeys, GameLongerThan65536EventsReadsInOrderAcrossGames) {
  TempDir dir;
  constexpr std::size_t kLong = 70'000;
  {
    auto store = open_store(dir.store());
    ASSERT_EQ(store.import_game(make_game("Before", 300)).value(), 1u);
    ASSERT_EQ(store.import_game(make_game("Long", kLong - 1), Durability::Relaxed).value(), 2u);
    ASSERT_EQ(store.import_game(make_game("After", 300)).value(), 3u);
    auto r = store.reader();
    core::Seq expect = 0;
    auto n = r->scan_raw(2, 0, kEndSeq, [&](core::Seq seq, std::string_view) {
      EXPECT_EQ(seq, expect++);
      return true;
    });
    ASSERT_TRUE(n) << n.error().message;
    EXPECT_EQ(*n, kLong);
    // Decoded headers agree past 256 and 65,536.
    for (core::Seq at : {255u, 256u, 65535u, 65536u, 69999u}) {
      auto one = r->scan(2, at, at + 1, [&](const core::Event& ev) {
        EXPECT_EQ(ev.seq, at);
        EXPECT_EQ(ev.game, 2u);
        return true;
      });
      EXPECT_EQ(one.value(), 1u);
    }
    EXPECT_TRUE(r->verify(2)->ok());
  }
  // The raw events database, in LMDB's own order, is (game, first seq)
  // ascending, one block per segment: 0, 1, 65, 129, ...
  test::edit_raw(dir.store(), kDbEvents, [&](MDB_txn* txn, MDB_dbi dbi) {
    auto c = lmdb::Cursor::open(txn, dbi);
    ASSERT_TRUE(c);
    std::size_t total = 0;
    EventKeyParts prev{0, 0};
    for (auto e = c->get(MDB_FIRST); e && *e; e = c->get(MDB_NEXT)) {
      const auto k = parse_event_key(c->key());
      ASSERT_TRUE(k);
      if (total > 0) {
        EXPECT_TRUE(k->game == prev.game ? k->seq == (prev.seq == 0 ? 1 : prev.seq + 64)
                                         : k->game == prev.game + 1 && k->seq == 0)
            << "after " << prev.game << "/" << prev.seq << " came " << k->game << "/" << k->seq;
      }
      prev = *k;
      ++total;
    }
    const auto blocks = [](std::size_t events) { return 1 + (events - 1 + 63) / 64; };
    EXPECT_EQ(total, blocks(301) + blocks(kLong) + blocks(301));
  });
}

TEST(StoreBlobs, StoredByContentAndKind) {
  TempDir dir;
  auto store = open_store(dir.store());
  const std::string csv = "name,faction\nIronclaw Lancer,claw\n";
  auto h = store.put_blob(BlobKind::Catalog, csv);
  ASSERT_TRUE(h);
  EXPECT_EQ(*h, core::blake2b(csv));
  EXPECT_EQ(store.put_blob(BlobKind::Catalog, csv).value(), *h);  // idempotent
  auto r = store.reader();
  EXPECT_EQ(r->get_blob(BlobKind::Catalog, *h).value(), csv);
  auto wrong_kind = r->get_blob(BlobKind::Ruleset, *h);
  ASSERT_FALSE(wrong_kind);
  EXPECT_EQ(wrong_kind.error().code, ErrorCode::NotFound);
  EXPECT_THAT(wrong_kind.error().message, HasSubstr("no ruleset with hash"));
}

TEST(StoreOpen, ReadOnlyOpenOfAMissingPathIsNotFound) {
  TempDir dir;
  auto s = Store::open(dir.path() / "nowhere", Options{.read_only = true});
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, ErrorCode::NotFound);
  EXPECT_EQ(s.error().message, "no warlog store at " + (dir.path() / "nowhere").string());
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "nowhere"));
  // An empty directory is not a store either.
  EXPECT_EQ(Store::open(dir.path(), Options{.read_only = true}).error().code, ErrorCode::NotFound);
}

TEST(StoreOpen, ARegularFileIsRefused) {
  TempDir dir;
  const auto file = dir.path() / "games.txt";
  std::ofstream(file) << "not a store";
  auto s = Store::open(file);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, ErrorCode::InvalidArgument);
  EXPECT_THAT(s.error().message, HasSubstr("not a directory"));
}

TEST(StoreOpen, AnUnreadableDirectoryIsAnIoError) {
  if (::geteuid() == 0) GTEST_SKIP() << "root reads every directory";
  TempDir dir;
  { ASSERT_TRUE(open_store(dir.store()).import_game(make_game("Locked", 1))); }
  std::filesystem::permissions(dir.store(), std::filesystem::perms::none);
  for (bool ro : {false, true}) {
    auto s = Store::open(dir.store(), Options{.read_only = ro});
    ASSERT_FALSE(s);
    EXPECT_EQ(s.error().code, ErrorCode::IoError);
    EXPECT_THAT(s.error().message, HasSubstr(dir.store().string()));
  }
  std::filesystem::permissions(dir.store(), std::filesystem::perms::owner_all);
}

TEST(StoreOpen, ReadOnlyStoreReadsButRefusesWrites) {
  TempDir dir;
  { ASSERT_TRUE(open_store(dir.store()).import_game(make_game("RO", 2))); }
  auto store = open_store(dir.store(), Options{.read_only = true});
  EXPECT_EQ(read_all(store, 1).size(), 3u);
  auto w = store.import_game(make_game("RO2", 2));
  ASSERT_FALSE(w);
  EXPECT_EQ(w.error().code, ErrorCode::InvalidArgument);
  EXPECT_THAT(w.error().message, HasSubstr("read-only"));
}

TEST(StoreOpen, OpeningTheSameStoreTwiceInOneProcessIsRefused) {
  TempDir dir;
  auto first = open_store(dir.store());
  auto second = Store::open(dir.store());
  ASSERT_FALSE(second);
  EXPECT_EQ(second.error().code, ErrorCode::InvalidArgument);
  EXPECT_THAT(second.error().message, HasSubstr("already open in this process"));
  { auto closed = std::move(first); }
  EXPECT_TRUE(Store::open(dir.store()));
}

TEST(StoreOpen, NewerFormatIsUnsupported) {
  TempDir dir;
  { ASSERT_TRUE(open_store(dir.store()).import_game(make_game("Old", 1))); }
  test::edit_raw(dir.store(), kDbMeta, [](MDB_txn* txn, MDB_dbi dbi) {
    const char v[4] = {0, 0, 0, static_cast<char>(kFormatVersion + 1)};
    test::put_raw(txn, dbi, kFormatKey, {v, 4});
  });
  for (bool ro : {false, true}) {
    auto s = Store::open(dir.store(), Options{.read_only = ro});
    ASSERT_FALSE(s);
    EXPECT_EQ(s.error().code, ErrorCode::Unsupported);
    EXPECT_THAT(s.error().message, HasSubstr("newer than this warlog reads"));
  }
}

// The committed format-1 store (tests/data/format1-store/README.md): this
// warlog reads format 2 only and says how to get there.
TEST(StoreOpen, FormatOneStoreSaysRunMigrate) {
  TempDir dir;
  fs::create_directories(dir.store());
  fs::copy_file(fs::path(WARLOG_SOURCE_DIR) / "tests/data/format1-store/data.mdb", dir.store() / "data.mdb");
  for (bool ro : {true, false}) {
    auto s = Store::open(dir.store(), Options{.read_only = ro});
    ASSERT_FALSE(s);
    EXPECT_EQ(s.error().code, ErrorCode::Unsupported);
    EXPECT_EQ(s.error().message, "store " + dir.store().string() + " has format 1: run `warlog migrate`");
  }
}

TEST(StoreOpen, AnLmdbEnvironmentThatIsNotAStoreIsRefused) {
  TempDir dir;
  {
    auto env = lmdb::Env::create();
    ASSERT_TRUE(env);
    ASSERT_TRUE(env->open(dir.path().c_str(), 0, 0644));
    auto txn = lmdb::Txn::begin(env->handle(), nullptr, 0);
    MDB_dbi main = 0;
    ASSERT_TRUE(lmdb::dbi_open(txn->handle(), nullptr, 0, main));
    ASSERT_TRUE(lmdb::put(txn->handle(), main, "hello", "world", 0));
    ASSERT_TRUE(txn->commit());
  }
  auto s = Store::open(dir.path());
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, ErrorCode::InvalidArgument);
  EXPECT_THAT(s.error().message, HasSubstr("not a warlog store"));
}

// The record v2 (game_meta.hpp): 114 bytes, only what the chains need; the
// derived fields are never stored.
TEST(StoreGameMeta, RoundTripsAndRefusesTruncation) {
  GameMeta m;
  m.event_count = 70'000;
  m.head[0] = 0xAB;
  m.annotation_count = 3;
  m.annotation_head[7] = 0x11;
  m.identity[31] = 0x01;
  m.flags = kGameMigrated;
  const auto bytes = encode_game_meta(m);
  EXPECT_EQ(bytes.size(), kGameMetaBytes);
  EXPECT_EQ(bytes[0], 2);
  EXPECT_EQ(decode_game_meta(bytes).value(), m);
  EXPECT_TRUE(decode_game_meta(bytes)->migrated());
  GameMeta titled = m;
  titled.title = "Mill Road";
  titled.seats = {{"Ana", core::Allegiance::Weald}};
  EXPECT_EQ(encode_game_meta(titled), bytes) << "the derived fields are not stored";
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto d = decode_game_meta(std::string_view(bytes).substr(0, n));
    ASSERT_FALSE(d) << n;
    EXPECT_EQ(d.error().code, ErrorCode::DataLoss);
  }
  EXPECT_EQ(decode_game_meta(bytes + "x").error().code, ErrorCode::DataLoss);
  std::string newer = bytes;
  newer[0] = static_cast<char>(kGameMetaVersion + 1);
  EXPECT_EQ(decode_game_meta(newer).error().code, ErrorCode::Unsupported);
  std::string format1 = bytes;
  format1[0] = 1;
  EXPECT_THAT(decode_game_meta(format1).error().message, HasSubstr("warlog migrate"));
  std::string flags = bytes;
  flags.back() = '\x02';
  EXPECT_EQ(decode_game_meta(flags).error().code, ErrorCode::DataLoss);
}

// A new game's annotation chain starts at A(-1) = BLAKE2b-256(
// "warlog.annotation-chain.2" ‖ identity), with no annotations.
TEST(StoreGameMeta, ANewGameStartsItsAnnotationChain) {
  TempDir dir;
  auto store = open_store(dir.store());
  ASSERT_TRUE(store.import_game(make_game("Fresh", 3)));
  const auto m = store.reader()->game(1).value();
  EXPECT_EQ(m.annotation_count, 0u);
  std::string tagged = "warlog.annotation-chain.2";
  tagged.append(reinterpret_cast<const char*>(m.identity.data()), m.identity.size());
  EXPECT_EQ(m.annotation_head, core::blake2b(tagged));
  EXPECT_FALSE(m.migrated());
}

}  // namespace
}  // namespace warlog::store
