#include "warlog/core/catalog.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <fmt/format.h>

#include "csv.hpp"
#include "notation_lex.hpp"  // edit_distance, shared with the notation's hints
#include "warlog/core/hash.hpp"
#include "warlog/core/text.hpp"
#include "warlog/core/text_file.hpp"

namespace warlog::core {

std::string_view to_string(CardType t) noexcept {
  switch (t) {
    case CardType::Troop: return "Troop";
    case CardType::Gambit: return "Gambit";
    case CardType::Dwelling: return "Dwelling";
    case CardType::Territory: return "Territory";
    case CardType::ArmyAbility: return "Army Ability";
  }
  return "?";
}

std::string_view to_string(Rarity r) noexcept {
  switch (r) {
    case Rarity::Common: return "Common";
    case Rarity::Seasoned: return "Seasoned";
    case Rarity::Renowned: return "Renowned";
  }
  return "?";
}

Catalog::Catalog(std::vector<Card> cards, std::string hash) : cards_(std::move(cards)), hash_(std::move(hash)) {
  index();
}

Catalog::Catalog(const Catalog& other) : cards_(other.cards_), hash_(other.hash_) { index(); }

Catalog& Catalog::operator=(const Catalog& other) {
  if (this != &other) {
    cards_ = other.cards_;
    hash_ = other.hash_;
    index();
  }
  return *this;
}

void Catalog::index() {
  by_name_.clear();
  by_name_.reserve(cards_.size());
  for (std::size_t i = 0; i < cards_.size(); ++i) {
    by_name_.emplace(cards_[i].name, static_cast<CardIndex>(i));
  }
  // The ids of the catalog's names, interned once here: find(CardName) is
  // then one array index.
  by_id_.clear();
  for (std::size_t i = 0; i < cards_.size(); ++i) {
    const std::uint32_t id = CardName(cards_[i].name).id();
    if (id >= by_id_.size()) by_id_.resize(std::size_t{id} + 1, 0);
    by_id_[id] = static_cast<std::uint32_t>(i) + 1;
  }
}

const Card* Catalog::find(CardName name) const noexcept {
  const std::uint32_t id = name.id();
  if (id >= by_id_.size() || by_id_[id] == 0) return nullptr;
  return &cards_[by_id_[id] - 1];
}

const Card* Catalog::find(std::string_view name) const noexcept {
  const auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : &cards_[it->second];
}

namespace {

char fold_case(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

std::size_t character_count(std::string_view s) {
  std::size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

}  // namespace

std::string Catalog::closest(std::string_view name) const {
  std::string best;
  std::size_t best_d = static_cast<std::size_t>(-1);
  for (const Card& c : cards_) {
    const std::size_t d = notation::edit_distance(name, c.name);
    if (d < best_d) {
      best_d = d;
      best = c.name;
    }
  }
  return best;
}

std::string content_hash(std::string_view bytes) { return to_hex(blake2b(bytes)); }

namespace {

enum class Column { Name, Faction, Type, Rarity, Cost, Supply, Morale, Vigor, Vitality, Quirks, Threshold, Text };

struct ColumnName {
  std::string_view name;
  Column column;
};

constexpr std::array<ColumnName, 12> kColumns{{
    {"name", Column::Name},       {"faction", Column::Faction}, {"type", Column::Type},
    {"rarity", Column::Rarity},   {"cost", Column::Cost},       {"supply", Column::Supply},
    {"morale", Column::Morale},   {"vigor", Column::Vigor},     {"vitality", Column::Vitality},
    {"quirks", Column::Quirks},   {"threshold", Column::Threshold}, {"text", Column::Text},
}};

std::string lower_trimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), fold_case);
  return out;
}

std::optional<CardType> type_from(std::string_view s) {
  const std::string l = lower_trimmed(s);
  if (l == "troop") return CardType::Troop;
  if (l == "gambit") return CardType::Gambit;
  if (l == "dwelling") return CardType::Dwelling;
  if (l == "territory") return CardType::Territory;
  if (l == "army ability" || l == "armyability" || l == "army-ability") return CardType::ArmyAbility;
  return std::nullopt;
}

std::optional<Rarity> rarity_from(std::string_view s) {
  const std::string l = lower_trimmed(s);
  if (l == "common") return Rarity::Common;
  if (l == "seasoned") return Rarity::Seasoned;
  if (l == "renowned") return Rarity::Renowned;
  return std::nullopt;
}

std::optional<std::uint16_t> quirks_from(std::string_view s) {
  std::uint16_t q = kQuirkNone;
  std::string word;
  auto flush = [&]() -> bool {
    if (word.empty()) return true;
    if (word == "shotte") q |= kQuirkShotte;
    else if (word == "burrow") q |= kQuirkBurrow;
    else if (word == "shocked") q |= kQuirkShocked;
    else if (word == "phase") q |= kQuirkPhaseText;
    else if (word == "trigger") q |= kQuirkTrigger;
    else if (word == "charge") q |= kQuirkCharge;
    else return false;
    word.clear();
    return true;
  };
  for (char c : s) {
    if (c == ' ' || c == ';' || c == ',' || c == '|') {
      if (!flush()) return std::nullopt;
    } else {
      word += fold_case(c);
    }
  }
  if (!flush()) return std::nullopt;
  return q;
}

}  // namespace

