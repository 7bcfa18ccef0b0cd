@0xf9efe4f148499ea9;
# warlog's stored events. This file is a wire contract: events written today
# must decode forever, and events written by a newer build must be recognised
# as such by an older one.
#
#   - Ordinals (@N) are NEVER renumbered, reordered or reused.
#   - A new payload is a new union member with the next free ordinal; a new
#     field takes the next free ordinal of its struct.
#   - Enumerants are only appended; a field's type and default never change.
#   - A field that is no longer written stays here, renamed "obsoleteX".
#
# It mirrors core/include/warlog/core/event.hpp: the union members follow the
# order of core::Payload, and defaults match the C++ defaults, so a
# default-constructed value packs to zeros.

using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("warlog::capnp_schema");

# --- Vocabulary -----------------------------------------------------------

enum Phase {
  setup @0;      # before turn 1
  muster @1;
  warfare @2;
  attrition @3;
  end @4;        # after GameEnded
}

enum Allegiance {
  clawEmpire @0;
  pawCoalition @1;
  weald @2;
  hirelings @3;
}

enum Victory {
  supremacy @0;
  attrition @1;
  concession @2;
  unfinished @3;
}

enum ChargeMode {
  normal @0;     # a Troop in the Warfare Phase
  burrow @1;     # a Burrowed Troop un-Burrows and Charges
  card @2;       # a card's effect starts the Charge
}

enum Recovery {
  pay @0;        # pay to return the Lost Troop to a Vanguard space
  reshuffle @1;  # shuffle the Lost Troop back into the Army Deck
}

# A card space on the battlefield grid, "a1" = col 0 row 0. The defaults make
# an absent Space read as "no space" (core::Space{} is col -1, row -1).
struct Space {
  col @0 :Int8 = -1;
  row @1 :Int8 = -1;
}

struct CardCount {
  card @0 :Text;   # catalog name
  count @1 :Int32;
}

struct SeatSetup {
  player @0 :Text;
  allegiance @1 :Allegiance;
}

struct PlacedTerritory {
  card @0 :Text;
  space @1 :Space;
}

struct TroopMoved {
  from @0 :Space;
  to @1 :Space;
}

struct Strike {    # damage one fighter assigns to one target
  target @0 :Space;
  damage @1 :Int32;
}

struct DefenderSplit {
  defender @0 :Space;
  strikes @1 :List(Strike);
}

struct PaidItem {  # a Troop by space, or a Gambit in play by name (space absent)
  space @0 :Space;
  card @1 :Text;
}

# --- The event --------------------------------------------------------------

# Readable on its own: the store and `verify` decode only this.
struct Header {
  game @0 :UInt64;      # format 1 only; format 2 leaves it 0 (a local id is not part of a game)
  seq @1 :UInt64;       # 0-based position in the game's stream
  turn @2 :UInt16;      # 0 during Setup
  phase @3 :Phase;
  seat @4 :UInt8 = 255; # the acting seat; 255 (kNoSeat) for table-wide events
  obsoletePrevHash @5 :Data;  # format 1's chain link (32 bytes); format 2 never writes it
  recordedAt @6 :Int64; # ms since the Unix epoch UTC when recorded; 0 = not recorded.
                        # Chained (inside the canonical bytes), never read by the fold.
}

