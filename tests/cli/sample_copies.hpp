#pragma once
// Copies of the spine sample under other titles: other games (not
// re-imports) to fill a store, with the tag paths made absolute so the copy
// can live anywhere. (audit_robustness_test.cpp has its own, older copy.)

#include <filesystem>
#include <fstream>
#include <string>

#include "cli/cli_run.hpp"

namespace warlog::testing {

inline std::filesystem::path sample_titled(const std::filesystem::path& dir, const std::string& title) {
  const std::string samples = WARLOG_SAMPLES_DIR;
  std::string text = slurp(samples + "/tutorial/spine_first_blood.wlog");
  const std::string old_title = "[Title \"First blood at the Old Mill\"]";
  text.replace(text.find(old_title), old_title.size(), "[Title \"" + title + "\"]");
  for (const std::string tag : {"\"../decks/", "\"../rulesets/", "\"../catalogs/"}) {
    for (auto p = text.find(tag); p != std::string::npos; p = text.find(tag, p + 1)) {
      text.replace(p + 1, 3, samples + "/");
    }
  }
  const auto file = dir / (title + ".wlog");
  std::ofstream(file) << text;
  return file;
}

}  // namespace warlog::testing
