// Seek through snapshots in the user's cache (replay/seek.hpp): at every seq
// of every sample game (and of synthetic games, whose states are richer) a
// seek gives exactly the fully folded state, the state before, the event and
// its findings, with snapshots every 1, 7, 500 (the default) and 1000 events
// and with none. A snapshot that is garbage, has no MAC or one under another
// key, is of another engine version, ruleset or catalog, or was folded from
// events that have since changed is discarded, the result stays exact, and
// the cache gets it back correct, from read-only stores too. Every test has
// a cache of its own (TempDir::cache_dir).

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "game_corpus.hpp"
#include "store/store_fixtures.hpp"
#include "temp_dir.hpp"
#include "warlog/core/corrections.hpp"
#include "warlog/core/fold.hpp"
#include "warlog/core/notation.hpp"
#include "warlog/events/codec.hpp"
#include "warlog/events/snapshot.hpp"
#include "warlog/replay/seek.hpp"
#include "warlog/store/game_meta.hpp"
#include "warlog/store/lmdb.hpp"
#include "warlog/store/snapshot_cache.hpp"
#include "warlog/store/store.hpp"

namespace warlog {
namespace {

using replay::Archive;

// What a full fold from the start gives at each seq.
struct Reference {
  std::vector<core::Event> events;
  std::vector<core::GameState> after;                // after[i]: the state after event i
  std::vector<std::vector<core::Finding>> findings;  // of event i alone
};

Reference fold_all(const Archive& archive, core::GameId id, const replay::AuditOptions& overrides = {}) {
  Reference ref;
  auto events = archive.events(id);
  EXPECT_TRUE(events) << events.error().message;
  ref.events = std::move(*events);
  const core::Catalog catalog = overrides.catalog ? *overrides.catalog : *archive.catalog_of(id);
  const core::Ruleset ruleset = overrides.ruleset ? *overrides.ruleset : *archive.ruleset_of(id);
  const core::Context ctx{catalog, ruleset};
  // Through corrections (a sample holds a void and a backup): the state
  // after each event and that event's findings as it was recorded, which
  // for a stream without corrections is event-by-event apply.
  core::CorrectedFold fold(ctx, ref.events);
  while (!fold.done()) {
    std::vector<core::Finding> found;
    fold.step(found);
    ref.after.push_back(fold.state());
    ref.findings.push_back(std::move(found));
  }
  return ref;
}

// The seq of the game's first correction (Voided, BackupTo); the event count when none.
core::Seq first_correction(const Archive& archive, core::GameId id) {
  auto events = archive.events(id);
  EXPECT_TRUE(events);
  if (!events) return 0;
  for (const core::Event& ev : *events) {
    if (core::is_correction(ev.payload)) return ev.seq;
  }
  return events->size();
}

// Checks one seek against the reference; returns the result, or nullopt
// after the first miss.
std::optional<replay::SeekResult> check_seek(const replay::Seeker& seeker, const Reference& ref, core::Seq seq,
                                             const std::string& where) {
  auto r = seeker.seek(seq);
  EXPECT_TRUE(r) << where << ": " << r.error().message;
  if (!r) return std::nullopt;
  const core::Seq want = std::min<core::Seq>(seq, ref.events.size() - 1);
  EXPECT_EQ(r->moment.seq, want) << where;
  EXPECT_TRUE(r->moment.state == ref.after[want]) << where << ": the state after seq " << want << " differs\nwant:\n"
                                                  << core::to_text(ref.after[want]) << "\ngot:\n"
                                                  << core::to_text(r->moment.state);
  const core::GameState before = want == 0 ? core::GameState{} : ref.after[want - 1];
  EXPECT_TRUE(r->before == before) << where << ": the state before seq " << want << " differs";
  EXPECT_EQ(r->moment.event, ref.events[want]) << where;
  EXPECT_EQ(r->moment.findings, ref.findings[want]) << where;
  EXPECT_FALSE(r->cache_error) << where << ": " << r->cache_error->message;
  if (::testing::Test::HasFailure()) return std::nullopt;
  return std::move(*r);
}

// A store holding one corpus game, imported like `warlog import` would.
core::GameId import(Archive& archive, const testing::CorpusGame& g) {
  EXPECT_TRUE(archive.store().put_blob(store::BlobKind::Catalog, g.catalog_text));
  EXPECT_TRUE(archive.store().put_blob(store::BlobKind::Ruleset, g.ruleset_text));
  auto id = archive.store().import_game(g.events);
  EXPECT_TRUE(id) << id.error().message;
  return id ? *id : 0;
}

Archive open_archive(const testing::TempDir& dir, Archive::Mode mode) {
  auto a = Archive::open(dir.store(), mode);
  if (!a) throw std::runtime_error(a.error().message);
  a->use_snapshot_cache(dir.cache_dir(), dir.key_file());
  return std::move(*a);
}
Archive open_rw(const testing::TempDir& dir) { return open_archive(dir, Archive::Mode::ReadWrite); }
Archive open_ro(const testing::TempDir& dir) { return open_archive(dir, Archive::Mode::ReadOnly); }

// --- Exact at every seq ---------------------------------------------------------

struct Case {
  std::string name;
  std::optional<std::filesystem::path> sample;  // else a generated seed
  std::uint64_t seed = 0;
  std::size_t long_events = 0;  // a long game of this many events
};

// gtest would print a Case's bytes, padding included.
void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

std::vector<Case> corpus() {
  std::vector<Case> out;
  for (const auto& f : testing::sample_game_files()) out.push_back({f.stem().string(), f, 0, 0});
  for (std::uint64_t seed : {1, 2, 3}) out.push_back({"generated_" + std::to_string(seed), std::nullopt, seed, 0});
  // Past 2 * 1000 events, so that snapshots every 1000 are used too.
  out.push_back({"long_2345", std::nullopt, 5, 2345});
  return out;
}

class SeekEverySeq : public ::testing::TestWithParam<Case> {};

TEST_P(SeekEverySeq, EqualsTheFullFoldWithSnapshotsEvery1And7And500And1000AndNone) {
  const Case& c = GetParam();
  testing::TempDir dir;
  core::GameId id = 0;
  {
    Archive archive = open_rw(dir);
    if (c.sample) {
      auto r = archive.import_file(c.sample->string(), {});
      ASSERT_TRUE(r) << r.error().error.message;
      id = r->id;
    } else {
      id = import(archive, c.long_events ? testing::long_game(c.seed, c.long_events) : testing::generated_game(c.seed));
    }
  }
  for (core::Seq every : {core::Seq{0}, core::Seq{1}, core::Seq{7}, replay::kDefaultSnapshotEvery, core::Seq{1000}}) {
    const std::string where = c.name + (every ? ", snapshots every " + std::to_string(every) : ", no snapshots");
    {
      Archive archive = open_rw(dir);
      if (every == 0) {
        ASSERT_TRUE(replay::drop_snapshots(archive, id));
      } else {
        auto built = replay::build_snapshots(archive, id, every);
        ASSERT_TRUE(built) << built.error().message;
        // None is laid past the first correction (a seek could not fold on from it).
        EXPECT_EQ(built->snapshots, std::min<core::Seq>(built->events, first_correction(archive, id)) / every) << where;
        EXPECT_EQ(built->too_large, 0u);
      }
    }
    // Seek as the viewer does: a read-only store, no repair (which would
    // lay snapshots along the long folds and change where seeks start).
    auto archive = std::make_optional(open_ro(dir));
    const Reference ref = fold_all(*archive, id);
    ASSERT_GT(ref.events.size(), 10u);
    replay::SeekOptions no_repair;
    no_repair.repair = false;
    auto seeker = replay::Seeker::open(*archive, id, no_repair);
    ASSERT_TRUE(seeker) << seeker.error().message;
    // Without snapshots every seek refolds from the start: on the long game
    // every 13th seq (and the last) keeps the test quick.
    const core::Seq stride = every == 0 && ref.events.size() > 1000 ? 13 : 1;
    std::vector<core::Seq> seqs;
    for (core::Seq seq = 0; seq < ref.events.size(); seq += stride) seqs.push_back(seq);
    if (seqs.back() != ref.events.size() - 1) seqs.push_back(ref.events.size() - 1);
    const core::Seq corrected_from = first_correction(*archive, id);
    for (core::Seq seq : seqs) {
      auto r = check_seek(*seeker, ref, seq, where + ", seq " + std::to_string(seq));
      if (!r) return;
      // The fold starts at the nearest snapshot at or before seq - 1; a seek
      // at or past a correction folds from the start.
      const bool has = every != 0 && seq >= every && seq < corrected_from;
      ASSERT_EQ(r->snapshot_seq.has_value(), has) << where << ", seq " << seq;
      if (has) {
        EXPECT_EQ(*r->snapshot_seq, (seq / every) * every - 1) << where << ", seq " << seq;
      }
      EXPECT_EQ(r->folded, has ? seq - *r->snapshot_seq : seq + 1);
      EXPECT_EQ(r->discarded, 0u);
      EXPECT_EQ(r->written, 0u);
    }
    // Past the end: the last event.
    EXPECT_TRUE(check_seek(*seeker, ref, store::kEndSeq, where + ", past the end"));
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, SeekEverySeq, ::testing::ValuesIn(corpus()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           std::string name = info.param.name;
                           for (char& ch : name) {
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           }
                           return name;
                         });

// --- Stale, forged and foreign snapshots ---------------------------------------------

// A generated game with snapshots every 7 events in a fresh store and cache.
class StaleSnapshot : public ::testing::Test {
 protected:
  static constexpr core::Seq kEvery = 7;
  static constexpr core::Seq kSnap = 6 * kEvery - 1;  // 41: the snapshot a seek of 42..48 starts from
  static constexpr core::Seq kSeek = kSnap + 4;

  void SetUp() override {
    Archive archive = open_rw(dir_);
    game_ = testing::generated_game(2);
    id_ = import(archive, game_);
    ASSERT_GT(game_.events.size(), kSeek + kEvery);
    ASSERT_TRUE(replay::build_snapshots(archive, id_, kEvery));
    ref_ = fold_all(archive, id_);
  }

  // What the snapshot at `seq` is bound to, as the store gives it now.
  store::SnapshotBinding binding(const Archive& archive, core::Seq seq) {
    auto reader = archive.store().reader();
    EXPECT_TRUE(reader);
    auto meta = reader->game(id_);
    auto chain = reader->chain_through(id_, seq);
    EXPECT_TRUE(meta && chain);
    return store::SnapshotBinding{meta->identity, seq, *chain, *core::digest_from_hex(game_.ruleset.hash),
                                  *core::digest_from_hex(game_.catalog.hash()), core::kEngineVersion};
  }

  // The correct snapshot at kSnap, with one thing changed (a valid header
  // and checksum: all a store-level forger could make).
  template <class Edit>
  std::string forged(Edit&& edit) {
    Archive archive = open_rw(dir_);
    auto cache = archive.snapshot_cache();
    EXPECT_TRUE(cache);
    auto found = (*cache)->get(binding(archive, kSnap));
    EXPECT_TRUE(found && found->bytes);
    auto snap = events::decode_snapshot(*found->bytes);
    EXPECT_TRUE(snap);
    edit(snap->header, snap->state);
    return events::encode_snapshot(snap->state, snap->header);
  }

  // Caches `bytes` with a valid MAC under the key of kSnap (or of `b`).
  void put(std::string_view bytes, std::optional<store::SnapshotBinding> b = std::nullopt) {
    Archive archive = open_rw(dir_);
    auto cache = archive.snapshot_cache();
    ASSERT_TRUE(cache);
    const store::CachedSnapshot one{b ? *b : binding(archive, kSnap), std::string(bytes)};
    ASSERT_TRUE((*cache)->put(std::span(&one, 1)));
  }

  // The raw cache value (bytes ‖ MAC) under the key of `seq`; no Archive
  // may be open (LMDB: one environment per process).
  std::string get_raw(core::Seq seq) {
    const store::SnapshotBinding b = binding(open_ro(dir_), seq);
    auto env = store::lmdb::Env::create();
    EXPECT_TRUE(env && env->set_maxdbs(2) && env->open(dir_.cache_dir().c_str(), MDB_RDONLY, 0600));
    auto txn = store::lmdb::Txn::begin(env->handle(), nullptr, MDB_RDONLY);
    EXPECT_TRUE(txn);
    MDB_dbi dbi = 0;
    EXPECT_TRUE(store::lmdb::dbi_open(txn->handle(), "snapshots", 0, dbi));
    const core::Digest key = store::cache_key(b);
    auto v = store::lmdb::get(txn->handle(), dbi, std::string_view(reinterpret_cast<const char*>(key.data()), 32));
    EXPECT_TRUE(v && *v) << "seq " << seq;
    return v && *v ? std::string(**v) : std::string();
  }

  // Writes `value` as the raw cache value under kSnap's key, no MAC added
  // (what anyone who can write the cache directory, but has not the key, can do).
  void put_raw(std::string_view value) {
    const store::SnapshotBinding b = binding(open_ro(dir_), kSnap);
    auto env = store::lmdb::Env::create();
    ASSERT_TRUE(env);
    ASSERT_TRUE(env->set_maxdbs(2));
    ASSERT_TRUE(env->open(dir_.cache_dir().c_str(), 0, 0600));
    auto txn = store::lmdb::Txn::begin(env->handle(), nullptr, 0);
    ASSERT_TRUE(txn);
    MDB_dbi dbi = 0;
    ASSERT_TRUE(store::lmdb::dbi_open(txn->handle(), "snapshots", 0, dbi));
    const core::Digest key = store::cache_key(b);
    ASSERT_TRUE(store::lmdb::put(txn->handle(), dbi, std::string_view(reinterpret_cast<const char*>(key.data()), 32),
                                 value, 0));
    ASSERT_TRUE(txn->commit());
  }

  // Seeks kSeek and expects the snapshot at kSnap to be passed over, the
  // result exact, and the snapshot written back (the cache is the user's:
  // read-only stores too).
  void expect_discarded(Archive::Mode mode, const std::string& what) {
    Archive archive = open_archive(dir_, mode);
    auto seeker = replay::Seeker::open(archive, id_);
    ASSERT_TRUE(seeker);
    auto r = check_seek(*seeker, ref_, kSeek, what);
    ASSERT_TRUE(r) << what;
    EXPECT_EQ(r->discarded, 1u) << what;
    ASSERT_TRUE(r->snapshot_seq) << what;
    EXPECT_EQ(*r->snapshot_seq, kSnap - kEvery) << what << ": falls back to the snapshot before";
    EXPECT_EQ(r->written, 1u) << what;
    auto again = seeker->seek(kSeek);
    ASSERT_TRUE(again);
    EXPECT_EQ(again->discarded, 0u) << what;
    EXPECT_EQ(again->snapshot_seq, kSnap) << what;
  }

  testing::TempDir dir_;
  testing::CorpusGame game_;
  core::GameId id_ = 0;
  Reference ref_;
};

TEST_F(StaleSnapshot, GarbageBytesAreDiscardedAndRebuilt) {
  put("not a snapshot at all");
  expect_discarded(Archive::Mode::ReadOnly, "garbage, read-only");
}

TEST_F(StaleSnapshot, AFlippedByteIsDiscardedAndRebuilt) {
  std::string bytes = forged([](auto&, auto&) {});
  bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 0x04);
  put_raw(bytes);
  expect_discarded(Archive::Mode::ReadWrite, "a flipped byte");
}

// The attack that format 1 let through: a forged state behind a correct
// header and a resealed checksum, written where the seek looks. Without the
// user's key it has no MAC that holds, so no seek ever starts from it.
TEST_F(StaleSnapshot, AForgedSnapshotWithoutAValidMacIsNeverUsed) {
  const std::string lie = forged([](auto&, core::GameState& s) { s.seats[0].this_turn.drawn += 7; });
  put_raw(lie);  // no MAC at all: the checksum's 32 bytes stand where the MAC goes
  expect_discarded(Archive::Mode::ReadOnly, "no MAC");
  std::string zero_mac = lie;
  zero_mac.append(32, '\0');
  put_raw(zero_mac);
  expect_discarded(Archive::Mode::ReadOnly, "a zero MAC");
}

TEST_F(StaleSnapshot, ASnapshotMadeUnderAnotherLocalKeyIsNeverUsed) {
  const std::string lie = forged([](auto&, core::GameState& s) { s.seats[1].this_turn.drawn += 3; });
  const store::SnapshotBinding b = binding(open_ro(dir_), kSnap);
  {
    // Another user's warlog (another key) writing into this cache directory.
    testing::TempDir other;
    auto cache = store::SnapshotCache::open({dir_.cache_dir(), other.key_file()});
    ASSERT_TRUE(cache);
    const store::CachedSnapshot one{b, lie};
    ASSERT_TRUE((*cache)->put(std::span(&one, 1)));
  }
  expect_discarded(Archive::Mode::ReadOnly, "another key");
}

TEST_F(StaleSnapshot, AValueCopiedUnderAnotherKeyFailsItsMac) {
  // The authentic value (bytes and MAC) of the snapshot at 34, copied under
  // the key of 41: the MAC covers the key, so it is not 41's.
  put_raw(get_raw(kSnap - kEvery));
  expect_discarded(Archive::Mode::ReadOnly, "a value moved from 34");
}

TEST_F(StaleSnapshot, AnotherEngineVersionInTheHeaderIsDiscardedAndRebuilt) {
  put(forged([](events::SnapshotHeader& h, auto&) { ++h.engine_version; }));
  expect_discarded(Archive::Mode::ReadOnly, "engine version, read-only");
}

TEST_F(StaleSnapshot, AnotherRulesetHashInTheHeaderIsDiscardedAndRebuilt) {
  put(forged([](events::SnapshotHeader& h, auto&) { h.ruleset_hash = std::string(64, '0'); }));
  expect_discarded(Archive::Mode::ReadWrite, "ruleset hash");
}

TEST_F(StaleSnapshot, AnotherCatalogHashInTheHeaderIsDiscardedAndRebuilt) {
  put(forged([](events::SnapshotHeader& h, auto&) { h.catalog_hash = std::string(64, '0'); }));
  expect_discarded(Archive::Mode::ReadWrite, "catalog hash");
}

TEST_F(StaleSnapshot, AnotherSeqInTheHeaderIsDiscarded) {
  put(forged([](events::SnapshotHeader& h, core::GameState& s) {
    ++h.seq;
    ++s.next_seq;
  }));
  expect_discarded(Archive::Mode::ReadWrite, "seq");
}

TEST_F(StaleSnapshot, AnotherLocalGameIdInTheHeaderIsStillThisGame) {
  // The key names the game by identity: the same game in another store (a
  // copy, a re-import) has another local id and the same snapshots.
  put(forged([](events::SnapshotHeader& h, auto&) { h.game += 100; }));
  Archive archive = open_ro(dir_);
  auto seeker = replay::Seeker::open(archive, id_);
  ASSERT_TRUE(seeker);
  auto r = check_seek(*seeker, ref_, kSeek, "another local id");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->snapshot_seq, kSnap);
  EXPECT_EQ(r->discarded, 0u);
}

TEST_F(StaleSnapshot, AStateThatDoesNotFollowItsSeqIsDiscarded) {
  put(forged([](auto&, core::GameState& s) { ++s.next_seq; }));
  expect_discarded(Archive::Mode::ReadWrite, "next_seq");
}

TEST_F(StaleSnapshot, AnotherChainHashIsDiscarded) {
  put(forged([](events::SnapshotHeader& h, auto&) { h.chain_hash[0] ^= 1; }));
  expect_discarded(Archive::Mode::ReadWrite, "chain hash");
}

TEST_F(StaleSnapshot, SnapshotsOfAnotherEngineVersionOrRulesetAreNeverRead) {
  // Snapshots under keys that differ in version or ruleset (their headers
  // say so too): a seek never finds them (nothing discarded), and the
  // result is exact.
  store::SnapshotBinding older = binding(open_ro(dir_), kSnap), newer = older;
  store::SnapshotBinding ruleset = binding(open_ro(dir_), kSnap + 1);
  older.engine_version -= 1;
  newer.engine_version += 1;
  ruleset.ruleset[0] ^= 0xFF;
  put(forged([](events::SnapshotHeader& h, auto&) { h.engine_version -= 1; }), older);
  put(forged([](events::SnapshotHeader& h, auto&) { h.engine_version += 1; }), newer);
  put(forged([](events::SnapshotHeader& h, core::GameState& s) {
        h.seq += 1;
        s.next_seq += 1;
        h.ruleset_hash = std::string(64, 'a');
      }),
      ruleset);
  Archive archive = open_ro(dir_);
  auto seeker = replay::Seeker::open(archive, id_);
  ASSERT_TRUE(seeker);
  auto r = check_seek(*seeker, ref_, kSeek, "foreign keys");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->discarded, 0u);
  EXPECT_EQ(r->snapshot_seq, kSnap);
  // Rebuilding drops the other versions' (stale forever) and keeps the other ruleset's.
  ASSERT_TRUE(replay::build_snapshots(archive, id_, kEvery));
  auto cache = archive.snapshot_cache();
  ASSERT_TRUE(cache);
  auto entries = (*cache)->entries(older.identity);
  ASSERT_TRUE(entries);
  std::size_t foreign = 0;
  for (const auto& e : *entries) {
    ASSERT_EQ(e.state, store::CacheEntry::State::Authentic) << "seq " << e.seq;
    auto h = events::decode_snapshot_header(e.bytes);
    ASSERT_TRUE(h) << "seq " << e.seq;
    EXPECT_EQ(h->engine_version, core::kEngineVersion);
    foreign += h->ruleset_hash != game_.ruleset.hash;
  }
  EXPECT_EQ(foreign, 1u);
}

