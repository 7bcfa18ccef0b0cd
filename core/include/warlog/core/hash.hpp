#pragma once
// BLAKE2b-256 (libsodium crypto_generichash): content hashes of catalogs and
// rulesets, and the per-event hash chain (DESIGN: hash = BLAKE2b(prev || bytes)).

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace warlog::core {

using Digest = std::array<std::uint8_t, 32>;

// BLAKE2b-256 of bytes.
[[nodiscard]] Digest blake2b(std::string_view bytes) noexcept;
// BLAKE2b-256 of prev (32 bytes) followed by bytes: one link of the chain.
[[nodiscard]] Digest chain_hash(const Digest& prev, std::string_view bytes) noexcept;

[[nodiscard]] std::string to_hex(const Digest& d);
// 64 hex digits, either case; nullopt otherwise.
[[nodiscard]] std::optional<Digest> digest_from_hex(std::string_view hex) noexcept;

}  // namespace warlog::core
