#pragma once
// Bytes <-> core values, store format 2 (docs/architecture.md › "Store
// format 2" › 1). An event's bytes are its canonical Cap'n Proto encoding
// (capnp::canonicalize: one segment, pre-order, trailing zero words dropped,
// no segment table; schema: events/schema/warlog.capnp) with header.game
// left 0: the same game has the same bytes, hence the same chain, in every
// store. Format 1's packed encoding is in format1.hpp, for migrate only.

#include <cstdint>
#include <string>
#include <string_view>

#include "warlog/core/error.hpp"
#include "warlog/core/event.hpp"

namespace warlog::events {

// The header every stored event carries, readable without the payload.
struct Header {
  core::Seq seq = 0;
  std::uint16_t turn = 0;
  core::Phase phase = core::Phase::Setup;
  core::Seat seat = core::kNoSeat;
  std::int64_t recorded_at_ms = 0;  // 0 = not recorded
};

// canonical(ev) with header.seq = ev.seq (or the given seq: what the store
// writes, without copying the event to renumber it). ev.game is not
// encoded. Always a whole number of 8-byte words. Never fails for a valid
// core::Event. The same event always gives the same bytes.
[[nodiscard]] std::string encode_event(const core::Event& ev);
[[nodiscard]] std::string encode_event(const core::Event& ev, core::Seq seq);

// Decodes canonical bytes, read in place when they are word-aligned (else
// copied once into an aligned buffer). The result's game is 0: the caller
// knows which game it read. Errors: DataLoss for bytes that are not a valid
// canonical message (empty, not whole words, over kMaxEventBytes, a pointer
// out of bounds, trailing bytes or another non-canonical layout, past the
// traversal limit, or nesting deeper than the schema's five levels allow,
// in any field, known or not: see codec.cpp);
// Unsupported for a payload kind or enumerant this build does not know
// (written by a newer warlog).
[[nodiscard]] Expected<core::Event> decode_event(std::string_view bytes);

// How much of a message decode_event walks before its readers read it.
enum class Walk : std::uint8_t {
  // The whole message: every pointer within the limits, then canonical
  // form. For any bytes.
  Whole,
  // Neither walk, only the readers' own bounds checks (Cap'n Proto checks
  // every pointer it follows, and the traversal limit still holds). Only
  // for bytes this machine has already decoded Whole: a block whose S
  // matches a record under the user's local MAC key (Reader::verify's
  // `walked`, SnapshotCache::walked; docs/architecture.md › Store format
  // 2 › 4). Anything else passed here could hash as one event and decode
  // as another.
  Known,
};
[[nodiscard]] Expected<core::Event> decode_event(std::string_view bytes, Walk walk);

// Decodes only the header. Errors as decode_event (payload kind not checked).
[[nodiscard]] Expected<Header> decode_header(std::string_view bytes);

// The largest event the store accepts, in canonical bytes: append and
// import refuse a larger one (ResourceExhausted, naming the size and the
// limit) and decode_event refuses to read one (DataLoss). Legal events are
// far smaller: the largest in the samples and 20 generated games is a
// GameCreated of under 1 KiB (test CodecLimits.LegalEventsLeaveSixteenfold-
// Headroom; docs/reliability.md › Limits), so 64 KiB leaves room for big
// decks and long names while bounding what one hostile value costs to decode.
inline constexpr std::size_t kMaxEventBytes = 64 * 1024;

}  // namespace warlog::events
