#pragma once
// The verbs that open the store in the warlog process's place: their whole
// store work runs in one child (replay::run_isolated_work), so a damaged page
// that kills it is one line, exit 2, never warlog ended by a signal. The
// reading verbs have their own, per game (isolated.hpp).

#include <functional>
#include <string>
#include <string_view>

namespace warlog::cli {

// Runs `verb` (which opens the store at `store` itself) in the child and
// returns its exit code. A child killed by a fault signal: "warlog: store S:
// the data file is corrupt near page N: restore it from a copy (DOING; the
// PROCESS died of SIGABRT)", exit 2. A child ended by another signal (SIGINT
// at the terminal, SIGPIPE): warlog ends by it too. `process`: "writer" for
// a verb that writes, "reader" for one that only reads.
[[nodiscard]] int in_store_process(const std::string& store, std::string_view doing, const std::function<int()>& verb,
                                   const char* process = "writer");

// --store as given, else the default store (replay::default_store_path).
[[nodiscard]] std::string store_or_default(const std::string& flag);

}  // namespace warlog::cli
