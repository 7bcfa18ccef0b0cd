#pragma once
// The game state the fold rebuilds. A value type: copy it to keep a moment.
// Stored fields first; derived values are computed by the functions at the
// bottom, never stored twice.

#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <stdexcept>
#include <utility>
#include <string>
#include <vector>

#include "warlog/core/card_name.hpp"
#include "warlog/core/event.hpp"
#include "warlog/core/types.hpp"

namespace warlog::core {

class Catalog;
struct Card;
struct Ruleset;
enum class CardType : std::uint8_t;

// A multiset of cards: one flat vector of (card, count), in name order so
// that iteration, state text and digests are deterministic, with a map's
// interface for what the fold needs. Piles hold a few dozen distinct cards:
// a lookup scans ids (one integer compare per card), an insertion keeps name
// order. The fold erases a card whose count reaches 0 (detail::Step::take);
// operator[] may leave a 0 entry, as std::map's does, for its caller to
// raise or erase.
class CardPile {
 public:
  using value_type = std::pair<CardName, int>;
  using iterator = std::vector<value_type>::iterator;
  using const_iterator = std::vector<value_type>::const_iterator;

  CardPile() = default;
  // {{"Vesna's Guard", 2}, ...}: names in any order, each at most once.
  CardPile(std::initializer_list<value_type> cards) {
    for (const value_type& c : cards) emplace(c.first, c.second);
  }

  [[nodiscard]] iterator begin() noexcept { return cards_.begin(); }
  [[nodiscard]] iterator end() noexcept { return cards_.end(); }
  [[nodiscard]] const_iterator begin() const noexcept { return cards_.begin(); }
  [[nodiscard]] const_iterator end() const noexcept { return cards_.end(); }
  [[nodiscard]] std::size_t size() const noexcept { return cards_.size(); }  // distinct cards
  [[nodiscard]] bool empty() const noexcept { return cards_.empty(); }
  void clear() noexcept { cards_.clear(); }

  [[nodiscard]] iterator find(CardName card) noexcept {
    return std::find_if(cards_.begin(), cards_.end(), [card](const value_type& v) { return v.first == card; });
  }
  [[nodiscard]] const_iterator find(CardName card) const noexcept {
    return std::find_if(cards_.begin(), cards_.end(), [card](const value_type& v) { return v.first == card; });
  }
  [[nodiscard]] bool contains(CardName card) const noexcept { return find(card) != end(); }
  // The card's count; throws std::out_of_range when absent (as std::map does).
  [[nodiscard]] int at(CardName card) const {
    const auto it = find(card);
    if (it == end()) throw std::out_of_range("card not in pile");
    return it->second;
  }
  // The last card in name order; the pile must not be empty.
  [[nodiscard]] const value_type& back() const noexcept { return cards_.back(); }
  [[nodiscard]] std::size_t count(CardName card) const noexcept { return contains(card) ? 1 : 0; }
  // The card's count, inserting it at 0 when absent (as std::map does):
  // the caller must then raise it or erase it.
  int& operator[](CardName card) { return emplace(card, 0).first->second; }
  // Inserts (card, n) when absent; returns the card's entry and whether it
  // was inserted.
  std::pair<iterator, bool> emplace(CardName card, int n) {
    if (const auto it = find(card); it != end()) return {it, false};
    const auto at = std::lower_bound(cards_.begin(), cards_.end(), card,
                                     [](const value_type& v, const CardName& c) { return v.first < c; });
    return {cards_.insert(at, value_type{card, n}), true};
  }
  iterator erase(const_iterator it) { return cards_.erase(it); }
  std::size_t erase(CardName card) {
    const auto it = find(card);
    if (it == end()) return 0;
    cards_.erase(it);
    return 1;
  }

  friend bool operator==(const CardPile&, const CardPile&) = default;

 private:
  std::vector<value_type> cards_;
};

enum TroopFlag : std::uint16_t {
  kTroopLost = 1u << 0,
  kTroopBurrowed = 1u << 1,
  kTroopMovedThisPhase = 1u << 2,   // Muster › c / Attrition › 1: one move per Troop
  kTroopShotteUsed = 1u << 3,       // once per time played
  kTroopUnprovisioned = 1u << 4,    // Morale 0 until the next Attrition Phase
  kTroopFoughtThisCharge = 1u << 5, // Combat Resolution: one combat per Troop
  kTroopAbilityUsed = 1u << 6,
  kTroopTurncoat = 1u << 7,         // played by the opponent under Turncoat: always surcharged
  kTroopShifted = 1u << 8,          // shifted in this Muster part (Muster › Movement: as cards are played)
};

struct Troop {
  CardName card;
  Seat owner = 0;
  std::int16_t damage = 0;          // Vitality lost so far
  std::uint16_t flags = 0;
  std::uint16_t entered_turn = 0;   // the turn it was played (still mustering on that turn)
  std::uint16_t unburrowed_turn = 0;// the turn it last un-Burrowed, 0 if never
  std::uint16_t lost_turn = 0;      // the turn it became Lost

