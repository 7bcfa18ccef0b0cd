#pragma once
// Disputes: a claim raised at an event of a stored game, and the rulings on
// it, kept beside the log (the store's `annotations` database), never in it.
// Append-only: resolving appends a ruling that refers to the dispute; the
// dispute's status is a fold of its records, so the history stays.
//
// A dispute is named "GAME:SEQ:N" ("1:27:0"): the N-th dispute raised about
// the event at seq SEQ of game GAME (0, 1, 2, ...), counted in the game's
// annotation order, so ids are dense per event whatever rulings and
// signatures lie between (docs/architecture.md › Store format 2 §3). A ruling
// names its dispute by (SEQ, N). Timestamps are text as the caller gives
// them; nothing here reads a clock.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "warlog/core/annotation.hpp"
#include "warlog/core/error.hpp"
#include "warlog/replay/replay.hpp"
#include "warlog/store/signature.hpp"

namespace warlog::replay {

struct DisputeId {
  core::GameId game = 0;
  core::Seq seq = 0;
  std::uint32_t n = 0;
  friend bool operator==(const DisputeId&, const DisputeId&) = default;
};

[[nodiscard]] std::string to_string(const DisputeId& id);  // "1:27:0"
// "G:S:N" with decimal numbers; nullopt otherwise.
[[nodiscard]] std::optional<DisputeId> parse_dispute_id(std::string_view text) noexcept;

struct Dispute {
  DisputeId id;
  core::DisputeRaised raised;
  std::vector<core::DisputeRuled> rulings;  // in the order made; the last is in force

  // Open until a ruling; then what the ruling in force says.
  [[nodiscard]] core::DisputeStatus status() const noexcept;
  // The last ruling, or nullptr when none.
  [[nodiscard]] const core::DisputeRuled* in_force() const noexcept;
};

// A citation as a person typed it: an id the rule registry knows
// ("MUS-a.draw") is a rule citation; anything else is kept as free text.
[[nodiscard]] core::Citation make_citation(std::string_view text);
// A citation as every reader words it: "WAR-C.lost (Warfare Phase › Combat
// Rulings)" for a rule, the text itself otherwise.
[[nodiscard]] std::string citation_words(const core::Citation& c);
// "the audit reports WAR-C.lost at seq 122" / "... reports no ...".
[[nodiscard]] std::string expectation_words(const core::Expectation& e, core::Seq seq);

struct NewDispute {
  core::GameId game = 0;
  core::Seq seq = 0;
  std::string claim;
  std::string raised_by;
  std::vector<std::string> citations;  // each a rule id, or kept as free text (make_citation)
  std::string created_at;
  std::vector<std::string> text_citations;  // free text, never read as a rule id
};

struct NewRuling {
  std::string ruling;
  std::string ruled_by;
  std::vector<std::string> citations;
  std::optional<core::Expectation> expectation;  // what the audit must report at the event
  std::string ruled_at;
  // A dispute already resolved is only ruled on again on purpose (an appeal):
  // the new ruling supersedes, the old one stays in the history.
  bool supersede = false;
  std::vector<std::string> text_citations;  // free text, never read as a rule id
  // The judge's key: the ruling is signed (store/signature.hpp) by ruled_by.
  std::optional<store::KeyPair> key;
  std::int64_t signed_at_ms = 0;
};

// "open", "resolved".
[[nodiscard]] std::string_view status_word(core::DisputeStatus s) noexcept;
// One dispute as JSON (docs/schema/dispute.schema.json without `schema`):
// id, game, title, seq, status, claim, raised_by, created_at, citations,
// rulings. What `warlog dispute list|show --format json` and the server's
// GET /api/games/N/disputes write.
[[nodiscard]] nlohmann::json dispute_json(const Dispute& d, const std::string& title);

// --- Recording -----------------------------------------------------------------
// An exact repeat of a dispute already raised at the event (same claim, by,
// citations; the time aside) records nothing and returns the existing id,
// with *already = true: a retry or a script run twice never records twice.
// Errors: InvalidArgument for an empty claim or name; NotFound for an unknown
// game or a seq past its last event; Conflict when another writer appended
// at the same moment (nothing written).
[[nodiscard]] Expected<DisputeId> add_dispute(const Archive& archive, const NewDispute& d,
                                              bool* already = nullptr);

// Appends a ruling and returns the dispute with it. Repeating the ruling in
// force (same ruling, by, citations, expectation) records nothing, with
// *already = true. Errors: NotFound for an unknown dispute; InvalidArgument
// for an empty ruling or name, or an expectation naming a rule the engine
// does not know; Conflict when the dispute is already resolved and
// !supersede, or another writer appended at the same moment (nothing written).
[[nodiscard]] Expected<Dispute> resolve_dispute(const Archive& archive, const DisputeId& id, const NewRuling& r,
                                                bool* already = nullptr);

// --- Reading -----------------------------------------------------------------------
// Every dispute of a game (nullopt: of every game), by game, then in the
// order raised.
[[nodiscard]] Expected<std::vector<Dispute>> list_disputes(const Archive& archive,
                                                           std::optional<core::GameId> game);
// Errors: NotFound "no dispute 1:27:0".
[[nodiscard]] Expected<Dispute> find_dispute(const Archive& archive, const DisputeId& id);

// Both check the game's annotation chain as they read it (store::Reader::
// annotations): a game whose chain breaks (a ruling edited in place, one
// removed) is DataLoss "game G: trust: BROKEN at annotation N: ...", never
// a list of what the bytes say now; annotations under an id with no game
// record are DataLoss "game G: annotations ... with no game record".

// One game's disputes, or why they cannot be read (the errors above).
struct GameDisputes {
  core::GameId game = 0;
  Expected<std::vector<Dispute>> disputes;
};
// Every game's disputes, one entry per game id in the store (its records,
// and the ids of events or annotations with no record), in id order: one
// broken game hides no other. Errors: only the store's.
[[nodiscard]] Expected<std::vector<GameDisputes>> disputes_by_game(const Archive& archive);

}  // namespace warlog::replay
