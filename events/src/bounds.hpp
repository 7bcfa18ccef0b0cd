#pragma once
// Internal to warlog::events: the guards every decoder applies to a message
// before reading it (codec.cpp, snapshot.cpp, annotation_codec.cpp).

#include <capnp/any.h>
#include <capnp/message.h>

namespace warlog::events::detail {

// Walks every pointer of the message, fields this build does not know
// included, and throws kj::Exception when the message nests deeper than the
// reader's nestingLimit or holds more than its traversalLimitInWords. Our
// readers follow the schema, which bounds their depth; this makes "decodes"
// mean "the whole message is within the limits", so a stored value can never
// be a deep or oversized tree hidden in a field only a newer build reads
// (which that build, or a generic tool such as `capnp convert`, would walk).
// The walk is charged to the traversal limit, so each decoder's limit allows
// for reading the message twice.
inline void check_whole_message(capnp::MessageReader& message) {
  (void)message.getRoot<capnp::AnyPointer>().targetSize();
}

}  // namespace warlog::events::detail
