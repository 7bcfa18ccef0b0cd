#include "text_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <system_error>
#include <filesystem>

namespace warlog::core::detail {

Expected<std::string> read_text_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    return make_error(ErrorCode::NotFound, "no such file: " + path);
  }
  if (std::filesystem::is_directory(path, ec)) {
    return make_error(ErrorCode::InvalidArgument, path + " is a directory, not a file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return make_error(ErrorCode::IoError, "cannot read " + path + ": " + std::strerror(errno));
  }
  std::ostringstream buf;
  buf << in.rdbuf();
  if (in.bad()) {
    return make_error(ErrorCode::IoError, "error while reading " + path);
  }
  return buf.str();
}

}  // namespace warlog::core::detail