struct Event {
  header @0 :Header;
  payload :union {
    # Setup
    gameCreated @1 :GameCreated;
    armyRegistered @2 :ArmyRegistered;
    # Turn frame
    turnStarted @3 :TurnStarted;
    moraleChecked @4 :MoraleChecked;
    phaseStarted @5 :PhaseStarted;
    gameEnded @6 :GameEnded;
    # Muster Phase
    cardsDrawn @7 :CardsDrawn;
    foraged @8 :Foraged;
    returnedFromHomeland @9 :ReturnedFromHomeland;
    gambitStocked @10 :GambitStocked;
    cardPlayed @11 :CardPlayed;
    troopMoved @12 :TroopMoved;
    troopsShifted @13 :TroopsShifted;
    abilityUsed @14 :AbilityUsed;
    troopBurrowed @15 :TroopBurrowed;
    troopUnburrowed @16 :TroopUnburrowed;
    # Warfare Phase
    shotteFired @17 :ShotteFired;
    chargeDeclared @18 :ChargeDeclared;
    chargeDeclined @19 :ChargeDeclined;
    localFavorUsed @20 :LocalFavorUsed;
    combatResolved @21 :CombatResolved;
    troopLost @22 :TroopLost;
    troopDefeated @23 :TroopDefeated;
    # Attrition Phase
    lostTroopRecovered @24 :LostTroopRecovered;
    provisionsPaid @25 :ProvisionsPaid;
    cardsDiscarded @26 :CardsDiscarded;
    territoryControlTaken @27 :TerritoryControlTaken;
    troopFled @28 :TroopFled;
    # Corrections (the recording issue; architecture.md › Store format 2 › 2)
    voided @29 :Voided;
    backupTo @30 :BackupTo;
    # Next free ordinal: @31.
  }
}

# --- Payloads ---------------------------------------------------------------
# Every payload is a struct, even an empty one, so that it can grow fields.

# Setup: the table as it was laid out, and what the game was played under.
struct GameCreated {
  title @0 :Text;
  date @1 :Text;            # ISO 8601 as recorded
  rulesetHash @2 :Text;     # hex content hash of the ruleset
  catalogHash @3 :Text;     # hex content hash of the card catalog
  seats @4 :List(SeatSetup);
  territories @5 :List(PlacedTerritory);
  cols @6 :Int8 = 5;        # battlefield size
  rows @7 :Int8 = 4;
  gameUuid @8 :Data;        # 16 random bytes for a game created live; empty when imported
  # A game of an event (warlog serve round open): its name, round and table;
  # empty and 0 otherwise, so other games' canonical bytes are unchanged.
  event @9 :Text;
  round @10 :UInt16;
  table @11 :UInt16;
}

# Setup: a seat's Army Deck, and the Claw Empire's Orders Deck beside it.
struct ArmyRegistered {
  seat @0 :UInt8;
  army @1 :List(CardCount);
  orders @2 :List(CardCount);
}

# A new turn begins (header.turn says which).
struct TurnStarted {}

# The Morale Check: who leads in Morale and acts first, as recorded.
struct MoraleChecked {
  leader @0 :UInt8;
}

# A phase begins; header.phase and header.seat say which and for whom.
struct PhaseStarted {}

# The game is over: the result as recorded, checked by the fold.
struct GameEnded {
  winner @0 :UInt8 = 255;   # 255 (kNoSeat): no winner
  victory @1 :Victory = unfinished;
}

# Cards drawn into hand, as revealed (the fold never draws at random).
struct CardsDrawn {
  cards @0 :List(Text);
}

# A card moved from hand to the Homeland, where it produces Provision supply.
struct Foraged {
  card @0 :Text;
}

# A card taken back from the Homeland to hand; it is not playable this turn.
struct ReturnedFromHomeland {
  card @0 :Text;
}

# The one extra Gambit per turn stocked from hand into the Homeland.
struct GambitStocked {
  card @0 :Text;
}

# A card played from hand into the Vanguard; no space for a Gambit held in play.
struct CardPlayed {
  card @0 :Text;
  space @1 :Space;
}

# (TroopMoved, above: a Troop moved from one space to another.)

# Own Troops swapped among each other while playing cards, in order.
struct TroopsShifted {
  moves @0 :List(TroopMoved);
}

# A Troop's ability used, named as recorded.
struct AbilityUsed {
  space @0 :Space;
  ability @1 :Text;
}

# A Troop goes into hiding.
struct TroopBurrowed {
  space @0 :Space;
}

# A Burrowed Troop comes out of hiding.
struct TroopUnburrowed {
  space @0 :Space;
}

# Ranged fire: one Shotte, once per time the card is played.
struct ShotteFired {
  shooter @0 :Space;
  target @1 :Space;
  damage @2 :Int32;
}