TEST_F(StaleSnapshot, AllSnapshotsStaleFallsBackToTheStart) {
  {
    Archive archive = open_rw(dir_);
    auto cache = archive.snapshot_cache();
    ASSERT_TRUE(cache);
    std::vector<store::CachedSnapshot> junk;
    for (core::Seq s = kEvery - 1; s < game_.events.size(); s += kEvery) junk.push_back({binding(archive, s), "junk"});
    ASSERT_TRUE((*cache)->put(junk));
  }
  Archive ro = open_ro(dir_);
  replay::SeekOptions no_repair;
  no_repair.repair = false;
  auto seeker = replay::Seeker::open(ro, id_, no_repair);
  ASSERT_TRUE(seeker);
  auto r = check_seek(*seeker, ref_, kSeek, "all stale");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->discarded, 6u);  // 41, 34, 27, 20, 13, 6
  EXPECT_FALSE(r->snapshot_seq);
}

TEST_F(StaleSnapshot, AnEditedEventMakesTheSnapshotsFoldedThroughItUnusable) {
  // The event at kSnap rewritten and every hash after it resealed, as a
  // consistent forger would, after snapshotting: the chain value through
  // kSnap and every later seq changed, so no key of the old snapshots is
  // asked for again; the seek folds the stream as it now is from the
  // snapshot before, as audit would.
  store::test::forge_event(
      dir_.store(), id_, kSnap,
      [](std::string& bytes) {
        core::Event ev = *events::decode_event(bytes);
        ev.payload = core::CardsDiscarded{{"No Such Card"}};
        bytes = events::encode_event(ev);
      },
      store::test::Forge::Consistent);
  Archive archive = open_ro(dir_);
  ASSERT_TRUE(archive.verify(id_)->ok) << "the reseal is consistent: only the chain values differ";
  const Reference edited = fold_all(archive, id_);
  ASSERT_FALSE(edited.after[kSeek] == ref_.after[kSeek]) << "the edit must change the state";
  replay::SeekOptions no_repair;
  no_repair.repair = false;
  auto seeker = replay::Seeker::open(archive, id_, no_repair);
  ASSERT_TRUE(seeker);
  auto r = check_seek(*seeker, edited, kSeek, "edited event");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->snapshot_seq, kSnap - kEvery);
  // At the end too: every snapshot after the edit is out of reach.
  auto last = check_seek(*seeker, edited, game_.events.size() - 1, "edited event, last seq");
  ASSERT_TRUE(last);
  EXPECT_EQ(last->snapshot_seq, kSnap - kEvery);
  // verify --snapshots calls them stale (never used) and leaves them.
  auto report = replay::check_snapshots(archive, id_, /*remove=*/true);
  ASSERT_TRUE(report) << report.error().message;
  std::size_t after_edit = 0;
  for (core::Seq g = kEvery - 1; g < game_.events.size(); g += kEvery) after_edit += g >= kSnap;
  EXPECT_EQ(report->count(replay::SnapshotCheck::Status::Stale), after_edit);
  EXPECT_EQ(report->count(replay::SnapshotCheck::Status::Agrees), game_.events.size() / kEvery - after_edit);
  EXPECT_EQ(report->count(replay::SnapshotCheck::Status::Mismatch), 0u);
  EXPECT_EQ(report->removed, 0u);
}

