#pragma once
// Reading a whole stream, for the fold of a stream that holds a correction
// (core/include/warlog/core/corrections.hpp: it needs the events before it).

#include <vector>

#include "warlog/core/event.hpp"
#include "warlog/store/reader.hpp"

namespace warlog::replay::detail {

// Events [0, end) of `game` (end = store::kEndSeq: all). Errors: as scan.
[[nodiscard]] Expected<std::vector<core::Event>> read_stream(const store::Reader& reader, core::GameId game,
                                                             core::Seq end);

}  // namespace warlog::replay::detail