  [[nodiscard]] bool has(TroopFlag f) const noexcept { return (flags & f) != 0; }
  friend bool operator==(const Troop&, const Troop&) = default;
};

struct HeldCard {  // a card in the Homeland or a Gambit in play, with when it arrived
  CardName card;
  std::uint16_t since_turn = 0;
  friend bool operator==(const HeldCard&, const HeldCard&) = default;
};

// A Troop destroyed the turn it was Mustered or un-Burrowed: it must still be
// provisioned this turn (Warfare Phase › The Troop Wages Rule).
struct WageDue {
  CardName card;
  Space space;             // where it stood when destroyed
  bool unburrowed = false; // a defeated Burrowed Troop that un-Burrowed: paid first, discard if unpaid
  friend bool operator==(const WageDue&, const WageDue&) = default;
};

// --- Scratch: what holds only for a turn, a Charge or a phase part --------
// Each is reset by assignment (`x = {}`) where its span begins, so a field
// added here can never be forgotten in a reset.

// One seat's facts of the turn under way (reset at TurnStarted).
struct SeatTurnScratch {
  int drawn = 0;                   // cards drawn (Muster › a.)
  bool foraged = false;
  bool returned = false;           // returned a card from the Homeland
  bool gambit_stocked = false;
  bool mustered = false;           // has taken its Muster Phase this turn
  CardPile not_playable;           // returned from the Homeland this turn
  int recovery_spent = 0;          // Provisions spent recovering Lost Troops
  bool provisions_paid = false;    // Attrition › 3 done
  std::vector<WageDue> wages_due;  // destroyed Troops still owed wages
  CardPile turncoat_offer;         // drawn cards of the opponent's allegiance (Turncoat, parked)
  int turncoat_draws = 0;          // extra draws those cards allow
  bool recovered = false;          // Attrition › 1: a Lost Troop recovered, so the moves are over
  int text_draws = 0;              // extra draws a recorded card text or Local Favor allows
  friend bool operator==(const SeatTurnScratch&, const SeatTurnScratch&) = default;
};

// One seat's facts of its phase part under way (reset at its PhaseStarted).
struct PartScratch {
  bool acted = false;  // played or moved: step a. is over (Muster › Steps)
  int fled = 0;        // Troops fled (WIP empty Army Deck)
  friend bool operator==(const PartScratch&, const PartScratch&) = default;
};

struct SeatState {
  std::string player;
  Allegiance allegiance = Allegiance::ClawEmpire;
  bool registered = false;

  CardPile deck;      // the Army Deck, unordered: draws are recorded outcomes
  CardPile orders;    // the Claw Empire's Orders Deck
  CardPile hand;
  CardPile discard;
  std::vector<HeldCard> homeland;
  std::vector<HeldCard> gambits_in_play;

  std::uint16_t local_favor_until_turn = 0;  // Local Favor lasts to the end of this turn's Muster Phase
  int cards_owed_discard = 0;                // Failing to pay: discards still owed
  bool rabble_side = false;                  // Paw Coalition's token on its Rabble side

  SeatTurnScratch this_turn;  // reset at TurnStarted
  PartScratch this_part;      // reset when this seat's phase part starts