# A Charge, which starts Combat Resolution.
struct ChargeDeclared {
  mode @0 :ChargeMode;
  from @1 :Space;           # the un-Burrowing Troop for mode burrow
}

# The leader declines to Charge (and gains Local Favor).
struct ChargeDeclined {}

# Local Favor spent; free text, the Warfare document lists no options (R-005).
struct LocalFavorUsed {
  option @0 :Text;
}

# One combat: the attacker's damage split, and each defender's split.
struct CombatResolved {
  troop @0 :Space;
  strikes @1 :List(Strike);
  defenders @2 :List(DefenderSplit);
}

# A Troop is cut off: it cannot fight until recovered in Attrition.
struct TroopLost {
  space @0 :Space;
}

# A Troop defeated, as recorded; the fold derives and checks it.
struct TroopDefeated {
  space @0 :Space;
  beneath @1 :Space;        # the Territory chosen for it (rulings R-071); absent = not said
}

# A Lost Troop recovered, by paying (to a Vanguard space) or by reshuffling.
struct LostTroopRecovered {
  space @0 :Space;
  mode @1 :Recovery;
  to @2 :Space;             # the Vanguard space for mode pay
}

# Provision costs settled in the Attrition Phase, in the order paid.
struct ProvisionsPaid {
  paid @0 :List(PaidItem);
  unpaid @1 :List(PaidItem);
}

# Cards discarded from hand.
struct CardsDiscarded {
  cards @0 :List(Text);
}

# Control of a Territory taken, as recorded; the fold derives and checks it.
struct TerritoryControlTaken {
  territory @0 :Space;
}

# A Shocked Troop fled for want of Provisions, as recorded; the fold checks it.
struct TroopFled {
  space @0 :Space;
}

# A scorekeeper's slip: the fold skips event `target` (still in the chain).
struct Voided {
  target @0 :UInt64;
  reason @1 :Text;
  by @2 :Text;              # who voided it, as recorded
}

# A judge's backup: the state returns to just before event `target`; the
# events between stay in the chain, superseded.
struct BackupTo {
  target @0 :UInt64;
  reason @1 :Text;
  by @2 :Text;              # the judge: a keyring key id or a signer's name
  signature @3 :Data;       # Ed25519 by `by`'s key; empty = unsigned
}

# --- Snapshots of folded state ----------------------------------------------
# A core::GameState after event `seq`, for seeking (events/snapshot.hpp). Not
# part of the event stream and never hashed into the chain: a snapshot is a
# cache that seek validates (engine version, ruleset, catalog, game, seq and
# the chain hash it was folded through) and discards when anything differs.
# Nested types keep these names out of the event vocabulary's namespace.
# Defaults match the C++ defaults, so a default state packs to zeros.

struct Snapshot {
  header @0 :Header;
  state @1 :State;

  struct Header {
    engineVersion @0 :UInt32;  # core::kEngineVersion of the fold that made it
    rulesetHash @1 :Text;      # hex content hash of the ruleset folded under
    catalogHash @2 :Text;      # hex content hash of the catalog folded under
    game @3 :UInt64;
    seq @4 :UInt64;            # the state after this event
    chainHash @5 :Data;        # 32 bytes: the hash chain through event `seq`
  }

  struct Troop {
    card @0 :Text;
    owner @1 :UInt8;
    damage @2 :Int16;
    flags @3 :UInt16;          # core::TroopFlag bits
    enteredTurn @4 :UInt16;
    unburrowedTurn @5 :UInt16;
    lostTurn @6 :UInt16;
  }

  struct Cell {                # an occupied space: grid index (row-major) and its Troop
    index @0 :UInt32;
    troop @1 :Troop;
  }

  struct HeldCard {
    card @0 :Text;
    sinceTurn @1 :UInt16;
  }

  struct WageDue {
    card @0 :Text;
    space @1 :Space;
    unburrowed @2 :Bool;
  }

