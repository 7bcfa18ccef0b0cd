#include "progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>

#include "warlog/replay/isolate.hpp"

namespace warlog::cli {

Progress::Progress(std::string what, std::size_t total)
    : what_(std::move(what)), total_(total), tty_(replay::stderr_is_terminal()),
      start_(std::chrono::steady_clock::now()), last_(start_) {}

Progress::~Progress() { finish(); }

void Progress::update(std::size_t done) {
  if (!tty_) return;
  const auto now = std::chrono::steady_clock::now();
  if (done < total_ && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  const double secs = std::chrono::duration<double>(now - start_).count();
  const double rate = secs > 0 ? static_cast<double>(done) / secs : 0.0;
  const double eta = rate > 0 ? static_cast<double>(total_ - done) / rate : 0.0;
  fmt::print(stderr, "\r\033[K{} {}/{} games  {:.0f} games/s  ETA {:.0f}s", what_, done, total_, rate, eta);
  std::fflush(stderr);
  shown_ = true;
}

void Progress::finish() {
  if (shown_) {
    fmt::print(stderr, "\r\033[K");
    std::fflush(stderr);
    shown_ = false;
  }
}

}  // namespace warlog::cli