  friend bool operator==(const SeatState&, const SeatState&) = default;
};

struct TerritoryState {
  CardName card;
  Space space;
  int beneath = 0;           // destroyed Troops counted toward its Threshold
  // No controller: Control is derived from the Troops beside it
  // (core::territory_controller, R-017), never stored.
  bool final_due = false;    // at its Threshold when the final turn was granted: to be answered
  friend bool operator==(const TerritoryState&, const TerritoryState&) = default;
};

// A Troop destroyed this turn beside a Territory, and beneath which it lies
// (Attrition › 4). Beside several, the table chooses and the log says which
// (TroopDefeated.beneath, rulings R-071); until it does, the first in setup
// order holds it.
struct PlacedBeneath {
  CardName card;
  Space troop;                 // where it was destroyed
  std::int8_t territory = -1;  // index into territories
  std::int8_t beside = 0;      // how many Territories it was destroyed beside
  bool chosen = false;         // the log named its Territory
  Seq at = 0;                  // the event that destroyed it
  friend bool operator==(const PlacedBeneath&, const PlacedBeneath&) = default;
};

// The game's facts of the turn under way (reset at TurnStarted).
struct TurnScratch {
  bool morale_checked = false;  // this turn's Morale Check is recorded (warlog rules › Event order)
  bool charge_declared = false;
  bool charge_declined = false;
  Seat charger = kNoSeat;
  std::vector<Seat> shotte_seats;          // who fired, in order, this Shotte Subphase
  bool shotte_alternation_broken = false;  // a player fired twice running while the other could fire
  std::vector<Space> fled;                 // spaces whose Troop the fold made flee
  std::vector<Space> defeated;             // spaces whose Troop the fold defeated
  bool win_checked = false;                // Attrition › 2 done for this turn
  friend bool operator==(const TurnScratch&, const TurnScratch&) = default;
};

// The Charge under way (reset at TurnStarted and at ChargeDeclared).
struct ChargeScratch {
  int last_combat_morale = -1;        // Combat Resolution order: highest Morale first
  std::vector<Space> vacated;         // spaces emptied by a defeat during the Charge
  std::vector<Space> defenders_struck;// defenders that have dealt their damage
  Seq declared_at = 0;                // the ChargeDeclared: an unfought combat is its finding
  friend bool operator==(const ChargeScratch&, const ChargeScratch&) = default;
};

struct GameState {
  // Setup
  std::string title;
  std::string date;
  std::string ruleset_hash;
  std::string catalog_hash;
  std::int8_t cols = 0;
  std::int8_t rows = 0;
  bool created = false;

  std::vector<std::optional<Troop>> grid;  // cols * rows, row-major
  std::array<SeatState, kSeatCount> seats{};
  std::vector<TerritoryState> territories;

  // Where play stands
  Seq next_seq = 0;
  std::uint16_t turn = 0;
  Phase phase = Phase::Setup;
  Seat active = kNoSeat;   // the seat whose part of the phase is under way
  Seat leader = kNoSeat;   // Leading in Morale this turn (rulings R-004)
  // Which part of the turn is under way: 0 before the first phase, then
  // 1 leader's Muster, 2 next player's Muster, 3 Warfare, 4 leader's
  // Attrition, 5 next player's Attrition.
  std::uint8_t part = 0;
  Seq part_started = 0;         // the PhaseStarted that opened the part under way

  // Warfare Phase
  std::vector<PlacedBeneath> placed_this_turn; // Troops put beneath a Territory this turn,
                                               // cleared when they are settled (settle_placements)
  TurnScratch this_turn;      // reset at TurnStarted
  ChargeScratch this_charge;  // reset at TurnStarted and ChargeDeclared

  // Ending, as the fold derives it
  std::uint16_t final_turn = 0;  // the turn a Territory Threshold made final, 0 if none;
                                 // TerritoryState::final_due marks the Territories it answers
  Seat winner = kNoSeat;
  std::optional<Victory> victory;
  std::optional<Seq> decided_at; // the event at which the fold decided the game
  std::uint16_t decided_turn = 0; // the turn it was decided in (an Attrition Victory derived at the
                                  // next TurnStarted: the final turn); 0 while decided_at is empty
  bool play_after_end_reported = false;

  // Card conservation: the cards of both armies as registered (Army and
  // Orders Decks, known cards only). Every card is in exactly one place
  // (a pile, the Homeland, a Gambit in play, the battlefield, beneath a
  // Territory), so the places always add up to this (check_invariants).
  // to_text leaves it out: the places it prints determine it.
  std::int64_t cards_in_game = 0;

  friend bool operator==(const GameState&, const GameState&) = default;

