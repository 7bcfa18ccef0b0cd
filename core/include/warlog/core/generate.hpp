#pragma once
// Synthetic games: random games played through the rules engine, for scale
// tests, benchmarks and property tests (issue 6, item 5). The generator keeps
// a GameState by folding every event it emits (core::apply) and chooses only
// actions the engine accepts, so a generated game audits clean. Deterministic
// for a seed on every machine: its own PRNG, no clock, no std distributions.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "warlog/core/catalog.hpp"
#include "warlog/core/error.hpp"
#include "warlog/core/event.hpp"
#include "warlog/core/finding.hpp"
#include "warlog/core/ruleset.hpp"

namespace warlog::core {

// --- Options -------------------------------------------------------------

// A deck list: the Army Deck and (Claw Empire only) the Orders Deck.
struct ArmyList {
  std::vector<CardCount> army;
  std::vector<CardCount> orders;
};

inline constexpr std::size_t kAllegianceCount = 4;

struct GenerateOptions {
  std::uint64_t seed = 1;
  int max_turns = 12;  // no victory by the end of this turn: GameEnded unfinished
  std::int8_t cols = 5;
  std::int8_t rows = 4;
  // Seat 1's and seat 2's allegiances; default: two different ones, chosen by the seed.
  std::optional<std::array<Allegiance, kSeatCount>> allegiances;
  // The army each allegiance brings, indexed by Allegiance (armies_from_decks
  // builds it from the sample decks). Only the two allegiances in play need one.
  std::array<ArmyList, kAllegianceCount> armies;
  // Default: one or two Territory cards of the catalog, chosen by the seed,
  // on spaces of the middle row(s), off the Vanguards.
  std::vector<PlacedTerritory> territories;
  std::string title;  // default: "Generated game, seed N"
  std::string date;   // default: a 2026 date derived from the seed
  // Debug builds (no NDEBUG): print the event and its findings, then assert,
  // when the engine reports a finding on a generated event. Tests turn it off
  // to report every failing seed.
  bool assert_clean = true;
};

// --- Results -------------------------------------------------------------

struct GeneratedGame {
  std::vector<Event> events;  // GameCreated ... GameEnded, seq 0..n-1, game id 0
  // Empty for a legal game. Otherwise the findings of the first event the
  // engine faulted (a generator or engine bug): generation stopped there,
  // `events` ends with that event, and the game must be dropped.
  std::vector<Finding> findings;
  std::string failure;  // the faulted event and its findings, one per line

  [[nodiscard]] bool clean() const noexcept { return findings.empty(); }
};

// Plays one game. Errors: InvalidArgument for options a game cannot start
// with (fewer than 3 rows, more than 26 columns or 99 rows, no army for an
// allegiance in play, a Territory off the board or not a Territory card,
// max_turns < 1).
[[nodiscard]] Expected<GeneratedGame> try_generate_game(const GenerateOptions& options, const Catalog& catalog,
                                                        const Ruleset& rules);

// The events of one clean game. A bad option or a finding is a bug in the
// caller or in warlog: throws std::logic_error with the reason.
[[nodiscard]] std::vector<Event> generate_game(const GenerateOptions& options, const Catalog& catalog,
                                               const Ruleset& rules);

// Sorts parsed deck lists by allegiance: a deck holding an Army Ability card
// is that allegiance's Army Deck; a deck without one is the Claw Empire's
// Orders Deck. The first deck of each kind wins.
[[nodiscard]] std::array<ArmyList, kAllegianceCount> armies_from_decks(
    const std::vector<std::vector<CardCount>>& decks, const Catalog& catalog);

}  // namespace warlog::core
