#pragma once
// Re-framing stored messages for other tools: the store keeps events as
// canonical messages (no segment table) and snapshots and annotations in
// Cap'n Proto's packed framing; `capnp convert binary:...` and most readers
// in other languages take the standard unpacked framing.

#include <string>
#include <string_view>

#include "warlog/core/error.hpp"

namespace warlog::events {

// One packed message (as stored) -> the same message in the standard
// (unpacked) framing: segment table, then segments. The words are those the
// packed bytes encode, not re-encoded. Errors: DataLoss for bytes that are
// not exactly one packed message.
[[nodiscard]] Expected<std::string> unpack_message(std::string_view packed);

// One canonical message (a stored event) -> the standard framing: a segment
// table for its one segment, then the words.
[[nodiscard]] std::string framed(std::string_view canonical);
// The same message in Cap'n Proto's packed framing (`capnp convert packed:...`).
[[nodiscard]] std::string packed(std::string_view canonical);

}  // namespace warlog::events
