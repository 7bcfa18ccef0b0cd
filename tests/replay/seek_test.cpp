// Seek through snapshots (replay/seek.hpp): at every seq of every sample game
// (and of synthetic games, whose states are richer) a seek gives exactly the
// fully folded state, the state before, the event and its findings, with
// snapshots every 1, 7, 500 (the default) and 1000 events and with none. A snapshot that is
// garbage, of another engine version, ruleset or catalog, or folded from
// events that have since changed is discarded, the result stays exact, and a
// writable store gets it back correct.

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "game_corpus.hpp"
#include "store/store_fixtures.hpp"
#include "temp_dir.hpp"
#include "warlog/core/fold.hpp"
#include "warlog/core/notation.hpp"
#include "warlog/events/codec.hpp"
#include "warlog/events/snapshot.hpp"
#include "warlog/replay/seek.hpp"
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
  core::GameState state;
  for (const core::Event& ev : ref.events) {
    std::vector<core::Finding> found;
    core::apply(ctx, state, ev, found);
    ref.after.push_back(state);
    ref.findings.push_back(std::move(found));
  }
  return ref;
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
  EXPECT_FALSE(r->repair_error) << where << ": " << r->repair_error->message;
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

Archive open_rw(const testing::TempDir& dir) {
  auto a = Archive::open(dir.store(), Archive::Mode::ReadWrite);
  if (!a) throw std::runtime_error(a.error().message);
  return std::move(*a);
}

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
        EXPECT_EQ(built->snapshots, built->events / every) << where;
        EXPECT_EQ(built->too_large, 0u);
      }
    }
    // Seek as the viewer does: a read-only store.
    auto archive = Archive::open(dir.store(), Archive::Mode::ReadOnly);
    ASSERT_TRUE(archive);
    const Reference ref = fold_all(*archive, id);
    ASSERT_GT(ref.events.size(), 10u);
    auto seeker = replay::Seeker::open(*archive, id);
    ASSERT_TRUE(seeker) << seeker.error().message;
    // Without snapshots every seek refolds from the start: on the long game
    // every 13th seq (and the last) keeps the test quick.
    const core::Seq stride = every == 0 && ref.events.size() > 1000 ? 13 : 1;
    std::vector<core::Seq> seqs;
    for (core::Seq seq = 0; seq < ref.events.size(); seq += stride) seqs.push_back(seq);
    if (seqs.back() != ref.events.size() - 1) seqs.push_back(ref.events.size() - 1);
    for (core::Seq seq : seqs) {
      auto r = check_seek(*seeker, ref, seq, where + ", seq " + std::to_string(seq));
      if (!r) return;
      // The fold starts at the nearest snapshot at or before seq - 1.
      const bool has = every != 0 && seq >= every;
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

// --- Stale and foreign snapshots --------------------------------------------------

// A generated game with snapshots every 7 events in a fresh store.
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
    digest_ = *core::digest_from_hex(game_.ruleset.hash);
    ref_ = fold_all(archive, id_);
  }

  // The correct snapshot at kSnap, with one thing changed.
  template <class Edit>
  std::string forged(Edit&& edit) {
    Archive archive = open_rw(dir_);
    auto reader = archive.store().reader();
    auto n = reader->nearest_snapshot(id_, kSnap, digest_, core::kEngineVersion);
    EXPECT_TRUE(n && *n && (*n)->seq == kSnap);
    auto snap = events::decode_snapshot((*n)->bytes);
    EXPECT_TRUE(snap);
    edit(snap->header, snap->state);
    return events::encode_snapshot(snap->state, snap->header);
  }

  void put(std::string_view bytes, std::uint32_t version = core::kEngineVersion) {
    Archive archive = open_rw(dir_);
    ASSERT_TRUE(archive.store().put_snapshot(id_, kSnap, digest_, version, bytes));
  }

  // Seeks kSeek and expects the stale snapshot to be passed over.
  void expect_discarded(Archive::Mode mode, const std::string& what) {
    auto archive = Archive::open(dir_.store(), mode);
    ASSERT_TRUE(archive);
    auto seeker = replay::Seeker::open(*archive, id_);
    ASSERT_TRUE(seeker);
    auto r = seeker->seek(kSeek);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_TRUE(check_seek(*seeker, ref_, kSeek, what));
    EXPECT_EQ(r->discarded, 1u) << what;
    ASSERT_TRUE(r->snapshot_seq) << what;
    EXPECT_EQ(*r->snapshot_seq, kSnap - kEvery) << what << ": falls back to the snapshot before";
    const bool writable = mode == Archive::Mode::ReadWrite;
    EXPECT_EQ(r->written, writable ? 1u : 0u) << what;
    // Rebuilt on a writable store: the next seek starts from it.
    auto again = seeker->seek(kSeek);
    ASSERT_TRUE(again);
    EXPECT_EQ(again->discarded, writable ? 0u : 1u) << what;
    EXPECT_EQ(again->snapshot_seq, writable ? kSnap : kSnap - kEvery) << what;
  }

  testing::TempDir dir_;
  testing::CorpusGame game_;
  core::GameId id_ = 0;
  core::Digest digest_{};
  Reference ref_;
};

