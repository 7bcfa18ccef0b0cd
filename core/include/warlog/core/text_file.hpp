#pragma once
// Reading a file a person or a game file's tag names: regular files only,
// and no more than a limit, with errors a person can act on. A tag can name
// anything ([Army1 "/dev/zero"], [Catalog "/dev/urandom"], a directory), so
// every read has a bound chosen for what the file holds.

#include <cstddef>
#include <string>
#include <string_view>

#include "warlog/core/error.hpp"

namespace warlog::core {

// A deck list is a few dozen lines; a catalog or ruleset a few hundred.
inline constexpr std::size_t kMaxDeckFileBytes = std::size_t{1} << 20;      // 1 MiB
inline constexpr std::size_t kMaxCatalogFileBytes = std::size_t{16} << 20;  // 16 MiB
inline constexpr std::size_t kMaxRulesetFileBytes = std::size_t{16} << 20;  // 16 MiB
// A game of 10,000 turns in the notation is about 10 MB.
inline constexpr std::size_t kMaxGameFileBytes = std::size_t{64} << 20;     // 64 MiB

// The whole of `path` when it is a regular file of at most `max_bytes`.
// `what` names the kind of file in messages ("deck file"). Errors: NotFound
// when it does not exist; InvalidArgument for a directory, FIFO, socket or
// device ("PATH is a directory, not a regular file") and for a file over the
// limit ("PATH is over the 1 MiB limit for a deck file"); IoError when the
// system refuses. A FIFO is never opened for reading, so it cannot block.
[[nodiscard]] Expected<std::string> read_text_file(const std::string& path, std::size_t max_bytes,
                                                   std::string_view what);

}  // namespace warlog::core
