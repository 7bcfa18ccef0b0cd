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
  unsigned jobs = 0;  // threads; 0: one per core
  std::uint64_t shard_index = 0;  // --shard K/N
  std::uint64_t shard_count = 0;
  std::string shard;              // as typed, parsed into the two above
  // rule-diff
  std::string base_ruleset, candidate_ruleset, base_catalog, candidate_catalog;
};

int run_import(const Options& o);
int run_audit(const Options& o);
int run_verify(const Options& o);
int run_list(const Options& o);
int run_rules(const Options& o);
int run_export(const Options& o);
int run_rule_diff(const Options& o);

}  // namespace warlog::cli
