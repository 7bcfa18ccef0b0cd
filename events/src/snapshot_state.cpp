// core::GameState <-> Snapshot.State: every field, both ways. Readers throw
// DecodeFailure for a state that cannot be one; snapshot.cpp's guard turns
// that (and Cap'n Proto's kj::Exception) into an Error.

#include "snapshot_state.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace warlog::events::detail {

namespace {

using SnapshotSchema = cs::Snapshot;

// --- A tripwire for new state fields -----------------------------------------
// The codec must carry every field GameState::operator== compares. Counting
// the members of each aggregate makes adding one without encoding it a
// compile error here, not a seek that silently differs from the fold.
struct AnyField {
  template <class T>
  operator T() const;  // never defined: only used in unevaluated requires-expressions
};
template <class T, class... A>
consteval std::size_t field_count() {
  if constexpr (requires { T{A{}..., AnyField{}}; }) {
    return field_count<T, A..., AnyField>();
  } else {
    return sizeof...(A);
  }
}
static_assert(field_count<core::GameState>() == 27, "GameState changed: encode the new field here and in Snapshot.State");
static_assert(field_count<core::TurnScratch>() == 9, "TurnScratch changed: encode the new field here and in Snapshot.State");
static_assert(field_count<core::ChargeScratch>() == 4, "ChargeScratch changed: encode it here and in Snapshot.State");
static_assert(field_count<core::SeatState>() == 14, "SeatState changed: encode the new field here and in Snapshot.Seat");
static_assert(field_count<core::SeatTurnScratch>() == 13, "SeatTurnScratch changed: encode it here and in Snapshot.Seat");
static_assert(field_count<core::PartScratch>() == 2, "PartScratch changed: encode it here and in Snapshot.Seat");
static_assert(field_count<core::Troop>() == 7, "Troop changed: encode the new field here and in Snapshot.Troop");
static_assert(field_count<core::HeldCard>() == 2, "HeldCard changed: encode it here and in Snapshot.HeldCard");
static_assert(field_count<core::WageDue>() == 3, "WageDue changed: encode it here and in Snapshot.WageDue");
static_assert(field_count<core::PlacedBeneath>() == 6, "Placement changed: encode it here and in Snapshot.Placement");
static_assert(field_count<core::TerritoryState>() == 4, "TerritoryState changed: encode it here and in Snapshot.Territory");

// cols and rows are Int8: no battlefield has more cells than this.
constexpr std::uint32_t kMaxGridCells = 127u * 127u;

[[noreturn]] void bad(std::string message) { snapshot_failure(std::move(message)); }

std::string text(capnp::Text::Reader t) { return std::string(t.cStr(), t.size()); }
// std::string keeps a NUL after its last char, as Text::Reader requires.
capnp::Text::Reader tx(const std::string& s) { return capnp::Text::Reader(s.data(), s.size()); }

// --- Writing -------------------------------------------------------------------
void write_pile(capnp::List<cs::CardCount>::Builder out, const core::CardPile& pile) {
  unsigned i = 0;
  for (const auto& [card, n] : pile) {
    auto c = out[i++];
    c.setCard(tx(card));
    c.setCount(n);
  }
}

void write_held(capnp::List<SnapshotSchema::HeldCard>::Builder out, const std::vector<core::HeldCard>& held) {
  for (unsigned i = 0; i < held.size(); ++i) {
    out[i].setCard(tx(held[i].card));
    out[i].setSinceTurn(held[i].since_turn);
  }
}

void write_spaces(capnp::List<cs::Space>::Builder out, const std::vector<core::Space>& spaces) {
  for (unsigned i = 0; i < spaces.size(); ++i) write_space(out[i], spaces[i]);
}

unsigned count_of(std::size_t n) { return static_cast<unsigned>(n); }

void write_troop(SnapshotSchema::Troop::Builder b, const core::Troop& t) {
  b.setCard(tx(t.card));
  b.setOwner(t.owner);
  b.setDamage(t.damage);
  b.setFlags(t.flags);
  b.setEnteredTurn(t.entered_turn);
  b.setUnburrowedTurn(t.unburrowed_turn);
  b.setLostTurn(t.lost_turn);
}

void write_seat(SnapshotSchema::Seat::Builder b, const core::SeatState& s) {
  b.setPlayer(tx(s.player));
  b.setAllegiance(to_schema(s.allegiance));
  b.setRegistered(s.registered);
  write_pile(b.initDeck(count_of(s.deck.size())), s.deck);
  write_pile(b.initOrders(count_of(s.orders.size())), s.orders);
  write_pile(b.initHand(count_of(s.hand.size())), s.hand);
  write_pile(b.initDiscard(count_of(s.discard.size())), s.discard);
  write_pile(b.initNotPlayableThisTurn(count_of(s.this_turn.not_playable.size())), s.this_turn.not_playable);
  write_held(b.initHomeland(count_of(s.homeland.size())), s.homeland);
  write_held(b.initGambitsInPlay(count_of(s.gambits_in_play.size())), s.gambits_in_play);
  b.setDrawnThisTurn(s.this_turn.drawn);
  b.setForagedThisTurn(s.this_turn.foraged);
  b.setReturnedThisTurn(s.this_turn.returned);
  b.setGambitStockedThisTurn(s.this_turn.gambit_stocked);
  b.setMusteredThisTurn(s.this_turn.mustered);
  b.setLocalFavorUntilTurn(s.local_favor_until_turn);
  b.setCardsOwedDiscard(s.cards_owed_discard);
  b.setActedThisPart(s.this_part.acted);
  b.setRecoverySpent(s.this_turn.recovery_spent);
  b.setProvisionsPaidThisTurn(s.this_turn.provisions_paid);
  b.setFledThisPart(s.this_part.fled);
  b.setRabbleSide(s.rabble_side);
  auto wages = b.initWagesDue(count_of(s.this_turn.wages_due.size()));
  for (unsigned i = 0; i < s.this_turn.wages_due.size(); ++i) {
    wages[i].setCard(tx(s.this_turn.wages_due[i].card));
    write_space(wages[i].initSpace(), s.this_turn.wages_due[i].space);
    wages[i].setUnburrowed(s.this_turn.wages_due[i].unburrowed);
  }
  write_pile(b.initTurncoatOffer(count_of(s.this_turn.turncoat_offer.size())), s.this_turn.turncoat_offer);
  b.setTurncoatDraws(s.this_turn.turncoat_draws);
  b.setTextDraws(s.this_turn.text_draws);
  b.setRecoveredThisTurn(s.this_turn.recovered);
}

}  // namespace

