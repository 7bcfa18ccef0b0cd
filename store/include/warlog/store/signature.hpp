#pragma once
// Ed25519 signatures over a game (libsodium crypto_sign_*): whoever recorded
// or judged a game signs it; `verify` says whose key signed, whether the game
// is still what was signed, and (against a keyring, replay/keyring.hpp)
// whether that key is trusted. docs/architecture.md › Store format 2 §6.
//
// The signed message of a GameSigned (all integers little-endian):
//   "warlog.game-signature.2" ‖ u16 len ‖ signer ‖ i64 signed_at_ms ‖
//   key id (8) ‖ identity (32) ‖ u64 event count ‖ event head (32) ‖
//   u64 annotation count ‖ annotation head (32)
// where the event head is the event chain's over the first event_count
// events (Reader::chain_heads) and the annotation count and head are those
// of the annotation chain before the signature itself (annotations.hpp). The
// key id is the first 8 bytes of BLAKE2b-256(public key). Everything a reader
// is told about a signature is inside the message: a flipped byte cannot
// rename the signer, move its time or point it at another game; removing an
// annotation it covered makes it INVALID, adding one after it makes it stale.
//
// A judge's ruling may carry the judge's signature (core::RulingSignature):
//   "warlog.ruling-signature.2" ‖ u16 len ‖ ruled_by ‖ i64 signed_at_ms ‖
//   key id (8) ‖ identity (32) ‖ canonical bytes of the ruling (its
//   AnnotationAt, seq included, without the signature)
// The architecture names the same prefix as the game's; the tag differs so
// that no signature made for one can ever be read as the other.
//
// Checking never trusts the game record: the event head is recomputed from
// the stored events and the annotation head from the stored annotations.

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "warlog/core/annotation.hpp"
#include "warlog/core/error.hpp"
#include "warlog/store/annotations.hpp"

namespace warlog::store {

class Store;
class Reader;

// --- Keys -------------------------------------------------------------------------
// A secret key is its 32-byte seed; the public key is derived from it. The
// seed is wiped when the value is destroyed.
struct KeyPair {
  std::array<std::uint8_t, 32> seed{};
  core::PublicKey public_key{};

  KeyPair() = default;
  KeyPair(const KeyPair&) = default;
  KeyPair& operator=(const KeyPair&) = default;
  ~KeyPair();
};

// A fresh key from the OS's randomness. Errors: Internal when libsodium
// cannot initialise.
[[nodiscard]] Expected<KeyPair> generate_keypair();
[[nodiscard]] KeyPair keypair_from_seed(const std::array<std::uint8_t, 32>& seed);

// The key file: text, three lines ("# ...", "seed HEX", "public HEX").
// write_key_file creates it with mode 0600 and refuses to replace any file
// (Conflict "FILE exists"). read_key_file refuses a file others can read
// (InvalidArgument, "chmod 600"), and one whose public line does not match
// the seed (DataLoss); NotFound when absent.
[[nodiscard]] Expected<void> write_key_file(const std::filesystem::path& path, const KeyPair& key);
[[nodiscard]] Expected<KeyPair> read_key_file(const std::filesystem::path& path);

// 64 lowercase hex digits.
[[nodiscard]] std::string public_key_hex(const core::PublicKey& key);

// --- Key ids and public key files -------------------------------------------------
[[nodiscard]] core::KeyId key_id_of(const core::PublicKey& key);
[[nodiscard]] std::string key_id_hex(const core::KeyId& id);  // 16 lowercase hex digits

// A public key file: "# ..." and "public HEX" (warlog keygen --public-out).
// Created 0644, never replacing a file (Conflict).
[[nodiscard]] Expected<void> write_public_key_file(const std::filesystem::path& path, const core::PublicKey& key);
// The public key in a public key file or a secret key file (read as
// read_key_file reads it). Errors: NotFound, InvalidArgument for neither.
[[nodiscard]] Expected<core::PublicKey> read_public_key(const std::filesystem::path& path);

// --- Signing ----------------------------------------------------------------------
// The message a GameSigned's signature is over, from its own fields.
// InvalidArgument for a signer over 65,535 bytes.
[[nodiscard]] Expected<std::string> signed_message(const core::GameSigned& s);
// The message a ruling's judge signature is over; `ruling` without its signature.
[[nodiscard]] Expected<std::string> ruling_message(const core::DisputeRuled& ruling, core::Seq seq,
                                                   const core::Digest& identity, std::int64_t signed_at_ms,
                                                   const core::KeyId& key_id);
[[nodiscard]] core::Signature sign_message(const KeyPair& key, std::string_view message);
[[nodiscard]] bool signature_matches(const core::PublicKey& key, std::string_view message,
                                     const core::Signature& signature) noexcept;

// Signs the game as it stands (its identity, event chain and annotation
// chain) and appends the record. Refuses (DataLoss, the first broken link) a
// game that does not verify: a signature vouches for what is stored.
// Errors: InvalidArgument for an empty or over-long signer; Conflict when
// another writer appended in between; NotFound, as Store::append_annotation.
[[nodiscard]] Expected<AnnotationRecord> sign_game(Store& store, core::GameId game, const KeyPair& key,
                                                   const std::string& signer, std::int64_t signed_at_ms);

// Puts the judge's signature on `ruling` (a ruling about `seq` of the game
// with this identity), signed by `key` as ruling.ruled_by.
[[nodiscard]] Expected<void> sign_ruling(core::DisputeRuled& ruling, core::Seq seq, const core::Digest& identity,
                                         const KeyPair& key, std::int64_t signed_at_ms);

// --- Checking ---------------------------------------------------------------------
struct SignatureCheck {
  enum class Status : std::uint8_t {
    Valid,    // covers every event and every annotation but later signatures
    Stale,    // what it covers is as signed; events or annotations were added since
    Invalid,  // the signature, or what it covers, does not match
  };
  AnnotationRecord record;  // holds the core::GameSigned
  Status status = Status::Invalid;
  core::Seq events_since = 0;           // Stale: events appended after the signed ones
  std::uint64_t annotations_since = 0;  // Stale: annotations after it, signatures not counted
  std::string detail;  // "valid", "stale: 3 events since", "INVALID: ..."

  [[nodiscard]] const core::GameSigned& signature() const;
};

// Every signature of the game, in the order made, each checked against the
// stored events and annotations (one pass over the stream). Never fails for
// damage: damage makes the signatures over it Invalid. Errors: NotFound for
// an unknown game; DataLoss for an undecodable annotation; IoError etc.
[[nodiscard]] Expected<std::vector<SignatureCheck>> check_signatures(const Reader& reader, core::GameId game);

struct RulingSignatureCheck {
  AnnotationRecord record;  // holds the signed core::DisputeRuled
  bool valid = false;
  std::string detail;  // "valid" or "INVALID: ..."

  [[nodiscard]] const core::RulingSignature& signature() const;
};
// Every signed ruling of the game, checked.
[[nodiscard]] Expected<std::vector<RulingSignatureCheck>> check_ruling_signatures(const Reader& reader,
                                                                                  core::GameId game);

}  // namespace warlog::store
