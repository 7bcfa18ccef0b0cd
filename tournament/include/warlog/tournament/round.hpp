#pragma once
// A round of an event: its games created from pairings (serve round open)
// and its results read back from the games themselves (serve results):
// event, round and table are in each game's GameCreated, the decks in its
// ArmyRegistered events, so what results reports rests on what verify
// checks (docs/architecture.md › Running an event).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "warlog/core/error.hpp"
#include "warlog/replay/disputes.hpp"
#include "warlog/replay/keyring.hpp"
#include "warlog/replay/replay.hpp"
#include "warlog/replay/rule_diff.hpp"
#include "warlog/tournament/decklists.hpp"
#include "warlog/tournament/pairings.hpp"

namespace warlog::tournament {

// A game of an event, as its GameCreated records it.
struct EventGame {
  core::GameId game = 0;
  std::string event;
  std::uint16_t round = 0;
  std::uint16_t table = 0;
};

// Every game of `event` (every event's when empty), by game id: each game's
// GameCreated read with its block's chain checked. Errors: the store's; a
// game whose first block cannot be read fails the call (DataLoss, naming it).
[[nodiscard]] Expected<std::vector<EventGame>> event_games(const replay::Archive& archive, const std::string& event);

struct TableGame {
  std::uint16_t table = 0;
  core::GameId game = 0;
  std::string player1, player2;
};

struct OpenedRound {
  std::string event;
  std::uint16_t round = 0;
  std::vector<TableGame> games;  // by table
  std::vector<Pairing> byes;     // no game (rulings R-093)
};

// Why a round was not opened; nothing was written.
struct RoundRefusal {
  Error error;                      // Conflict: the round is open already; NotFound: no registry;
                                    // InvalidArgument: the pairings; the store's
  std::vector<std::string> details; // "FILE:LINE: ...", one per problem
};

// Opens round `round` of the registered event from a pairings CSV: one
// game per table, created in one store transaction with event, round and
// table in its GameCreated and both players' registered decks in its
// ArmyRegistered events, 16 random bytes of gameUuid, and `now_ms` as the
// setup's recorded time. Every player must have a registered decklist,
// audited again (rulings R-094); a round that has any game already is
// refused (Conflict, naming the games).
[[nodiscard]] tl::expected<OpenedRound, RoundRefusal> open_round(replay::Archive& archive, std::uint16_t round,
                                                                 std::string_view pairings_csv,
                                                                 const std::string& pairings_file,
                                                                 std::int64_t now_ms);

// What a judge still has to look at in a game (rulings R-092): its
// violations at no event a resolved dispute concerns (a struck event's
// findings are notes already, R-065), in the audit's order, and its
// disputes no ruling has resolved. What serve results counts and the
// server's overview shows.
struct OpenMatters {
  std::vector<const replay::LocatedFinding*> violations;  // into the findings given
  std::size_t disputes = 0;
};
[[nodiscard]] OpenMatters open_matters(const std::vector<replay::LocatedFinding>& findings,
                                       const std::vector<replay::Dispute>& disputes);

// One table's result.
struct TableResult {
  std::uint16_t table = 0;
  replay::GameSummary game;
  replay::Outcome outcome;          // as the fold derives it, corrections (voids, backups) applied
  std::size_t open_violations = 0;  // violations at no event a resolved dispute concerns (rulings R-092)
  std::size_t open_disputes = 0;
  replay::GameTrust::Verdict trust = replay::GameTrust::Verdict::Unsigned;
  std::string trust_line;           // verify's line
};

// Every game of round `round` of `event`, by table. Errors: NotFound when
// the round has no game; the store's (a game that cannot be audited names
// itself).
[[nodiscard]] Expected<std::vector<TableResult>> round_results(const replay::Archive& archive, const std::string& event,
                                                               std::uint16_t round, const replay::Keyring& keyring);

// "trusted", "unknown key", "stale", "INVALID", "unsigned".
[[nodiscard]] std::string_view trust_word(replay::GameTrust::Verdict v) noexcept;

// The CSV (RFC 4180, a header row): table, game, player_1, player_2, result,
// winner, victory, turn, open_violations, open_disputes, signed.
[[nodiscard]] std::string results_csv(const std::vector<TableResult>& results);
// The JSON of docs/schema/serve-results.schema.json without its `schema`
// field (the front end adds it): {event, round, tables: [...]}.
[[nodiscard]] nlohmann::json results_json(const std::string& event, std::uint16_t round,
                                          const std::vector<TableResult>& results);

}  // namespace warlog::tournament
