#pragma once
// Store test fixtures: a fresh temporary directory per test, synthetic games
// built from core types only (no rules involved), and raw LMDB access for
// tests that corrupt a store the way a disk, a bug or a forger would.

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "warlog/core/event.hpp"
#include "warlog/core/hash.hpp"
#include "warlog/store/annotations.hpp"
#include "warlog/store/game_meta.hpp"
#include "warlog/store/keys.hpp"
#include "warlog/store/lmdb.hpp"
#include "warlog/store/store.hpp"
#include "store/block_edit.hpp"

namespace warlog::store::test {

namespace fs = std::filesystem;

// A directory under $TMPDIR removed (with everything in it) at the end.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "warlog-store-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  [[nodiscard]] const fs::path& path() const { return path_; }
  [[nodiscard]] fs::path store() const { return path_ / "store"; }

 private:
  fs::path path_;
};

// The catalog and ruleset every synthetic game names: open_store() stores
// them (verify re-hashes the blobs a GameCreated names, so a game must find
// them in its store).
inline constexpr std::string_view kTestCatalog = "name,kind\nIronclaw Lancer,troop\n";
inline constexpr std::string_view kTestRuleset = "name = \"store tests\"\n";

// GameCreated, then `draws` CardsDrawn events with varied card names, so
// events differ and a game's bytes depend on its title.
inline std::vector<core::Event> make_game(const std::string& title, std::size_t draws) {
  std::vector<core::Event> out;
  core::GameCreated g;
  g.title = title;
  g.date = "2026-03-14";
  g.ruleset_hash = core::to_hex(core::blake2b(kTestRuleset));
  g.catalog_hash = core::to_hex(core::blake2b(kTestCatalog));
  g.seats = {{"Ana", core::Allegiance::ClawEmpire}, {"Bo", core::Allegiance::PawCoalition}};
  g.territories = {{"Old Mill", core::Space{2, 1}}};
  core::Event created;
  created.payload = g;
  out.push_back(created);
  static const char* const kCards[] = {"Ironclaw Lancer", "Claw Musketeer", "Paw Militia",
                                       "Grain Cart", "Talon Sergeant"};
  for (std::size_t i = 0; i < draws; ++i) {
    core::Event ev;
    ev.turn = static_cast<std::uint16_t>(1 + i / 8);
    ev.phase = core::Phase::Muster;
    ev.seat = static_cast<core::Seat>(i % 2);
    ev.payload = core::CardsDrawn{{kCards[i % 5], kCards[(i + 2) % 5]}};
    out.push_back(std::move(ev));
  }
  return out;
}

// What the store gives back for input events: game and seq assigned.
inline std::vector<core::Event> as_stored(std::vector<core::Event> events, core::GameId game,
                                          core::Seq first_seq = 0) {
  for (auto& ev : events) {
    ev.game = game;
    ev.seq = first_seq++;
  }
  return events;
}

// Opens a store; a writable one gets the synthetic games' blobs.
inline Store open_store(const fs::path& path, Options options = {}) {
  auto s = Store::open(path, options);
  if (!s) throw std::runtime_error(s.error().message);
  if (!options.read_only) {
    if (!s->put_blob(BlobKind::Catalog, kTestCatalog) || !s->put_blob(BlobKind::Ruleset, kTestRuleset)) {
      throw std::runtime_error("cannot store the test blobs");
    }
  }
  return std::move(*s);
}

inline std::vector<core::Event> read_all(const Store& store, core::GameId game) {
  std::vector<core::Event> out;
  auto r = store.reader();
  if (!r) throw std::runtime_error(r.error().message);
  auto n = r->scan(game, 0, kEndSeq, [&](const core::Event& ev) {
    out.push_back(ev);
    return true;
  });
  if (!n) throw std::runtime_error(n.error().message);
  return out;
}

// Raw access to a closed store with the C API (through lmdb.hpp), as a
// corrupting disk or a forger would have it. fn(MDB_txn*, MDB_dbi) edits one
// named database in one committed write txn.
template <class Fn>
void edit_raw(const fs::path& path, const char* db, Fn&& fn) {
  auto env = lmdb::Env::create();
  ASSERT_TRUE(env);
  ASSERT_TRUE(env->set_maxdbs(16));
  ASSERT_TRUE(env->open(path.c_str(), 0, 0644));
  auto txn = lmdb::Txn::begin(env->handle(), nullptr, 0);
  ASSERT_TRUE(txn);
  MDB_dbi dbi = 0;
  auto found = lmdb::dbi_open(txn->handle(), db, 0, dbi);
  ASSERT_TRUE(found && *found) << db;
  fn(txn->handle(), dbi);
  ASSERT_TRUE(txn->commit());
}

