#pragma once
// The CLI's verbs. Each returns the process exit code.

#include <cstdint>
#include <string>
#include <vector>

namespace warlog::cli {

inline constexpr int kExitClean = 0;
inline constexpr int kExitViolations = 1;
inline constexpr int kExitError = 2;

struct Options {
  std::string store;  // empty: replay::default_store_path()
  std::vector<std::string> files;
  std::vector<std::uint64_t> games;
  std::uint64_t game = 0;
  std::string catalog;
  std::string ruleset;
  std::string format = "text";
};

int run_import(const Options& o);
int run_audit(const Options& o);
int run_verify(const Options& o);
int run_list(const Options& o);
int run_rules(const Options& o);
int run_export(const Options& o);

}  // namespace warlog::cli
