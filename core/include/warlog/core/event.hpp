#pragma once
// The event vocabulary: what a player did or what was revealed. Consequences
// (damage taken, defeat, Morale penalties, flight, Territory counts, the
// winner) are derived by the fold; the few payloads that state a consequence
// (TroopDefeated, TroopFled, TerritoryControlTaken, GameEnded, MoraleChecked)
// are checked against the fold, never trusted.
//
// Cards are named by catalog name (a CardName: an interned id), spaces by
// grid coordinate. Every payload is a value type. The Cap'n Proto schema (events/schema/warlog.capnp) mirrors
// this file; new payloads take new ordinals there, never renumbered.

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "warlog/core/card_name.hpp"
#include "warlog/core/error.hpp"
#include "warlog/core/types.hpp"

namespace warlog::core {

using GameId = std::uint64_t;
using Seq = std::uint64_t;  // 0-based position in a game's stream

struct CardCount {
  CardName card;
  int count = 0;
  friend bool operator==(const CardCount&, const CardCount&) = default;
};

struct SeatSetup {
  std::string player;
  Allegiance allegiance = Allegiance::ClawEmpire;
  friend bool operator==(const SeatSetup&, const SeatSetup&) = default;
};

struct PlacedTerritory {
  CardName card;
  Space space;
  friend bool operator==(const PlacedTerritory&, const PlacedTerritory&) = default;
};

// --- Setup -------------------------------------------------------------
struct GameCreated {
  std::string title;
  std::string date;          // ISO 8601 as recorded, "2026-03-14"
  std::string ruleset_hash;  // hex, the ruleset the game was played under
  std::string catalog_hash;  // hex, the card catalog
  std::vector<SeatSetup> seats;
  std::vector<PlacedTerritory> territories;
  std::int8_t cols = 5;
  std::int8_t rows = 4;
  // 16 random bytes when the game is created live; empty for an imported
  // game. Part of event 0's canonical bytes, hence of the game's identity.
  std::string game_uuid;
  // A game of an event run with `warlog serve round open` (tournament/):
  // the event's name, the round and the table. Empty and 0 for any other
  // game; like the title, part of event 0's bytes, so verify covers them.
  std::string event;
  std::uint16_t round = 0;
  std::uint16_t table = 0;
  friend bool operator==(const GameCreated&, const GameCreated&) = default;
};

struct ArmyRegistered {
  Seat seat = 0;
  std::vector<CardCount> army;    // the Army Deck
  std::vector<CardCount> orders;  // the Claw Empire's Orders Deck, outside the Army Deck
  friend bool operator==(const ArmyRegistered&, const ArmyRegistered&) = default;
};

// --- Turn frame --------------------------------------------------------
struct TurnStarted {
  friend bool operator==(const TurnStarted&, const TurnStarted&) = default;
};
struct MoraleChecked {  // the leader as recorded; the fold checks it
  Seat leader = 0;
  friend bool operator==(const MoraleChecked&, const MoraleChecked&) = default;
};
struct PhaseStarted {  // header.phase and header.seat say which
  friend bool operator==(const PhaseStarted&, const PhaseStarted&) = default;
};
enum class Victory : std::uint8_t { Supremacy, Attrition, Concession, Unfinished };
// The notation's keyword: "supremacy", "attrition", "concession", "unfinished".
[[nodiscard]] std::string_view to_string(Victory v) noexcept;
struct GameEnded {  // the result as recorded; the fold checks it
  Seat winner = kNoSeat;
  Victory victory = Victory::Unfinished;
  friend bool operator==(const GameEnded&, const GameEnded&) = default;
};

// --- Muster Phase ------------------------------------------------------
struct CardsDrawn {
  std::vector<CardName> cards;
  friend bool operator==(const CardsDrawn&, const CardsDrawn&) = default;
};
struct Foraged {  // hand -> Homeland
  CardName card;
  friend bool operator==(const Foraged&, const Foraged&) = default;
};
struct ReturnedFromHomeland {  // Homeland -> hand, not playable this turn
  CardName card;
  friend bool operator==(const ReturnedFromHomeland&, const ReturnedFromHomeland&) = default;
};
struct GambitStocked {  // the one extra Gambit per turn, hand -> Homeland
  CardName card;
  friend bool operator==(const GambitStocked&, const GambitStocked&) = default;
};
struct CardPlayed {  // hand -> Vanguard; space is invalid for a Gambit held in play
  CardName card;
  Space space;
  friend bool operator==(const CardPlayed&, const CardPlayed&) = default;
};
struct TroopMoved {
  Space from;
  Space to;
  friend bool operator==(const TroopMoved&, const TroopMoved&) = default;
};
struct TroopsShifted {  // own Troops swapped among each other while playing cards
  std::vector<TroopMoved> moves;
  friend bool operator==(const TroopsShifted&, const TroopsShifted&) = default;
};
struct AbilityUsed {
  Space space;
  std::string ability;  // free text as recorded
  friend bool operator==(const AbilityUsed&, const AbilityUsed&) = default;
};
struct TroopBurrowed {
  Space space;
  friend bool operator==(const TroopBurrowed&, const TroopBurrowed&) = default;
};
struct TroopUnburrowed {
  Space space;
  friend bool operator==(const TroopUnburrowed&, const TroopUnburrowed&) = default;
};

// --- Warfare Phase -----------------------------------------------------
struct ShotteFired {
  Space shooter;
  Space target;
  int damage = 0;
  friend bool operator==(const ShotteFired&, const ShotteFired&) = default;
};
enum class ChargeMode : std::uint8_t { Normal, Burrow, Card };
struct ChargeDeclared {
  ChargeMode mode = ChargeMode::Normal;
  Space from;  // the un-Burrowing Troop for mode Burrow
  friend bool operator==(const ChargeDeclared&, const ChargeDeclared&) = default;
};
struct ChargeDeclined {
  friend bool operator==(const ChargeDeclined&, const ChargeDeclined&) = default;
};
struct LocalFavorUsed {
  std::string option;  // free text: the Warfare document's list is empty
  friend bool operator==(const LocalFavorUsed&, const LocalFavorUsed&) = default;
};
struct Strike {
  Space target;
  int damage = 0;
  friend bool operator==(const Strike&, const Strike&) = default;
};
struct DefenderSplit {
  Space defender;
  std::vector<Strike> strikes;
  friend bool operator==(const DefenderSplit&, const DefenderSplit&) = default;
};
struct CombatResolved {  // one combat: the attacker's split and the defenders' splits
  Space troop;
  std::vector<Strike> strikes;
  std::vector<DefenderSplit> defenders;
  friend bool operator==(const CombatResolved&, const CombatResolved&) = default;
};
struct TroopLost {
  Space space;
  friend bool operator==(const TroopLost&, const TroopLost&) = default;
};
struct TroopDefeated {  // a consequence as recorded; the fold checks it
  Space space;
  Space beneath;  // the Territory it went beneath, as chosen at the table; invalid = not said
  friend bool operator==(const TroopDefeated&, const TroopDefeated&) = default;
};

// --- Attrition Phase ---------------------------------------------------
enum class Recovery : std::uint8_t { Pay, Reshuffle };
struct LostTroopRecovered {
  Space space;     // where the Lost Troop stands
  Recovery mode = Recovery::Pay;
  Space to;        // Vanguard space for Pay
  friend bool operator==(const LostTroopRecovered&, const LostTroopRecovered&) = default;
};
struct PaidItem {  // a Troop by space, or a Gambit in play by name (space invalid)
  Space space;
  CardName card;
  friend bool operator==(const PaidItem&, const PaidItem&) = default;
};
struct ProvisionsPaid {  // in the order paid
  std::vector<PaidItem> paid;
  std::vector<PaidItem> unpaid;
  friend bool operator==(const ProvisionsPaid&, const ProvisionsPaid&) = default;
};
struct CardsDiscarded {
  std::vector<CardName> cards;
  friend bool operator==(const CardsDiscarded&, const CardsDiscarded&) = default;
};
struct TerritoryControlTaken {  // a consequence as recorded; the fold checks it
  Space territory;
  friend bool operator==(const TerritoryControlTaken&, const TerritoryControlTaken&) = default;
};
struct TroopFled {  // a consequence as recorded (Shocked); the fold checks it
  Space space;
  friend bool operator==(const TroopFled&, const TroopFled&) = default;
};

// --- Corrections (docs/architecture.md › Store format 2 › 2) -----------
// Mistakes are fixed by further events, never by edits: both stay in the
// chain. The fold reads them through corrections.hpp, never in apply().
struct Voided {  // a scorekeeper's slip: the fold skips `target`
  Seq target = 0;
  std::string reason;
  std::string by;  // who voided it, as recorded
  friend bool operator==(const Voided&, const Voided&) = default;
};
struct BackupTo {  // a judge's backup: the state returns to just before `target`
  Seq target = 0;
  std::string reason;
  std::string by;         // the judge: a keyring key id or a signer's name
  std::string signature;  // Ed25519 bytes by `by`'s key; empty = unsigned
  friend bool operator==(const BackupTo&, const BackupTo&) = default;
};

using Payload = std::variant<
    GameCreated, ArmyRegistered,
    TurnStarted, MoraleChecked, PhaseStarted, GameEnded,
    CardsDrawn, Foraged, ReturnedFromHomeland, GambitStocked, CardPlayed, TroopMoved,
    TroopsShifted, AbilityUsed, TroopBurrowed, TroopUnburrowed,
    ShotteFired, ChargeDeclared, ChargeDeclined, LocalFavorUsed, CombatResolved, TroopLost,
    TroopDefeated,
    LostTroopRecovered, ProvisionsPaid, CardsDiscarded, TerritoryControlTaken, TroopFled,
    Voided, BackupTo>;

// The payload's name as used in the notation and JSON ("CardPlayed").
[[nodiscard]] std::string_view payload_name(const Payload& p) noexcept;

struct Event {
  GameId game = 0;
  Seq seq = 0;
  std::uint16_t turn = 0;  // 0 during Setup
  Phase phase = Phase::Setup;
  Seat seat = kNoSeat;     // the acting seat; kNoSeat for table-wide events
  Payload payload;
  // When the event was committed, ms since the Unix epoch UTC; 0 = not
  // recorded (imported games). Stored and chained; the fold never reads it.
  // Last, so that aggregate initialisers of the fields above still read.
  std::int64_t recorded_at_ms = 0;

  friend bool operator==(const Event&, const Event&) = default;
};

// Every text field of `ev` (title, date, hashes, player names, card names,
// free text) passes check_text (text.hpp): valid UTF-8, no control
// character but tab and newline. The one check every source's events pass
// on their way into the store. Error: InvalidArgument naming the field,
// "GameCreated.seats[1].player: invalid UTF-8 (byte 0xff) at byte 3".
[[nodiscard]] Expected<void> check_event_text(const Event& ev);

}  // namespace warlog::core
