#pragma once
// An event's setup and its registered decklists (docs/server.md § 7): the
// head judge declares the event once ([Event], [Ruleset], [Catalog],
// [Board], [Territory] tags) and registers each player's decklist, audited
// against Deck Construction as the audit audits a game's ArmyRegistered.
//
// Where they live: the registry (STORE/event.wlog, tags in the notation's
// own syntax) is only a convenience input for `serve round open`, which
// copies each player's deck into the game's own GameCreated and
// ArmyRegistered events: what results, audit and verify read afterwards is
// the chained stream, never the registry (docs/architecture.md › Running an
// event).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "warlog/core/catalog.hpp"
#include "warlog/core/error.hpp"
#include "warlog/core/event.hpp"
#include "warlog/core/ruleset.hpp"
#include "warlog/replay/replay.hpp"

namespace warlog::tournament {

// What every game of the event is played under.
struct EventSetup {
  std::string name;          // [Event "Old Mill Open"]
  std::string date;          // [Date "2026-03-14"], may be empty
  std::string ruleset_hash;  // hex; a blob in the store once resolved
  std::string catalog_hash;
  std::int8_t cols = 5;      // [Board "5x3"]
  std::int8_t rows = 4;
  std::vector<core::PlacedTerritory> territories;
  friend bool operator==(const EventSetup&, const EventSetup&) = default;
};

// One player's decklist: [Player], [Allegiance], [Army], [Orders] tags.
struct Decklist {
  std::string player;
  core::Allegiance allegiance = core::Allegiance::ClawEmpire;
  std::vector<core::CardCount> army;
  std::vector<core::CardCount> orders;
  std::string source;  // "alice.decklist:2": where its [Player] tag is
  friend bool operator==(const Decklist&, const Decklist&) = default;
};

// The event and its decklists, sorted by player.
struct Registry {
  EventSetup event;
  std::vector<Decklist> decklists;
  [[nodiscard]] const Decklist* find(std::string_view player) const noexcept;  // player_key() equal
};

// How player names are matched between decklists and pairings (rulings
// case-insensitive, blanks at the ends dropped and runs of blanks
// inside taken as one.
[[nodiscard]] std::string player_key(std::string_view name);

// A deck that breaks Deck Construction: the fold's finding for it.
struct DeckFault {
  std::string player;
  std::string source;     // the decklist's file:line
  std::string rule_id;    // "DECK.size"
  std::string citation;   // "Deck Construction › Deck Size"
  std::string message;
};

// Audits one decklist against Deck Construction under the event's ruleset,
// catalog and Territories (the Deck Size limit grows with them, rulings
// the same check the audit makes when a game's ArmyRegistered is
// folded, so a deck registered here is never a finding later. Returns
// every violation (empty: the deck is sound); warnings are not refusals.
[[nodiscard]] std::vector<DeckFault> audit_decklist(const EventSetup& event, const core::Catalog& catalog,
                                                    const core::Ruleset& ruleset, const Decklist& deck);

// The header of one game of the event, in the notation: its tags only
// ([Title], [Event], [Round], [Table], [Date], [Ruleset] and [Catalog] as
// content hashes, [Board], [Territory], both seats and their decks inline).
[[nodiscard]] std::string game_header(const EventSetup& event, std::uint16_t round, std::uint16_t table,
                                      const Decklist& seat1, const Decklist& seat2);

// --- Registering -------------------------------------------------------------

// What `serve decks` was given: an event file (tags of the event, maybe
// decklists too) and decklist files; a directory stands for its
// event.wlog (the event file, unless one is given) and its *.decklist files.
struct DeckInput {
  std::optional<std::string> event_file;
  std::vector<std::string> paths;  // files or directories
};

struct Registered {
  Registry registry;                 // as stored now (or, when refused, as it would have been)
  std::vector<std::string> added;    // players newly registered
  std::vector<std::string> replaced; // players whose decklist this replaced
  std::vector<DeckFault> refused;    // non-empty: nothing was written
};

// Reads the inputs, resolves the event's catalog and ruleset (files relative
// to the event file, or content hashes of blobs in the store; files are
// stored as blobs), checks every card name against the catalog, audits
// every decklist (the registry's kept ones too, when the event changes),
// and only when none is refused writes the registry. A player named twice
// in one call is an error; a player already registered is replaced.
// Errors: InvalidArgument "FILE:LINE:COL: ..." for a malformed file (every
// problem of a file, one per line), NotFound for a missing input, no event
// given and none registered; IoError.
[[nodiscard]] Expected<Registered> register_decklists(replay::Archive& archive, const DeckInput& input);

// The registry of the store (nullopt: none yet). Errors: InvalidArgument
// for a registry that does not parse, DataLoss when a blob it names is
// missing; IoError.
[[nodiscard]] Expected<std::optional<Registry>> load_registry(const replay::Archive& archive);

// Where the registry is kept: STORE/event.wlog.
[[nodiscard]] std::string registry_path(const replay::Archive& archive);

// The registry as its file holds it (a round trip through load_registry).
[[nodiscard]] std::string registry_text(const Registry& r);

}  // namespace warlog::tournament
