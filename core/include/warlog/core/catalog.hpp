#pragma once
// The card catalog: every card a game may name, with its printed values.
// Designers keep cards in spreadsheets, so the input is CSV (see
// docs/notation.md › Catalog CSV). A catalog is identified by the BLAKE2b hash
// of its bytes.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "warlog/core/card_name.hpp"
#include "warlog/core/error.hpp"
#include "warlog/core/types.hpp"

namespace warlog::core {

enum class CardType : std::uint8_t { Troop, Gambit, Dwelling, Territory, ArmyAbility };
enum class Rarity : std::uint8_t { Common, Seasoned, Renowned };

[[nodiscard]] std::string_view to_string(CardType t) noexcept;
[[nodiscard]] std::string_view to_string(Rarity r) noexcept;

// Quirks as bits; a card may have several.
enum Quirk : std::uint16_t {
  kQuirkNone = 0,
  kQuirkShotte = 1u << 0,   // ranged fire (Warfare Phase › A. Shotte Subphase)
  kQuirkBurrow = 1u << 1,   // may Burrow and un-Burrow to Charge (› B. Burrow)
  kQuirkShocked = 1u << 2,  // flees when unprovisioned (Attrition › 3. Shocked Troops)
  kQuirkPhaseText = 1u << 3,// has "Phase:" text, needs a full turn in place (Muster › Card Text Timing)
  kQuirkTrigger = 1u << 4,  // "trigger": When played / When destroyed text, fires at once (› Card Text Timing)
  kQuirkCharge = 1u << 5,   // "charge": its text lets its owner declare a Charge (Warfare › B.)
};

struct Card {
  std::string name;             // unique within the catalog; events name cards by it
  Allegiance faction = Allegiance::ClawEmpire;
  CardType type = CardType::Troop;
  Rarity rarity = Rarity::Common;
  std::int16_t provision_cost = 0;    // owed each Attrition Phase while in play
  std::int16_t provision_supply = 0;  // produced each Attrition Phase from the Homeland
  std::int16_t morale = 0;
  std::int16_t vigor = 0;             // damage dealt in combat and by Shotte
  std::int16_t vitality = 0;          // damage it takes to defeat
  std::uint16_t quirks = kQuirkNone;
  std::int16_t threshold = 0;         // Territories: destroyed Troops that trigger the final turn
  std::string text;

  [[nodiscard]] bool has(Quirk q) const noexcept { return (quirks & q) != 0; }
};

using CardIndex = std::uint16_t;

// The longest card name a catalog may hold, in characters. The longest in
// the sample catalog is 20; 200 leaves room for any printed name and keeps
// a hostile one from costing an edit distance of 100,000 characters per
// "did you mean" hint.
inline constexpr std::size_t kMaxCardNameChars = 200;

class Catalog {
 public:
  Catalog() = default;
  explicit Catalog(std::vector<Card> cards, std::string hash = {});
  // The name index holds views into cards_: a copy rebuilds it; a move keeps
  // the vector's buffer, so the views stay valid.
  Catalog(const Catalog& other);
  Catalog& operator=(const Catalog& other);
  Catalog(Catalog&&) noexcept = default;
  Catalog& operator=(Catalog&&) noexcept = default;

  // Looks a card up by exact name. nullptr when absent.
  [[nodiscard]] const Card* find(std::string_view name) const noexcept;
  // The same by interned name: one array index, no hashing (the fold's way).
  [[nodiscard]] const Card* find(CardName name) const noexcept;
  [[nodiscard]] const Card* find(const std::string& name) const noexcept { return find(std::string_view(name)); }
  [[nodiscard]] const Card* find(const char* name) const noexcept { return find(std::string_view(name)); }
  // The catalog name closest to `name` by edit distance (for "did you mean").
  [[nodiscard]] std::string closest(std::string_view name) const;

  [[nodiscard]] const std::vector<Card>& cards() const noexcept { return cards_; }
  // BLAKE2b-256 of the source bytes, lowercase hex; empty for a built catalog.
  [[nodiscard]] const std::string& hash() const noexcept { return hash_; }

 private:
  std::vector<Card> cards_;
  std::unordered_map<std::string_view, CardIndex> by_name_;
  std::vector<std::uint32_t> by_id_;  // CardName id -> index + 1; 0 where no card of this catalog
  std::string hash_;

  void index();
};

// Parses a catalog CSV (RFC 4180 quoting; header row names the columns, in
// any order): name, faction, type, rarity, cost, supply, morale, vigor,
// vitality, quirks (space- or ';'-separated: shotte burrow shocked phase),
// threshold, text. Errors: InvalidArgument "LINE:COL: message" for a bad cell
// (invalid UTF-8, a negative or non-whole number, an unknown value), an
// unknown column, a row with fewer cells than the header, a name with a
// control character or over kMaxCardNameChars, a duplicate name, and a
// catalog with no cards.
[[nodiscard]] Expected<Catalog> parse_catalog_csv(std::string_view csv);

// Reads and parses a file; NotFound / IoError when it cannot be read.
[[nodiscard]] Expected<Catalog> load_catalog(const std::string& path);

// BLAKE2b-256 of bytes as lowercase hex (libsodium). Used to identify
// catalogs and rulesets by content.
[[nodiscard]] std::string content_hash(std::string_view bytes);

}  // namespace warlog::core
