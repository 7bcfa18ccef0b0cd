#pragma once
// Stable rule ids. The id's prefix names the rules document (LOG: the event
// stream itself; DECK: Deck Construction; MUS: Muster Phase; WAR: Warfare
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
inline constexpr std::string_view kMusterForageOrReturn = "MUS-a.forage-or-return";
inline constexpr std::string_view kMusterReturnedNotPlayable = "MUS-a.returned-not-playable";
inline constexpr std::string_view kMusterExtraGambit = "MUS-a.extra-gambit";
inline constexpr std::string_view kMusterVanguard = "MUS-b.vanguard";
inline constexpr std::string_view kMusterOneMove = "MUS-c.one-move";
inline constexpr std::string_view kMusterOneSpace = "MUS-movement.one-space";
inline constexpr std::string_view kMusterOwnTroops = "MUS-movement.own-troops";
inline constexpr std::string_view kMusterStillMusteringMove = "MUS-mustering.move";
inline constexpr std::string_view kMusterStillMusteringAbility = "MUS-mustering.ability";

}  // namespace warlog::core::rule_id
