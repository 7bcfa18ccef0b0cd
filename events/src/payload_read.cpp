// Cap'n Proto reader -> core::Payload. Readers are lazy: malformed bytes
// surface here as kj::Exception while fields are read, which is why the codec
// boundary wraps the whole conversion, not just the message framing.

#include <cstddef>
#include <string>
#include <variant>
#include <vector>

#include "convert.hpp"

namespace warlog::events::detail {

namespace {

using Union = cs::Event::Payload::Reader;
using Which = cs::Event::Payload::Which;

// The union must name exactly core's alternatives; a member added on one side
// only is caught here (and by -Wswitch in read_payload).
static_assert(static_cast<std::size_t>(Which::BACKUP_TO) + 1 ==
              std::variant_size_v<core::Payload>);

std::string str(capnp::Text::Reader t) { return std::string(t.begin(), t.size()); }
// A card's name, interned straight from the message's bytes (no string built).
core::CardName card(capnp::Text::Reader t) { return core::CardName(std::string_view(t.begin(), t.size())); }

// Reserving from a list's size is safe: the reader has already charged the
// list against the traversal limit, zero-sized elements included.
std::vector<core::CardName> cards(capnp::List<capnp::Text>::Reader l) {
  std::vector<core::CardName> out;
  out.reserve(l.size());
  for (auto t : l) out.push_back(card(t));
  return out;
}

std::vector<core::CardCount> counts(capnp::List<cs::CardCount>::Reader l) {
  std::vector<core::CardCount> out;
  out.reserve(l.size());
  for (auto c : l) out.push_back(core::CardCount{card(c.getCard()), c.getCount()});
  return out;
}

std::vector<core::Strike> strikes(capnp::List<cs::Strike>::Reader l) {
  std::vector<core::Strike> out;
  out.reserve(l.size());
  for (auto s : l) out.push_back(core::Strike{read_space(s.getTarget()), s.getDamage()});
  return out;
}

std::vector<core::PaidItem> items(capnp::List<cs::PaidItem>::Reader l) {
  std::vector<core::PaidItem> out;
  out.reserve(l.size());
  for (auto i : l) out.push_back(core::PaidItem{read_space(i.getSpace()), card(i.getCard())});
  return out;
}

core::TroopMoved move(cs::TroopMoved::Reader r) {
  return core::TroopMoved{read_space(r.getFrom()), read_space(r.getTo())};
}

// --- Setup -----------------------------------------------------------------
core::GameCreated read(cs::GameCreated::Reader r) {
  core::GameCreated p;
  p.title = str(r.getTitle());
  p.date = str(r.getDate());
  p.ruleset_hash = str(r.getRulesetHash());
  p.catalog_hash = str(r.getCatalogHash());
  const auto seats = r.getSeats();
  p.seats.reserve(seats.size());
  for (auto s : seats) {
    p.seats.push_back(core::SeatSetup{
        str(s.getPlayer()), from_schema(s.getAllegiance(), "GameCreated.seats.allegiance")});
  }
  const auto territories = r.getTerritories();
  p.territories.reserve(territories.size());
  for (auto t : territories) {
    p.territories.push_back(core::PlacedTerritory{card(t.getCard()), read_space(t.getSpace())});
  }
  p.cols = r.getCols();
  p.rows = r.getRows();
  const auto uuid = r.getGameUuid();
  p.game_uuid.assign(reinterpret_cast<const char*>(uuid.begin()), uuid.size());
  p.event = str(r.getEvent());
  p.round = r.getRound();
  p.table = r.getTable();
  return p;
}

core::ArmyRegistered read(cs::ArmyRegistered::Reader r) {
  return core::ArmyRegistered{r.getSeat(), counts(r.getArmy()), counts(r.getOrders())};
}

// --- Turn frame ------------------------------------------------------------
core::TurnStarted read(cs::TurnStarted::Reader) { return {}; }
core::MoraleChecked read(cs::MoraleChecked::Reader r) { return {r.getLeader()}; }
core::PhaseStarted read(cs::PhaseStarted::Reader) { return {}; }
core::GameEnded read(cs::GameEnded::Reader r) {
  return {r.getWinner(), from_schema(r.getVictory(), "GameEnded.victory")};
}

// --- Muster Phase ----------------------------------------------------------
core::CardsDrawn read(cs::CardsDrawn::Reader r) { return {cards(r.getCards())}; }
core::Foraged read(cs::Foraged::Reader r) { return {card(r.getCard())}; }
core::ReturnedFromHomeland read(cs::ReturnedFromHomeland::Reader r) {
  return {card(r.getCard())};
}
core::GambitStocked read(cs::GambitStocked::Reader r) { return {card(r.getCard())}; }
core::CardPlayed read(cs::CardPlayed::Reader r) {
  return {card(r.getCard()), read_space(r.getSpace())};
}
core::TroopMoved read(cs::TroopMoved::Reader r) { return move(r); }
core::TroopsShifted read(cs::TroopsShifted::Reader r) {
  core::TroopsShifted p;
  const auto moves = r.getMoves();
  p.moves.reserve(moves.size());
  for (auto m : moves) p.moves.push_back(move(m));
  return p;
}
core::AbilityUsed read(cs::AbilityUsed::Reader r) {
  return {read_space(r.getSpace()), str(r.getAbility())};
}
core::TroopBurrowed read(cs::TroopBurrowed::Reader r) { return {read_space(r.getSpace())}; }
core::TroopUnburrowed read(cs::TroopUnburrowed::Reader r) { return {read_space(r.getSpace())}; }

// --- Warfare Phase ---------------------------------------------------------
core::ShotteFired read(cs::ShotteFired::Reader r) {
  return {read_space(r.getShooter()), read_space(r.getTarget()), r.getDamage()};
}
core::ChargeDeclared read(cs::ChargeDeclared::Reader r) {
  return {from_schema(r.getMode(), "ChargeDeclared.mode"), read_space(r.getFrom())};
}
core::ChargeDeclined read(cs::ChargeDeclined::Reader) { return {}; }
core::LocalFavorUsed read(cs::LocalFavorUsed::Reader r) { return {str(r.getOption())}; }
core::CombatResolved read(cs::CombatResolved::Reader r) {
  core::CombatResolved p;
  p.troop = read_space(r.getTroop());
  p.strikes = strikes(r.getStrikes());
  const auto defenders = r.getDefenders();
  p.defenders.reserve(defenders.size());
  for (auto d : defenders) {
    p.defenders.push_back(core::DefenderSplit{read_space(d.getDefender()), strikes(d.getStrikes())});
  }
  return p;
}
core::TroopLost read(cs::TroopLost::Reader r) { return {read_space(r.getSpace())}; }
core::TroopDefeated read(cs::TroopDefeated::Reader r) {
  return {read_space(r.getSpace()), r.hasBeneath() ? read_space(r.getBeneath()) : core::Space{}};
}

// --- Attrition Phase -------------------------------------------------------
core::LostTroopRecovered read(cs::LostTroopRecovered::Reader r) {
  return {read_space(r.getSpace()), from_schema(r.getMode(), "LostTroopRecovered.mode"),
          read_space(r.getTo())};
}
core::ProvisionsPaid read(cs::ProvisionsPaid::Reader r) {
  return {items(r.getPaid()), items(r.getUnpaid())};
}
core::CardsDiscarded read(cs::CardsDiscarded::Reader r) { return {cards(r.getCards())}; }
core::TerritoryControlTaken read(cs::TerritoryControlTaken::Reader r) {
  return {read_space(r.getTerritory())};
}
core::TroopFled read(cs::TroopFled::Reader r) { return {read_space(r.getSpace())}; }

// --- Corrections -----------------------------------------------------------
core::Voided read(cs::Voided::Reader r) { return {r.getTarget(), str(r.getReason()), str(r.getBy())}; }
core::BackupTo read(cs::BackupTo::Reader r) {
  const auto sig = r.getSignature();
  return {r.getTarget(), str(r.getReason()), str(r.getBy()),
          std::string(reinterpret_cast<const char*>(sig.begin()), sig.size())};
}

}  // namespace

core::Payload read_payload(Union r) {
  // No default: -Wswitch names a schema member that has no case here.
  switch (r.which()) {
    case Which::GAME_CREATED: return read(r.getGameCreated());
    case Which::ARMY_REGISTERED: return read(r.getArmyRegistered());
    case Which::TURN_STARTED: return read(r.getTurnStarted());
    case Which::MORALE_CHECKED: return read(r.getMoraleChecked());
    case Which::PHASE_STARTED: return read(r.getPhaseStarted());
    case Which::GAME_ENDED: return read(r.getGameEnded());
    case Which::CARDS_DRAWN: return read(r.getCardsDrawn());
    case Which::FORAGED: return read(r.getForaged());
    case Which::RETURNED_FROM_HOMELAND: return read(r.getReturnedFromHomeland());
    case Which::GAMBIT_STOCKED: return read(r.getGambitStocked());
    case Which::CARD_PLAYED: return read(r.getCardPlayed());
    case Which::TROOP_MOVED: return read(r.getTroopMoved());
    case Which::TROOPS_SHIFTED: return read(r.getTroopsShifted());
    case Which::ABILITY_USED: return read(r.getAbilityUsed());
    case Which::TROOP_BURROWED: return read(r.getTroopBurrowed());
    case Which::TROOP_UNBURROWED: return read(r.getTroopUnburrowed());
    case Which::SHOTTE_FIRED: return read(r.getShotteFired());
    case Which::CHARGE_DECLARED: return read(r.getChargeDeclared());
    case Which::CHARGE_DECLINED: return read(r.getChargeDeclined());
    case Which::LOCAL_FAVOR_USED: return read(r.getLocalFavorUsed());
    case Which::COMBAT_RESOLVED: return read(r.getCombatResolved());
    case Which::TROOP_LOST: return read(r.getTroopLost());
    case Which::TROOP_DEFEATED: return read(r.getTroopDefeated());
    case Which::LOST_TROOP_RECOVERED: return read(r.getLostTroopRecovered());
    case Which::PROVISIONS_PAID: return read(r.getProvisionsPaid());
    case Which::CARDS_DISCARDED: return read(r.getCardsDiscarded());
    case Which::TERRITORY_CONTROL_TAKEN: return read(r.getTerritoryControlTaken());
    case Which::TROOP_FLED: return read(r.getTroopFled());
    case Which::VOIDED: return read(r.getVoided());
    case Which::BACKUP_TO: return read(r.getBackupTo());
  }
  // The schema only appends union members, so a discriminant past the last
  // known one was written by a newer build.
  throw DecodeFailure{ErrorCode::Unsupported,
                      "event payload kind " + std::to_string(static_cast<unsigned>(r.which())) +
                          " is not known to this build"};
}

}  // namespace warlog::events::detail