inline void put_raw(MDB_txn* txn, MDB_dbi dbi, std::string_view key, std::string_view value) {
  auto r = lmdb::put(txn, dbi, key, value, 0);
  if (!r || !*r) throw std::runtime_error("raw put failed");
}

// How much of the store's own arithmetic a forger redoes after an edit.
enum class Forge {
  Bytes,       // only the event's bytes: its tag no longer holds
  Tags,        // and the block's tags: the block's S no longer holds
  Consistent,  // and every S after it, the record's head and the index key: verify sees a consistent store
};

// Rewrites game's event `seq` (its canonical bytes) with edit(bytes) in a
// closed store, redoing what `forge` says.
template <class Edit>
void forge_event(const fs::path& path, core::GameId game, core::Seq seq, Edit&& edit, Forge forge) {
  core::Digest head{};
  edit_raw(path, kDbEvents, [&](MDB_txn* txn, MDB_dbi dbi) {
    core::Seq first = block_first(seq);
    TestBlock b = read_block(txn, dbi, game, first);
    edit(b.events.at(seq - first));
    if (forge != Forge::Bytes) b.retag(first);
    if (forge == Forge::Consistent) {
      core::Digest prev = first == 0 ? chain_start() : read_block(txn, dbi, game, block_first(first - 1)).s;
      for (;;) {
        b.rehash(prev);
        write_block(txn, dbi, game, first, b);
        prev = b.s;
        first = first == 0 ? 1 : first + 64;
        const auto key = event_key(game, first);
        auto next = lmdb::get(txn, dbi, view(key));
        if (!next || !*next) break;
        b = TestBlock::parse(**next);
      }
      head = prev;
    } else {
      write_block(txn, dbi, game, first, b);
    }
  });
  if (forge != Forge::Consistent) return;
  edit_raw(path, kDbGames, [&](MDB_txn* txn, MDB_dbi dbi) {
    auto raw = lmdb::get(txn, dbi, view(game_key(game)));
    ASSERT_TRUE(raw && *raw);
    auto meta = decode_game_meta(**raw);
    ASSERT_TRUE(meta);
    const core::Digest old_head = meta->head;
    meta->head = head;
    put_raw(txn, dbi, view(game_key(game)), encode_game_meta(*meta));
    // An imported game's identity-index entry is keyed by its head as
    // imported: a consistent forger re-keys it too (verify checks the key).
    MDB_dbi identity = 0;
    ASSERT_EQ(mdb_dbi_open(txn, kDbIdentity, 0, &identity), 0);
    const std::string_view old_key(reinterpret_cast<const char*>(old_head.data()), old_head.size());
    auto entry = lmdb::get(txn, identity, old_key);
    ASSERT_TRUE(entry);
    if (*entry && (*entry)->size() == 8 && get_be64((*entry)->data()) == game) {
      const std::string value(**entry);
      ASSERT_TRUE(lmdb::del(txn, identity, old_key).value());
      put_raw(txn, identity, std::string_view(reinterpret_cast<const char*>(head.data()), head.size()), value);
    }
  });
}

// An editor with write access who keeps the store consistent: rewrites the
// game's annotations as `edit` leaves their canonical bytes, recomputing
// every A(n) and the record's count and head, so that verify sees nothing.
inline void rewrite_annotations(const fs::path& path, core::GameId game,
                                const std::function<void(std::vector<std::string>&)>& edit) {
  edit_raw(path, kDbGames, [&](MDB_txn* txn, MDB_dbi games) {
    MDB_dbi annotations = 0;
    ASSERT_EQ(mdb_dbi_open(txn, kDbAnnotations, 0, &annotations), 0);
    auto meta = decode_game_meta(*lmdb::get(txn, games, view(game_key(game))).value()).value();
    std::vector<std::string> values;
    for (std::uint64_t n = 0;; ++n) {
      auto v = lmdb::get(txn, annotations, view(annotation_key(game, n))).value();
      if (!v) break;
      values.emplace_back(v->substr(32));
      ASSERT_TRUE(lmdb::del(txn, annotations, view(annotation_key(game, n))).value());
    }
    edit(values);
    core::Digest chain = annotation_chain_start(meta.identity);
    for (std::size_t n = 0; n < values.size(); ++n) {
      chain = annotation_chain_next(chain, values[n]);
      put_raw(txn, annotations, view(annotation_key(game, n)), std::string(chain.begin(), chain.end()) + values[n]);
    }
    meta.annotation_count = values.size();
    meta.annotation_head = chain;
    put_raw(txn, games, view(game_key(game)), encode_game_meta(meta));
  });
}

}  // namespace warlog::store::test
