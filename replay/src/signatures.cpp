#include "warlog/replay/signatures.hpp"

#include <fmt/format.h>

#include <ctime>

#include "warlog/store/store.hpp"

namespace warlog::replay {

Expected<store::AnnotationRecord> sign_game(const Archive& archive, core::GameId id, const KeyPair& key,
                                            const std::string& signer, std::int64_t signed_at_ms) {
  return store::sign_game(archive.store(), id, key, signer, signed_at_ms);
}

Expected<std::vector<SignatureCheck>> check_signatures(const Archive& archive, core::GameId id) {
  auto reader = archive.store().reader();
  if (!reader) return tl::unexpected(reader.error());
  return store::check_signatures(*reader, id);
}

std::string iso_utc(std::int64_t ms) {
  const std::time_t t = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string signature_line(const SignatureCheck& check) {
  const core::GameSigned& s = check.signature();
  return fmt::format("signed by {} (key {}) at {} over {} event{}, {} annotation{}: {}", s.signer,
                     store::key_id_hex(s.key_id), iso_utc(s.signed_at_ms), s.event_count,
                     s.event_count == 1 ? "" : "s", s.annotation_count, s.annotation_count == 1 ? "" : "s",
                     check.detail);
}

}  // namespace warlog::replay