  struct Seat {
    player @0 :Text;
    allegiance @1 :Allegiance;
    registered @2 :Bool;
    deck @3 :List(CardCount);
    orders @4 :List(CardCount);
    hand @5 :List(CardCount);
    discard @6 :List(CardCount);
    notPlayableThisTurn @7 :List(CardCount);
    homeland @8 :List(HeldCard);
    gambitsInPlay @9 :List(HeldCard);
    drawnThisTurn @10 :Int32;
    foragedThisTurn @11 :Bool;
    returnedThisTurn @12 :Bool;
    gambitStockedThisTurn @13 :Bool;
    musteredThisTurn @14 :Bool;
    localFavorUntilTurn @15 :UInt16;
    cardsOwedDiscard @16 :Int32;
    actedThisPart @17 :Bool;
    recoverySpent @18 :Int32;
    provisionsPaidThisTurn @19 :Bool;
    fledThisPart @20 :Int32;
    rabbleSide @21 :Bool;
    wagesDue @22 :List(WageDue);
    turncoatOffer @23 :List(CardCount);
    turncoatDraws @24 :Int32;
    recoveredThisTurn @25 :Bool;
    textDraws @26 :Int32;        # extra draws a recorded card text or Local Favor allows this turn
  }

  struct Territory {
    card @0 :Text;
    space @1 :Space;
    beneath @2 :Int32;
    controller @3 :UInt8 = 255;  # retired at engine version 7, never written: Control is derived (R-017)
    finalDue @4 :Bool;           # to be answered in the final turn (rulings R-072)
  }

  # A Troop put beneath a Territory this turn (rulings R-071).
  struct Placement {
    card @0 :Text;
    troop @1 :Space;
    territory @2 :Int8 = -1;     # index into territories, checked on use
    beside @3 :Int8;
    chosen @4 :Bool;
    at @5 :UInt64;
  }

  struct State {
    # Setup
    title @0 :Text;
    date @1 :Text;
    rulesetHash @2 :Text;      # as GameCreated recorded it
    catalogHash @3 :Text;
    cols @4 :Int8;
    rows @5 :Int8;
    created @6 :Bool;
    gridSize @7 :UInt32;       # grid cells, occupied or not (cols * rows once created)
    grid @8 :List(Cell);       # the occupied cells, ascending index
    seats @9 :List(Seat);      # exactly core::kSeatCount
    territories @10 :List(Territory);
    # Where play stands
    nextSeq @11 :UInt64;
    turn @12 :UInt16;
    phase @13 :Phase;
    active @14 :UInt8 = 255;
    leader @15 :UInt8 = 255;
    part @16 :UInt8;
    # Warfare Phase
    chargeDeclared @17 :Bool;
    chargeDeclined @18 :Bool;
    charger @19 :UInt8 = 255;
    lastCombatMorale @20 :Int32 = -1;
    shotteSeats @21 :List(UInt8);
    vacatedThisCharge @22 :List(Space);
    fledThisTurn @23 :List(Space);
    defeatedThisTurn @24 :List(Space);
    defendersStruck @25 :List(Space);
    shotteAlternationBroken @26 :Bool;
    winCheckedThisTurn @27 :Bool;
    # Ending
    finalTurn @28 :UInt16;
    finalTerritory @29 :Int32 = -1;  # superseded by Territory.finalDue: the first due, for older readers
    winner @30 :UInt8 = 255;
    hasVictory @31 :Bool;
    victory @32 :Victory;
    hasDecidedAt @33 :Bool;
    decidedAt @34 :UInt64;
    playAfterEndReported @35 :Bool;
    moraleChecked @36 :Bool;     # this turn's Morale Check is recorded
    partStarted @37 :UInt64;     # the PhaseStarted that opened the part under way
    placedThisTurn @38 :List(Placement);
    decidedTurn @39 :UInt16;     # the turn the game was decided in; 0 while undecided
    chargeDeclaredAt @40 :UInt64; # the ChargeDeclared of the Charge under way
    cardsInGame @41 :Int64;       # cards both armies registered: conserved by every fold (check_invariants)
  }
}
