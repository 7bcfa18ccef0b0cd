#pragma once
// The store's on-disk key layout, one place for the store, verify and tests.
// All integers are big-endian so that LMDB's memcmp order is numeric order:
// seq 256 sorts after 255 and 65,536 after 65,535, and games sort by id.
//
// Store format 2 (docs/architecture.md › "Store format 2" › 3):
//
//   database     key                                   value
//   games        game u64                              the game record v2 (game_meta.hpp)
//   events       game u64 ‖ first seq u64  (16 bytes)  one block = one segment of the
//                                                      chain (store/src/block.hpp): seq 0
//                                                      alone, then seqs 64k-63..64k
//   identity     32 bytes: for an imported game the    game u64
//                event chain head of the whole stream
//                as imported; for a live one its identity
//   blobs        kind u8 ‖ BLAKE2b-256     (33 bytes)  the blob's bytes
//   snapshots    no longer read or written: snapshots live in the user's
//                cache (snapshot_cache.hpp); format 1 stores may still hold
//                old ones here, left alone until format 2's migrate drops them
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

// Written into `meta` under "format". A store with a larger number is
// refused; one of format 1 is refused with "run `warlog migrate`".
inline constexpr std::uint32_t kFormatVersion = 2;
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
  core::Seq seq = 0;  // the first seq of the block
};
// nullopt for a key that is not 16 bytes.
[[nodiscard]] inline std::optional<EventKeyParts> parse_event_key(std::string_view k) noexcept {
  if (k.size() != 16) return std::nullopt;
  return EventKeyParts{get_be64(k.data()), get_be64(k.data() + 8)};
}

}  // namespace warlog::store