  // --- Grid access -----------------------------------------------------
  [[nodiscard]] bool on_grid(Space s) const noexcept {
    return s.col >= 0 && s.row >= 0 && s.col < cols && s.row < rows;
  }
  [[nodiscard]] std::optional<Troop>& at(Space s) { return grid[index(s)]; }
  [[nodiscard]] const std::optional<Troop>& at(Space s) const { return grid[index(s)]; }
  [[nodiscard]] std::size_t index(Space s) const noexcept {
    return static_cast<std::size_t>(s.row) * static_cast<std::size_t>(cols) +
           static_cast<std::size_t>(s.col);
  }
  [[nodiscard]] Space space_of(std::size_t i) const noexcept {
    return Space{static_cast<std::int8_t>(i % static_cast<std::size_t>(cols)),
                 static_cast<std::int8_t>(i / static_cast<std::size_t>(cols))};
  }
};

// --- Derived values ------------------------------------------------------

// The on-grid spaces orthogonally adjacent to `sp` (The Battlefield,
// assumed: rulings R-002), without allocating.
struct Neighbours {
  std::array<Space, 4> spaces{};
  std::size_t count = 0;
  [[nodiscard]] const Space* begin() const noexcept { return spaces.data(); }
  [[nodiscard]] const Space* end() const noexcept { return spaces.data() + count; }
};
[[nodiscard]] Neighbours neighbours(const GameState& s, Space sp) noexcept;

// A Troop's Provision cost for its owner: card_cost, and always the
// surcharge for a Troop played under Turncoat (Deck Construction › Turncoat).
[[nodiscard]] int troop_cost(const Troop& t, const Card& c, Allegiance declared, const Ruleset& rules) noexcept;

// The Territory lying on `sp`, or nullptr (rulings R-042: no card stands
// there).
[[nodiscard]] const TerritoryState* territory_at(const GameState& s, Space sp) noexcept;

// The row that is this seat's Vanguard (rulings R-002).
[[nodiscard]] int vanguard_row(const GameState& s, Seat seat) noexcept;

// A Troop is still mustering on the turn it entered the battlefield
// (Muster Phase › Still Mustering).
[[nodiscard]] bool still_mustering(const GameState& s, const Troop& t) noexcept;

// A Troop's Morale as it counts now: 0 while unprovisioned
// (Attrition Phase › Failing to pay).
[[nodiscard]] int effective_morale(const Troop& t, const Catalog& catalog) noexcept;

// --- What stands on the battlefield ----------------------------------------
// A grid slot holds a `Troop` record whatever the card is, so every rule that
// names Troops asks the catalog what the card is: the log says where a card
// went, the card says what it is.

// The card kinds that may stand on a space: Troops, and Dwellings played
// into the Vanguard (rulings R-023). Gambits go into play off the grid
// Territories and Army Abilities are never played.
[[nodiscard]] bool stands_on_battlefield(CardType type) noexcept;

// The card on this space is a Troop card (an unknown card is not).
[[nodiscard]] bool is_troop(const Troop& t, const Catalog& catalog) noexcept;

// The card takes part in combat and Shotte, as fighter or target: a Troop,
// and not a Burrowed one under burrowed_troops_hidden (rulings R-044).
// Lost is the caller's to weigh: a Lost Troop may still be shot.
[[nodiscard]] bool in_combat(const Troop& t, const Catalog& catalog, const Ruleset& rules) noexcept;

// The card holds the side of a Territory it stands on: a Troop, not Lost,
// not hidden Burrowed; a Dwelling only under dwellings_hold_sides
// (rulings R-043).
[[nodiscard]] bool holds_side(const Troop& t, const Catalog& catalog, const Ruleset& rules) noexcept;

// The seat that controls a Territory: cards of that seat holding at least
// one of its sides (holds_side) and no enemy card holding any (rulings
// R-017); kNoSeat otherwise. `sides` receives each seat's count of held sides.
[[nodiscard]] Seat territory_controller(const GameState& s, const TerritoryState& t, const Catalog& catalog,
                                        const Ruleset& rules, std::array<int, kSeatCount>* sides = nullptr) noexcept;

// The sum of effective Morale of a seat's Troops on the battlefield (Troop
// cards only: a Dwelling brings no Morale).
[[nodiscard]] int morale_total(const GameState& s, Seat seat, const Catalog& catalog) noexcept;

// The Provision cost of one card for a seat: printed cost plus the
// Allegiance Rule surcharge where it applies (Deck Construction › The
// Allegiance Rule, and › Hirelings and the Allegiance Rule).
[[nodiscard]] int card_cost(const Card& c, Allegiance declared, const Ruleset& rules) noexcept;

// Provision cost owed by a seat this Attrition Phase, with the Allegiance Rule
// surcharge (Deck Construction › The Allegiance Rule, Attrition › 3).
[[nodiscard]] int provision_cost(const GameState& s, Seat seat, const Catalog& catalog,
                                 const Ruleset& rules) noexcept;

// Provision supply a seat's Homeland produces this Attrition Phase
// (Attrition › Two different numbers; Card Text Timing for Gambits).
[[nodiscard]] int provision_supply(const GameState& s, Seat seat, const Catalog& catalog,
                                   const Ruleset& rules) noexcept;

// A canonical, line-per-fact text of the state: what the viewer can show
// and what `digest` hashes. Same state, same text, on every machine.
[[nodiscard]] std::string to_text(const GameState& s);

// BLAKE2b-256 hex of to_text(s): the golden digest of a sample's final state.
[[nodiscard]] std::string digest(const GameState& s);

}  // namespace warlog::core
