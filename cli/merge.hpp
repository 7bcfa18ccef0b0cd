#pragma once
// warlog merge (cli/merge.cpp): registers the verb and runs it.

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace warlog::cli {

struct MergeArgs {
  std::vector<std::string> parts;
  std::string format = "text";
  std::string color = "auto";
};
CLI::App* add_merge(CLI::App& app, MergeArgs& m);
int run_merge(const MergeArgs& m);

}  // namespace warlog::cli
