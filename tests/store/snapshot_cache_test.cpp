// The snapshot cache (store/snapshot_cache.hpp): keys bound to every part of
// what a snapshot was folded from, values returned only under a MAC that
// holds, the hints by game in numeric seq order, drop removing only what it
// is told, the local key made 0600 and refused when others may read it; and
// Reader::chain_through, the chain value the keys are bound to.

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <string>
#include <vector>

#include "store_fixtures.hpp"
#include "warlog/store/reader.hpp"
#include "warlog/core/hash.hpp"
#include "warlog/store/snapshot_cache.hpp"

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
const core::Digest kGame = digest_of(0x42);
const core::Digest kEarlierGame = digest_of(0x41);  // sorts before kGame
const core::Digest kLaterGame = digest_of(0x43);    // sorts after it

SnapshotBinding binding(core::Seq seq, const core::Digest& identity = kGame) {
  return SnapshotBinding{identity, seq, digest_of(0x10), digest_of(0x20), digest_of(0x30), 7};
}

CacheLocation location(const TempDir& dir, const std::string& key = "local.key") {
  return CacheLocation{dir.path() / "cache", dir.path() / "config" / "warlog" / key};
}

std::shared_ptr<SnapshotCache> open_cache(const CacheLocation& where) {
  auto c = SnapshotCache::open(where);
  if (!c) throw std::runtime_error(c.error().message);
  return *c;
}

void put(SnapshotCache& cache, std::vector<CachedSnapshot> snaps) { ASSERT_TRUE(cache.put(snaps)); }

std::optional<core::Seq> nearest(const SnapshotCache& cache, core::Seq seq, const core::Digest& identity = kGame) {
  auto n = cache.nearest_seq(identity, seq);
  EXPECT_TRUE(n) << n.error().message;
  return n ? *n : std::nullopt;
}

TEST(SnapshotCacheKey, EveryPartOfTheBindingChangesTheKey) {
  const SnapshotBinding b = binding(41);
  const core::Digest k = cache_key(b);
  std::vector<SnapshotBinding> others(6, b);
  others[0].identity[0] ^= 1;
  others[1].seq += 1;
  others[2].chain[31] ^= 1;
  others[3].ruleset[5] ^= 1;
  others[4].catalog[17] ^= 1;
  others[5].engine_version += 1;
  for (std::size_t i = 0; i < others.size(); ++i) EXPECT_NE(cache_key(others[i]), k) << "part " << i;
  EXPECT_EQ(cache_key(binding(41)), k) << "a pure function";
}

// The key as snapshot_cache.hpp documents it, under the tag of snapshots
// whose state holds the turn the game was decided in: one cached under
// ".1" (no decidedTurn, read back as turn 0) is never found.
TEST(SnapshotCacheKey, IsTheDocumentedHashUnderTheTagOfSnapshotsWithTheirDecidedTurn) {
  const SnapshotBinding b = binding(41);
  auto key_under = [&b](std::string_view tag) {
    std::string msg(tag);
    auto bytes = [&msg](const core::Digest& d) { msg.append(reinterpret_cast<const char*>(d.data()), d.size()); };
    bytes(b.identity);
    for (int i = 7; i >= 0; --i) msg += static_cast<char>((b.seq >> (8 * i)) & 0xFF);
    bytes(b.chain);
    bytes(b.ruleset);
    bytes(b.catalog);
    for (int i = 3; i >= 0; --i) msg += static_cast<char>((b.engine_version >> (8 * i)) & 0xFF);
    return core::blake2b(msg);
  };
  EXPECT_EQ(cache_key(b), key_under("warlog.snapshot-cache.2"));
  EXPECT_NE(cache_key(b), key_under("warlog.snapshot-cache.1"));
}

TEST(SnapshotCache, PutThenGetUnderTheSameBindingOnly) {
  TempDir dir;
  auto cache = open_cache(location(dir));
  put(*cache, {{binding(6), "six"}, {binding(13), "thirteen"}});
  auto six = cache->get(binding(6));
  ASSERT_TRUE(six);
  EXPECT_EQ(six->bytes, "six");
  EXPECT_FALSE(six->bad_mac);
  SnapshotBinding other_chain = binding(6);
  other_chain.chain[0] ^= 1;
  auto missing = cache->get(other_chain);
  ASSERT_TRUE(missing);
  EXPECT_FALSE(missing->bytes);
  EXPECT_FALSE(missing->bad_mac);
  put(*cache, {{binding(6), "six again"}});
  EXPECT_EQ(cache->get(binding(6))->bytes, "six again") << "a put replaces";
}