// Someone holding the user's own key (out of the model: they can write
// anything the user can) MACs a wrong state: a seek cannot tell it from a
// right one without folding, which is what verify --snapshots does.
TEST_F(StaleSnapshot, AWrongStateWithARightMacIsCaughtByVerifySnapshots) {
  put(forged([](auto&, core::GameState& s) { s.seats[0].this_turn.drawn += 7; }));
  Archive archive = open_ro(dir_);
  auto report = replay::check_snapshots(archive, id_, /*remove=*/true);
  ASSERT_TRUE(report) << report.error().message;
  ASSERT_EQ(report->count(replay::SnapshotCheck::Status::Mismatch), 1u);
  EXPECT_EQ(report->count(replay::SnapshotCheck::Status::Agrees), game_.events.size() / kEvery - 1);
  for (const auto& c : report->checks) {
    if (c.status == replay::SnapshotCheck::Status::Mismatch) {
      EXPECT_EQ(c.seq, kSnap);
    }
  }
  EXPECT_EQ(report->removed, 1u);
  // Removed: the seek now starts before it, exact, and lays it back correct.
  auto seeker = replay::Seeker::open(archive, id_);
  ASSERT_TRUE(seeker);
  auto r = check_seek(*seeker, ref_, kSeek, "after verify removed the forgery");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->snapshot_seq, kSnap - kEvery);
  auto clean = replay::check_snapshots(archive, id_, /*remove=*/false);
  ASSERT_TRUE(clean);
  EXPECT_EQ(clean->count(replay::SnapshotCheck::Status::Mismatch), 0u);
}

