#pragma once
// What the benchmarks run on: the sample catalog, ruleset and decks, games
// generated from them, and the two stores scripts/bench prepares
// (DATA/archive: many generated games; DATA/long: one long game).

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "warlog/core/catalog.hpp"
#include "warlog/core/event.hpp"
#include "warlog/core/generate.hpp"
#include "warlog/core/ruleset.hpp"

namespace warlog::bench {

// The samples every generated game is played under, loaded once.
struct Inputs {
  std::string catalog_text;
  std::string ruleset_text;
  core::Catalog catalog;
  core::Ruleset ruleset;
  std::array<core::ArmyList, core::kAllegianceCount> armies;
};

// Loads samples/ (compiled-in path). Throws std::runtime_error on a bad sample.
[[nodiscard]] Inputs load_inputs();

// Clean generated games with seeds first_seed.. (a dropped seed is skipped).
[[nodiscard]] std::vector<std::vector<core::Event>> generate_games(const Inputs& in, std::uint64_t first_seed,
                                                                   std::size_t count);

// One game of exactly `events` events (data.cpp says how it is built; a
// disputed one breaks rules every turn) and the findings the engine
// reported on it, counted by rule id.
struct LongGame {
  std::vector<core::Event> events;
  std::map<std::string, std::size_t> findings;
};
[[nodiscard]] LongGame long_game(const Inputs& in, std::size_t events, bool disputed = false);

// Writes the long game into a new store at `dir` and lays its snapshots
// every 500 events in the snapshot cache ($WARLOG_CACHE_DIR: scripts/bench
// keeps it beside the data), as `warlog snapshot` would. Throws on any error.
void make_long_store(const std::filesystem::path& dir, std::size_t events, bool disputed = false);

}  // namespace warlog::bench
