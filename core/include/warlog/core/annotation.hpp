#pragma once
// Annotations: what is recorded beside a game's stream, never in it (DESIGN,
// "Disputes"): a dispute raised at an event, the rulings on it, and
// signatures over the stream. Value types. The store keeps them append-only
// in the `annotations` database under game ‖ n, n dense per game in the
// order of appending, chained (store/annotations.hpp); each names the event
// it concerns (AnnotationAt::seq). A ruling is a new record referring to its
// dispute, so the history stays and a dispute's status is a fold of its
// records (replay/disputes.hpp).
//
// Timestamps are given by the caller (the CLI passes the wall clock): neither
// core nor the store reads a clock. Disputes and rulings keep ISO 8601 text;
// signatures keep milliseconds since the Unix epoch, since they are signed.

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

using PublicKey = std::array<std::uint8_t, 32>;   // Ed25519
using Signature = std::array<std::uint8_t, 64>;   // Ed25519, detached
using KeyId = std::array<std::uint8_t, 8>;        // the first 8 bytes of BLAKE2b-256(public key)

// A judge's Ed25519 signature over the ruling it is part of (the signed
// message: store/signature.hpp); the signer is the ruling's ruled_by.
struct RulingSignature {
  std::int64_t signed_at_ms = 0;
  KeyId key_id{};
  PublicKey public_key{};
  Signature signature{};
  friend bool operator==(const RulingSignature&, const RulingSignature&) = default;
};

// A ruling on dispute (seq, `dispute`): the `dispute`-th DisputeRaised (0, 1,
// ...) about the same seq, counted in the game's annotation order. A later
// ruling on the same dispute supersedes an earlier one (an appeal); both stay.
struct DisputeRuled {
  std::uint32_t dispute = 0;
  DisputeStatus status = DisputeStatus::Resolved;
  std::string ruling;
  std::string ruled_by;
  std::vector<Citation> citations;
  std::optional<Expectation> expectation;
  std::string ruled_at;
  std::optional<RulingSignature> signature;  // the judge's, when the ruling was signed
  friend bool operator==(const DisputeRuled&, const DisputeRuled&) = default;
};

// An Ed25519 signature over the game as it stood: its identity, its event
// chain (count, head) and its annotation chain before this record (count,
// head), with the signer's name, time and key id inside the signed message
// (store/signature.hpp). Concerns seq = event_count - 1, the last event it
// covers.
struct GameSigned {
  std::string signer;  // self-declared; the keyring says whose key it is
  PublicKey public_key{};
  KeyId key_id{};
  std::int64_t signed_at_ms = 0;
  Digest identity{};
  Seq event_count = 0;
  Digest head{};  // the event chain's head over event_count events, as signed
  std::uint64_t annotation_count = 0;  // annotations before this one
  Digest annotation_head{};            // A(annotation_count - 1), or A(-1)
  Signature signature{};
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

// An annotation with the event it concerns: what one stored value holds.
struct AnnotationAt {
  Seq seq = 0;
  Annotation value;
  friend bool operator==(const AnnotationAt&, const AnnotationAt&) = default;
};

}  // namespace warlog::core