TEST_F(StaleSnapshot, GarbageBytesAreDiscardedAndRebuilt) {
  put("not a snapshot at all");
  expect_discarded(Archive::Mode::ReadOnly, "garbage, read-only");
  expect_discarded(Archive::Mode::ReadWrite, "garbage, writable");
}

TEST_F(StaleSnapshot, AFlippedByteIsDiscardedAndRebuilt) {
  std::string bytes = forged([](auto&, auto&) {});
  bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 0x04);
  put(bytes);
  expect_discarded(Archive::Mode::ReadWrite, "a flipped byte");
}

TEST_F(StaleSnapshot, AnotherEngineVersionInTheHeaderIsDiscardedAndRebuilt) {
  put(forged([](events::SnapshotHeader& h, auto&) { ++h.engine_version; }));
  expect_discarded(Archive::Mode::ReadOnly, "engine version, read-only");
  expect_discarded(Archive::Mode::ReadWrite, "engine version, writable");
}

TEST_F(StaleSnapshot, AnotherRulesetHashInTheHeaderIsDiscardedAndRebuilt) {
  put(forged([](events::SnapshotHeader& h, auto&) { h.ruleset_hash = std::string(64, '0'); }));
  expect_discarded(Archive::Mode::ReadWrite, "ruleset hash");
}

TEST_F(StaleSnapshot, AnotherCatalogHashInTheHeaderIsDiscardedAndRebuilt) {
  put(forged([](events::SnapshotHeader& h, auto&) { h.catalog_hash = std::string(64, '0'); }));
  expect_discarded(Archive::Mode::ReadWrite, "catalog hash");
}

TEST_F(StaleSnapshot, AnotherSeqOrGameInTheHeaderIsDiscarded) {
  put(forged([](events::SnapshotHeader& h, core::GameState& s) {
    ++h.seq;
    ++s.next_seq;
  }));
  expect_discarded(Archive::Mode::ReadWrite, "seq");
  put(forged([](events::SnapshotHeader& h, auto&) { ++h.game; }));
  expect_discarded(Archive::Mode::ReadWrite, "game");
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
  // Garbage under keys that differ in version or ruleset: a seek must not
  // even look at them (nothing discarded), and the result is exact.
  put("from an older warlog", core::kEngineVersion - 1);
  put("from a newer warlog", core::kEngineVersion + 1);
  {
    Archive archive = open_rw(dir_);
    core::Digest other = digest_;
    other[0] ^= 0xFF;
    ASSERT_TRUE(archive.store().put_snapshot(id_, kSnap + 1, other, core::kEngineVersion, "another ruleset's"));
  }
  Archive archive = open_rw(dir_);
  auto seeker = replay::Seeker::open(archive, id_);
  ASSERT_TRUE(seeker);
  EXPECT_TRUE(check_seek(*seeker, ref_, kSeek, "foreign keys"));
  auto r = seeker->seek(kSeek);
  EXPECT_EQ(r->discarded, 0u);
  EXPECT_EQ(r->snapshot_seq, kSnap);
  // Rebuilding drops the other versions' (stale forever) and keeps the other ruleset's.
  ASSERT_TRUE(replay::build_snapshots(archive, id_, kEvery));
  auto reader = archive.store().reader();
  auto keys = reader->snapshot_keys(id_);
  ASSERT_TRUE(keys);
  std::size_t foreign = 0;
  for (const auto& k : *keys) {
    EXPECT_EQ(k.engine_version, core::kEngineVersion);
    foreign += k.ruleset != digest_;
  }
  EXPECT_EQ(foreign, 1u);
}

