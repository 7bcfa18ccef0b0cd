#pragma once
// Ed25519 signatures over a game's stream (libsodium crypto_sign_*): whoever
// recorded a game signs it; `verify` says who signed and whether the stream
// still matches.
//
// The signed message (56 + 23 bytes):
//   "warlog.game-signature.1" ‖ game u64 BE ‖ event_count u64 BE ‖ head (32)
// where head = the chain hash of event event_count - 1 (store.hpp): BLAKE2b
// folded over every stored byte of events 0..event_count-1. The record
// (core::GameSigned) is appended to the `annotations` database at seq
// event_count - 1 (annotations.hpp), never replacing an earlier one.
//
// Checking recomputes that head from the stored bytes, chaining from seq 0,
// rather than trusting the game's metadata: a byte changed anywhere in the
// signed events invalidates the signature even where the metadata's head
// (and every header after the change) still agree.

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

// --- Signing ----------------------------------------------------------------------
[[nodiscard]] std::string signed_message(core::GameId game, core::Seq event_count, const core::Digest& head);
[[nodiscard]] core::Signature sign_message(const KeyPair& key, std::string_view message);
[[nodiscard]] bool signature_matches(const core::PublicKey& key, std::string_view message,
                                     const core::Signature& signature) noexcept;

// Signs the game as it stands and appends the record. Refuses (DataLoss, the
// first broken link) a game whose chain does not verify: a signature vouches
// for what is stored. signed_at is kept as given. Errors: NotFound, as
// Store::append_annotation.
[[nodiscard]] Expected<AnnotationRecord> sign_game(Store& store, core::GameId game, const KeyPair& key,
                                                   const std::string& signer, const std::string& signed_at);

// --- Checking ---------------------------------------------------------------------
struct SignatureCheck {
  enum class Status : std::uint8_t {
    Valid,    // covers every event, and they are as signed
    Stale,    // the events it covers are as signed; more were appended since
    Invalid,  // the signature or the signed events do not match
  };
  AnnotationRecord record;     // holds the core::GameSigned
  Status status = Status::Invalid;
  core::Seq events_since = 0;  // Stale: events appended after the signed ones
  std::string detail;          // "valid", "stale: game has 3 events since", "INVALID: ..."

  [[nodiscard]] const core::GameSigned& signature() const;
};

// Every signature of the game, in the order made, each checked against the
// stored bytes (one pass over the stream). Never fails for damage: a damaged
// stream makes the signatures over it Invalid. Errors: NotFound for an
// unknown game; DataLoss for an undecodable annotation; IoError etc.
[[nodiscard]] Expected<std::vector<SignatureCheck>> check_signatures(const Reader& reader, core::GameId game);

}  // namespace warlog::store