TEST_F(StaleSnapshot, VerifySnapshotsRemovesOnlyWhatNoSeekCanUse) {
  put("junk under 41's key");
  Archive archive = open_ro(dir_);
  auto report = replay::check_snapshots(archive, id_, /*remove=*/false);
  ASSERT_TRUE(report);
  EXPECT_EQ(report->count(replay::SnapshotCheck::Status::Unusable), 1u);
  EXPECT_EQ(report->removed, 0u) << "asked not to remove";
  auto removing = replay::check_snapshots(archive, id_, /*remove=*/true);
  ASSERT_TRUE(removing);
  EXPECT_EQ(removing->removed, 1u);
  auto after = replay::check_snapshots(archive, id_, /*remove=*/false);
  ASSERT_TRUE(after);
  EXPECT_EQ(after->count(replay::SnapshotCheck::Status::Unusable), 0u);
  EXPECT_EQ(after->count(replay::SnapshotCheck::Status::Agrees), game_.events.size() / kEvery - 1);
}

// --- Overrides, repair, live streams ---------------------------------------------------

TEST_F(StaleSnapshot, AnOverrideRulesetFoldsFromTheStartAndWritesNothing) {
  replay::SeekOptions o;
  auto rules = core::parse_ruleset_toml(game_.ruleset_text + "\n# a designer's change\n");
  ASSERT_TRUE(rules);
  rules->recovery_cost += 1;
  o.overrides.ruleset = *rules;
  Archive archive = open_rw(dir_);
  const Reference ref = fold_all(archive, id_, o.overrides);
  auto seeker = replay::Seeker::open(archive, id_, o);
  ASSERT_TRUE(seeker);
  EXPECT_FALSE(seeker->recorded());
  for (core::Seq seq : {core::Seq{0}, kSnap, kSeek, core::Seq{game_.events.size() - 1}}) {
    EXPECT_TRUE(check_seek(*seeker, ref, seq, "override ruleset"));
    auto r = seeker->seek(seq);
    EXPECT_FALSE(r->snapshot_seq);
    EXPECT_EQ(r->written, 0u);
  }
}

