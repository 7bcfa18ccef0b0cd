#pragma once
// The answer to one recorded line as JSON: what `warlog record --format
// jsonl` prints per input line (docs/schema/record-line.schema.json) and
// what `warlog serve` answers a POSTed line with (docs/schema/
// serve-line.schema.json), so the two never disagree. Events through
// event_json, findings through finding_json (report.hpp).

#include <cstdint>
#include <optional>

#include <nlohmann/json_fwd.hpp>

#include "warlog/replay/recorder.hpp"

namespace warlog::replay {

// {"game","status","seqs","findings","next_seq"} and, as the status has
// them, "events" (conflict, needs-confirm, already-recorded), "errors"
// (refused), "crossing", "message". line_no, when given, is the object's
// "line" and each error's.
[[nodiscard]] nlohmann::json line_outcome_json(const Recorder& r, const LineOutcome& o,
                                               std::optional<std::uint64_t> line_no = std::nullopt);

}  // namespace warlog::replay
