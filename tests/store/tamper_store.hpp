#pragma once
// The tamper suite's tools ("Trust the store" › Done means; docs/reliability.md
// › "Tamper suite"): the sample store it tampers with, an editor with write
// access to a closed store (raw LMDB, as an attacker has it), and the verdict
// verify gives a game, reached through the library calls `warlog verify`
// makes (cli/verbs.cpp run_verify: Archive::verify, then assess_game).
//
// The sample store: every sample game imported as `warlog import` does; the
// tutorial game (the shortest) has two disputes, a ruling signed by its judge
// and a signature by a key the keyring trusts; another game has a dispute
// and an unsigned ruling and no signature; the rest are plain. The keyring
// trusts both keys and has seen the signed state (as after one verify run).

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "game_corpus.hpp"
#include "store/store_fixtures.hpp"
#include "warlog/replay/disputes.hpp"
#include "warlog/replay/keyring.hpp"
#include "warlog/replay/replay.hpp"
#include "warlog/replay/signatures.hpp"
#include "warlog/store/lmdb.hpp"

namespace warlog::store::tamper {

namespace fs = std::filesystem;

// --- Raw edits with undo -------------------------------------------------------------
// One change to one record of a closed LMDB environment: value nullopt deletes it.
struct Change {
  std::string db;
  std::string key;
  std::optional<std::string> value;
};

// Applies changes to the environment at `dir` in one write transaction,
// first undoing the previous apply (so a trial costs one commit), with
// MDB_NOSYNC: the suite tests verify, not durability, and an fsync per
// trial made 1,000 flips take a minute on a loaded machine.
class Editor {
 public:
  explicit Editor(fs::path dir) : dir_(std::move(dir)) {}
  Editor(const Editor&) = delete;
  Editor& operator=(const Editor&) = delete;
  ~Editor() {
    if (!undo_.empty()) apply({});
  }

  void apply(const std::vector<Change>& changes) {
    auto env = lmdb::Env::create();
    if (!env || !env->set_maxdbs(16) || !env->open(dir_.c_str(), MDB_NOSYNC, 0644)) {
      throw std::runtime_error("cannot open " + dir_.string());
    }
    auto txn = lmdb::Txn::begin(env->handle(), nullptr, 0);
    if (!txn) throw std::runtime_error("cannot begin a write txn");
    std::map<std::string, MDB_dbi> dbis;
    auto dbi = [&](const std::string& name) {
      auto it = dbis.find(name);
      if (it != dbis.end()) return it->second;
      MDB_dbi d = 0;
      auto found = lmdb::dbi_open(txn->handle(), name.c_str(), 0, d);
      if (!found || !*found) throw std::runtime_error("no database " + name);
      return dbis[name] = d;
    };
    auto write = [&](const Change& c) {
      if (c.value) {
        auto r = lmdb::put(txn->handle(), dbi(c.db), c.key, *c.value, 0);
        if (!r || !*r) throw std::runtime_error("raw put failed");
      } else {
        auto r = lmdb::del(txn->handle(), dbi(c.db), c.key);
        if (!r) throw std::runtime_error("raw del failed");
      }
    };
    for (auto it = undo_.rbegin(); it != undo_.rend(); ++it) write(*it);
    undo_.clear();
    for (const Change& c : changes) {
      auto old = lmdb::get(txn->handle(), dbi(c.db), c.key);
      if (!old) throw std::runtime_error("raw get failed");
      undo_.push_back({c.db, c.key, *old ? std::optional<std::string>(std::string(**old)) : std::nullopt});
      write(c);
    }
    if (!txn->commit()) throw std::runtime_error("raw commit failed");
  }
  void restore() { apply({}); }

