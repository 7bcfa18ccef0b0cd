#pragma once
// Internal to warlog::events: core::GameState <-> the Snapshot.State builder
// and reader. Only snapshot.cpp turns these into bytes and Expected results.

#include <string>

#include "convert.hpp"
#include "warlog/core/state.hpp"

namespace warlog::events::detail {

void write_state(cs::Snapshot::State::Builder b, const core::GameState& s);

// Throws DecodeFailure (DataLoss) for a state that cannot be one (seat count,
// grid cells off the grid or twice, a card twice in a pile), DecodeFailure
// (Unsupported) for an enumerant this build does not know, and kj::Exception
// for malformed bytes.
[[nodiscard]] core::GameState read_state(cs::Snapshot::State::Reader r);

// Throws DecodeFailure (DataLoss) "snapshot: MESSAGE".
[[noreturn]] void snapshot_failure(std::string message);

}  // namespace warlog::events::detail
