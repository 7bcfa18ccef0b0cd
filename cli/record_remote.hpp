#pragma once
// `warlog record --server HOST:PORT --game G` (cli/record_remote.cpp):
// recording through `warlog serve --rpc` (docs/server.md › 3), with the
// prompt and the answers of a local `warlog record`.

#include <cstdint>
#include <string>
#include <string_view>

namespace warlog::cli {

struct RecordArgs;

// "turn 3 warfare 1 seq 57> ": the prompt of every recording session.
[[nodiscard]] std::string record_prompt(std::string_view where, std::uint64_t next_seq);

// The session against the server: lines from stdin, answers on stdout.
// Exit 0 at the end of input; 2 for a refused token, a game that cannot be
// opened, or a line the server did not confirm within --retry-seconds.
[[nodiscard]] int record_remote(const RecordArgs& a);

}  // namespace warlog::cli
