#pragma once
// A ruleset: the numbers and options the rules engine reads. Rulesets are
// data (TOML, see samples/rulesets/standard.toml), identified by content
// hash, so that a designer can re-audit an archive under a changed rule.
// Every option that settles an ambiguity names its ruling in docs/rulings.md.

#include <cstdint>
#include <string>
#include <string_view>

#include "warlog/core/error.hpp"

namespace warlog::core {

struct Ruleset {
  std::string name = "standard";
  std::string version = "1";
  std::string hash;  // BLAKE2b-256 of the source bytes, hex; empty for defaults

  // Deck Construction › Deck Size
  int deck_min = 30;
  int deck_max = 40;
  int deck_max_per_extra_territory = 10;
  int orders_min = 10;  // Claw Empire's Orders Deck, outside the Army Deck
  int orders_max = 15;
  // Deck Construction › Card Rarity & Deck Limits
  int limit_common = 6;
  int limit_seasoned = 4;
  int limit_renowned = 2;
  // Deck Construction › The Allegiance Rule
  int allegiance_surcharge = 2;

  // Muster Phase › a. Draw cards
  int draw_per_turn = 2;

  // Attrition Phase › 1. Recover Troops
  int recovery_cost = 3;

  // WIP and parked rules: off by default.
  bool empty_deck_penalty = false;  // Attrition Phase › WIP — running out of cards
  bool turncoat = false;            // Deck Construction › Turncoat (parked)

  // Rulings with a ruleset option (docs/rulings.md).
  bool foraged_supply_immediate = false;    // a card foraged this turn supplies this Attrition
  bool overspend_provisions = false;        // step 3 may pay more than the supply left
  bool renowned_unique_per_player = true;   // false = one copy across both players
  bool attrition_moves_both_players = false;// true = each player moves in their own Attrition part
  bool combat_split_all = true;             // a split gives every adjacent enemy at least 1
  bool defender_strikes_each_combat = false;// a defender deals damage in every combat it is in
  bool shotte_damage_is_vigor = true;       // Shotte deals the shooter's Vigor
  bool army_ability_counts_in_deck = true;  // the Army Ability card counts toward deck size
  bool burrowed_troops_hidden = false;      // a Burrowed Troop neither fights, is struck or shot, nor holds a side
  bool dwellings_hold_sides = false;        // a Dwelling holds a Territory's side like a Troop
  bool cards_on_territory_spaces = false;   // a card may be played or moved onto a Territory's space
  bool burrow_while_mustering = false;      // a Troop may Burrow on the turn it entered
  bool lost_troops_act = false;             // a Lost Troop may still move and fire Shotte
  bool fought_troops_stay = false;          // a Troop that fought this Charge does not move after combat
  bool charge_combats_optional = false;     // the charger may leave eligible combats unfought
  bool strike_back_optional = false;        // a defender's strike left out of the log deals nothing, unreported
  bool favor_when_preempted = false;        // a leader pre-empted by a Burrow Charge gains Local Favor
  bool favor_same_turn = false;             // Local Favor may be used in the turn it was gained
  bool rarity_per_deck = false;             // rarity limits count the Army and Orders Decks apart
  bool beneath_first_territory = false;     // a Troop beside several Territories goes beneath the first in setup order
  bool threshold_most_territories = false;  // the most unanswered Territories won, not the most sides, decides
  bool final_control_any_moment = false;    // Control held at any moment of the final turn answers a due Territory
  bool unpaid_gambit_morale_penalty = false;// an unpaid Gambit also puts its owner's Troops at Morale 0
  bool leader_from_morale = false;          // the fold derives the leader from Morale; the recorded one is checked
  bool draws_from_card_text = true;         // a draw beyond 2 a card in place could allow, its use unrecorded, is a warning
  bool dwelling_allegiance_surcharge = false;// an off-faction Dwelling in the Homeland supplies less the surcharge

  // Who sees what (docs/rulings.md › Visibility); read by the seat views of
  // the viewer, the report and the server, never by the fold.
  bool homeland_hidden = false;             // Homeland cards are seen by their seat only
};

// Parses TOML. Unknown keys are an error (a misspelt option must not be
// silently ignored), and so are a file that sets no option (empty, comments
// only, empty sections) and a deck minimum above its maximum (deck.min and
// deck.max, deck.orders_min and deck.orders_max). Errors: InvalidArgument
// "LINE:COL: message".
// The returned ruleset's hash is the content hash of `toml`.
[[nodiscard]] Expected<Ruleset> parse_ruleset_toml(std::string_view toml);

// Reads and parses a file; NotFound / IoError when it cannot be read.
[[nodiscard]] Expected<Ruleset> load_ruleset(const std::string& path);

}  // namespace warlog::core
