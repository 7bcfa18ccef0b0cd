#include "warlog/core/text_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fmt/format.h>

namespace warlog::core {

namespace {

std::string size_text(std::size_t bytes) {
  if (bytes >= (std::size_t{1} << 20) && bytes % (std::size_t{1} << 20) == 0) {
    return fmt::format("{} MiB", bytes >> 20);
  }
  if (bytes >= 1024 && bytes % 1024 == 0) return fmt::format("{} KiB", bytes >> 10);
  return fmt::format("{} bytes", bytes);
}

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "not a regular file";
}

// Closes the descriptor on every path out.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  [[nodiscard]] int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

Expected<std::string> read_text_file(const std::string& path, std::size_t max_bytes, std::string_view what) {
  // stat first, so that a FIFO or device is never opened (opening a FIFO
  // for reading blocks until a writer comes); fstat after opening, so that
  // what is read is what was checked.
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) return make_error(ErrorCode::NotFound, "no such file: " + path);
    return make_error(ErrorCode::IoError, fmt::format("cannot read {}: {}", path, std::strerror(errno)));
  }
  auto not_regular = [&](mode_t mode) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("{} is {}, not a regular file (expected a {})", path, kind_of(mode), what));
  };
  auto too_big = [&]() {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("{} is over the {} limit for a {}", path, size_text(max_bytes), what));
  };
  if (!S_ISREG(st.st_mode)) return not_regular(st.st_mode);
  if (static_cast<std::uintmax_t>(st.st_size) > max_bytes) return too_big();

  const Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY));
  if (fd.get() < 0) return make_error(ErrorCode::IoError, fmt::format("cannot read {}: {}", path, std::strerror(errno)));
  if (::fstat(fd.get(), &st) != 0) {
    return make_error(ErrorCode::IoError, fmt::format("cannot read {}: {}", path, std::strerror(errno)));
  }
  if (!S_ISREG(st.st_mode)) return not_regular(st.st_mode);

  // Read at most one byte past the limit: a file that grows after the stat
  // (or reports a size of 0, as /proc files do) is still bounded.
  std::string out;
  out.resize(std::min<std::size_t>(static_cast<std::size_t>(st.st_size), max_bytes) + 1);
  std::size_t have = 0;
  for (;;) {
    if (have == out.size()) {
      if (have > max_bytes) break;
      out.resize(std::min(max_bytes + 1, std::max<std::size_t>(out.size() * 2, 4096)));
    }
    const ssize_t n = ::read(fd.get(), out.data() + have, out.size() - have);
    if (n < 0) {
      if (errno == EINTR) continue;
      return make_error(ErrorCode::IoError, fmt::format("error while reading {}: {}", path, std::strerror(errno)));
    }
    if (n == 0) break;
    have += static_cast<std::size_t>(n);
  }
  if (have > max_bytes) return too_big();
  out.resize(have);
  return out;
}

}  // namespace warlog::core
