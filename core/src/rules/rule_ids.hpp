#pragma once
// Stable rule ids: never renamed away nor reused (a renamed rule keeps its
// old id as an alias, registry.cpp). The id's prefix names the rules
// document (LOG: the event stream itself, docs/warlog-rules.md; DECK: Deck Construction; MUS: Muster Phase; WAR: Warfare
// Phase; ATT: Attrition Phase), then the section, then the check.

#include <string_view>

namespace warlog::core::rule_id {

inline constexpr std::string_view kLogOrder = "LOG.order";
inline constexpr std::string_view kLogSetup = "LOG.setup";
inline constexpr std::string_view kLogUnknownCard = "LOG.unknown-card";
inline constexpr std::string_view kLogSpace = "LOG.space";
inline constexpr std::string_view kLogNoTroop = "LOG.no-troop";
inline constexpr std::string_view kLogZone = "LOG.zone";
inline constexpr std::string_view kLogActor = "LOG.actor";
inline constexpr std::string_view kLogPhase = "LOG.phase";

inline constexpr std::string_view kMoraleLeader = "MOR.leader";

inline constexpr std::string_view kMusterOrder = "MUS.order";
inline constexpr std::string_view kMusterDraw = "MUS-a.draw";
inline constexpr std::string_view kMusterDrawCardText = "MUS-a.draw-text";
inline constexpr std::string_view kMusterForageOrReturn = "MUS-a.forage-or-return";
inline constexpr std::string_view kMusterReturnedNotPlayable = "MUS-a.returned-not-playable";
inline constexpr std::string_view kMusterExtraGambit = "MUS-a.extra-gambit";
inline constexpr std::string_view kMusterVanguard = "MUS-b.vanguard";
inline constexpr std::string_view kMusterGambitSpace = "MUS-b.gambit-space";
inline constexpr std::string_view kMusterOneMove = "MUS-c.one-move";
inline constexpr std::string_view kMusterOneSpace = "MUS-movement.one-space";
inline constexpr std::string_view kMusterOwnTroops = "MUS-movement.own-troops";
inline constexpr std::string_view kMusterStillMusteringMove = "MUS-mustering.move";
inline constexpr std::string_view kMusterStillMusteringAbility = "MUS-mustering.ability";
inline constexpr std::string_view kMusterShift = "MUS-movement.shift";
inline constexpr std::string_view kMusterTerritorySpace = "MUS-movement.territory";
inline constexpr std::string_view kMusterLost = "MUS-movement.lost";

}  // namespace warlog::core::rule_id

namespace warlog::core::rule_id {

inline constexpr std::string_view kMusterSteps = "MUS.steps";
inline constexpr std::string_view kMusterPhaseTiming = "MUS-timing.phase";

inline constexpr std::string_view kDeckSize = "DECK.size";
inline constexpr std::string_view kDeckOrders = "DECK.orders";
inline constexpr std::string_view kDeckArmyAbility = "DECK.army-ability";
inline constexpr std::string_view kDeckRarity = "DECK.rarity";
inline constexpr std::string_view kDeckRenownedUnique = "DECK.renowned-unique";
inline constexpr std::string_view kDeckTurncoat = "DECK.turncoat";
inline constexpr std::string_view kDeckContents = "DECK.contents";

inline constexpr std::string_view kShotteOrder = "WAR-A.order";
inline constexpr std::string_view kShotteOnce = "WAR-A.once";
inline constexpr std::string_view kShotteQuirk = "WAR-A.quirk";
inline constexpr std::string_view kShotteMustering = "WAR-A.mustering";
inline constexpr std::string_view kShotteDamage = "WAR-A.damage";
inline constexpr std::string_view kShotteSubphase = "WAR-A.subphase";
inline constexpr std::string_view kShotteLost = "WAR-A.lost";
inline constexpr std::string_view kChargeLeader = "WAR-B.leader";
inline constexpr std::string_view kChargeOnce = "WAR-B.once";
inline constexpr std::string_view kChargeBurrow = "WAR-B.burrow";
inline constexpr std::string_view kLocalFavor = "WAR-B.local-favor";
inline constexpr std::string_view kCardCharge = "WAR-B.card-charge";
inline constexpr std::string_view kCombatEveryEligible = "WAR-C.every-combat";
inline constexpr std::string_view kCombatStrikeBack = "WAR-C.strike-back";
inline constexpr std::string_view kCombatFoughtMove = "WAR-C.fought-move";
inline constexpr std::string_view kCombatResolver = "WAR-C.resolver";
inline constexpr std::string_view kCombatOrder = "WAR-C.order";
inline constexpr std::string_view kCombatEligible = "WAR-C.eligible";
inline constexpr std::string_view kCombatMustering = "WAR-C.mustering";
inline constexpr std::string_view kCombatLost = "WAR-C.lost";
inline constexpr std::string_view kCombatVigor = "WAR-C.vigor";
inline constexpr std::string_view kCombatSplit = "WAR-C.split";
inline constexpr std::string_view kCombatDefeat = "WAR-C.defeat";
inline constexpr std::string_view kCombatNoAdvance = "WAR-C.no-advance";
inline constexpr std::string_view kCombatReconnect = "WAR-C.reconnect";
inline constexpr std::string_view kCombatPostMove = "WAR-C.post-move";
inline constexpr std::string_view kTroopWages = "WAR.wages";
inline constexpr std::string_view kBurrowQuirk = "WAR-B.burrow-quirk";
inline constexpr std::string_view kUnburrow = "WAR-B.unburrow";
inline constexpr std::string_view kBurrowedHidden = "WAR-B.burrowed-hidden";
inline constexpr std::string_view kBurrowTiming = "WAR-B.burrow-timing";
inline constexpr std::string_view kBurrowMustering = "WAR-B.burrow-mustering";

inline constexpr std::string_view kAttritionOrder = "ATT.order";
inline constexpr std::string_view kAttritionEndOfTurn = "ATT-end.order";
inline constexpr std::string_view kWarfareOrder = "WAR.order";
inline constexpr std::string_view kAttritionMove = "ATT-1.move";
inline constexpr std::string_view kRecoverLost = "ATT-1.recover";
inline constexpr std::string_view kRecoverSpace = "ATT-1.recover-space";
inline constexpr std::string_view kSupremacy = "ATT-2.supremacy";
inline constexpr std::string_view kProvisionSupply = "ATT-3.supply";
inline constexpr std::string_view kProvisionListed = "ATT-3.listed";
inline constexpr std::string_view kPaymentPriority = "ATT-3.priority";
inline constexpr std::string_view kUnpaidDiscard = "ATT-3.discard";
inline constexpr std::string_view kShockedFlee = "ATT-3.shocked";
inline constexpr std::string_view kThreshold = "ATT-4.threshold";
inline constexpr std::string_view kThresholdBeneath = "ATT-4.beneath";
inline constexpr std::string_view kLogBeneath = "LOG.beneath";
inline constexpr std::string_view kAttritionVictory = "ATT-4.victory";
inline constexpr std::string_view kResult = "LOG.result";
inline constexpr std::string_view kEmptyDeck = "ATT-wip.empty-deck";

}  // namespace warlog::core::rule_id

namespace warlog::core::rule_id {

// Corrections and recording times (corrections.cpp; docs/warlog-rules.md).
inline constexpr std::string_view kLogVoid = "LOG.void";
inline constexpr std::string_view kLogBackup = "LOG.backup";
inline constexpr std::string_view kLogCorrection = "LOG.correction";
inline constexpr std::string_view kLogTime = "LOG.time";

}  // namespace warlog::core::rule_id
