#pragma once
// The version of warlog's JSON output (every --format json and jsonl), and
// the `schema` field each output carries: {"name": "warlog.VERB", "version":
// N}. The shapes are JSON Schema files, docs/schema/VERB.schema.json; the
// version goes up when a field is removed or changes meaning.
//   1: the first, unversioned shapes.
//   2: every output an object with `schema`; audit and rule-diff carry
//      players, classes and outcomes; rules' options a list.
//   3: rule-diff's summary counts the games --only/--rule select; a held
//      record line (needs-confirm) has no seq.

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace warlog::cli {

inline constexpr int kJsonSchemaVersion = 3;

// {"name": "warlog.VERB", "version": kJsonSchemaVersion}
inline nlohmann::json schema_json(std::string_view verb) {
  return {{"name", "warlog." + std::string(verb)}, {"version", kJsonSchemaVersion}};
}

}  // namespace warlog::cli
