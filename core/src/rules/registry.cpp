// The rule registry: every rule the engine enforces, with its citation.
// Summaries paraphrase the designer's rules documents (../shared/rules); they
// never copy them. A citation is a heading path of docs/rules-index.tsv (a
// rules document's, or docs/warlog-rules.md's for basis warlog), or an
// unpublished page for an assumed rule; tests/core/rule_citations_test.cpp
// checks every one. An id is stable: retire it rather than reuse it, and a
// renamed rule keeps its old id in kAliases.

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
    {id::kLogOrder, "warlog rules › Event order",
     "Events follow one another in sequence, turn and phase order.", Violation, Warlog, "", ""},
    {id::kLogSetup, "warlog rules › Setup",
     "A game starts with GameCreated and one ArmyRegistered per seat, before turn 1.", Violation, Warlog, "", ""},
    {id::kLogUnknownCard, "Card lists (not yet published)",
     "Every card an event names is in the game's card catalog.", Violation, Assumed, "", "R-020"},
    {id::kLogSpace, "The Battlefield (not yet published)",
     "Every space an event names is on the battlefield grid.", Violation, Assumed, "", "R-002"},
    {id::kLogNoTroop, "The Battlefield (not yet published)",
     "An event acting on a Troop names a space that holds one.", Violation, Assumed, "", "R-002"},
    {id::kLogZone, "warlog rules › Zones",
     "A card moved from a zone (deck, hand, Homeland) is in that zone.", Violation, Warlog, "", ""},
    {id::kLogActor, "warlog rules › Acting seat",
     "A player acts only in their own part of a phase, and only with their own cards.", Violation, Warlog, "", ""},
    {id::kLogPhase, "warlog rules › Phases",
     "Each action happens in the phase it belongs to.", Violation, Warlog, "", ""},
    {id::kLogBeneath, "warlog rules › Choices the log records",
     "A Troop destroyed beside several Territories is recorded with the one it goes beneath.", Warning, Warlog,
     "rulings.beneath_first_territory", "R-071"},
    {id::kResult, "warlog rules › The result",
     "The recorded result matches the one the rules derive, and play stops when the game is decided.", Violation,
     Warlog, "", "R-035"},
    {id::kLogVoid, "warlog rules › Corrections",
     "A scorekeeper's void: the voided event stays in the log and the fold skips it.", Note, Warlog, "", "R-063"},
    {id::kLogBackup, "warlog rules › Corrections",
     "A judge's backup: the game returns to just before its target; the events between are superseded.", Note,
     Warlog, "", "R-064"},
    {id::kLogCorrection, "warlog rules › Corrections",
     "A void names an earlier action still standing; a backup an earlier event; after the end only a backup or a "
     "void of the GameEnded.",
     Violation, Warlog, "", "R-065"},
    {id::kLogTime, "warlog rules › Recording times",
     "Recorded times do not go backwards; a time that does is kept as recorded.", Note, Warlog, "", "R-067"},

    // --- Morale Check (page not yet published) ---------------------------
    {id::kMoraleLeader, "Morale Check (not yet published)",
     "The player with the higher total Morale on the battlefield is Leading in Morale; a tie keeps last "
     "turn's leader.", Warning, Assumed, "rulings.leader_from_morale", "R-004"},

    // --- Muster Phase ------------------------------------------------------
    {id::kMusterOrder, "Muster Phase",
     "The player Leading in Morale takes their Muster Phase first, then the next player.", Violation, Written, "", ""},
    {id::kMusterDraw, "Muster Phase › Steps › a. Draw cards",
     "Each player draws exactly 2 cards in their Muster Phase.", Violation, Written, "muster.draw_per_turn", ""},
    {id::kMusterDrawCardText, "Muster Phase › Steps › a. Draw cards",
     "A draw beyond 2 that a card in place could allow, its use unrecorded, is to be checked at the table.", Warning,
     Written, "rulings.draws_from_card_text", "R-097"},
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
    {id::kMusterGambitSpace, "Muster Phase › Card Text Timing",
     "A Gambit is not played onto a battlefield space: it is held in play (or sits in the Homeland) and owes its "
     "Provision cost like any Gambit in play.", Violation, Written, "", "R-024"},
    {id::kMusterOneMove, "Muster Phase › Steps › c. Move eligible Troops",
     "Each Troop moves at most once in a Muster Phase.", Violation, Written, "", ""},
    {id::kMusterOneSpace, "Muster Phase › Movement",
     "A Troop moves one card space, horizontally or vertically, into an empty space.", Violation, Written, "",
     "R-003"},
    {id::kMusterOwnTroops, "Muster Phase › Movement",
     "A player moves and shifts only their own Troops unless a card says so.", Violation, Written, "", ""},
    {id::kMusterShift, "Muster Phase › Movement",
     "A shift moves the player's own Troops one space each, among each other, in a Muster Phase in which they play "
     "a card.", Violation, Written, "", "R-022"},
    {id::kMusterTerritorySpace, "The Battlefield (not yet published)",
     "No card is played, moved, shifted or recovered onto the space a Territory card lies on.", Violation, Assumed,
     "rulings.cards_on_territory_spaces", "R-042"},
    {id::kMusterLost, "The Battlefield (not yet published)",
     "A Lost Troop does not move or shift until it is recovered.", Violation, Assumed, "rulings.lost_troops_act",
     "R-046"},
    {id::kMusterStillMusteringMove, "Muster Phase › Still Mustering",
     "A Troop that entered the battlefield this turn may not move.", Violation, Written, "", ""},
    {id::kMusterStillMusteringAbility, "Muster Phase › Still Mustering",
     "A Troop that entered the battlefield this turn may not use card abilities; text that fires on its trigger "
     "(When played) is no ability used.", Violation, Written, "", "R-053"},
    {id::kMusterSteps, "Muster Phase › Steps",
     "Step a (draw, then Forage or Return) comes before playing cards and moving Troops.", Violation, Written, "",
     "R-018"},
    {id::kMusterPhaseTiming, "Muster Phase › Card Text Timing",
     "Phase-timed card text takes effect only when the card has been in place since its owner's previous turn.",
     Violation, Written, "", ""},

    // --- Deck Construction -------------------------------------------------
    {id::kDeckSize, "Deck Construction › Deck Size",
     "An Army Deck holds 30 to 40 cards, with 10 more allowed for each Territory beyond the first.", Violation,
     Written, "deck.min, deck.max, deck.max_per_extra_territory", "R-015"},
    {id::kDeckOrders, "Deck Construction › Deck Size › Note",
     "Only the Claw Empire brings an Orders Deck, of 10 to 15 cards, outside the Army Deck.", Violation, Written,
     "deck.orders_min, deck.orders_max", ""},
    {id::kDeckArmyAbility, "Deck Construction › Declaring Allegiance",
     "A deck includes the Army Ability card of its declared allegiance.", Violation, Written, "", ""},
    {id::kDeckRarity, "Deck Construction › Card Rarity & Deck Limits",
     "At most 6 copies of a Common card, 4 of a Seasoned and 2 of a Renowned, the Army and Orders Decks counted "
     "together.", Violation, Written, "deck.limit_common, deck.limit_seasoned, deck.limit_renowned, "
     "rulings.rarity_per_deck", "R-052"},
    {id::kDeckRenownedUnique, "Deck Construction › Card Rarity & Deck Limits",
     "Only one copy of a Renowned card may be on the battlefield at once.", Violation, Written,
     "rulings.renowned_unique_per_player", "R-014"},
    {id::kDeckContents, "Deck Construction",
     "A deck is made of Troops, Gambits and Dwellings (and the Army Deck of its Army Ability card): no Territory "
     "card.", Violation, Written, "", "R-052"},
    {id::kDeckTurncoat, "Deck Construction › Turncoat (parked)",
     "With the parked Turncoat rule on: an opponent's off-faction draw may be played by that opponent before its "
     "drawer plays or Forages it; the drawer may draw one more.", Violation, Written, "wip.turncoat", "R-019"},

    // --- Warfare Phase -------------------------------------------------------
    {id::kWarfareOrder, "Warfare Phase › A. Shotte Subphase",
     "The Warfare Phase follows both Muster Phases and opens with the player Leading in Morale.", Violation, Written,
     "", ""},
    {id::kShotteSubphase, "Warfare Phase › A. Shotte Subphase",
     "Shotte fire happens in the Warfare Phase before any Charge.", Violation, Written, "", ""},
    {id::kShotteOrder, "Warfare Phase › A. Shotte Subphase",
     "The leader fires first, then the next player; or both alternate one Troop at a time.", Violation, Written,
     "", ""},
    {id::kShotteOnce, "Warfare Phase › A. Shotte Subphase › Note",
     "A Troop fires Shotte once per time it is played onto the battlefield.", Violation, Written, "", "R-021"},
    {id::kShotteQuirk, "Warfare Phase › A. Shotte Subphase",
     "Only a Troop with the Shotte Quirk fires, at an enemy Troop.", Violation, Written, "", ""},
    {id::kShotteMustering, "Warfare Phase › A. Shotte Subphase › Note",
     "A Troop that is still mustering cannot fire.", Violation, Written, "", ""},
    {id::kShotteLost, "Warfare Phase › A. Shotte Subphase",
     "A Lost Troop is no eligible Shotte Troop: it does not fire until it is recovered.", Violation, Assumed,
     "rulings.lost_troops_act", "R-046"},
    {id::kShotteDamage, "Warfare Phase › A. Shotte Subphase",
     "Shotte deals damage equal to the shooter's Vigor.", Warning, Assumed, "rulings.shotte_damage_is_vigor",
     "R-013"},
    {id::kChargeLeader, "Warfare Phase › B. Charge Subphase",
     "Only the player Leading in Morale declares a Charge, unless a Burrowed Troop un-Burrows or a card says so.",
     Violation, Written, "", ""},
    {id::kChargeOnce, "Warfare Phase › B. Charge Subphase",
     "One Charge, or one decline, each turn.", Violation, Written, "", ""},
    {id::kChargeBurrow, "Warfare Phase › B. Charge Subphase › Burrow bypasses this",
     "A Burrow Charge is declared by un-Burrowing one of the charger's own Burrowed Troops.", Violation, Written, "",
     ""},
    {id::kBurrowQuirk, "Card lists (not yet published)",
     "Only a Troop whose card has the Burrow Quirk Burrows.", Violation, Assumed, "", "R-045"},
    {id::kUnburrow, "Warfare Phase › B. Charge Subphase › Burrow bypasses this",
     "Only a Burrowed Troop un-Burrows.", Violation, Written, "", ""},
    {id::kBurrowTiming, "Card lists (not yet published)",
     "A Troop Burrows, and un-Burrows other than by a Burrow Charge, in its owner's own Muster Phase.", Violation,
     Assumed, "", "R-045"},
    {id::kBurrowMustering, "Muster Phase › Still Mustering",
     "A Troop still mustering does not Burrow: Burrowing is an ability of the card.", Violation, Written,
     "rulings.burrow_while_mustering", "R-045"},
    {id::kBurrowedHidden, "Warfare Phase › B. Charge Subphase › Burrow bypasses this",
     "With the hidden-Burrow reading on: a Burrowed Troop is hidden until it un-Burrows; it neither fights nor is "
     "struck or shot, and holds no side of a Territory.", Violation, Assumed, "rulings.burrowed_troops_hidden", "R-044"},
    {id::kLocalFavor, "Warfare Phase › B. Charge Subphase › Local Favor",
     "Local Favor is gained by a leader who declines to Charge and lasts to the end of their next Muster Phase; "
     "it is used once.", Violation, Written, "", "R-005"},
    {id::kCardCharge, "Warfare Phase › B. Charge Subphase",
     "A Charge a card allows (`charge card`) needs a card of the charger's in play whose text allows it.", Violation,
     Written, "", "R-048"},
    {id::kCombatEveryEligible, "Warfare Phase › C. Combat Resolution",
     "A Charge resolves every eligible combat: each of the charger's Troops adjacent to an enemy Troop, not Lost and "
     "not mustering, fights before any Troop moves.", Violation, Written, "rulings.charge_combats_optional", "R-049"},
    {id::kCombatStrikeBack, "Warfare Phase › C. Combat Resolution",
     "An eligible defender deals its damage back in the combat: the log records its strike.", Violation, Written,
     "rulings.strike_back_optional", "R-038"},
    {id::kCombatFoughtMove, "Warfare Phase › B. Charge Subphase",
     "With the either-or reading on: a Troop that fought this Charge does not move after combat.", Violation,
     Written, "rulings.fought_troops_stay", "R-047"},
    {id::kCombatResolver, "Warfare Phase › C. Combat Resolution",
     "The player who declared the Charge resolves all combats, each led by one of their Troops.", Violation, Written,
     "", ""},
    {id::kCombatOrder, "Warfare Phase › C. Combat Resolution",
     "Combats go from the charger's highest-Morale eligible Troop down; each Troop leads at most one combat.",
     Violation, Written, "", "R-006"},
    {id::kCombatEligible, "Warfare Phase › C. Combat Resolution",
     "A Troop fights only if adjacent to an enemy Troop, and strikes only adjacent enemies.", Violation, Written, "",
     ""},
    {id::kCombatMustering, "Warfare Phase › Combat Rulings",
     "A Troop that is still mustering cannot fight.", Violation, Written, "", ""},
    {id::kCombatLost, "Warfare Phase › Combat Rulings",
     "A Lost Troop cannot fight, including one that became Lost mid-Charge.", Violation, Written, "", ""},
    {id::kCombatReconnect, "Warfare Phase › Combat Rulings",
     "A Lost Troop stays Lost until the Attrition Phase.", Violation, Written, "", ""},
    {id::kCombatVigor, "Warfare Phase › C. Combat Resolution",
     "A fighting Troop deals damage equal to its Vigor, divided between the enemies it fights.", Violation, Written,
     "", ""},
    {id::kCombatSplit, "Warfare Phase › C. Combat Resolution",
     "A Troop adjacent to several enemies fights all of them: each gets part of its Vigor.", Violation, Written,
     "rulings.combat_split_all", "R-009"},
    {id::kCombatDefeat, "Warfare Phase › C. Combat Resolution",
     "A Troop is defeated when its Vitality reaches 0; a recorded defeat must match.", Violation, Written, "", ""},
    {id::kCombatNoAdvance, "Warfare Phase › Combat Rulings",
     "Defeating an enemy does not let the victor move into the emptied space.", Violation, Written, "", ""},
    {id::kCombatPostMove, "Warfare Phase › C. Combat Resolution",
     "After all combats, only the charger's Troops not adjacent to an enemy may move, 1 space, once.", Violation,
     Written, "", "R-027"},
    {id::kTroopWages, "Warfare Phase › The Troop Wages Rule",
     "A Troop destroyed the turn it was Mustered or un-Burrowed is still provisioned that turn.", Violation, Written,
     "", ""},

    // --- Attrition Phase ---------------------------------------------------
    {id::kAttritionOrder, "Attrition Phase",
     "The player Leading in Morale resolves the Attrition Phase first, then the next player.", Violation, Written, "",
     ""},
    {id::kAttritionEndOfTurn, "Attrition Phase › End of Turn",
     "The next player completes their Attrition Phase before the turn ends.", Violation, Written, "", ""},
    {id::kAttritionMove, "Attrition Phase › 1. Recover Troops",
     "In step 1 the player Leading in Morale may move each of their Troops 1 space, once.", Violation, Written,
     "rulings.attrition_moves_both_players", "R-007"},
    {id::kRecoverLost, "Attrition Phase › 1. Recover Troops",
     "Only a Lost Troop is recovered: pay 3 Provisions (0 if Burrowed) to return it to the Vanguard, or shuffle it "
     "into the deck.", Violation, Written, "attrition.recovery_cost", ""},
    {id::kRecoverSpace, "Attrition Phase › 1. Recover Troops",
     "A Troop recovered by paying returns to its owner's Vanguard, on an empty space.", Violation, Assumed, "",
     "R-002"},
    {id::kSupremacy, "Attrition Phase › 2. Check Win Condition",
     "When the player Leading in Morale Controls every Territory in play, the game ends in a Supremacy Victory.",
     Violation, Assumed, "", "R-017"},
    {id::kProvisionSupply, "Attrition Phase › 3. Pay Provision Costs",
     "The cards provisioned cost no more than the Provision supply left after recovery.", Violation, Written,
     "rulings.overspend_provisions", "R-011"},
    {id::kProvisionListed, "Attrition Phase › 3. Pay Provision Costs",
     "Every Troop and Gambit in play is either provisioned or left unpaid, once.", Violation, Written, "", ""},
    {id::kPaymentPriority, "Attrition Phase › 3. Pay Provision Costs › Payment priority",
     "Gambits are paid first, then defeated Burrowed Troops that un-Burrowed this turn, then all other Troops.",
     Violation, Written, "", ""},
    {id::kUnpaidDiscard, "Attrition Phase › 3. Pay Provision Costs › Failing to pay",
     "A player discards one card for each unpaid Gambit or unpaid defeated un-Burrowed Troop.", Violation, Written,
     "rulings.unpaid_gambit_morale_penalty", "R-012"},
    {id::kShockedFlee, "Attrition Phase › 3. Pay Provision Costs › Failing to pay › Shocked Troops",
     "An unprovisioned Shocked Troop flees, and so does any unprovisioned Paw Coalition Troop on the Rabble side; "
     "a recorded flight must match.", Violation, Written, "", ""},
    {id::kThreshold, "Attrition Phase › 4. Check Territory Threshold",
     "A Territory whose count of destroyed Troops meets its Threshold gives both players one final turn.", Violation,
     Written, "", "R-016"},
    {id::kThresholdBeneath, "Attrition Phase › 4. Check Territory Threshold",
     "A destroyed Troop goes beneath a Territory it was destroyed beside; the log may say which when there are "
     "several.", Violation, Written, "rulings.beneath_first_territory", "R-071"},
    {id::kAttritionVictory, "Attrition Phase › 4. Check Territory Threshold",
     "If the final turn ends with a Territory at its Threshold not Controlled, the player with most sides of the "
     "Territories left unanswered wins an Attrition Victory; a tie goes to the player Leading in Morale.", Violation,
     Assumed, "rulings.threshold_most_territories, rulings.final_control_any_moment", "R-072"},
    {id::kEmptyDeck, "Attrition Phase › WIP — running out of cards",
     "With the WIP rule on: for each card a player should draw but cannot, one of their Troops flees.", Violation,
     Written, "wip.empty_deck_penalty", ""},
};

// Renamed ids: {old, new}, oldest first. Append only; an old id never names
// another rule again (tests/core/rule_citations_test.cpp checks the table).
// None yet: every id above is the one it was first given.
constexpr std::array<RuleAlias, 0> kAliases{};

}  // namespace

std::span<const Rule> all_rules() noexcept { return kRules; }

std::span<const RuleAlias> rule_aliases() noexcept { return kAliases; }

const Rule* find_rule_in(std::span<const Rule> rules, std::span<const RuleAlias> aliases,
                         std::string_view rid) noexcept {
  for (const Rule& r : rules) {
    if (r.id == rid) return &r;
  }
  // One step only: an alias names a rule's id now, never another alias.
  for (const RuleAlias& a : aliases) {
    if (a.old_id == rid) {
      for (const Rule& r : rules) {
        if (r.id == a.id) return &r;
      }
      return nullptr;
    }
  }
  return nullptr;
}

const Rule* find_rule(std::string_view rid) noexcept { return find_rule_in(kRules, kAliases, rid); }

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
    case Basis::Warlog: return "warlog";
  }
  return "?";
}

}  // namespace warlog::core