 private:
  fs::path dir_;
  std::vector<Change> undo_;  // in the order applied
};

// Every record of one named database, in key order.
struct Record {
  std::string key, value;
};
inline std::vector<Record> records_of(const fs::path& dir, const char* db) {
  std::vector<Record> out;
  auto env = lmdb::Env::create();
  if (!env || !env->set_maxdbs(16) || !env->open(dir.c_str(), MDB_RDONLY, 0644)) {
    throw std::runtime_error("cannot open " + dir.string());
  }
  auto txn = lmdb::Txn::begin(env->handle(), nullptr, MDB_RDONLY);
  MDB_dbi d = 0;
  if (!txn || !lmdb::dbi_open(txn->handle(), db, 0, d).value_or(false)) throw std::runtime_error(db);
  auto cursor = lmdb::Cursor::open(txn->handle(), d);
  for (auto e = cursor->get(MDB_FIRST); e && *e; e = cursor->get(MDB_NEXT)) {
    out.push_back({std::string(cursor->key()), std::string(cursor->value())});
  }
  return out;
}

// --- The verdict ----------------------------------------------------------------------
enum class Verdict {
  Trusted,    // "valid, signed by trusted ..."              exit 0
  Unknown,    // "valid signature by an unknown key ..."     exit 0
  Stale,      // "stale: N events since"                     exit 0 (1 with --require-signed)
  Unsigned,   // "unsigned: consistent, nobody attests it"   exit 0 (1 with --require-signed)
  Broken,     // "BROKEN at seq S: ..."                      exit 1
  Invalid,    // "INVALID: ..."                              exit 1
  Vanished,   // "VANISHED: the state signed ... is no longer in this game"  exit 1
  BadRuling,  // a ruling's judge signature does not hold    exit 1
  Error,      // one line on stderr                          exit 2
};
inline const char* name_of(Verdict v) {
  constexpr const char* kNames[] = {"trusted", "unknown", "stale", "unsigned", "BROKEN",
                                    "INVALID", "VANISHED", "bad ruling", "error"};
  return kNames[static_cast<int>(v)];
}
// Whether `warlog verify` exits 0 for it (without --require-signed): the edit passed.
inline bool passes(Verdict v) { return v <= Verdict::Unsigned; }

struct Outcome {
  Verdict verdict = Verdict::Error;
  std::string text;  // what verify says, for failure messages
};

// What `warlog verify --game id` says about the game, as cli/verbs.cpp's
// run_verify decides it, in-process (no child, no keyring file).
inline Outcome verify_game(const replay::Archive& archive, core::GameId id, const replay::Keyring& ring) {
  Outcome o;
  auto v = archive.verify(id);
  if (!v) return {Verdict::Error, v.error().message};
  o.text = v->ok ? "ok, " + v->detail : "BROKEN: " + v->detail;
  auto trust = replay::assess_game(archive, id, ring);
  if (!trust) {
    o.verdict = v->ok ? Verdict::Error : Verdict::Broken;
    o.text += " / " + trust.error().message;
    return o;
  }
  o.text += " / " + trust->line;
  for (const auto& n : trust->notes) o.text += " / " + n;
  using V = replay::GameTrust::Verdict;
  if (!v->ok) {
    o.verdict = Verdict::Broken;
  } else if (trust->verdict == V::Invalid) {
    o.verdict = Verdict::Invalid;
  } else if (trust->vanished) {
    o.verdict = Verdict::Vanished;
  } else if (trust->bad_ruling) {
    o.verdict = Verdict::BadRuling;
  } else {
    o.verdict = trust->verdict == V::Trusted   ? Verdict::Trusted
                : trust->verdict == V::Unknown ? Verdict::Unknown
                : trust->verdict == V::Stale   ? Verdict::Stale
                                               : Verdict::Unsigned;
  }
  return o;
}

inline Outcome verify_game(const fs::path& store, core::GameId id, const replay::Keyring& ring) {
  auto archive = replay::Archive::open(store.string(), replay::Archive::Mode::ReadOnly);
  if (!archive) return {Verdict::Error, archive.error().message};
  return verify_game(*archive, id, ring);
}

// --- The sample store -------------------------------------------------------------------
inline constexpr std::int64_t kSignedAt = 1'774'000'000'000;

struct SampleStore {
  test::TempDir dir;  // dir.store(): the store
  std::vector<core::GameId> games;
  core::GameId signed_game = 0;    // the tutorial game: 2 disputes, a signed ruling, a trusted signature
  core::GameId disputed_game = 0;  // a dispute and an unsigned ruling, no signature
  KeyPair head_judge, judge;       // both in the keyring
  KeyPair forger;                  // in no keyring
  fs::path keyring_path;
  // What the pristine store gives, to compare audits and exports with.
  std::map<core::GameId, std::vector<core::Event>> events;
  std::map<core::GameId, std::string> audit_digest;

  SampleStore() {
    head_judge = keypair_from_seed({1});
    judge = keypair_from_seed({2});
    forger = keypair_from_seed({3});
    keyring_path = dir.path() / "config" / "keyring";
    auto archive = replay::Archive::open(dir.store().string(), replay::Archive::Mode::ReadWrite);
    if (!archive) throw std::runtime_error(archive.error().message);
    for (const auto& file : testing::sample_game_files()) {
      auto imported = archive->import_file(file.string(), {});
      if (!imported) throw std::runtime_error(file.string() + ": " + imported.error().error.message);
      games.push_back(imported->id);
      if (file.filename() == "spine_first_blood.wlog") signed_game = imported->id;
    }
    if (signed_game == 0 || games.size() < 3) throw std::runtime_error("the samples changed");
    disputed_game = games.front() == signed_game ? games[1] : games.front();

    auto raise = [&](core::GameId g, core::Seq seq, const char* claim) {
      auto id = replay::add_dispute(*archive, {g, seq, claim, "Alice", {"R-010"}, "2026-03-20T10:00:00Z", {}});
      if (!id) throw std::runtime_error(id.error().message);
      return *id;
    };
    auto rule = [&](const replay::DisputeId& id, std::optional<KeyPair> key) {
      replay::NewRuling r;
      r.ruling = "the draw stands";
      r.ruled_by = "Judge Ruth";
      r.ruled_at = "2026-03-21T09:00:00Z";
      r.key = std::move(key);
      r.signed_at_ms = kSignedAt;
      auto d = replay::resolve_dispute(*archive, id, r);
      if (!d) throw std::runtime_error(d.error().message);
    };
    const auto first = raise(signed_game, 3, "Bruno drew three cards");
    raise(signed_game, 5, "the charge came out of turn");
    rule(first, judge);
    auto signed_ok = replay::sign_game(*archive, signed_game, head_judge, "Head Judge", kSignedAt);
    if (!signed_ok) throw std::runtime_error(signed_ok.error().message);
    rule(raise(disputed_game, 2, "a card too many"), std::nullopt);

    auto ring = replay::Keyring::load(keyring_path);
    if (!ring || !ring->add("Head Judge", head_judge.public_key) || !ring->add("Judge Ruth", judge.public_key)) {
      throw std::runtime_error("keyring");
    }
    for (core::GameId g : games) {
      auto events_of = archive->events(g);
      auto audit = archive->audit(g);
      if (!events_of || !audit) throw std::runtime_error("the pristine store does not read");
      events[g] = std::move(*events_of);
      audit_digest[g] = audit->digest();
      auto trust = replay::assess_game(*archive, g, *ring);
      if (!trust) throw std::runtime_error(trust.error().message);
      for (const auto& st : trust->to_remember) ring->remember(st);
    }
    if (!ring->save()) throw std::runtime_error("keyring save");
  }

