#pragma once
// What every fuzz target shares: the samples it folds under and the seed
// inputs it starts from. Compiled into both drivers of each target: the
// libFuzzer binary (clang, `scripts/fuzz`) and the replay driver that ctest
// runs in every build (replay_main.cpp).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "warlog/core/catalog.hpp"
#include "warlog/core/event.hpp"
#include "warlog/core/notation.hpp"
#include "warlog/core/ruleset.hpp"
#include "warlog/core/state.hpp"

namespace warlog::fuzz {

// The sample catalog, ruleset and games, loaded once from WARLOG_SAMPLES_DIR.
// Throws std::runtime_error if the samples do not load: a broken checkout,
// not an input the target should survive.
struct Samples {
  core::Catalog catalog;
  core::Ruleset ruleset;
  std::string catalog_text;
  std::string ruleset_text;
  std::vector<std::string> game_texts;             // samples/games/*.wlog
  std::vector<std::vector<core::Event>> games;     // the samples parsed, plus generated games
  // Resolves "[Army1 "../decks/x.deck"]" to the sample deck x.deck by file
  // name; any other reference is NotFound (a fuzz input must not read files).
  core::DeckLoader load_deck;
};
[[nodiscard]] const Samples& samples();

// Seed inputs for `target` (event, notation, catalog, ruleset, snapshot, block),
// built from the samples with the real encoders. Empty for an unknown target.
//   event:    every event of every game, encoded by events::encode_event
//   notation: the sample .wlog files and every game exported as notation
//   catalog:  the sample catalog CSV
//   ruleset:  the sample ruleset TOML
//   snapshot: the packed message of events::encode_snapshot (checksum
//             removed; the target appends it) after every event of every game
//   block:    store format 2 blocks of every game: event 0, and seqs 1..64
[[nodiscard]] std::vector<std::string> seeds(std::string_view target);

// The names seeds() knows, in a fixed order.
[[nodiscard]] const std::vector<std::string>& target_names();

}  // namespace warlog::fuzz

// The libFuzzer entry point each target defines. Returns 0; a bug aborts.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
