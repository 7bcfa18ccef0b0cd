#pragma once
// Signing a stored game and checking its signatures, for the front ends.
// What is signed, where it is kept and how it is checked: store/signature.hpp.

#include <cstdint>
#include <string>
#include <vector>

#include "warlog/replay/replay.hpp"
#include "warlog/store/signature.hpp"

namespace warlog::replay {

using store::KeyPair;
using store::SignatureCheck;

// Signs game `id` as it stands (refused for a game that does not verify).
[[nodiscard]] Expected<store::AnnotationRecord> sign_game(const Archive& archive, core::GameId id,
                                                          const KeyPair& key, const std::string& signer,
                                                          std::int64_t signed_at_ms);

// Every signature of the game, checked against the stored bytes.
[[nodiscard]] Expected<std::vector<SignatureCheck>> check_signatures(const Archive& archive, core::GameId id);

// "signed by Alice (key 3fa29c01d2e4b7a8) at 2026-03-20T10:00:00Z over 58 events, 2 annotations: valid"
[[nodiscard]] std::string signature_line(const SignatureCheck& check);

// Milliseconds since the Unix epoch as ISO 8601 UTC ("2026-03-20T10:00:00Z").
[[nodiscard]] std::string iso_utc(std::int64_t ms);

}  // namespace warlog::replay