  [[nodiscard]] replay::Keyring keyring() const { return replay::Keyring::load(keyring_path).value(); }
};

// Built once per test program; tests tamper with copies (TamperCopy).
inline const SampleStore& sample_store() {
  static const SampleStore s;
  return s;
}

// A copy of the sample store of a test's own.
struct TamperCopy {
  test::TempDir dir;
  replay::Keyring ring;
  TamperCopy() : ring(sample_store().keyring()) {
    fs::copy(sample_store().dir.store(), dir.store(), fs::copy_options::recursive);
  }
  [[nodiscard]] fs::path store() const { return dir.store(); }
  [[nodiscard]] Outcome verify(core::GameId id) const { return verify_game(store(), id, ring); }
};

// The game a record of `db` belongs to (its key's first 8 bytes), or 0 for
// the kinds keyed otherwise (blobs; the identity index names it in its value).
inline core::GameId owner_of(const char* db, const Record& r) {
  const std::string_view name = db;
  if (name == kDbIdentity) return r.value.size() == 8 ? get_be64(r.value.data()) : 0;
  if (name == kDbBlobs || r.key.size() < 8) return 0;
  return get_be64(r.key.data());
}

// --- Positions --------------------------------------------------------------------------
// A byte of a record (of its key when in_key) and the bits flipped there.
struct Position {
  std::size_t record = 0;
  bool in_key = false;
  std::size_t byte = 0;
  unsigned char mask = 0x01;
};

// `count` positions spread evenly over every byte of every record's value
// (and key, with keys), deterministically; masks cycle so that a byte met
// twice is flipped differently. count 0: every byte once.
inline std::vector<Position> spread(const std::vector<Record>& records, std::size_t count, bool keys) {
  std::vector<std::pair<std::size_t, std::size_t>> offsets;  // (record, first byte in the concatenation)
  std::size_t total = 0;
  for (std::size_t i = 0; i < records.size(); ++i) {
    offsets.emplace_back(i, total);
    total += records[i].value.size() + (keys ? records[i].key.size() : 0);
  }
  std::vector<Position> out;
  if (total == 0) return out;
  const std::size_t n = count == 0 ? total : count;
  constexpr unsigned char kMasks[] = {0x01, 0x80, 0x10, 0xFF, 0x04, 0x40, 0x02, 0x20};
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t at = count == 0 ? i : i * total / n;
    auto it = std::upper_bound(offsets.begin(), offsets.end(), at,
                               [](std::size_t v, const auto& o) { return v < o.second; });
    const auto [rec, base] = *std::prev(it);
    std::size_t off = at - base;
    Position p;
    p.record = rec;
    p.in_key = keys && off < records[rec].key.size();
    p.byte = p.in_key ? off : off - (keys ? records[rec].key.size() : 0);
    p.mask = count == 0 ? 0x01 : kMasks[i % 8];
    out.push_back(p);
  }
  return out;
}

// The changes that flip position p: the value edited in place, or the record
// moved under the edited key.
inline std::vector<Change> flip(const char* db, const Record& r, const Position& p) {
  if (!p.in_key) {
    std::string v = r.value;
    v[p.byte] = static_cast<char>(v[p.byte] ^ p.mask);
    return {{db, r.key, v}};
  }
  std::string k = r.key;
  k[p.byte] = static_cast<char>(k[p.byte] ^ p.mask);
  return {{db, r.key, std::nullopt}, {db, k, r.value}};
}

// How many positions a test runs: `suite` in ctest, every byte under
// `scripts/soak tamper` (WARLOG_TAMPER=all).
inline std::size_t positions_wanted(std::size_t suite) {
  const char* all = std::getenv("WARLOG_TAMPER");
  return all != nullptr && std::string_view(all) == "all" ? 0 : suite;
}

}  // namespace warlog::store::tamper
