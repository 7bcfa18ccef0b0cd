#include "warlog/core/text.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace warlog::core {

namespace {

// The length of the well-formed UTF-8 sequence at `i`, 0 when there is none.
std::size_t sequence_at(std::string_view s, std::size_t i) noexcept {
  auto byte = [&](std::size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0u; };
  auto cont = [&](std::size_t k, unsigned lo = 0x80, unsigned hi = 0xBF) {
    const unsigned b = byte(k);
    return i + k < s.size() && b >= lo && b <= hi;
  };
  const unsigned b0 = byte(0);
  if (b0 < 0x80) return 1;
  if (b0 >= 0xC2 && b0 <= 0xDF) return cont(1) ? 2 : 0;
  if (b0 == 0xE0) return cont(1, 0xA0) && cont(2) ? 3 : 0;
  if (b0 == 0xED) return cont(1, 0x80, 0x9F) && cont(2) ? 3 : 0;  // no surrogates
  if (b0 >= 0xE1 && b0 <= 0xEF) return cont(1) && cont(2) ? 3 : 0;
  if (b0 == 0xF0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (b0 >= 0xF1 && b0 <= 0xF3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (b0 == 0xF4) return cont(1, 0x80, 0x8F) && cont(2) && cont(3) ? 4 : 0;  // up to U+10FFFF
  return 0;
}

}  // namespace

std::optional<std::size_t> invalid_utf8_at(std::string_view s) noexcept {
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = sequence_at(s, i);
    if (n == 0) return i;
    i += n;
  }
  return std::nullopt;
}

std::optional<TextFault> check_text(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = sequence_at(s, i);
    if (n == 0) {
      return TextFault{i, fmt::format("invalid UTF-8 (byte 0x{:02x})", static_cast<unsigned char>(s[i]))};
    }
    const auto b0 = static_cast<unsigned char>(s[i]);
    unsigned cp = b0;
    if (n == 2) cp = ((b0 & 0x1Fu) << 6) | (static_cast<unsigned char>(s[i + 1]) & 0x3Fu);
    const bool control = (cp < 0x20 && cp != '\t' && cp != '\n') || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F);
    if (control) return TextFault{i, fmt::format("a control character (U+{:04X})", cp)};
    i += n;
  }
  return std::nullopt;
}

std::string clip_for_message(std::string_view s, std::size_t max_chars) {
  std::string out;
  std::size_t chars = 0;
  for (std::size_t i = 0; i < s.size();) {
    if (chars == max_chars) return out + "...";
    ++chars;
    const std::size_t n = sequence_at(s, i);
    const auto b0 = static_cast<unsigned char>(s[i]);
    const bool c1 = n == 2 && b0 == 0xC2 && static_cast<unsigned char>(s[i + 1]) <= 0x9F;
    if (n == 0 || b0 < 0x20 || b0 == 0x7F || c1) {
      // Shown, not passed through: a message is one line of valid UTF-8
      // that a terminal prints as it is.
      for (std::size_t k = 0; k < std::max<std::size_t>(n, 1); ++k) {
        out += fmt::format("\\x{:02x}", static_cast<unsigned char>(s[i + k]));
      }
      i += std::max<std::size_t>(n, 1);
      continue;
    }
    out.append(s.substr(i, n));
    i += n;
  }
  return out;
}

}  // namespace warlog::core
