// read_store_file, replace_file (store_file.hpp).

#include "store_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

namespace warlog::server {

Expected<std::string> read_store_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    if (errno == ENOENT || !std::filesystem::exists(file)) return std::string();
    return make_error(ErrorCode::IoError, fmt::format("cannot read {}: {}", file.string(), std::strerror(errno)));
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Expected<void> replace_file(const std::filesystem::path& file, std::string_view text) {
  const std::filesystem::path tmp = file.string() + ".tmp";
  const auto fail = [](const std::filesystem::path& p) {
    return make_error(ErrorCode::IoError, fmt::format("cannot write {}: {}", p.string(), std::strerror(errno)));
  };
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return fail(tmp);
  const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) && ::fsync(fd) == 0;
  ::close(fd);
  if (!ok || ::rename(tmp.c_str(), file.c_str()) != 0) return fail(file);
  return {};
}

}  // namespace warlog::server
