// store::OwnerLock (owner_lock.hpp): flock(2) on STORE/serve.lock.

#include "warlog/store/owner_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <string>
#include <utility>

namespace warlog::store {

namespace {

namespace fs = std::filesystem;

Expected<int> open_lock_file(const fs::path& dir) {
  const fs::path p = dir / kOwnerLockFile;
  const int fd = ::open(p.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return make_error(ErrorCode::IoError, fmt::format("cannot open {}: {}", p.string(), std::strerror(errno)));
  return fd;
}

// The pid the server wrote, or "?" (a server that has not written it yet).
std::string pid_in(int fd) {
  char buf[32] = {};
  const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
  std::string s = n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos) return "?";
  return s;
}

Expected<void> lock(int fd, int how) {
  while (::flock(fd, how | LOCK_NB) != 0) {
    if (errno == EINTR) continue;
    return make_error(errno == EWOULDBLOCK ? ErrorCode::Conflict : ErrorCode::IoError, std::strerror(errno));
  }
  return {};
}

}  // namespace

Expected<OwnerLock> OwnerLock::own(const fs::path& store_dir) {
  auto fd = open_lock_file(store_dir);
  if (!fd) return tl::unexpected(fd.error());
  OwnerLock held(*fd);
  if (auto r = lock(*fd, LOCK_EX); !r) {
    if (r.error().code != ErrorCode::Conflict) return tl::unexpected(r.error());
    // Either a server (it writes its pid at once) or local writers hold it.
    if (::flock(*fd, LOCK_SH | LOCK_NB) == 0) {
      ::flock(*fd, LOCK_UN);
    } else if (const std::string pid = pid_in(*fd); pid != "?") {
      return make_error(ErrorCode::Conflict, fmt::format("warlog serve (pid {}) already owns this store", pid));
    }
    return make_error(ErrorCode::Conflict,
                      "a local writer (warlog record, import, dispute, sign, the viewer, ...) has this store open: "
                      "close it before serving");
  }
  const std::string pid = fmt::format("{}\n", ::getpid());
  if (::ftruncate(*fd, 0) != 0 || ::pwrite(*fd, pid.data(), pid.size(), 0) != static_cast<ssize_t>(pid.size())) {
    return make_error(ErrorCode::IoError, fmt::format("cannot write {}: {}", (store_dir / kOwnerLockFile).string(),
                                                      std::strerror(errno)));
  }
  return held;
}

Expected<OwnerLock> OwnerLock::share(const fs::path& store_dir) {
  auto fd = open_lock_file(store_dir);
  if (!fd) return tl::unexpected(fd.error());
  OwnerLock held(*fd);
  if (auto r = lock(*fd, LOCK_SH); !r) {
    if (r.error().code != ErrorCode::Conflict) return tl::unexpected(r.error());
    return make_error(ErrorCode::Conflict,
                      fmt::format("warlog serve (pid {}) owns this store: record through it (its page and API), or stop it first", pid_in(*fd)));
  }
  // A server that stopped leaves its pid behind: a writer clears nothing (the
  // file is the server's); the pid is read only while the lock is held.
  return held;
}

OwnerLock::OwnerLock(OwnerLock&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}

OwnerLock& OwnerLock::operator=(OwnerLock&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(o.fd_, -1);
  }
  return *this;
}

OwnerLock::~OwnerLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the last descriptor releases the flock
}

}  // namespace warlog::store