TEST_F(StaleSnapshot, AnOverrideCatalogIgnoresTheRecordedSnapshots) {
  replay::SeekOptions o;
  auto catalog = core::parse_catalog_csv(game_.catalog_text + "\n");
  ASSERT_TRUE(catalog);
  ASSERT_NE(catalog->hash(), game_.catalog.hash());
  o.overrides.catalog = *catalog;
  Archive archive = open_rw(dir_);
  auto seeker = replay::Seeker::open(archive, id_, o);
  ASSERT_TRUE(seeker);
  auto r = seeker->seek(kSeek);
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->snapshot_seq);
  EXPECT_EQ(r->discarded, 0u);  // the recorded catalog's are under other keys: never read
  EXPECT_EQ(r->written, 0u);
  EXPECT_TRUE(check_seek(*seeker, fold_all(archive, id_, o.overrides), kSeek, "override catalog"));
  // The recorded snapshots are intact.
  auto recorded = replay::seek(archive, id_, kSeek);
  ASSERT_TRUE(recorded);
  EXPECT_EQ(recorded->snapshot_seq, kSnap);
  EXPECT_EQ(recorded->discarded, 0u);
}

TEST_F(StaleSnapshot, AWritableSeekLaysSnapshotsAlongALongFold) {
  Archive archive = open_rw(dir_);
  ASSERT_TRUE(replay::drop_snapshots(archive, id_));
  replay::SeekOptions o;
  o.every = 10;
  auto seeker = replay::Seeker::open(archive, id_, o);
  ASSERT_TRUE(seeker);
  const core::Seq last = game_.events.size() - 1;
  auto r = seeker->seek(last);
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->snapshot_seq);
  EXPECT_EQ(r->written, last / 10);  // seqs 9, 19, ... below last
  auto again = seeker->seek(last);
  ASSERT_TRUE(again);
  ASSERT_TRUE(again->snapshot_seq);
  EXPECT_EQ(*again->snapshot_seq, ((last) / 10) * 10 - 1);
  EXPECT_EQ(again->written, 0u);
  EXPECT_TRUE(check_seek(*seeker, ref_, last, "after laying"));
  // Without repair nothing is written.
  replay::SeekOptions no_repair = o;
  no_repair.repair = false;
  EXPECT_TRUE(replay::drop_snapshots(archive, id_));
  auto plain = replay::seek(archive, id_, last, no_repair);
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->written, 0u);
}

