#pragma once
// A game's metadata: the `games` value. Copied from the GameCreated event at
// import, kept current by every append (event_count, head), so listing games
// never reads a stream.
//
// Encoding (version 1), all integers big-endian, strings as u32 length ‖ bytes:
//   u8 version=1 · u64 id · u64 event_count · 32 head · 32 identity ·
//   str title · str date · str ruleset_hash · str catalog_hash ·
//   u8 seat count · per seat: str player, u8 allegiance ·
//   u64 annotation_count · 32 annotation_head
// (The annotation fields come with store format 2's annotation chain; the
// format-2 record v2 of docs/architecture.md › Store format 2 §3 holds the
// same two, and replaces this encoding.)
// Hand-written rather than Cap'n Proto: the store reads it on every append and
// listing, and `mdb_dump` readers can follow it by eye.

#include <string>
#include <string_view>
#include <vector>

#include "warlog/core/error.hpp"
#include "warlog/core/event.hpp"
#include "warlog/core/hash.hpp"

namespace warlog::store {

struct GameMeta {
  core::GameId id = 0;
  core::Seq event_count = 0;  // the next seq to append
  core::Digest head{};        // chain hash of the last event; all zero when empty
  core::Digest identity{};    // game_identity(GameCreated): the identity db's key
  // The annotation chain (annotations.hpp), kept current by every annotation append.
  std::uint64_t annotation_count = 0;
  core::Digest annotation_head{};  // A(annotation_count - 1); A(-1) when there are none
  // Copied from GameCreated.
  std::string title;
  std::string date;
  std::string ruleset_hash;  // hex, as recorded
  std::string catalog_hash;  // hex, as recorded
  std::vector<core::SeatSetup> seats;

  friend bool operator==(const GameMeta&, const GameMeta&) = default;
};

inline constexpr std::uint8_t kGameMetaVersion = 1;

// What makes two imports the same game: BLAKE2b-256 over a canonical
// encoding of GameCreated (the tag "warlog.game-identity.1", then title, date,
// ruleset_hash, catalog_hash, seats, territories, cols, rows; encoded as
// above). Deliberately not the Cap'n Proto bytes: the schema grows, and a
// field added to GameCreated must not make an old game look new.
[[nodiscard]] core::Digest game_identity(const core::GameCreated& g);

[[nodiscard]] std::string encode_game_meta(const GameMeta& m);
// Errors: DataLoss for truncated or malformed bytes; Unsupported for a newer
// encoding version.
[[nodiscard]] Expected<GameMeta> decode_game_meta(std::string_view bytes);

}  // namespace warlog::store
