#pragma once
// The server's small files in the store directory (the token file,
// tokens.cpp; the judge calls, calls.cpp), read whole and replaced whole.
//
// A file replaced whole: written to FILE.tmp
// (mode 0600), fsynced, renamed into place, so a reader, or a server
// started after a crash, finds the old file or the new one, never half of
// one.

#include <filesystem>
#include <string_view>

#include "warlog/core/error.hpp"

namespace warlog::server {

// The file's bytes; "" when it does not exist. Errors: IoError.
[[nodiscard]] Expected<std::string> read_store_file(const std::filesystem::path& file);
// Errors: IoError naming the file and errno's words.
[[nodiscard]] Expected<void> replace_file(const std::filesystem::path& file, std::string_view text);

}  // namespace warlog::server
