#include "warlog/events/framing.hpp"

#include <capnp/serialize-packed.h>
#include <capnp/serialize.h>
#include <kj/exception.h>
#include <kj/io.h>
#include <kj/vector.h>

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

}  // namespace warlog::events