TEST_F(StaleSnapshot, ASeekerSeesEventsAppendedAfterItOpened) {
  Archive archive = open_rw(dir_);
  auto seeker = replay::Seeker::open(archive, id_);
  ASSERT_TRUE(seeker);
  const core::Seq count = game_.events.size();
  core::Event more = game_.events.back();
  more.payload = core::CardsDiscarded{{"Late Card"}};
  ASSERT_TRUE(archive.store().append(id_, count, std::span(&more, 1)));
  auto r = seeker->seek(store::kEndSeq);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->moment.seq, count);
  EXPECT_TRUE(check_seek(*seeker, fold_all(archive, id_), count, "appended"));
}

TEST(Seek, UnknownGamesAndBadArgumentsAreErrors) {
  testing::TempDir dir;
  Archive archive = open_rw(dir);
  auto none = replay::Seeker::open(archive, 42);
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().code, ErrorCode::NotFound);
  const core::GameId id = import(archive, testing::generated_game(1));
  auto zero = replay::build_snapshots(archive, id, 0);
  ASSERT_FALSE(zero);
  EXPECT_EQ(zero.error().code, ErrorCode::InvalidArgument);
}

TEST(Seek, ImportLaysNoSnapshotsAndTheFirstLongSeekLaysThem) {
  testing::TempDir dir;
  const auto samples = std::filesystem::path(WARLOG_SAMPLES_DIR);
  // A long game written out as notation.
  testing::CorpusGame g = testing::long_game(4, 2 * replay::kDefaultSnapshotEvery + 17);
  replay::ImportOptions io;
  io.catalog_path = (samples / "catalogs" / "sample_cards.csv").string();
  io.ruleset_path = (samples / "rulesets" / "standard.toml").string();
  const auto file = dir.path() / "long.wlog";
  std::ofstream(file) << core::export_notation(g.events);
  std::optional<replay::ImportResult> imported;
  {
    Archive archive = open_rw(dir);
    auto i = archive.import_file(file.string(), io);
    ASSERT_TRUE(i) << i.error().error.message;
    imported = *i;
    auto spine = archive.import_file((samples / "tutorial" / "spine_first_blood.wlog").string(), {});
    ASSERT_TRUE(spine);
    EXPECT_EQ(imported->events, g.events.size());
    auto cache = archive.snapshot_cache();
    ASSERT_TRUE(cache);
    const core::Digest identity = archive.store().reader()->game(imported->id)->identity;
    EXPECT_TRUE((*cache)->entries(identity)->empty()) << "import lays none";
    EXPECT_TRUE(*replay::needs_snapshots(archive, imported->id));
    EXPECT_FALSE(*replay::needs_snapshots(archive, spine->id)) << "38 events: a seek folds them all anyway";
  }
  // A read-only seek to the end lays the grid along its fold.
  Archive ro = open_ro(dir);
  auto r = replay::seek(ro, imported->id, imported->events - 1);
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->snapshot_seq);
  EXPECT_EQ(r->written, 2u);
  EXPECT_FALSE(*replay::needs_snapshots(ro, imported->id));
  auto again = replay::seek(ro, imported->id, imported->events - 1);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->snapshot_seq, 2 * replay::kDefaultSnapshotEvery - 1);
}

