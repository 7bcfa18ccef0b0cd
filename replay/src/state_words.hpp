#pragma once
// What differs between two folds of one game, in the game's terms: "the
// Imperial Grenadier on e2 (Seat 1, Ines) survives with 1 Vitality instead
// of being defeated", never a dump of the engine's fields. rule-diff's first
// divergence is told in these sentences, and the spaces, cards and players
// they name decide when a candidate's new violation makes the recording
// unfollowable (issue 15: "concerning a card, space or count whose folded
// value differs").

#include <string>
#include <vector>

#include "warlog/core/catalog.hpp"
#include "warlog/core/fold.hpp"
#include "warlog/core/state.hpp"

namespace warlog::replay {

struct StateDifferences {
  // What a player would see differ (the battlefield, piles, Morale,
  // Territories, turn and Charge), candidate first: "X instead of Y".
  std::vector<std::string> sentences;
  // The engine's bookkeeping that differs (who has fought this Charge, the
  // last combat's Morale, ...): told only when no sentence above is.
  std::vector<std::string> bookkeeping;
  // The subjects named, to match a finding's message against: spaces ("e2"),
  // card names and players whose folded values differ.
  std::vector<std::string> spaces;
  std::vector<std::string> cards;
  std::vector<std::string> players;

  [[nodiscard]] bool empty() const noexcept { return sentences.empty() && bookkeeping.empty(); }
  // The sentences to tell: the visible ones, else the bookkeeping, else one
  // that says the two states differ in nothing warlog can name.
  [[nodiscard]] std::vector<std::string> told() const;
};

// cand under the candidate's catalog and ruleset, base under the base's
// (derived values, Control among them, are derived under each).
[[nodiscard]] StateDifferences state_differences(const core::GameState& base, const core::GameState& cand,
                                                 const core::Context& base_ctx, const core::Context& cand_ctx);

// Whether a finding's message names one of the subjects: a space as a word
// ("e2", not "e21"), a card as the engine quotes it ('Weald Burrower'), or a
// player by name.
[[nodiscard]] bool names_a_subject(const StateDifferences& d, std::string_view message);

// "Seat 1 (Ines)", "no seat".
[[nodiscard]] std::string seat_words(const core::GameState& s, core::Seat seat);
// "Warfare Phase", "Setup".
[[nodiscard]] std::string phase_words(core::Phase p);
// "CombatResolved" -> "combat resolved".
[[nodiscard]] std::string event_words(std::string_view payload_name);

}  // namespace warlog::replay
