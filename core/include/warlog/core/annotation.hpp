#pragma once
// Annotations: what is recorded beside a game's stream, never in it (DESIGN,
// "Disputes"): a dispute raised at an event, the rulings on it, and
// signatures over the stream. Value types. The store keeps them append-only
// in the `annotations` database under game ‖ seq ‖ n (store/annotations.hpp);
// a ruling is a new record referring to its dispute, so the history stays and
// a dispute's status is a fold of its records (replay/disputes.hpp).
//
// Timestamps are text as the caller gives them (the CLI passes the wall
// clock as ISO 8601 UTC): neither core nor the store reads a clock.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "warlog/core/event.hpp"
#include "warlog/core/hash.hpp"

namespace warlog::core {

// A rule id the engine knows ("MUS-a.draw"), or free text ("rulings R-010",
// "designer's email of 2026-03-20").
struct Citation {
  enum class Kind : std::uint8_t { Rule, Text };
  Kind kind = Kind::Text;
  std::string text;
  friend bool operator==(const Citation&, const Citation&) = default;
};

// What a ruling says the audit must report at the disputed event: a finding
// of rule_id there (present) or none (absent). What `dispute export-test`
// turns into a regression case.
struct Expectation {
  std::string rule_id;
  bool present = true;
  friend bool operator==(const Expectation&, const Expectation&) = default;
};

enum class DisputeStatus : std::uint8_t { Open, Resolved };

// A claim about the event it is keyed under.
struct DisputeRaised {
  std::string claim;
  std::string raised_by;
  std::vector<Citation> citations;
  std::string created_at;
  friend bool operator==(const DisputeRaised&, const DisputeRaised&) = default;
};

// A ruling on the DisputeRaised stored at the same game and seq under n =
// `dispute`. A later ruling on the same dispute supersedes an earlier one
// (an appeal); both stay.
struct DisputeRuled {
  std::uint32_t dispute = 0;
  DisputeStatus status = DisputeStatus::Resolved;
  std::string ruling;
  std::string ruled_by;
  std::vector<Citation> citations;
  std::optional<Expectation> expectation;
  std::string ruled_at;
  friend bool operator==(const DisputeRuled&, const DisputeRuled&) = default;
};

using PublicKey = std::array<std::uint8_t, 32>;   // Ed25519
using Signature = std::array<std::uint8_t, 64>;   // Ed25519, detached

// An Ed25519 signature over (game id, event_count, head): see
// store/signature.hpp for the signed message. Keyed under seq =
// event_count - 1, the last event it covers.
struct GameSigned {
  std::string signer;
  PublicKey public_key{};
  Seq event_count = 0;
  Digest head{};  // chain hash of event event_count - 1, as signed
  Signature signature{};
  std::string signed_at;
  friend bool operator==(const GameSigned&, const GameSigned&) = default;
};

// The last record a migration appends to each game (`warlog migrate`,
// docs/architecture.md › "Store format 2" › 7): what the game was in format
// 1, so that verify can say where it came from and who had signed it there.
struct Migrated {
  Digest format1_head{};              // format 1's chain hash of the last event
  Seq event_count = 0;
  std::vector<PublicKey> signer_keys;  // format-1 signatures found valid at that head
  std::vector<std::string> signers;    // their self-declared names, same order
  std::int64_t migrated_at = 0;        // ms since the Unix epoch UTC
  friend bool operator==(const Migrated&, const Migrated&) = default;
};

using Annotation = std::variant<DisputeRaised, DisputeRuled, GameSigned, Migrated>;

}  // namespace warlog::core
