#pragma once
// The version of warlog's JSON output (every --format json). Here for now,
// beside the CLI that prints it; the JSON-contract work moves it to where the
// schema is defined and bumps it when a field changes meaning.

namespace warlog::cli {

inline constexpr int kJsonSchemaVersion = 1;

}  // namespace warlog::cli
