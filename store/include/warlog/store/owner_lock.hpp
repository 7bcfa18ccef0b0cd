#pragma once
// The owner lock (docs/server.md › 1): STORE/serve.lock, flock(2)ed.
//
// `warlog serve` holds it exclusively for its life, its pid written inside;
// every local writer (a Store opened for writing) holds it shared while it is
// open, so neither can start while the other writes. Readers never touch it.
// flock dies with the process: a SIGKILLed server leaves no stale lock.
//
// A resource type: movable, not copyable; the lock is released when it dies.

#include <filesystem>

#include "warlog/core/error.hpp"

namespace warlog::store {

class OwnerLock {
 public:
  // The server's lock: LOCK_EX | LOCK_NB, then its pid written into the file.
  // Errors: Conflict "warlog serve (pid P) already owns this store" or "a
  // local writer (warlog record, import, the viewer, ...) has this store open"
  // when another process holds it; IoError when the file cannot be opened.
  [[nodiscard]] static Expected<OwnerLock> own(const std::filesystem::path& store_dir);
  // A local writer's lock: LOCK_SH | LOCK_NB. Errors: Conflict "warlog serve
  // (pid P) owns this store: record through it (its page and API), or stop it first"; IoError.
  [[nodiscard]] static Expected<OwnerLock> share(const std::filesystem::path& store_dir);

  OwnerLock() = default;
  OwnerLock(const OwnerLock&) = delete;
  OwnerLock& operator=(const OwnerLock&) = delete;
  OwnerLock(OwnerLock&& o) noexcept;
  OwnerLock& operator=(OwnerLock&& o) noexcept;
  ~OwnerLock();

  [[nodiscard]] bool held() const noexcept { return fd_ >= 0; }

 private:
  explicit OwnerLock(int fd) noexcept : fd_(fd) {}
  int fd_ = -1;
};

// The lock file's name inside a store directory.
inline constexpr const char* kOwnerLockFile = "serve.lock";

}  // namespace warlog::store
