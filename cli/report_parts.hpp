#pragma once
// Pieces audit and rule-diff share: JUnit XML, the per-game numbers that
// cross from the reader, and a temporary file for reports that open with
// their totals (written per game as they finish, printed after the totals).

#include <cstdio>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "common.hpp"

namespace warlog::cli {

// `system_out`, when given, is the case's <system-out> (audit: who attests the game).
std::string junit_case(const std::string& name, const std::string& failure_type, const std::string& failure_message,
                       const std::string& body, const std::string& system_out = {});
std::string junit_suite(const std::string& name, std::size_t tests, std::size_t failures, std::size_t errors,
                        const std::string& cases);
// junit_suite in two halves, with the cases printed in between (from a Spool).
std::string junit_head(const std::string& name, std::size_t tests, std::size_t failures, std::size_t errors);
std::string junit_tail();

// A game's numbers for the summary, as a kTally record ("3 1 0 1"), and back.
std::string tally(std::initializer_list<std::size_t> numbers);
std::vector<std::size_t> untally(const std::string& text);

// An anonymous temporary file (std::tmpfile: gone when closed), to hold
// per-game text while the totals are counted.
class Spool {
 public:
  // Errors: IoError when no temporary file can be made.
  [[nodiscard]] static Expected<Spool> make();
  void write(const std::string& text);
  // Copies everything written to stdout. Errors: IoError.
  [[nodiscard]] Expected<void> print();

 private:
  struct Close {
    void operator()(std::FILE* f) const noexcept { std::fclose(f); }
  };
  std::unique_ptr<std::FILE, Close> file_;
  bool failed_ = false;
};

}  // namespace warlog::cli
