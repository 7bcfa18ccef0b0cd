#pragma once
// Progress on long work: a line with count, rate and ETA on a terminal,
// redrawn at most ten times a second; nothing at all when stderr is piped.

#include <chrono>
#include <cstddef>
#include <string>

namespace warlog::cli {

class Progress {
 public:
  Progress(std::string what, std::size_t total);  // "audited", number of items
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  ~Progress();

  void update(std::size_t done);  // call from one thread
  void finish();                  // clears the line

 private:
  std::string what_;
  std::size_t total_;
  bool tty_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace warlog::cli