TEST_F(StaleSnapshot, AllSnapshotsStaleFallsBackToTheStart) {
  {
    Archive archive = open_rw(dir_);
    std::vector<store::StoredSnapshot> junk;
    for (core::Seq s = kEvery - 1; s < game_.events.size(); s += kEvery) junk.push_back({s, "junk"});
    ASSERT_TRUE(archive.store().put_snapshots(id_, digest_, core::kEngineVersion, junk));
  }
  auto ro = Archive::open(dir_.store(), Archive::Mode::ReadOnly);
  ASSERT_TRUE(ro);
  auto seeker = replay::Seeker::open(*ro, id_);
  ASSERT_TRUE(seeker);
  auto r = seeker->seek(kSeek);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->discarded, 6u);  // 41, 34, 27, 20, 13, 6
  EXPECT_FALSE(r->snapshot_seq);
  EXPECT_TRUE(check_seek(*seeker, ref_, kSeek, "all stale"));
}

TEST_F(StaleSnapshot, AnEditedEventInvalidatesTheSnapshotsFoldedThroughIt) {
  // Rewrite the event at kSnap (header untouched) and every hash after it,
  // as a consistent forger would: the snapshot at kSnap no longer matches
  // the chain head through it and the seek folds the stream as it now is,
  // like audit does.
  const std::filesystem::path path = dir_.store();
  store::test::forge_event(
      path, id_, kSnap,
      [](std::string& bytes) {
        core::Event ev = *events::decode_event(bytes);
        ev.payload = core::CardsDiscarded{{"No Such Card"}};
        bytes = events::encode_event(ev);
      },
      store::test::Forge::Consistent);
  Archive archive = open_rw(dir_);
  const Reference edited = fold_all(archive, id_);
  ASSERT_FALSE(edited.after[kSeek] == ref_.after[kSeek]) << "the edit must change the state";
  auto seeker = replay::Seeker::open(archive, id_);
  ASSERT_TRUE(seeker);
  auto r = seeker->seek(kSeek);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->discarded, 1u);
  EXPECT_EQ(r->snapshot_seq, kSnap - kEvery);
  EXPECT_TRUE(check_seek(*seeker, edited, kSeek, "edited event"));
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
  EXPECT_EQ(r->discarded, 1u);  // the nearest, made with the recorded catalog; not deleted
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

TEST(Seek, ImportLaysSnapshotsForLongGamesOnly) {
  testing::TempDir dir;
  const auto samples = std::filesystem::path(WARLOG_SAMPLES_DIR);
  // A long game written out as notation.
  testing::CorpusGame g = testing::long_game(4, 2 * replay::kDefaultSnapshotEvery + 17);
  replay::ImportOptions io;
  io.catalog_path = (samples / "catalogs" / "sample_cards.csv").string();
  io.ruleset_path = (samples / "rulesets" / "standard.toml").string();
  const auto file = dir.path() / "long.wlog";
  std::ofstream(file) << core::export_notation(g.events);
  Archive archive = open_rw(dir);
  auto imported = archive.import_file(file.string(), io);
  ASSERT_TRUE(imported) << imported.error().error.message;
  auto spine = archive.import_file((samples / "tutorial" / "spine_first_blood.wlog").string(), {});
  ASSERT_TRUE(spine);
  auto reader = archive.store().reader();
  auto long_keys = reader->snapshot_keys(imported->id);
  auto short_keys = reader->snapshot_keys(spine->id);
  ASSERT_TRUE(long_keys && short_keys);
  EXPECT_EQ(imported->events, g.events.size());
  EXPECT_EQ(long_keys->size(), 2u);
  EXPECT_TRUE(short_keys->empty());
  auto r = replay::seek(archive, imported->id, imported->events - 1);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->snapshot_seq, 2 * replay::kDefaultSnapshotEvery - 1);
}

}  // namespace
}  // namespace warlog
