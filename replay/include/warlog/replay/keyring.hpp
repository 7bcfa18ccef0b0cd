#pragma once
// The keyring: whose keys this user trusts, and what they have seen signed.
// A signature alone proves only that someone with a key signed; whether that
// someone is the Head Judge is the reader's knowledge, so it lives outside
// any store (docs/architecture.md › Store format 2 §6, docs/reliability.md).
//
// Where: --keyring PATH, else $WARLOG_KEYRING, else
// $XDG_CONFIG_HOME/warlog/keyring, else ~/.config/warlog/keyring. A keyring
// inside the store's directory is refused: whoever can write the store could
// then write the trust too.
//
// The file is text, one entry a line, rewritten whole (a temporary file
// renamed over it) with mode 0600; one that others may write is refused:
//   key KEYID PUBLICKEY NAME          a trusted key (16 hex, 64 hex, the rest)
//   seen IDENTITY N EVENTHEAD M ANNOTATIONHEAD KEYID SIGNEDATMS
// A `seen` line is a state (identity, event count and head, annotation count
// and head) that verify has seen validly signed by a trusted key. A store
// that no longer holds it (the game's chains do not pass through it) has had
// history removed or rewritten, even if it is consistent and re-signed by an
// unknown key: verify reports it as vanished.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "warlog/core/annotation.hpp"
#include "warlog/core/error.hpp"
#include "warlog/replay/replay.hpp"

namespace warlog::replay {

struct TrustedKey {
  std::string name;  // the keyring owner's name for the key, not the signer's claim
  core::PublicKey public_key{};
  core::KeyId key_id{};
  friend bool operator==(const TrustedKey&, const TrustedKey&) = default;
};

struct SignedState {
  core::Digest identity{};
  core::Seq event_count = 0;
  core::Digest event_head{};
  std::uint64_t annotation_count = 0;
  core::Digest annotation_head{};
  core::KeyId key_id{};  // who signed it
  std::int64_t signed_at_ms = 0;
  friend bool operator==(const SignedState&, const SignedState&) = default;
};

// A value: load, change, save.
class Keyring {
 public:
  // An absent file is an empty keyring (nothing trusted yet). Errors:
  // InvalidArgument for a file others may write; DataLoss "keyring P:LINE:
  // ..." for a line that does not parse or a key id that is not its key's.
  [[nodiscard]] static Expected<Keyring> load(const std::filesystem::path& path);
  // Writes the whole file (directory made 0700 if absent, file 0600).
  [[nodiscard]] Expected<void> save() const;

  [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }
  [[nodiscard]] const std::vector<TrustedKey>& keys() const noexcept { return keys_; }
  [[nodiscard]] const std::vector<SignedState>& seen() const noexcept { return seen_; }
  [[nodiscard]] const TrustedKey* find(const core::KeyId& id) const noexcept;

  // Errors: InvalidArgument for an empty name or one with a line break;
  // Conflict when the name or the key is already trusted.
  [[nodiscard]] Expected<TrustedKey> add(const std::string& name, const core::PublicKey& key);
  // By name or key id (16 hex digits). NotFound when neither is trusted. The
  // states it signed stay remembered: removing trust does not rewrite history.
  [[nodiscard]] Expected<TrustedKey> remove(std::string_view name_or_key_id);
  // True when it was not remembered yet.
  bool remember(const SignedState& state);

 private:
  std::filesystem::path path_;
  std::vector<TrustedKey> keys_;
  std::vector<SignedState> seen_;
};

// The keyring's path: `flag` when given, else the environment (above).
// InvalidArgument when no default can be formed (no HOME).
[[nodiscard]] Expected<std::filesystem::path> keyring_path(const std::string& flag);
// InvalidArgument when `keyring` is inside (or is) the store directory.
[[nodiscard]] Expected<void> check_keyring_outside(const std::filesystem::path& keyring,
                                                   const std::filesystem::path& store);

// --- What verify says about one game ---------------------------------------------------
struct GameTrust {
  enum class Verdict : std::uint8_t {
    Trusted,   // a current valid signature by a trusted key
    Unknown,   // a current valid signature, by no trusted key
    Stale,     // signatures hold, but events or annotations were added since; or a state the
               // keyring saw signed by a trusted key is here but its signature was removed
    Invalid,   // a signature does not hold
    Unsigned,  // no signature: consistent, nobody attests it
  };
  Verdict verdict = Verdict::Unsigned;
  std::string line;                // "valid, signed by trusted 'Head Judge' (key 35cc37a9d2e4b7a8) ..."
  std::vector<std::string> notes;  // every signature, signed rulings, vanished states
  bool vanished = false;           // a state the keyring saw signed is no longer here
  bool bad_ruling = false;         // a ruling's (verify: or a backup's) judge signature does not hold
  std::vector<SignedState> to_remember;  // valid states signed by trusted keys

  // What verify exits 1 for (besides a broken chain).
  [[nodiscard]] bool failed() const noexcept { return verdict == Verdict::Invalid || vanished || bad_ruling; }
};

// Errors: the store's (NotFound for an unknown game, DataLoss for an
// undecodable annotation, ...).
[[nodiscard]] Expected<GameTrust> assess_game(const Archive& archive, core::GameId id, const Keyring& keyring);

// Who attests the game, in the words every reader says it (verify, audit,
// export, the dispute report): `trust.line`, except that an unsigned game
// whose chain is broken is "unsigned: nobody attests it" (never
// "consistent"), and a valid signature beside a signed state or ruling that
// does not hold is "REFUSED (...): " that line.
[[nodiscard]] std::string attestation_line(const GameTrust& trust, bool chain_ok);

}  // namespace warlog::replay
