#pragma once
// Format 1's event encoding (store format 1, before docs/architecture.md ›
// "Store format 2"): one packed Cap'n Proto message per event, its header
// carrying the local game id and prevHash, the chain link
// BLAKE2b(prevHash_{n-1} ‖ stored bytes_{n-1}). Kept only so that
// `warlog migrate` can read and check a format-1 store (store/src/format1/);
// nothing else writes or reads it.

#include <string>
#include <string_view>

#include "warlog/core/error.hpp"
#include "warlog/core/event.hpp"
#include "warlog/core/hash.hpp"
#include "warlog/events/codec.hpp"

namespace warlog::events::format1 {

// A format-1 header: the format-2 one plus the stored game id and prev_hash.
struct Header {
  core::GameId game = 0;
  core::Seq seq = 0;
  std::uint16_t turn = 0;
  core::Phase phase = core::Phase::Setup;
  core::Seat seat = core::kNoSeat;
  core::Digest prev_hash{};  // chain hash of the previous event; all zero for seq 0
};

// Encodes ev as format 1 stored it (packed, with game, seq and prev_hash):
// for tests that build format-1 stores and for the fuzz corpus.
[[nodiscard]] std::string encode_event(const core::Event& ev, const core::Digest& prev_hash);
[[nodiscard]] std::string encode_event(const core::Event& ev, core::GameId game, core::Seq seq,
                                       const core::Digest& prev_hash);

// Decodes a packed format-1 value. Errors: DataLoss for bytes that are not a
// valid message (truncated, garbage, trailing bytes, over kMaxEventBytes,
// past the traversal or nesting limits); Unsupported for a payload kind or
// enumerant this build does not know. prev_hash is not read (decode_header).
[[nodiscard]] Expected<core::Event> decode_event(std::string_view bytes);
// Only the header, prev_hash included. Errors as decode_event.
[[nodiscard]] Expected<Header> decode_header(std::string_view bytes);

}  // namespace warlog::events::format1
