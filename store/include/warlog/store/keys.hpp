#pragma once
// The store's on-disk key layout, one place for the store, verify and tests.
// All integers are big-endian so that LMDB's memcmp order is numeric order:
// seq 256 sorts after 255 and 65,536 after 65,535, and games sort by id.
//
//   database     key                                   value
//   games        game u64                              GameMeta (game_meta.hpp)
//   events       game u64 ‖ seq u64        (16 bytes)  packed Cap'n Proto event
//   identity     game_identity(GameCreated) (32 bytes) game u64
//   blobs        kind u8 ‖ BLAKE2b-256     (33 bytes)  the blob's bytes
//   snapshots    game u64 ‖ seq u64 ‖ ruleset digest   packed Cap'n Proto snapshot
//                ‖ engine version u32      (52 bytes)  (events/snapshot.hpp)
//   annotations  game u64 ‖ n u64          (16 bytes)  A(n) ‖ canonical Cap'n Proto annotation
//                (disputes, rulings, signatures, chained per game; annotations.hpp)
//   meta         "format"                              u32 store format version

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "warlog/core/event.hpp"
#include "warlog/core/hash.hpp"

namespace warlog::store {

// Written into `meta` under "format". A store with a larger number is refused.
inline constexpr std::uint32_t kFormatVersion = 1;
inline constexpr std::string_view kFormatKey = "format";

// Names of the named databases (mdb_dump -s NAME).
inline constexpr const char* kDbGames = "games";
inline constexpr const char* kDbEvents = "events";
inline constexpr const char* kDbIdentity = "identity";
inline constexpr const char* kDbBlobs = "blobs";
inline constexpr const char* kDbSnapshots = "snapshots";
inline constexpr const char* kDbAnnotations = "annotations";
inline constexpr const char* kDbMeta = "meta";

enum class BlobKind : std::uint8_t { Catalog = 1, Ruleset = 2 };

inline void put_be64(char* out, std::uint64_t v) noexcept {
  for (int i = 7; i >= 0; --i) {
    out[i] = static_cast<char>(v & 0xFF);
    v >>= 8;
  }
}
// Reads 8 bytes; the caller checks the size.
[[nodiscard]] inline std::uint64_t get_be64(const char* in) noexcept {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = v << 8 | static_cast<unsigned char>(in[i]);
  return v;
}

using GameKey = std::array<char, 8>;
using EventKey = std::array<char, 16>;
using BlobKey = std::array<char, 33>;

[[nodiscard]] inline GameKey game_key(core::GameId game) noexcept {
  GameKey k{};
  put_be64(k.data(), game);
  return k;
}
[[nodiscard]] inline EventKey event_key(core::GameId game, core::Seq seq) noexcept {
  EventKey k{};
  put_be64(k.data(), game);
  put_be64(k.data() + 8, seq);
  return k;
}
[[nodiscard]] inline BlobKey blob_key(BlobKind kind, const core::Digest& hash) noexcept {
  BlobKey k{};
  k[0] = static_cast<char>(kind);
  for (std::size_t i = 0; i < hash.size(); ++i) k[i + 1] = static_cast<char>(hash[i]);
  return k;
}

[[nodiscard]] inline std::string_view view(const auto& key) noexcept {
  return {key.data(), key.size()};
}

struct EventKeyParts {
  core::GameId game = 0;
  core::Seq seq = 0;
};
// nullopt for a key that is not 16 bytes.
[[nodiscard]] inline std::optional<EventKeyParts> parse_event_key(std::string_view k) noexcept {
  if (k.size() != 16) return std::nullopt;
  return EventKeyParts{get_be64(k.data()), get_be64(k.data() + 8)};
}

// --- Snapshots -----------------------------------------------------------------
// game ‖ seq ‖ ruleset digest (32) ‖ engine version: a game's snapshots sort by
// seq, then ruleset, then version, so "the greatest seq <= N" is one cursor
// positioning and a few steps back.
using SnapshotKey = std::array<char, 52>;

[[nodiscard]] inline SnapshotKey snapshot_key(core::GameId game, core::Seq seq, const core::Digest& ruleset,
                                              std::uint32_t engine_version) noexcept {
  SnapshotKey k{};
  put_be64(k.data(), game);
  put_be64(k.data() + 8, seq);
  for (std::size_t i = 0; i < ruleset.size(); ++i) k[16 + i] = static_cast<char>(ruleset[i]);
  for (int i = 3; i >= 0; --i) {
    k[48 + static_cast<std::size_t>(i)] = static_cast<char>(engine_version & 0xFF);
    engine_version >>= 8;
  }
  return k;
}

struct SnapshotKeyParts {
  core::GameId game = 0;
  core::Seq seq = 0;
  core::Digest ruleset{};
  std::uint32_t engine_version = 0;
  friend bool operator==(const SnapshotKeyParts&, const SnapshotKeyParts&) = default;
};
// nullopt for a key that is not 52 bytes.
[[nodiscard]] inline std::optional<SnapshotKeyParts> parse_snapshot_key(std::string_view k) noexcept {
  if (k.size() != std::tuple_size_v<SnapshotKey>) return std::nullopt;
  SnapshotKeyParts p;
  p.game = get_be64(k.data());
  p.seq = get_be64(k.data() + 8);
  for (std::size_t i = 0; i < p.ruleset.size(); ++i) p.ruleset[i] = static_cast<std::uint8_t>(k[16 + i]);
  for (std::size_t i = 48; i < 52; ++i) p.engine_version = p.engine_version << 8 | static_cast<unsigned char>(k[i]);
  return p;
}

}  // namespace warlog::store