void write_state(SnapshotSchema::State::Builder b, const core::GameState& s) {
  b.setTitle(tx(s.title));
  b.setDate(tx(s.date));
  b.setRulesetHash(tx(s.ruleset_hash));
  b.setCatalogHash(tx(s.catalog_hash));
  b.setCols(s.cols);
  b.setRows(s.rows);
  b.setCreated(s.created);
  b.setGridSize(count_of(s.grid.size()));
  const auto occupied = std::count_if(s.grid.begin(), s.grid.end(), [](const auto& c) { return c.has_value(); });
  auto grid = b.initGrid(count_of(static_cast<std::size_t>(occupied)));
  unsigned g = 0;
  for (std::size_t i = 0; i < s.grid.size(); ++i) {
    if (!s.grid[i]) continue;
    grid[g].setIndex(static_cast<std::uint32_t>(i));
    write_troop(grid[g].initTroop(), *s.grid[i]);
    ++g;
  }
  auto seats = b.initSeats(count_of(s.seats.size()));
  for (unsigned i = 0; i < s.seats.size(); ++i) write_seat(seats[i], s.seats[i]);
  auto territories = b.initTerritories(count_of(s.territories.size()));
  for (unsigned i = 0; i < s.territories.size(); ++i) {
    territories[i].setCard(tx(s.territories[i].card));
    write_space(territories[i].initSpace(), s.territories[i].space);
    territories[i].setBeneath(s.territories[i].beneath);
    territories[i].setFinalDue(s.territories[i].final_due);
  }
  b.setNextSeq(s.next_seq);
  b.setTurn(s.turn);
  b.setPhase(to_schema(s.phase));
  b.setActive(s.active);
  b.setLeader(s.leader);
  b.setPart(s.part);
  b.setChargeDeclared(s.this_turn.charge_declared);
  b.setChargeDeclined(s.this_turn.charge_declined);
  b.setCharger(s.this_turn.charger);
  b.setLastCombatMorale(s.this_charge.last_combat_morale);
  auto shotte = b.initShotteSeats(count_of(s.this_turn.shotte_seats.size()));
  for (unsigned i = 0; i < s.this_turn.shotte_seats.size(); ++i) shotte.set(i, s.this_turn.shotte_seats[i]);
  write_spaces(b.initVacatedThisCharge(count_of(s.this_charge.vacated.size())), s.this_charge.vacated);
  write_spaces(b.initFledThisTurn(count_of(s.this_turn.fled.size())), s.this_turn.fled);
  write_spaces(b.initDefeatedThisTurn(count_of(s.this_turn.defeated.size())), s.this_turn.defeated);
  write_spaces(b.initDefendersStruck(count_of(s.this_charge.defenders_struck.size())), s.this_charge.defenders_struck);
  b.setChargeDeclaredAt(s.this_charge.declared_at);
  b.setShotteAlternationBroken(s.this_turn.shotte_alternation_broken);
  b.setWinCheckedThisTurn(s.this_turn.win_checked);
  b.setFinalTurn(s.final_turn);
  int first_due = -1;
  for (std::size_t i = 0; i < s.territories.size() && first_due < 0; ++i) {
    if (s.territories[i].final_due) first_due = static_cast<int>(i);
  }
  b.setFinalTerritory(first_due);
  auto placed = b.initPlacedThisTurn(count_of(s.placed_this_turn.size()));
  for (unsigned i = 0; i < s.placed_this_turn.size(); ++i) {
    const core::PlacedBeneath& p = s.placed_this_turn[i];
    placed[i].setCard(tx(p.card));
    write_space(placed[i].initTroop(), p.troop);
    placed[i].setTerritory(p.territory);
    placed[i].setBeside(p.beside);
    placed[i].setChosen(p.chosen);
    placed[i].setAt(p.at);
  }
  b.setWinner(s.winner);
  b.setHasVictory(s.victory.has_value());
  if (s.victory) b.setVictory(to_schema(*s.victory));
  b.setHasDecidedAt(s.decided_at.has_value());
  if (s.decided_at) b.setDecidedAt(*s.decided_at);
  b.setDecidedTurn(s.decided_turn);
  b.setPlayAfterEndReported(s.play_after_end_reported);
  b.setCardsInGame(s.cards_in_game);
  b.setMoraleChecked(s.this_turn.morale_checked);
  b.setPartStarted(s.part_started);
}


