// Deck Construction (../shared/rules, document "Deck Construction"):
// checked when an army is registered, and the Renowned rule when a card is
// played.

#include <fmt/format.h>

#include "rule_ids.hpp"
#include "../step.hpp"

namespace warlog::core::detail {

void check_army(const Step& st, Seat seat_index, const ArmyRegistered& a) {
  const Ruleset& rules = st.ctx.rules;
  const SeatState& seat = st.s.seats[seat_index];
  const Allegiance declared = seat.allegiance;

  std::int64_t army_size = 0;  // counts are the event's Int32: their sum may not fit an int
  bool has_ability = false;
  for (const CardCount& cc : a.army) {
    const Card* c = st.ctx.catalog.find(cc.card);
    if (c == nullptr) continue;  // reported when registered
    if (c->type == CardType::ArmyAbility) {
      if (c->faction == declared) has_ability = true;
      if (!rules.army_ability_counts_in_deck) continue;
    }
    army_size += cc.count;
  }

  // › Deck Size: +10 maximum for each Territory beyond the first.
  const int extra = st.s.territories.size() > 1 ? static_cast<int>(st.s.territories.size()) - 1 : 0;
  const int max = rules.deck_max + extra * rules.deck_max_per_extra_territory;
  if (army_size < rules.deck_min || army_size > max) {
    st.report(rule_id::kDeckSize, fmt::format("{}'s Army Deck holds {} cards; {} to {} allowed with {} Territor{}",
                                              seat.player, army_size, rules.deck_min, max,
                                              st.s.territories.size(), st.s.territories.size() == 1 ? "y" : "ies"));
  }

  // › Declaring Allegiance: the Army Ability card of the declared allegiance.
  if (!has_ability) {
    std::string wanted = "its Army Ability card";
    for (const Card& c : st.ctx.catalog.cards()) {
      if (c.type == CardType::ArmyAbility && c.faction == declared) wanted = "'" + c.name + "'";
    }
    st.report(rule_id::kDeckArmyAbility, fmt::format("{} declared {} but the deck lacks {}", seat.player,
                                                     to_string(declared), wanted));
  }

  // › Deck Size › Note: the Orders Deck is the Claw Empire's, 10 to 15 cards.
  std::int64_t orders = 0;
  for (const CardCount& cc : a.orders) orders += cc.count;
  if (declared == Allegiance::ClawEmpire) {
    if (orders < rules.orders_min || orders > rules.orders_max) {
      st.report(rule_id::kDeckOrders, fmt::format("{}'s Orders Deck holds {} cards; {} to {} allowed", seat.player,
                                                  orders, rules.orders_min, rules.orders_max));
    }
  } else if (orders > 0) {
    st.report(rule_id::kDeckOrders,
              fmt::format("{} declared {}, which has no Orders Deck, but brings {} Orders cards", seat.player,
                          to_string(declared), orders));
  }

  // Deck Construction: a deck is made up of Troops, Gambits and Dwellings,
  // beside the Army Ability card the Army Deck must hold (rulings R-052).
  for (const auto* list : {&a.army, &a.orders}) {
    for (const CardCount& cc : *list) {
      const Card* c = st.ctx.catalog.find(cc.card);
      if (c == nullptr || c->type == CardType::Troop || c->type == CardType::Gambit ||
          c->type == CardType::Dwelling || (c->type == CardType::ArmyAbility && list == &a.army)) {
        continue;
      }
      st.report(rule_id::kDeckContents, fmt::format("{}'s {} Deck holds {} '{}', a {}: a deck is made of Troops, "
                                                    "Gambits and Dwellings",
                                                    seat.player, list == &a.army ? "Army" : "Orders", cc.count,
                                                    cc.card, to_string(c->type)));
    }
  }

  // › Card Rarity & Deck Limits, per card name across both decks (or each
  // deck apart under rarity_per_deck; rulings R-052).
  std::vector<CardPile> decks(rules.rarity_per_deck ? 2 : 1);
  for (const CardCount& cc : a.army) add(decks[0], cc.card, cc.count);
  for (const CardCount& cc : a.orders) add(decks.back(), cc.card, cc.count);
  for (const CardPile& copies : decks) {
  for (const auto& [name, n] : copies) {
    const Card* c = st.ctx.catalog.find(name);
    if (c == nullptr || c->type == CardType::ArmyAbility) continue;
    const int limit = c->rarity == Rarity::Common     ? rules.limit_common
                      : c->rarity == Rarity::Seasoned ? rules.limit_seasoned
                                                      : rules.limit_renowned;
    if (n > limit) {
      st.report(rule_id::kDeckRarity, fmt::format("{} brings {} copies of '{}', a {} card (limit {})", seat.player, n,
                                                  name, to_string(c->rarity), limit));
    }
  }
  }
}

// › Card Rarity & Deck Limits: Renowned — one copy of a version on the
// battlefield at once (per player by default, rulings R-014).
void check_renowned(const Step& st, const Card& card) {
  if (card.rarity != Rarity::Renowned || card.type != CardType::Troop) return;
  for (const auto& slot : st.s.grid) {
    if (!slot || slot->card != card.name) continue;
    if (st.ctx.rules.renowned_unique_per_player && slot->owner != st.ev.seat) continue;
    st.report(rule_id::kDeckRenownedUnique,
              fmt::format("a second '{}' enters the battlefield while {}'s copy is still there", card.name,
                          st.player(slot->owner)));
    return;
  }
}

}  // namespace warlog::core::detail
