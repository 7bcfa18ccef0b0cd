#include "warlog/events/framing.hpp"

#include <capnp/serialize-packed.h>
#include <capnp/serialize.h>
#include <kj/exception.h>
#include <kj/io.h>
#include <kj/vector.h>

#include <cstring>

namespace warlog::events {

Expected<std::string> unpack_message(std::string_view packed) {
  try {
    kj::ArrayInputStream in(kj::arrayPtr(reinterpret_cast<const kj::byte*>(packed.data()), packed.size()));
    capnp::PackedMessageReader message(in);
    if (in.tryGetReadBuffer().size() != 0) {
      return make_error(ErrorCode::DataLoss, "trailing bytes after the stored message");
    }
    // The segments as the packed bytes encode them, written back with the
    // standard segment table: no traversal, no re-encoding.
    kj::Vector<kj::ArrayPtr<const capnp::word>> segments;
    for (capnp::uint id = 0;; ++id) {
      const auto segment = message.getSegment(id);
      if (segment == nullptr) break;
      segments.add(segment);
    }
    kj::VectorOutputStream out;
    capnp::writeMessage(out, segments.asPtr());
    const auto bytes = out.getArray();
    return std::string(reinterpret_cast<const char*>(bytes.begin()), bytes.size());
  } catch (const kj::Exception& e) {
    return make_error(ErrorCode::DataLoss,
                      std::string("stored bytes are not one packed message: ") + e.getDescription().cStr());
  }
}

std::string framed(std::string_view canonical) {
  // The standard framing of a one-segment message: u32 LE segment count - 1
  // (0), u32 LE segment size in words, then the words.
  std::string out(8, '\0');
  const auto words = static_cast<std::uint32_t>(canonical.size() / sizeof(capnp::word));
  for (int i = 0; i < 4; ++i) out[4 + static_cast<std::size_t>(i)] = static_cast<char>(words >> (8 * i) & 0xFF);
  out.append(canonical);
  return out;
}

std::string packed(std::string_view canonical) {
  // Copied into words first: the bytes may be unaligned.
  kj::Array<capnp::word> words = kj::heapArray<capnp::word>(canonical.size() / sizeof(capnp::word));
  std::memcpy(words.begin(), canonical.data(), words.size() * sizeof(capnp::word));
  const kj::ArrayPtr<const capnp::word> segments[1] = {words};
  kj::VectorOutputStream out;
  capnp::writePackedMessage(out, kj::arrayPtr(segments, 1));
  const auto bytes = out.getArray();
  return std::string(reinterpret_cast<const char*>(bytes.begin()), bytes.size());
}

}  // namespace warlog::events
