#pragma once
// Sample events for the codec tests: one per payload alternative, each with
// non-default values in every field, so a field the codec drops or swaps
// shows up as a round-trip difference.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include <capnp/any.h>
#include <capnp/message.h>
#include <capnp/serialize-packed.h>
#include <capnp/serialize.h>
#include <kj/io.h>

#include "warlog/core/event.hpp"
#include "warlog/core/hash.hpp"

namespace warlog::events::test {

// A previous-event hash with no zero bytes and no two bytes alike.
inline core::Digest sample_digest() {
  core::Digest d{};
  for (std::size_t i = 0; i < d.size(); ++i) d[i] = static_cast<std::uint8_t>(0xA0 + i * 3);
  return d;
}

inline core::Event make_event(core::Seq seq, std::uint16_t turn, core::Phase phase,
                              core::Seat seat, core::Payload payload) {
  core::Event ev;
  ev.game = 0;  // never stored in format 2: a decoded event has game 0 (CodecEncode.LeavesTheGameIdOut)
  ev.seq = seq;
  ev.recorded_at_ms = 1'780'000'000'000 + static_cast<std::int64_t>(seq % 1000);
  ev.turn = turn;
  ev.phase = phase;
  ev.seat = seat;
  ev.payload = std::move(payload);
  return ev;
}

// One event per core::Payload alternative, in variant order.
std::vector<core::Event> sample_events();

// The message as untyped structs, for building inputs that only a corrupt
// store or a newer warlog would produce. The test does not see the
// generated schema header (it is private to the events library), so it finds
// field offsets by diffing two encodings rather than by name.
class RawMessage {
 public:
  // From canonical bytes (encode_event) or, with packed, format 1's packed bytes.
  explicit RawMessage(std::string_view bytes, bool packed = false) {
    if (packed) {
      kj::ArrayInputStream in(kj::arrayPtr(reinterpret_cast<const kj::byte*>(bytes.data()), bytes.size()));
      capnp::PackedMessageReader reader(in);
      builder_.getRoot<capnp::AnyPointer>().set(reader.getRoot<capnp::AnyPointer>());
      return;
    }
    kj::Array<capnp::word> words = kj::heapArray<capnp::word>(bytes.size() / sizeof(capnp::word));
    std::memcpy(words.begin(), bytes.data(), words.size() * sizeof(capnp::word));
    const kj::ArrayPtr<const capnp::word> segments[1] = {words};
    capnp::SegmentArrayMessageReader reader(kj::arrayPtr(segments, 1));
    builder_.getRoot<capnp::AnyPointer>().set(reader.getRoot<capnp::AnyPointer>());
  }

  capnp::AnyStruct::Builder event() { return builder_.getRoot<capnp::AnyStruct>(); }
  // Event's pointer section: [0] header, [1] the payload union's member.
  capnp::AnyStruct::Builder header() {
    return event().getPointerSection()[0].getAs<capnp::AnyStruct>();
  }
  capnp::AnyStruct::Builder payload() {
    return event().getPointerSection()[1].getAs<capnp::AnyStruct>();
  }

  // The edited message in canonical form, as a store would hold it.
  std::string canonical() {
    const auto words = event().asReader().canonicalize();
    return std::string(reinterpret_cast<const char*>(words.begin()), words.asBytes().size());
  }
  // The builder's one segment as it is: edits leave unreferenced words
  // behind, so this is a message that is not canonical.
  std::string segment() {
    const auto segments = builder_.getSegmentsForOutput();
    const auto bytes = segments[0].asBytes();
    return std::string(reinterpret_cast<const char*>(bytes.begin()), bytes.size());
  }
  std::string pack() {
    kj::VectorOutputStream out;
    capnp::writePackedMessage(out, builder_);
    const auto bytes = out.getArray();
    return std::string(reinterpret_cast<const char*>(bytes.begin()), bytes.size());
  }

 private:
  capnp::MallocMessageBuilder builder_;
};

// The even offset of the first 16-bit field where two data sections differ.
inline std::size_t first_difference(kj::ArrayPtr<const kj::byte> a,
                                    kj::ArrayPtr<const kj::byte> b) {
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (a[i] != b[i]) return i & ~std::size_t{1};
  }
  return a.size();
}

inline void put_u16(kj::ArrayPtr<kj::byte> data, std::size_t offset, std::uint16_t v) {
  data[offset] = static_cast<kj::byte>(v & 0xFF);  // Cap'n Proto is little-endian
  data[offset + 1] = static_cast<kj::byte>(v >> 8);
}

}  // namespace warlog::events::test