// --- Reading -------------------------------------------------------------------
namespace {

core::CardPile read_pile(capnp::List<cs::CardCount>::Reader in, const char* field) {
  core::CardPile pile;
  for (auto c : in) {
    if (!pile.emplace(text(c.getCard()), c.getCount()).second) {
      bad(std::string(field) + " names '" + text(c.getCard()) + "' twice");
    }
  }
  return pile;
}

std::vector<core::HeldCard> read_held(capnp::List<SnapshotSchema::HeldCard>::Reader in) {
  std::vector<core::HeldCard> out;
  out.reserve(in.size());
  for (auto h : in) out.push_back(core::HeldCard{text(h.getCard()), h.getSinceTurn()});
  return out;
}

std::vector<core::Space> read_spaces(capnp::List<cs::Space>::Reader in) {
  std::vector<core::Space> out;
  out.reserve(in.size());
  for (auto s : in) out.push_back(read_space(s));
  return out;
}

core::Troop read_troop(SnapshotSchema::Troop::Reader r) {
  core::Troop t;
  t.card = text(r.getCard());
  t.owner = r.getOwner();
  t.damage = r.getDamage();
  t.flags = r.getFlags();
  t.entered_turn = r.getEnteredTurn();
  t.unburrowed_turn = r.getUnburrowedTurn();
  t.lost_turn = r.getLostTurn();
  return t;
}

core::SeatState read_seat(SnapshotSchema::Seat::Reader r) {
  core::SeatState s;
  s.player = text(r.getPlayer());
  s.allegiance = from_schema(r.getAllegiance(), "snapshot seat allegiance");
  s.registered = r.getRegistered();
  s.deck = read_pile(r.getDeck(), "a seat's deck");
  s.orders = read_pile(r.getOrders(), "a seat's orders");
  s.hand = read_pile(r.getHand(), "a seat's hand");
  s.discard = read_pile(r.getDiscard(), "a seat's discard");
  s.this_turn.not_playable = read_pile(r.getNotPlayableThisTurn(), "a seat's not-playable cards");
  s.homeland = read_held(r.getHomeland());
  s.gambits_in_play = read_held(r.getGambitsInPlay());
  s.this_turn.drawn = r.getDrawnThisTurn();
  s.this_turn.foraged = r.getForagedThisTurn();
  s.this_turn.returned = r.getReturnedThisTurn();
  s.this_turn.gambit_stocked = r.getGambitStockedThisTurn();
  s.this_turn.mustered = r.getMusteredThisTurn();
  s.local_favor_until_turn = r.getLocalFavorUntilTurn();
  s.cards_owed_discard = r.getCardsOwedDiscard();
  s.this_part.acted = r.getActedThisPart();
  s.this_turn.recovery_spent = r.getRecoverySpent();
  s.this_turn.provisions_paid = r.getProvisionsPaidThisTurn();
  s.this_part.fled = r.getFledThisPart();
  s.rabble_side = r.getRabbleSide();
  for (auto w : r.getWagesDue()) {
    s.this_turn.wages_due.push_back(core::WageDue{text(w.getCard()), read_space(w.getSpace()), w.getUnburrowed()});
  }
  s.this_turn.turncoat_offer = read_pile(r.getTurncoatOffer(), "a seat's Turncoat offer");
  s.this_turn.turncoat_draws = r.getTurncoatDraws();
  s.this_turn.text_draws = r.getTextDraws();
  s.this_turn.recovered = r.getRecoveredThisTurn();
  return s;
}

}  // namespace

