#pragma once
// The snapshot cache: folded states a seek may start from, kept by the user
// who reads, never in a store (docs/architecture.md › Store format 2 › 5).
// One LMDB environment of its own, two databases:
//
//   database   key                                          value
//   snapshots  cache_key(binding)                 (32 bytes)  snapshot bytes ‖ MAC (32 bytes)
//   by_game    identity ‖ seq u64 BE ‖ cache key  (72 bytes)  empty: a hint of what exists
//   walked     identity                           (32 bytes)  S of each block ‖ MAC (32 bytes)
//
// cache_key = BLAKE2b-256("warlog.snapshot-cache.2" ‖ identity ‖ seq u64 BE ‖
// chain value through seq ‖ ruleset digest ‖ catalog digest ‖ engine version
// u32 BE), so a snapshot is found only by whoever can name everything it was
// folded from, the events as they are now included. MAC = crypto_auth
// (HMAC-SHA512-256) under the local key over key ‖ snapshot bytes: a value
// copied under another key, or written by anyone without the user's key
// (a store from elsewhere, a shared cache directory), fails it and is never
// returned. `by_game` is only a hint (which seqs of a game may hold one; what
// drop and verify walk): a seek recomputes the key itself.
//
// `walked` records, per game, the S of each block a verify of this user's
// walked whole (every event's whole-message and canonical-form check held,
// and the game verified intact): Reader::verify skips those walks in a
// block whose S is the one recorded at its place (events::Walk::Known).
// Its MAC is over BLAKE2b-256("warlog.walked-blocks.1" ‖ identity) ‖ the S
// values, under the same local key: forged, copied or damaged records are
// never returned, and a block that changed has another S.
//
// A cache: every failure here makes seeks slower, never wrong. The cache
// knows bytes, not rules: whether the bytes decode and agree with the fold
// is replay's business (replay/seek.hpp).
//
// Thread safety: one SnapshotCache per directory per process (open() hands
// out the same one), usable from several threads.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "warlog/core/error.hpp"
#include "warlog/core/event.hpp"
#include "warlog/core/hash.hpp"

namespace warlog::store {

// Where the cache and the local key live.
struct CacheLocation {
  std::filesystem::path dir;       // the LMDB environment (a directory)
  std::filesystem::path key_file;  // the local MAC key (32 bytes, mode 0600)
};

// $WARLOG_CACHE_DIR, else $XDG_CACHE_HOME/warlog/snapshots, else
// $HOME/.cache/warlog/snapshots; the key at $XDG_CONFIG_HOME/warlog/local.key,
// else $HOME/.config/warlog/local.key. Errors: NotFound when neither the
// variables nor HOME say where.
[[nodiscard]] Expected<CacheLocation> default_cache_location();

// Reads the local key, making it on first use (32 random bytes, mode 0600,
// its directory 0700). Errors: InvalidArgument for a key that group or
// others may read or write (it would let them forge snapshots) or that is
// not 32 bytes; IoError when the OS refuses.
[[nodiscard]] Expected<std::string> load_local_key(const std::filesystem::path& key_file);

// Everything a cached snapshot was folded from.
struct SnapshotBinding {
  core::Digest identity{};  // the game's identity (GameMeta::identity)
  core::Seq seq = 0;        // the state is the one after this event
  core::Digest chain{};     // Reader::chain_through(game, seq)
  core::Digest ruleset{};   // content hashes of what it was folded under
  core::Digest catalog{};
  std::uint32_t engine_version = 0;
};

[[nodiscard]] core::Digest cache_key(const SnapshotBinding& b) noexcept;

struct CachedSnapshot {
  SnapshotBinding binding;
  std::string bytes;  // the snapshot, without the MAC
};

// One entry of a game, as verify walks them.
struct CacheEntry {
  core::Seq seq = 0;
  core::Digest key{};
  enum class State : std::uint8_t {
    Authentic,  // the MAC holds: `bytes` is what this user's warlog wrote
    BadMac,     // forged, damaged, or written under another key: never used
    Missing,    // the hint names a key with no value
  } state = State::Missing;
  std::string bytes;  // Authentic only
};

class SnapshotCache {
 public:
  // Opens (creating) the cache at `where`; the same object for the same
  // directory within a process (LMDB allows one environment per process).
  // Errors: as load_local_key; IoError for a directory that cannot be made
  // or an environment that cannot be opened (read-only disk, a file in the
  // way); DataLoss for a data.mdb that is not LMDB.
  [[nodiscard]] static Expected<std::shared_ptr<SnapshotCache>> open(const CacheLocation& where);

  SnapshotCache(const SnapshotCache&) = delete;
  SnapshotCache& operator=(const SnapshotCache&) = delete;
  ~SnapshotCache();

  // --- Reading ---------------------------------------------------------------
  // The greatest seq <= `seq` for which `by_game` names any entry of the
  // game (of any ruleset, catalog or chain), or nullopt.
  [[nodiscard]] Expected<std::optional<core::Seq>> nearest_seq(const core::Digest& identity, core::Seq seq) const;
  // The bytes under cache_key(b). nullopt when there are none; BadMac
  // entries are counted in `bad_mac` (never returned).
  struct Lookup {
    std::optional<std::string> bytes;
    bool bad_mac = false;
  };
  [[nodiscard]] Expected<Lookup> get(const SnapshotBinding& b) const;
  // Every entry `by_game` names for the game, by seq.
  [[nodiscard]] Expected<std::vector<CacheEntry>> entries(const core::Digest& identity) const;

  // --- Writing (each call one transaction) --------------------------------------
  // Stores each snapshot under its key with its MAC, replacing what was there.
  // Errors: ResourceExhausted when the cache's map is full; IoError.
  [[nodiscard]] Expected<void> put(std::span<const CachedSnapshot> snapshots);
  // --- Blocks walked whole (Reader::verify's `walked`) ------------------------
  // The S of each block of the game walked whole before, in order; empty
  // when there is no record or its MAC fails (counted in `bad_mac`).
  struct Walked {
    std::vector<core::Digest> blocks;
    bool bad_mac = false;
  };
  [[nodiscard]] Expected<Walked> walked(const core::Digest& identity) const;
  struct WalkedGame {
    core::Digest identity{};
    std::vector<core::Digest> blocks;
  };
  // Records each game's blocks (replacing its record), in one transaction.
  [[nodiscard]] Expected<void> put_walked(std::span<const WalkedGame> games);

  // Removes the game's entries whose key `drop` says to (nothing: all of
  // them); returns how many.
  [[nodiscard]] Expected<std::size_t> drop(const core::Digest& identity,
                                           const std::function<bool(const CacheEntry&)>& drop = {});

  [[nodiscard]] const CacheLocation& location() const noexcept;

  struct Impl;

 private:
  explicit SnapshotCache(std::unique_ptr<Impl> impl) noexcept;
  std::unique_ptr<Impl> impl_;
};

}  // namespace warlog::store