TEST(Seek, BuildReportsProgressAndStopsWhenTold) {
  testing::TempDir dir;
  Archive archive = open_rw(dir);
  const testing::CorpusGame g = testing::long_game(6, 10'000);
  const core::GameId id = import(archive, g);
  std::vector<std::pair<core::Seq, core::Seq>> calls;
  auto built = replay::build_snapshots(archive, id, 100, [&](core::Seq done, core::Seq total) {
    calls.emplace_back(done, total);
    return true;
  });
  ASSERT_TRUE(built) << built.error().message;
  EXPECT_FALSE(built->cancelled);
  EXPECT_EQ(built->snapshots, 100u);
  ASSERT_GE(calls.size(), 2u);
  for (std::size_t i = 1; i < calls.size(); ++i) EXPECT_LE(calls[i - 1].first, calls[i].first);
  EXPECT_EQ(calls.back(), std::make_pair(core::Seq{10'000}, core::Seq{10'000})) << "the last call says done";
  // Stopped at the first call: what was folded before it is kept, whole.
  ASSERT_TRUE(replay::drop_snapshots(archive, id));
  auto stopped = replay::build_snapshots(archive, id, 100, [](core::Seq, core::Seq) { return false; });
  ASSERT_TRUE(stopped);
  EXPECT_TRUE(stopped->cancelled);
  EXPECT_LT(stopped->events, 10'000u);
  EXPECT_LT(stopped->snapshots, 100u);
  EXPECT_TRUE(*replay::needs_snapshots(archive, id, 100));
}

TEST(Seek, AnUnwritableCacheLeavesSeeksExactFromTheStart) {
  // The cache directory under a regular file: nothing can make it (as root,
  // too, where a mode of 0500 would not stop a write).
  testing::TempDir dir;
  core::GameId id = 0;
  Reference ref;
  {
    Archive archive = open_rw(dir);
    id = import(archive, testing::generated_game(3));
    ref = fold_all(archive, id);
  }
  std::ofstream(dir.path() / "a-file") << "in the way";
  auto archive = Archive::open(dir.store(), Archive::Mode::ReadOnly);
  ASSERT_TRUE(archive);
  archive->use_snapshot_cache((dir.path() / "a-file" / "cache").string(), dir.key_file());
  auto seeker = replay::Seeker::open(*archive, id);
  ASSERT_TRUE(seeker) << "a seek does not need the cache";
  for (core::Seq seq : {core::Seq{0}, core::Seq{ref.events.size() / 2}, core::Seq{ref.events.size() - 1}}) {
    auto r = seeker->seek(seq);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_TRUE(r->moment.state == ref.after[seq]) << "seq " << seq;
    EXPECT_FALSE(r->snapshot_seq);
    EXPECT_EQ(r->folded, seq + 1);
    ASSERT_TRUE(r->cache_error) << "the seek says why it was slow";
    EXPECT_EQ(r->cache_error->code, ErrorCode::IoError) << r->cache_error->message;
  }
  auto built = replay::build_snapshots(*archive, id, 7);
  ASSERT_FALSE(built);
  EXPECT_EQ(built.error().code, ErrorCode::IoError);
}

TEST(Seek, ACopyOfAStoreSharesItsSnapshotsAndAStoreFromElsewhereBringsNone) {
  // The cache names games by identity and chain, not by store: a copy of the
  // store (`cp -r`, a backup) finds the snapshots its original laid. (In
  // format 1 the chain covers the local game id, so a re-import under
  // another id does not; format 2's canonical bytes leave it out.)
  testing::TempDir a, b;
  core::GameId id = 0;
  {
    Archive one = open_rw(a);
    id = import(one, testing::generated_game(1));
    ASSERT_TRUE(replay::build_snapshots(one, id, 5));
  }
  std::filesystem::copy(a.store(), b.store(), std::filesystem::copy_options::recursive);
  {
    Archive copy = open_ro(b);  // b's own cache: empty, as for a store from elsewhere
    auto r = replay::seek(copy, id, 40);
    ASSERT_TRUE(r);
    EXPECT_FALSE(r->snapshot_seq) << "a store brings no snapshots of its own";
  }
  auto copy = Archive::open(b.store(), Archive::Mode::ReadOnly);
  ASSERT_TRUE(copy);
  copy->use_snapshot_cache(a.cache_dir(), a.key_file());
  auto r = replay::seek(*copy, id, 40);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->snapshot_seq, 39u);
}

}  // namespace
}  // namespace warlog
