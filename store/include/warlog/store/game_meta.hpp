#pragma once
// A game's record: the `games` value (store format 2, docs/architecture.md ›
// "Store format 2" › 3). It keeps only what the chains need; nothing in it
// is a copy of the game, so there is nothing in it to forge:
//
//   u8 version=2 · u64 event count · 32 event head · u64 annotation count
//   · 32 annotation head · 32 identity · u8 flags (bit 0: migrated)
//
// 114 bytes, integers big-endian (as every key). The event head is S of the
// game's last block (block.hpp); the annotation count and head are the
// annotation chain's (A(-1) = BLAKE2b-256("warlog.annotation-chain.2" ‖
// identity) for a game with none), kept by annotations.cpp.
//
// Title, date, seats and the ruleset and catalog hashes are derived: a
// Reader fills them from GameCreated (event 0, the first block, one small
// read) whenever it returns a GameMeta; encode_game_meta never writes them.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "warlog/core/error.hpp"
#include "warlog/core/event.hpp"
#include "warlog/core/hash.hpp"

namespace warlog::store {

struct GameMeta {
  // --- Stored (the record) ---------------------------------------------------
  core::GameId id = 0;               // the key, not part of the value
  core::Seq event_count = 0;         // the next seq to append
  core::Digest head{};               // event chain head: S of the last block
  std::uint64_t annotation_count = 0;
  core::Digest annotation_head{};    // A(annotation_count - 1), A(-1) when none
  core::Digest identity{};           // game_identity(event 0)
  std::uint8_t flags = 0;            // kGameMigrated

  // --- Derived from GameCreated (Reader::game, Reader::games) ---------------
  std::string title;
  std::string date;
  std::string ruleset_hash;  // hex, as recorded
  std::string catalog_hash;  // hex, as recorded
  std::vector<core::SeatSetup> seats;

  [[nodiscard]] bool migrated() const noexcept { return (flags & 1u) != 0; }
  friend bool operator==(const GameMeta&, const GameMeta&) = default;
};

inline constexpr std::uint8_t kGameMetaVersion = 2;
inline constexpr std::size_t kGameMetaBytes = 114;
inline constexpr std::uint8_t kGameMigrated = 1;  // flags bit 0

// A game's identity: BLAKE2b-256("warlog.game-identity.2" ‖ canonical(event
// 0)). Stable across stores (the canonical bytes leave the local game id
// 0); what signatures, the keyring and the snapshot cache name.
[[nodiscard]] core::Digest game_identity(std::string_view canonical_event0);
// A(-1) of a game's annotation chain.
// annotation_chain_start(identity): annotations.hpp.

// The stored fields only (the derived ones are ignored).
[[nodiscard]] std::string encode_game_meta(const GameMeta& m);
// Fills the stored fields, id = 0. Errors: DataLoss for truncated, long or
// malformed bytes; Unsupported for a newer record version, or format 1's
// record (version 1: the store wants `warlog migrate`).
[[nodiscard]] Expected<GameMeta> decode_game_meta(std::string_view bytes);

}  // namespace warlog::store
