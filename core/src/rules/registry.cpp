// The rule registry: every rule the engine enforces, with its citation.
// Summaries paraphrase the designer's rules documents (../shared/rules); they
// never copy them. An id is stable: retire it rather than reuse it.

#include <array>

#include "warlog/core/finding.hpp"
#include "rule_ids.hpp"

namespace warlog::core {

namespace {

using enum Severity;
using enum Basis;
namespace id = rule_id;

constexpr Rule kRules[] = {
    // --- The log itself -------------------------------------------------
    {id::kLogOrder, "warlog › Event stream › Order",
     "Events follow one another in sequence, turn and phase order.", Violation, Written, "", ""},
    {id::kLogSetup, "warlog › Event stream › Setup",
     "A game starts with GameCreated and one ArmyRegistered per seat, before turn 1.", Violation, Written, "", ""},
    {id::kLogUnknownCard, "Card lists (not yet published)",
     "Every card an event names is in the game's card catalog.", Violation, Assumed, "", "R-020"},
    {id::kLogSpace, "The Battlefield (not yet published)",
     "Every space an event names is on the battlefield grid.", Violation, Assumed, "", "R-002"},
    {id::kLogNoTroop, "The Battlefield (not yet published)",
     "An event acting on a Troop names a space that holds one.", Violation, Assumed, "", "R-002"},
    {id::kLogZone, "warlog › Event stream › Zones",
     "A card moved from a zone (deck, hand, Homeland) is in that zone.", Violation, Written, "", ""},
    {id::kLogActor, "warlog › Event stream › Acting seat",
     "A player acts only in their own part of a phase, and only with their own cards.", Violation, Written, "", ""},
    {id::kLogPhase, "warlog › Event stream › Phases",
     "Each action happens in the phase it belongs to.", Violation, Written, "", ""},

    // --- Morale Check (page not yet published) ---------------------------
    {id::kMoraleLeader, "Morale Check (not yet published)",
     "The player with the higher total Morale on the battlefield is Leading in Morale; a tie keeps last "
     "turn's leader.", Warning, Assumed, "", "R-004"},

    // --- Muster Phase ------------------------------------------------------
    {id::kMusterOrder, "Muster Phase › Steps",
     "The player Leading in Morale takes their Muster Phase first, then the next player.", Violation, Written, "", ""},
    {id::kMusterDraw, "Muster Phase › Steps › a. Draw cards",
     "Each player draws exactly 2 cards in their Muster Phase.", Violation, Written, "muster.draw_per_turn", ""},
    {id::kMusterForageOrReturn, "Muster Phase › Steps › a. Draw cards",
     "After drawing, a player may Forage one card or Return one card from the Homeland, not both.", Violation,
     Written, "", ""},
    {id::kMusterReturnedNotPlayable, "Muster Phase › Steps › a. Draw cards",
     "A card returned from the Homeland may not be played the same turn.", Violation, Written, "", ""},
    {id::kMusterExtraGambit, "Muster Phase › Steps › a. Draw cards › Note",
     "One additional Gambit, and only a Gambit, may be placed in the Homeland each turn.", Violation, Written, "",
     ""},
    {id::kMusterVanguard, "Muster Phase › Steps › b. Play cards",
     "Played cards enter the player's own Vanguard, on an empty space.", Violation, Assumed, "", "R-002"},
    {id::kMusterOneMove, "Muster Phase › Steps › c. Move eligible Troops",
     "Each Troop moves at most once in a phase.", Violation, Written, "", ""},
    {id::kMusterOneSpace, "Muster Phase › Movement",
     "A Troop moves one card space, horizontally or vertically, into an empty space.", Violation, Written, "",
     "R-003"},
    {id::kMusterOwnTroops, "Muster Phase › Movement",
     "A player moves and shifts only their own Troops unless a card says so.", Violation, Written, "", ""},
    {id::kMusterStillMusteringMove, "Muster Phase › Still Mustering",
     "A Troop that entered the battlefield this turn may not move.", Violation, Written, "", ""},
    {id::kMusterStillMusteringAbility, "Muster Phase › Still Mustering",
     "A Troop that entered the battlefield this turn may not use card abilities.", Violation, Written, "", ""},
};

}  // namespace

std::span<const Rule> all_rules() noexcept { return kRules; }

const Rule* find_rule(std::string_view rid) noexcept {
  for (const Rule& r : kRules) {
    if (r.id == rid) return &r;
  }
  return nullptr;
}

std::string_view to_string(Severity s) noexcept {
  switch (s) {
    case Severity::Violation: return "violation";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
  }
  return "?";
}

std::string_view to_string(Basis b) noexcept {
  switch (b) {
    case Basis::Written: return "written";
    case Basis::Assumed: return "assumed";
  }
  return "?";
}

}  // namespace warlog::core