TEST(SnapshotCache, NearestSeqIsNumericPast256And65536AndStaysInItsGame) {
  TempDir dir;
  auto cache = open_cache(location(dir));
  put(*cache, {{binding(255), "a"}, {binding(256), "b"}, {binding(65'535), "c"}, {binding(65'536), "d"},
               {binding(10, kEarlierGame), "e"}, {binding(1, kLaterGame), "f"}});
  EXPECT_EQ(nearest(*cache, 255), 255u);
  EXPECT_EQ(nearest(*cache, 300), 256u);
  EXPECT_EQ(nearest(*cache, 65'535), 65'535u);
  EXPECT_EQ(nearest(*cache, 1'000'000), 65'536u);
  EXPECT_EQ(nearest(*cache, kEndSeq), 65'536u);
  EXPECT_EQ(nearest(*cache, 254), std::nullopt) << "the earlier game's seq 10 is not this game's";
  EXPECT_EQ(nearest(*cache, 5, kEarlierGame), std::nullopt);
  EXPECT_EQ(nearest(*cache, kEndSeq, kLaterGame), 1u);
  EXPECT_EQ(nearest(*cache, 0, digest_of(0x99)), std::nullopt);
}

TEST(SnapshotCache, DropRemovesOnlyTheGamesEntriesItIsTold) {
  TempDir dir;
  auto cache = open_cache(location(dir));
  put(*cache, {{binding(6), "6"}, {binding(13), "13"}, {binding(20), "20"}, {binding(6, kLaterGame), "other"}});
  auto one = cache->drop(kGame, [](const CacheEntry& e) { return e.seq == 13; });
  ASSERT_TRUE(one);
  EXPECT_EQ(*one, 1u);
  EXPECT_FALSE(cache->get(binding(13))->bytes);
  EXPECT_EQ(cache->get(binding(20))->bytes, "20");
  auto entries = cache->entries(kGame);
  ASSERT_TRUE(entries);
  ASSERT_EQ(entries->size(), 2u);
  EXPECT_EQ((*entries)[0].seq, 6u);
  EXPECT_EQ((*entries)[0].state, CacheEntry::State::Authentic);
  EXPECT_EQ((*entries)[0].bytes, "6");
  auto rest = cache->drop(kGame);
  ASSERT_TRUE(rest);
  EXPECT_EQ(*rest, 2u);
  EXPECT_TRUE(cache->entries(kGame)->empty());
  EXPECT_EQ(cache->get(binding(6, kLaterGame))->bytes, "other") << "another game keeps its own";
}

TEST(SnapshotCache, OneObjectPerDirectoryPerProcess) {
  TempDir dir;
  auto a = open_cache(location(dir));
  auto b = open_cache(location(dir));
  EXPECT_EQ(a.get(), b.get()) << "LMDB allows one environment per process";
}

TEST(SnapshotCacheMac, AnotherLocalKeySeesEveryValueAsForged) {
  TempDir dir;
  {
    auto mine = open_cache(location(dir));
    put(*mine, {{binding(6), "mine"}});
  }
  auto theirs = open_cache(location(dir, "their.key"));
  auto got = theirs->get(binding(6));
  ASSERT_TRUE(got);
  EXPECT_FALSE(got->bytes) << "a value is returned only under the key that made it";
  EXPECT_TRUE(got->bad_mac);
  auto entries = theirs->entries(kGame);
  ASSERT_TRUE(entries);
  ASSERT_EQ(entries->size(), 1u);
  EXPECT_EQ((*entries)[0].state, CacheEntry::State::BadMac);
  EXPECT_TRUE((*entries)[0].bytes.empty());
}

// The walked-blocks records (Reader::verify's `walked`): returned only
// under the key and the game they were written for.
std::vector<core::Digest> some_blocks() { return {digest_of(0x61), digest_of(0x62), digest_of(0x63)}; }

TEST(SnapshotCacheWalked, PutThenReadPerGameAndAPutReplaces) {
  TempDir dir;
  auto cache = open_cache(location(dir));
  EXPECT_TRUE(cache->walked(kGame)->blocks.empty()) << "no record yet";
  ASSERT_TRUE(cache->put_walked(std::vector<SnapshotCache::WalkedGame>{{kGame, some_blocks()}, {kLaterGame, {digest_of(1)}}}));
  auto got = cache->walked(kGame);
  ASSERT_TRUE(got);
  EXPECT_EQ(got->blocks, some_blocks());
  EXPECT_FALSE(got->bad_mac);
  EXPECT_EQ(cache->walked(kLaterGame)->blocks, std::vector<core::Digest>{digest_of(1)});
  EXPECT_TRUE(cache->walked(kEarlierGame)->blocks.empty());
  ASSERT_TRUE(cache->put_walked(std::vector<SnapshotCache::WalkedGame>{{kGame, {digest_of(2)}}}));
  EXPECT_EQ(cache->walked(kGame)->blocks, std::vector<core::Digest>{digest_of(2)});
}

// A forger with write access to the cache (not the key): an edited S, a
// record moved to another game, or one written under another key is never
// returned, so verify walks those blocks whole.
TEST(SnapshotCacheWalked, AnEditedMovedOrForeignRecordIsNeverReturned) {
  TempDir dir;
  {
    auto cache = open_cache(location(dir));
    ASSERT_TRUE(cache->put_walked(std::vector<SnapshotCache::WalkedGame>{{kGame, some_blocks()}}));
  }
  const std::string game_key(reinterpret_cast<const char*>(kGame.data()), kGame.size());
  const std::string other_key(reinterpret_cast<const char*>(kLaterGame.data()), kLaterGame.size());
  std::string stored;
  test::edit_raw(dir.path() / "cache", "walked", [&](MDB_txn* txn, MDB_dbi dbi) {
    stored = std::string(*lmdb::get(txn, dbi, game_key).value());
    test::put_raw(txn, dbi, other_key, stored);  // moved to another game
    std::string edited = stored;
    edited[5] ^= 1;  // an S edited
    test::put_raw(txn, dbi, game_key, edited);
  });
  {
    auto cache = open_cache(location(dir));
    for (const core::Digest& g : {kGame, kLaterGame}) {
      auto got = cache->walked(g);
      ASSERT_TRUE(got);
      EXPECT_TRUE(got->blocks.empty());
      EXPECT_TRUE(got->bad_mac);
    }
  }
  test::edit_raw(dir.path() / "cache", "walked",
                 [&](MDB_txn* txn, MDB_dbi dbi) { test::put_raw(txn, dbi, game_key, stored); });
  auto theirs = open_cache(location(dir, "their.key"));
  EXPECT_TRUE(theirs->walked(kGame)->bad_mac) << "another user's key";
}

TEST(SnapshotCacheMac, TheKeyIsMadeOnceMode0600AndReused) {
  TempDir dir;
  const CacheLocation where = location(dir);
  auto first = load_local_key(where.key_file);
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_EQ(first->size(), 32u);
  struct stat st {};
  ASSERT_EQ(::stat(where.key_file.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  ASSERT_EQ(::stat(where.key_file.parent_path().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  auto again = load_local_key(where.key_file);
  ASSERT_TRUE(again);
  EXPECT_EQ(*again, *first) << "made on first use only";
  // Survives a reopen: what one process wrote, the next reads.
  {
    auto c = open_cache(where);
    put(*c, {{binding(6), "kept"}});
  }
  EXPECT_EQ(open_cache(where)->get(binding(6))->bytes, "kept");
}

TEST(SnapshotCacheMac, AKeyOthersCanReadOrWriteIsRefused) {
  for (const mode_t mode : {0644, 0640, 0604, 0620, 0602}) {
    TempDir dir;
    const CacheLocation where = location(dir);
    ASSERT_TRUE(load_local_key(where.key_file));
    ASSERT_EQ(::chmod(where.key_file.c_str(), mode), 0);
    auto key = load_local_key(where.key_file);
    ASSERT_FALSE(key) << "mode " << std::oct << mode;
    EXPECT_EQ(key.error().code, ErrorCode::InvalidArgument);
    EXPECT_NE(key.error().message.find(where.key_file.string()), std::string::npos) << key.error().message;
    EXPECT_NE(key.error().message.find("chmod 600"), std::string::npos) << key.error().message;
    auto cache = SnapshotCache::open(where);
    ASSERT_FALSE(cache) << "no cache under a key others can read";
    EXPECT_EQ(cache.error().code, ErrorCode::InvalidArgument);
  }
}

TEST(SnapshotCacheMac, AKeyOfTheWrongSizeIsRefused) {
  TempDir dir;
  const CacheLocation where = location(dir);
  std::filesystem::create_directories(where.key_file.parent_path());
  std::ofstream(where.key_file) << "short";
  ASSERT_EQ(::chmod(where.key_file.c_str(), 0600), 0);
  auto key = load_local_key(where.key_file);
  ASSERT_FALSE(key);
  EXPECT_EQ(key.error().code, ErrorCode::InvalidArgument);
  EXPECT_NE(key.error().message.find("is not 32 bytes"), std::string::npos) << key.error().message;
}

TEST(SnapshotCacheLocation, WarlogCacheDirThenXdgThenHome) {
  struct Env {
    const char* name;
    std::optional<std::string> old;
    explicit Env(const char* n) : name(n) {
      if (const char* v = std::getenv(n)) old = v;
    }
    ~Env() { old ? ::setenv(name, old->c_str(), 1) : ::unsetenv(name); }
  } e1("WARLOG_CACHE_DIR"), e2("XDG_CACHE_HOME"), e3("XDG_CONFIG_HOME"), e4("HOME");
  ::setenv("HOME", "/home/judge", 1);
  ::unsetenv("WARLOG_CACHE_DIR");
  ::unsetenv("XDG_CACHE_HOME");
  ::unsetenv("XDG_CONFIG_HOME");
  auto home = default_cache_location();
  ASSERT_TRUE(home);
  EXPECT_EQ(home->dir, "/home/judge/.cache/warlog/snapshots");
  EXPECT_EQ(home->key_file, "/home/judge/.config/warlog/local.key");
  ::setenv("XDG_CACHE_HOME", "/xdg/cache", 1);
  ::setenv("XDG_CONFIG_HOME", "/xdg/config", 1);
  EXPECT_EQ(default_cache_location()->dir, "/xdg/cache/warlog/snapshots");
  EXPECT_EQ(default_cache_location()->key_file, "/xdg/config/warlog/local.key");
  ::setenv("WARLOG_CACHE_DIR", "/mine", 1);
  EXPECT_EQ(default_cache_location()->dir, "/mine");
}

// --- Reader::chain_through -----------------------------------------------------------

// Format 2's chain (docs/architecture.md › Store format 2 §1), recomputed
// here from the canonical bytes: S over each segment's events so far, the
// segments being event 0 alone, then 64 events each.
TEST(ChainThrough, IsTheChainHeadThroughTheEvent) {
  TempDir dir;
  Store st = open_store(dir.store());
  auto id = st.import_game(make_game("chain", 150));
  ASSERT_TRUE(id);
  auto reader = st.reader();
  ASSERT_TRUE(reader);
  auto meta = reader->game(*id);
  ASSERT_TRUE(meta);
  core::Digest segment_start = core::blake2b("warlog.event-chain.2");
  std::string body;
  auto n = reader->scan_raw(*id, 0, kEndSeq, [&](core::Seq seq, std::string_view bytes) {
    const auto len = static_cast<std::uint32_t>(bytes.size());
    for (int i = 0; i < 4; ++i) body.push_back(static_cast<char>(len >> (8 * i) & 0xFF));
    body.append(bytes);
    const core::Digest expected = core::chain_hash(segment_start, body);
    auto through = reader->chain_through(*id, seq);
    EXPECT_TRUE(through) << "seq " << seq;
    EXPECT_EQ(*through, expected) << "seq " << seq << ": the event chain through the stored event";
    if (seq % 64 == 0) {  // the segment ends here
      segment_start = expected;
      body.clear();
    }
    return true;
  });
  ASSERT_TRUE(n);
  EXPECT_EQ(*n, meta->event_count);
  EXPECT_EQ(*reader->chain_through(*id, meta->event_count - 1), meta->head);
  auto past = reader->chain_through(*id, meta->event_count);
  ASSERT_FALSE(past);
  EXPECT_EQ(past.error().code, ErrorCode::NotFound);
  EXPECT_EQ(reader->chain_through(*id + 1, 0).error().code, ErrorCode::NotFound);
}

}  // namespace
}  // namespace warlog::store
