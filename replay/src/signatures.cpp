#include "warlog/replay/signatures.hpp"

#include <fmt/format.h>

#include "warlog/store/store.hpp"

namespace warlog::replay {

Expected<store::AnnotationRecord> sign_game(const Archive& archive, core::GameId id, const KeyPair& key,
                                            const std::string& signer, const std::string& signed_at) {
  return store::sign_game(archive.store(), id, key, signer, signed_at);
}

Expected<std::vector<SignatureCheck>> check_signatures(const Archive& archive, core::GameId id) {
  auto reader = archive.store().reader();
  if (!reader) return tl::unexpected(reader.error());
  return store::check_signatures(*reader, id);
}

std::string signature_line(const SignatureCheck& check) {
  const core::GameSigned& s = check.signature();
  return fmt::format("signed by {} (key {}){} over {} event{}: {}", s.signer,
                     store::public_key_hex(s.public_key).substr(0, 16),
                     s.signed_at.empty() ? "" : " at " + s.signed_at, s.event_count, s.event_count == 1 ? "" : "s",
                     check.detail);
}

}  // namespace warlog::replay
