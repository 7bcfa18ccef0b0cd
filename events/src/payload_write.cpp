// core::Payload -> Cap'n Proto builder. One `put` per payload alternative:
// std::visit picks it by type, so a payload added to core without a `put`
// here fails to compile rather than encoding as something else.

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "convert.hpp"

namespace warlog::events::detail {

namespace {

using Union = cs::Event::Payload::Builder;

// Cap'n Proto's Int32 fields carry core's `int` counts and damage unchanged.
static_assert(sizeof(int) == sizeof(std::int32_t));

capnp::Text::Reader text(const std::string& s) {
  // std::string keeps a NUL after its last char, as Text::Reader requires.
  return capnp::Text::Reader(s.data(), s.size());
}

// Cap'n Proto lists hold fewer than 2^29 elements; guard the narrowing so an
// absurd vector throws instead of silently encoding a shorter list.
unsigned list_size(std::size_t n) {
  constexpr std::size_t kMaxListElements = (std::size_t{1} << 29) - 1;
  if (n > kMaxListElements) {
    throw std::length_error("event list of " + std::to_string(n) +
                            " elements is too long to encode");
  }
  return static_cast<unsigned>(n);
}

void put_texts(capnp::List<capnp::Text>::Builder l, const std::vector<core::CardName>& v) {
  for (unsigned i = 0; i < l.size(); ++i) l.set(i, text(v[i]));
}

void put_counts(capnp::List<cs::CardCount>::Builder l, const std::vector<core::CardCount>& v) {
  for (unsigned i = 0; i < l.size(); ++i) {
    l[i].setCard(text(v[i].card));
    l[i].setCount(v[i].count);
  }
}

void put_strikes(capnp::List<cs::Strike>::Builder l, const std::vector<core::Strike>& v) {
  for (unsigned i = 0; i < l.size(); ++i) {
    write_space(l[i].initTarget(), v[i].target);
    l[i].setDamage(v[i].damage);
  }
}

void put_items(capnp::List<cs::PaidItem>::Builder l, const std::vector<core::PaidItem>& v) {
  for (unsigned i = 0; i < l.size(); ++i) {
    write_space(l[i].initSpace(), v[i].space);
    l[i].setCard(text(v[i].card));
  }
}

void put_move(cs::TroopMoved::Builder b, const core::TroopMoved& m) {
  write_space(b.initFrom(), m.from);
  write_space(b.initTo(), m.to);
}

// --- Setup -----------------------------------------------------------------
void put(Union u, const core::GameCreated& p) {
  auto b = u.initGameCreated();
  b.setTitle(text(p.title));
  b.setDate(text(p.date));
  b.setRulesetHash(text(p.ruleset_hash));
  b.setCatalogHash(text(p.catalog_hash));
  auto seats = b.initSeats(list_size(p.seats.size()));
  for (unsigned i = 0; i < seats.size(); ++i) {
    seats[i].setPlayer(text(p.seats[i].player));
    seats[i].setAllegiance(to_schema(p.seats[i].allegiance));
  }
  auto territories = b.initTerritories(list_size(p.territories.size()));
  for (unsigned i = 0; i < territories.size(); ++i) {
    territories[i].setCard(text(p.territories[i].card));
    write_space(territories[i].initSpace(), p.territories[i].space);
  }
  b.setCols(p.cols);
  b.setRows(p.rows);
  if (!p.game_uuid.empty()) {
    b.setGameUuid(capnp::Data::Reader(reinterpret_cast<const kj::byte*>(p.game_uuid.data()), p.game_uuid.size()));
  }
  // Set only when given: an unset Text and zeros leave the canonical bytes
  // of every game recorded before these fields existed as they were.
  if (!p.event.empty()) b.setEvent(text(p.event));
  b.setRound(p.round);
  b.setTable(p.table);
}

void put(Union u, const core::ArmyRegistered& p) {
  auto b = u.initArmyRegistered();
  b.setSeat(p.seat);
  put_counts(b.initArmy(list_size(p.army.size())), p.army);
  put_counts(b.initOrders(list_size(p.orders.size())), p.orders);
}

// --- Turn frame ------------------------------------------------------------
void put(Union u, const core::TurnStarted&) { u.initTurnStarted(); }
void put(Union u, const core::MoraleChecked& p) { u.initMoraleChecked().setLeader(p.leader); }
void put(Union u, const core::PhaseStarted&) { u.initPhaseStarted(); }
void put(Union u, const core::GameEnded& p) {
  auto b = u.initGameEnded();
  b.setWinner(p.winner);
  b.setVictory(to_schema(p.victory));
}

// --- Muster Phase ----------------------------------------------------------
void put(Union u, const core::CardsDrawn& p) {
  put_texts(u.initCardsDrawn().initCards(list_size(p.cards.size())), p.cards);
}
void put(Union u, const core::Foraged& p) { u.initForaged().setCard(text(p.card)); }
void put(Union u, const core::ReturnedFromHomeland& p) {
  u.initReturnedFromHomeland().setCard(text(p.card));
}
void put(Union u, const core::GambitStocked& p) { u.initGambitStocked().setCard(text(p.card)); }
void put(Union u, const core::CardPlayed& p) {
  auto b = u.initCardPlayed();
  b.setCard(text(p.card));
  write_space(b.initSpace(), p.space);
}
void put(Union u, const core::TroopMoved& p) { put_move(u.initTroopMoved(), p); }
void put(Union u, const core::TroopsShifted& p) {
  auto moves = u.initTroopsShifted().initMoves(list_size(p.moves.size()));
  for (unsigned i = 0; i < moves.size(); ++i) put_move(moves[i], p.moves[i]);
}
void put(Union u, const core::AbilityUsed& p) {
  auto b = u.initAbilityUsed();
  write_space(b.initSpace(), p.space);
  b.setAbility(text(p.ability));
}
void put(Union u, const core::TroopBurrowed& p) {
  write_space(u.initTroopBurrowed().initSpace(), p.space);
}
void put(Union u, const core::TroopUnburrowed& p) {
  write_space(u.initTroopUnburrowed().initSpace(), p.space);
}

// --- Warfare Phase ---------------------------------------------------------
void put(Union u, const core::ShotteFired& p) {
  auto b = u.initShotteFired();
  write_space(b.initShooter(), p.shooter);
  write_space(b.initTarget(), p.target);
  b.setDamage(p.damage);
}
void put(Union u, const core::ChargeDeclared& p) {
  auto b = u.initChargeDeclared();
  b.setMode(to_schema(p.mode));
  write_space(b.initFrom(), p.from);
}
void put(Union u, const core::ChargeDeclined&) { u.initChargeDeclined(); }
void put(Union u, const core::LocalFavorUsed& p) {
  u.initLocalFavorUsed().setOption(text(p.option));
}
void put(Union u, const core::CombatResolved& p) {
  auto b = u.initCombatResolved();
  write_space(b.initTroop(), p.troop);
  put_strikes(b.initStrikes(list_size(p.strikes.size())), p.strikes);
  auto defenders = b.initDefenders(list_size(p.defenders.size()));
  for (unsigned i = 0; i < defenders.size(); ++i) {
    write_space(defenders[i].initDefender(), p.defenders[i].defender);
    put_strikes(defenders[i].initStrikes(list_size(p.defenders[i].strikes.size())),
                p.defenders[i].strikes);
  }
}
void put(Union u, const core::TroopLost& p) { write_space(u.initTroopLost().initSpace(), p.space); }
void put(Union u, const core::TroopDefeated& p) {
  auto d = u.initTroopDefeated();
  write_space(d.initSpace(), p.space);
  if (p.beneath.valid()) write_space(d.initBeneath(), p.beneath);
}

// --- Attrition Phase -------------------------------------------------------
void put(Union u, const core::LostTroopRecovered& p) {
  auto b = u.initLostTroopRecovered();
  write_space(b.initSpace(), p.space);
  b.setMode(to_schema(p.mode));
  write_space(b.initTo(), p.to);
}
void put(Union u, const core::ProvisionsPaid& p) {
  auto b = u.initProvisionsPaid();
  put_items(b.initPaid(list_size(p.paid.size())), p.paid);
  put_items(b.initUnpaid(list_size(p.unpaid.size())), p.unpaid);
}
void put(Union u, const core::CardsDiscarded& p) {
  put_texts(u.initCardsDiscarded().initCards(list_size(p.cards.size())), p.cards);
}
void put(Union u, const core::TerritoryControlTaken& p) {
  write_space(u.initTerritoryControlTaken().initTerritory(), p.territory);
}
void put(Union u, const core::TroopFled& p) { write_space(u.initTroopFled().initSpace(), p.space); }

// --- Corrections -----------------------------------------------------------
void put(Union u, const core::Voided& p) {
  auto b = u.initVoided();
  b.setTarget(p.target);
  b.setReason(text(p.reason));
  b.setBy(text(p.by));
}
void put(Union u, const core::BackupTo& p) {
  auto b = u.initBackupTo();
  b.setTarget(p.target);
  b.setReason(text(p.reason));
  b.setBy(text(p.by));
  if (!p.signature.empty()) {
    b.setSignature(
        capnp::Data::Reader(reinterpret_cast<const kj::byte*>(p.signature.data()), p.signature.size()));
  }
}

}  // namespace

void write_payload(Union b, const core::Payload& p) {
  std::visit([&](const auto& alt) { put(b, alt); }, p);
}

}  // namespace warlog::events::detail