Expected<Catalog> parse_catalog_csv(std::string_view text) {
  auto rows = detail::parse_csv(text);
  if (!rows) return tl::unexpected(rows.error());
  if (rows->empty()) return make_error(ErrorCode::InvalidArgument, "1:1: empty catalog: expected a header row");

  const detail::CsvRow& header = rows->front();
  std::vector<std::optional<Column>> columns;
  bool have_name = false;
  for (std::size_t i = 0; i < header.cells.size(); ++i) {
    const std::string l = lower_trimmed(header.cells[i]);
    std::optional<Column> col;
    for (const auto& c : kColumns) {
      if (l == c.name) col = c.column;
    }
    if (!col) {
      return make_error(ErrorCode::InvalidArgument,
                        fmt::format("{}:{}: unknown column '{}' (expected one of name, faction, type, rarity, "
                                    "cost, supply, morale, vigor, vitality, quirks, threshold, text)",
                                    header.line, i + 1, clip_for_message(header.cells[i])));
    }
    have_name = have_name || *col == Column::Name;
    columns.push_back(col);
  }
  if (!have_name) return make_error(ErrorCode::InvalidArgument, "1:1: the header row has no 'name' column");

  std::vector<Card> cards;
  std::unordered_map<std::string, std::size_t> seen;
  for (std::size_t r = 1; r < rows->size(); ++r) {
    const detail::CsvRow& row = (*rows)[r];
    if (row.cells.size() == 1 && lower_trimmed(row.cells[0]).empty()) continue;  // blank line
    if (!row.cells.empty() && !row.cells[0].empty() && row.cells[0][0] == '#') continue;  // a comment row
    // A short row used to leave its last columns at 0 without a word.
    if (row.cells.size() < columns.size()) {
      return make_error(ErrorCode::InvalidArgument,
                        fmt::format("{}:1: a row of {} cell{}, but the header names {} columns", row.line,
                                    row.cells.size(), row.cells.size() == 1 ? "" : "s", columns.size()));
    }
    for (std::size_t i = columns.size(); i < row.cells.size(); ++i) {
      if (!lower_trimmed(row.cells[i]).empty()) {
        return make_error(ErrorCode::InvalidArgument,
                          fmt::format("{}:{}: a cell past the header's {} columns: '{}'", row.line, i + 1,
                                      columns.size(), clip_for_message(row.cells[i])));
      }
    }
    Card card;
    for (std::size_t i = 0; i < row.cells.size() && i < columns.size(); ++i) {
      const std::string& cell = row.cells[i];
      auto bad = [&](std::string_view what) {
        return make_error(ErrorCode::InvalidArgument,
                          fmt::format("{}:{}: {} '{}'", row.line, i + 1, what, clip_for_message(cell)));
      };
      if (const auto at = invalid_utf8_at(cell)) {
        return make_error(ErrorCode::InvalidArgument,
                          fmt::format("{}:{}: invalid UTF-8 (byte 0x{:02x}); save the catalog as UTF-8", row.line,
                                      i + 1, static_cast<unsigned char>(cell[*at])));
      }
      auto number = [&](std::int16_t& out) -> bool {
        const std::string t = lower_trimmed(cell);
        if (t.empty()) {
          out = 0;
          return true;
        }
        int v = 0;
        const auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
        // No printed value is negative: costs, supplies, Morale, Vigor,
        // Vitality and Thresholds count up from 0.
        if (ec != std::errc{} || p != t.data() + t.size() || v < 0 || v > 999) return false;
        out = static_cast<std::int16_t>(v);
        return true;
      };
      switch (*columns[i]) {
        case Column::Name: {
          std::string_view n = cell;
          while (!n.empty() && n.front() == ' ') n.remove_prefix(1);
          while (!n.empty() && n.back() == ' ') n.remove_suffix(1);
          card.name = std::string(n);
          if (const auto fault = check_text(card.name); fault || card.name.find('\n') != std::string::npos) {
            return bad(fault ? "a card name holding " + fault->reason + ":"
                             : std::string("a card name holding a line break:"));
          }
          if (const std::size_t chars = character_count(card.name); chars > kMaxCardNameChars) {
            return make_error(ErrorCode::InvalidArgument,
                              fmt::format("{}:{}: a card name of {} characters, over the limit of {}: '{}'",
                                          row.line, i + 1, chars, kMaxCardNameChars, clip_for_message(card.name)));
          }
          break;
        }
        case Column::Faction: {
          if (lower_trimmed(cell).empty()) break;  // Territories belong to no faction
          const auto a = allegiance_from_string(lower_trimmed(cell));
          if (!a) return bad("unknown faction (expected Claw Empire, Paw Coalition, The Weald or Hirelings)");
          card.faction = *a;
          break;
        }
        case Column::Type: {
          const auto t = type_from(cell);
          if (!t) return bad("unknown card type (expected Troop, Gambit, Dwelling, Territory or Army Ability)");
          card.type = *t;
          break;
        }
        case Column::Rarity: {
          const auto rr = rarity_from(cell);
          if (!rr) return bad("unknown rarity (expected Common, Seasoned or Renowned)");
          card.rarity = *rr;
          break;
        }
        case Column::Cost: if (!number(card.provision_cost)) return bad("expected a whole number from 0 to 999 for cost, found"); break;
        case Column::Supply: if (!number(card.provision_supply)) return bad("expected a whole number from 0 to 999 for supply, found"); break;
        case Column::Morale: if (!number(card.morale)) return bad("expected a whole number from 0 to 999 for morale, found"); break;
        case Column::Vigor: if (!number(card.vigor)) return bad("expected a whole number from 0 to 999 for vigor, found"); break;
        case Column::Vitality: if (!number(card.vitality)) return bad("expected a whole number from 0 to 999 for vitality, found"); break;
        case Column::Threshold: if (!number(card.threshold)) return bad("expected a whole number from 0 to 999 for threshold, found"); break;
        case Column::Quirks: {
          const auto q = quirks_from(cell);
          if (!q) return bad("unknown quirk (expected shotte, burrow, shocked, phase, trigger or charge) in");
          card.quirks = *q;
          break;
        }
        case Column::Text: card.text = cell; break;
      }
    }
    if (card.name.empty()) {
      return make_error(ErrorCode::InvalidArgument, fmt::format("{}:1: a card with no name", row.line));
    }
    if (const auto it = seen.find(card.name); it != seen.end()) {
      return make_error(ErrorCode::InvalidArgument,
                        fmt::format("{}:1: duplicate card name '{}' (first on line {})", row.line,
                                    clip_for_message(card.name),
                                    (*rows)[it->second].line));
    }
    seen.emplace(card.name, r);
    cards.push_back(std::move(card));
  }
  if (cards.empty()) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("{}:1: the catalog has no cards: a header row and nothing under it", header.line));
  }
  if (cards.size() > 0xFFFF) return make_error(ErrorCode::InvalidArgument, "a catalog holds at most 65535 cards");
  return Catalog(std::move(cards), content_hash(text));
}

Expected<Catalog> load_catalog(const std::string& path) {
  auto text = read_text_file(path, kMaxCatalogFileBytes, "catalog file");
  if (!text) return tl::unexpected(text.error());
  auto cat = parse_catalog_csv(*text);
  if (!cat) return make_error(cat.error().code, path + ":" + cat.error().message);
  return cat;
}

}  // namespace warlog::core
