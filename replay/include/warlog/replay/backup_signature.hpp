#pragma once
// A judge's backup signed by the judge (issue 16: "the backup is signed with
// it"; `warlog record --sign-as KEYFILE`), checked by verify as a ruling's
// judge signature is (docs/rulings.md R-084).
//
// BackupTo.signature holds the judge's public key (32 bytes), then an
// Ed25519 signature (64 bytes) over
//   "warlog.backup-signature.2" 0x00
//   || the event chain's head before the backup (32 bytes)
//   || the backup event's canonical bytes with `signature` empty
// so it names the very history it backs up (moved to another game or to
// another place in one, it fails), it survives export and import (the chain
// is over canonical bytes), and its tag keeps it from being replayed as a
// game's or a ruling's signature. Whose key it is, is the keyring's to say.

#include <string>
#include <vector>

#include "warlog/core/annotation.hpp"
#include "warlog/core/event.hpp"
#include "warlog/replay/replay.hpp"
#include "warlog/store/signature.hpp"

namespace warlog::replay {

inline constexpr std::size_t kBackupSignatureBytes = 32 + 64;

// The message a backup's signature is over (`backup` a BackupTo event).
[[nodiscard]] std::string backup_message(const core::Event& backup, const core::Digest& head_before);
// Signs a BackupTo event in place (its seq and recorded time as they will be stored).
void sign_backup(core::Event& backup, const core::Digest& head_before, const store::KeyPair& key);

struct BackupSignatureCheck {
  core::Seq seq = 0;
  std::string by;        // as recorded, the judge's name
  core::KeyId key_id{};  // of the public key in the signature
  bool valid = false;
  std::string detail;  // "valid", "INVALID: ..."
};
[[nodiscard]] BackupSignatureCheck check_backup_signature(const core::Event& backup, const core::Digest& head_before);
// Every signed backup of the game, in seq order. Errors: as Reader::scan.
[[nodiscard]] Expected<std::vector<BackupSignatureCheck>> check_backup_signatures(const Archive& archive,
                                                                                  core::GameId id);

}  // namespace warlog::replay
