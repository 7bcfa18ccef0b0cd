#pragma once
// Reading a whole text file into memory, with errors a person can act on.

#include <string>

#include "warlog/core/error.hpp"

namespace warlog::core::detail {

// NotFound when the file does not exist, IoError when it cannot be read.
[[nodiscard]] Expected<std::string> read_text_file(const std::string& path);

}  // namespace warlog::core::detail