core::GameState read_state(SnapshotSchema::State::Reader r) {
  core::GameState s;
  s.title = text(r.getTitle());
  s.date = text(r.getDate());
  s.ruleset_hash = text(r.getRulesetHash());
  s.catalog_hash = text(r.getCatalogHash());
  s.cols = r.getCols();
  s.rows = r.getRows();
  s.created = r.getCreated();

  const std::uint32_t cells = r.getGridSize();
  if (cells > kMaxGridCells) bad("the grid claims " + std::to_string(cells) + " cells");
  s.grid.assign(cells, std::nullopt);
  std::uint64_t next_free = 0;  // indices ascend strictly: no cell twice
  for (auto c : r.getGrid()) {
    const std::uint32_t i = c.getIndex();
    if (i < next_free || i >= cells) bad("grid cell " + std::to_string(i) + " is out of order or off the grid");
    s.grid[i] = read_troop(c.getTroop());
    next_free = std::uint64_t{i} + 1;
  }

  const auto seats = r.getSeats();
  if (seats.size() != s.seats.size()) {
    bad(std::to_string(seats.size()) + " seats, expected " + std::to_string(s.seats.size()));
  }
  for (unsigned i = 0; i < seats.size(); ++i) s.seats[i] = read_seat(seats[i]);
  for (auto t : r.getTerritories()) {
    s.territories.push_back(core::TerritoryState{text(t.getCard()), read_space(t.getSpace()), t.getBeneath(),
                                                 t.getFinalDue()});
  }

  s.next_seq = r.getNextSeq();
  s.turn = r.getTurn();
  s.phase = from_schema(r.getPhase(), "snapshot phase");
  s.active = r.getActive();
  s.leader = r.getLeader();
  s.part = r.getPart();
  s.this_turn.charge_declared = r.getChargeDeclared();
  s.this_turn.charge_declined = r.getChargeDeclined();
  s.this_turn.charger = r.getCharger();
  s.this_charge.last_combat_morale = r.getLastCombatMorale();
  for (auto seat : r.getShotteSeats()) s.this_turn.shotte_seats.push_back(seat);
  s.this_charge.vacated = read_spaces(r.getVacatedThisCharge());
  s.this_turn.fled = read_spaces(r.getFledThisTurn());
  s.this_turn.defeated = read_spaces(r.getDefeatedThisTurn());
  s.this_charge.defenders_struck = read_spaces(r.getDefendersStruck());
  s.this_charge.declared_at = r.getChargeDeclaredAt();
  s.this_turn.shotte_alternation_broken = r.getShotteAlternationBroken();
  s.this_turn.win_checked = r.getWinCheckedThisTurn();
  s.final_turn = r.getFinalTurn();
  for (auto p : r.getPlacedThisTurn()) {
    s.placed_this_turn.push_back(core::PlacedBeneath{text(p.getCard()), read_space(p.getTroop()), p.getTerritory(),
                                                 p.getBeside(), p.getChosen(), p.getAt()});
  }
  s.winner = r.getWinner();
  if (r.getHasVictory()) s.victory = from_schema(r.getVictory(), "snapshot victory");
  if (r.getHasDecidedAt()) s.decided_at = r.getDecidedAt();
  s.decided_turn = r.getDecidedTurn();
  s.play_after_end_reported = r.getPlayAfterEndReported();
  s.cards_in_game = r.getCardsInGame();
  s.this_turn.morale_checked = r.getMoraleChecked();
  s.part_started = r.getPartStarted();
  return s;
}


void snapshot_failure(std::string message) {
  throw DecodeFailure{ErrorCode::DataLoss, "snapshot: " + std::move(message)};
}

}  // namespace warlog::events::detail
