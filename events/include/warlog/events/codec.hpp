#pragma once
// Bytes <-> core values. Events are stored as packed Cap'n Proto messages
// (schema: events/schema/warlog.capnp). Packed input is unpacked into
// word-aligned buffers before it is read, so LMDB's 2-byte-aligned values are
// safe to pass straight in.

#include <cstdint>
#include <string>
#include <string_view>

#include "warlog/core/error.hpp"
#include "warlog/core/event.hpp"
#include "warlog/core/hash.hpp"

namespace warlog::events {

// The header every stored event carries, readable without decoding the payload.
struct Header {
  core::GameId game = 0;
  core::Seq seq = 0;
  std::uint16_t turn = 0;
  core::Phase phase = core::Phase::Setup;
  core::Seat seat = core::kNoSeat;
  core::Digest prev_hash{};  // chain hash of the previous event; all zero for seq 0
};

// Encodes ev with prev_hash as a packed message. Never fails for a valid
// core::Event.
[[nodiscard]] std::string encode_event(const core::Event& ev, const core::Digest& prev_hash);
// The same with the header's game and seq given (ev's are ignored): what the
// store writes, without copying the event to renumber it.
[[nodiscard]] std::string encode_event(const core::Event& ev, core::GameId game, core::Seq seq,
                                       const core::Digest& prev_hash);

// Decodes a packed message. Errors: DataLoss for bytes that are not a valid
// message (truncated, garbage, trailing bytes, over kMaxEventBytes, unpacking
// past the traversal limit, or nesting deeper than the schema's five levels
// allow, in any field, known or not: see codec.cpp); Unsupported for a
// payload kind or enumerant this build does not know (written by a newer
// warlog). The header's prev_hash is not read: decode_header gives it to
// verify.
[[nodiscard]] Expected<core::Event> decode_event(std::string_view bytes);

// Decodes only the header. Errors as decode_event (payload kind not checked).
[[nodiscard]] Expected<Header> decode_header(std::string_view bytes);

// The largest event the store accepts, in encoded (packed) bytes: append and
// import refuse a larger one (ResourceExhausted, naming the size and the
// limit) and decode_event refuses to read one (DataLoss). Legal events are
// far smaller: the largest in the samples and 20 generated games is a
// GameCreated of 330 bytes (test CodecLimits.LegalEventsLeaveSixteenfold-
// Headroom; docs/reliability.md › Limits), so 64 KiB is about 200 times the
// largest seen, room for big decks and long names, while bounding what one
// hostile value costs to decode.
inline constexpr std::size_t kMaxEventBytes = 64 * 1024;

}  // namespace warlog::events
