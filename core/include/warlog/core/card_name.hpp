#pragma once
// A card's name as a small integer: the events and the state name cards by
// CardName, an id interned in one table per process, so a card in a pile, on
// a space or in an event costs four bytes, compares as one integer and copies
// without allocating. The name itself is stored once.
//
// Interning is injective (one name, one id) and the table only grows, so:
//  - equality is the id's;
//  - order is the name's (to_text, digests and every listing stay in name
//    order whatever order the names were first seen in, on any thread);
//  - a CardName stays valid for the life of the process.
//
// Why one table per process and 32 bits, not one per catalog and 16 bits:
// events are decoded before anyone knows the game's catalog (and a log may
// name cards its catalog lacks), rule-diff compares states folded under two
// catalogs, and a hostile store could name more than 65,536 distinct cards.
// Ids are dense from 1 (0 is the empty name); Catalog maps an id to its card
// with one array index (Catalog::find(CardName)).
//
// Persisted forms (events, snapshots, notation, JSON) always carry the
// name, never the id: ids differ from one process to the next.

#include <compare>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace warlog::core {

class CardName {
 public:
  // The most distinct names one process may intern. A catalog holds a few
  // hundred; the bound keeps a hostile archive from growing the table
  // without end (each name is at most the decoder's text limit).
  static constexpr std::uint32_t kMaxNames = 1u << 22;

  CardName() noexcept = default;  // the empty name
  // Interns `name` (implicit: a card is named by its text wherever one is
  // read). Throws std::length_error past kMaxNames distinct names.
  CardName(std::string_view name);               // NOLINT(google-explicit-constructor)
  CardName(const std::string& name) : CardName(std::string_view(name)) {}  // NOLINT
  CardName(const char* name) : CardName(std::string_view(name)) {}         // NOLINT

  // The name's text, valid for the life of the process.
  [[nodiscard]] const std::string& str() const noexcept;
  [[nodiscard]] std::string_view view() const noexcept { return str(); }
  [[nodiscard]] const char* c_str() const noexcept { return str().c_str(); }
  [[nodiscard]] const char* data() const noexcept { return str().data(); }
  [[nodiscard]] std::size_t size() const noexcept { return str().size(); }
  [[nodiscard]] bool empty() const noexcept { return id_ == 0; }
  operator std::string_view() const noexcept { return view(); }  // NOLINT
  operator const std::string&() const noexcept { return str(); }  // NOLINT

  // Dense, from 1; 0 is the empty name. Never persisted.
  [[nodiscard]] std::uint32_t id() const noexcept { return id_; }

  friend bool operator==(const CardName& a, const CardName& b) noexcept { return a.id_ == b.id_; }
  friend std::strong_ordering operator<=>(const CardName& a, const CardName& b) noexcept {
    if (a.id_ == b.id_) return std::strong_ordering::equal;
    return a.view().compare(b.view()) < 0 ? std::strong_ordering::less : std::strong_ordering::greater;
  }
  // Against text: no interning.
  friend bool operator==(const CardName& a, std::string_view b) noexcept { return a.view() == b; }
  friend bool operator==(const CardName& a, const std::string& b) noexcept { return a.view() == b; }
  friend bool operator==(const CardName& a, const char* b) noexcept { return a.view() == b; }
  friend std::strong_ordering operator<=>(const CardName& a, std::string_view b) noexcept {
    const int c = a.view().compare(b);
    return c < 0 ? std::strong_ordering::less : c > 0 ? std::strong_ordering::greater : std::strong_ordering::equal;
  }
  friend std::strong_ordering operator<=>(const CardName& a, const std::string& b) noexcept {
    return a <=> std::string_view(b);
  }
  friend std::strong_ordering operator<=>(const CardName& a, const char* b) noexcept {
    return a <=> std::string_view(b);
  }
  friend std::ostream& operator<<(std::ostream& os, const CardName& n) { return os << n.str(); }
  friend std::string operator+(const std::string& a, const CardName& b) { return a + b.str(); }
  friend std::string operator+(const CardName& a, const std::string& b) { return a.str() + b; }
  friend std::string operator+(const char* a, const CardName& b) { return a + b.str(); }
  friend std::string operator+(const CardName& a, const char* b) { return a.str() + b; }

  // How many distinct names this process has interned (the empty one aside).
  [[nodiscard]] static std::uint32_t interned() noexcept;

 private:
  std::uint32_t id_ = 0;
};

}  // namespace warlog::core

template <>
struct std::hash<warlog::core::CardName> {
  std::size_t operator()(const warlog::core::CardName& n) const noexcept { return n.id(); }
};

template <>
struct fmt::formatter<warlog::core::CardName> : fmt::formatter<std::string_view> {
  template <typename Ctx>
  auto format(const warlog::core::CardName& n, Ctx& ctx) const {
    return fmt::formatter<std::string_view>::format(n.view(), ctx);
  }
};
