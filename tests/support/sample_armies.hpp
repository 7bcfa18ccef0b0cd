#pragma once
// The sample decks (samples/decks/*.deck) sorted by allegiance, for tests
// that generate games.

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "game_builder.hpp"
#include "warlog/core/generate.hpp"
#include "warlog/core/notation.hpp"

namespace warlog::testing {

inline const std::array<core::ArmyList, core::kAllegianceCount>& sample_armies() {
  static const auto armies = [] {
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(std::string(WARLOG_SAMPLES_DIR) + "/decks")) {
      if (e.path().extension() == ".deck") files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    std::vector<std::vector<core::CardCount>> decks;
    for (const auto& f : files) {
      std::ifstream in(f);
      std::stringstream ss;
      ss << in.rdbuf();
      auto d = core::parse_deck(ss.str());
      if (!d) throw std::runtime_error(f.string() + ": " + d.error().message);
      decks.push_back(std::move(*d));
    }
    return core::armies_from_decks(decks, sample_catalog());
  }();
  return armies;
}

}  // namespace warlog::testing
