// A judge's signature on a backup (backup_signature.hpp).

#include "warlog/replay/backup_signature.hpp"

#include <cstring>

#include <fmt/format.h>

#include "warlog/events/codec.hpp"
#include "warlog/store/reader.hpp"
#include "warlog/store/store.hpp"

namespace warlog::replay {

namespace {

constexpr char kBackupTag[] = "warlog.backup-signature.2";

}  // namespace

std::string backup_message(const core::Event& backup, const core::Digest& head_before) {
  core::Event bare = backup;
  bare.game = 0;
  if (auto* b = std::get_if<core::BackupTo>(&bare.payload)) b->signature.clear();
  std::string m(kBackupTag, sizeof kBackupTag);  // the tag and its NUL
  m.append(reinterpret_cast<const char*>(head_before.data()), head_before.size());
  m += events::encode_event(bare);
  return m;
}

void sign_backup(core::Event& backup, const core::Digest& head_before, const store::KeyPair& key) {
  auto* b = std::get_if<core::BackupTo>(&backup.payload);
  if (b == nullptr) return;
  const core::Signature sig = store::sign_message(key, backup_message(backup, head_before));
  b->signature.assign(reinterpret_cast<const char*>(key.public_key.data()), key.public_key.size());
  b->signature.append(reinterpret_cast<const char*>(sig.data()), sig.size());
}

BackupSignatureCheck check_backup_signature(const core::Event& backup, const core::Digest& head_before) {
  BackupSignatureCheck c;
  c.seq = backup.seq;
  const auto* b = std::get_if<core::BackupTo>(&backup.payload);
  if (b == nullptr) {
    c.detail = "INVALID: not a backup";
    return c;
  }
  c.by = b->by;
  if (b->signature.size() != kBackupSignatureBytes) {
    c.detail = fmt::format("INVALID: {} bytes of signature, not a public key and a signature ({})", b->signature.size(),
                           kBackupSignatureBytes);
    return c;
  }
  core::PublicKey key{};
  core::Signature sig{};
  std::memcpy(key.data(), b->signature.data(), key.size());
  std::memcpy(sig.data(), b->signature.data() + key.size(), sig.size());
  c.key_id = store::key_id_of(key);
  c.valid = store::signature_matches(key, backup_message(backup, head_before), sig);
  c.detail = c.valid ? "valid" : "INVALID: the backup is not what its judge signed, or not where";
  return c;
}

Expected<std::vector<BackupSignatureCheck>> check_backup_signatures(const Archive& archive, core::GameId id) {
  auto reader = archive.store().reader();
  if (!reader) return tl::unexpected(reader.error());
  std::vector<core::Event> signed_backups;
  auto n = reader->scan(id, 0, store::kEndSeq, [&](const core::Event& ev) {
    const auto* b = std::get_if<core::BackupTo>(&ev.payload);
    if (b != nullptr && !b->signature.empty()) signed_backups.push_back(ev);
    return true;
  });
  if (!n) return tl::unexpected(n.error());
  std::vector<BackupSignatureCheck> out;
  for (const core::Event& ev : signed_backups) {
    if (ev.seq == 0) continue;  // a backup is never event 0 (GameCreated is)
    auto head = reader->head_at(id, ev.seq);
    if (!head) return tl::unexpected(head.error());
    out.push_back(check_backup_signature(ev, *head));
  }
  return out;
}

}  // namespace warlog::replay
