#include "warlog/core/hash.hpp"

#include <sodium.h>

namespace warlog::core {

static_assert(crypto_generichash_BYTES == 32, "BLAKE2b-256 is the chain's digest size");

Digest blake2b(std::string_view bytes) noexcept {
  Digest out{};
  crypto_generichash(out.data(), out.size(), reinterpret_cast<const unsigned char*>(bytes.data()),
                     bytes.size(), nullptr, 0);
  return out;
}

Digest chain_hash(const Digest& prev, std::string_view bytes) noexcept {
  crypto_generichash_state st;
  crypto_generichash_init(&st, nullptr, 0, 32);
  crypto_generichash_update(&st, prev.data(), prev.size());
  crypto_generichash_update(&st, reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
  Digest out{};
  crypto_generichash_final(&st, out.data(), out.size());
  return out;
}

std::string to_hex(const Digest& d) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s(64, '0');
  for (std::size_t i = 0; i < d.size(); ++i) {
    s[2 * i] = kHex[d[i] >> 4];
    s[2 * i + 1] = kHex[d[i] & 0xF];
  }
  return s;
}

std::optional<Digest> digest_from_hex(std::string_view hex) noexcept {
  if (hex.size() != 64) return std::nullopt;
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  Digest d{};
  for (std::size_t i = 0; i < d.size(); ++i) {
    const int hi = nibble(hex[2 * i]);
    const int lo = nibble(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    d[i] = static_cast<std::uint8_t>(hi << 4 | lo);
  }
  return d;
}

}  // namespace warlog::core
