#include "warlog/replay/visibility.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <type_traits>
#include <variant>

namespace warlog::replay {

namespace {

// The event half of docs/rulings.md › Visibility, in core::Payload order.
constexpr std::array kEventVisibility{
    EventVisibility{"GameCreated", std::nullopt, "the table: seats, players, Territories, board"},
    EventVisibility{"ArmyRegistered", Zone::ArmyDeck, "a decklist: its seat (and the judge) sees the cards, everyone the size"},
    EventVisibility{"TurnStarted", std::nullopt, "a turn begins"},
    EventVisibility{"MoraleChecked", std::nullopt, "who leads in Morale"},
    EventVisibility{"PhaseStarted", std::nullopt, "a phase begins"},
    EventVisibility{"GameEnded", std::nullopt, "the result"},
    EventVisibility{"CardsDrawn", Zone::Hand, "a draw: its seat sees the cards, everyone how many"},
    EventVisibility{"Foraged", Zone::Homeland, "a card from hand to the Homeland"},
    EventVisibility{"ReturnedFromHomeland", Zone::Homeland, "a Homeland card back to hand"},
    EventVisibility{"GambitStocked", Zone::Homeland, "the extra Gambit from hand to the Homeland"},
    EventVisibility{"CardPlayed", Zone::Battlefield, "a card played face up"},
    EventVisibility{"TroopMoved", std::nullopt, "a move on the battlefield"},
    EventVisibility{"TroopsShifted", std::nullopt, "moves on the battlefield"},
    EventVisibility{"AbilityUsed", std::nullopt, "an ability of a Troop in play"},
    EventVisibility{"TroopBurrowed", std::nullopt, "a Troop in play Burrows (it was seen when played)"},
    EventVisibility{"TroopUnburrowed", std::nullopt, "a Burrowed Troop comes out"},
    EventVisibility{"ShotteFired", std::nullopt, "a Shotte"},
    EventVisibility{"ChargeDeclared", std::nullopt, "a Charge"},
    EventVisibility{"ChargeDeclined", std::nullopt, "a Charge declined"},
    EventVisibility{"LocalFavorUsed", std::nullopt, "Local Favor spent"},
    EventVisibility{"CombatResolved", std::nullopt, "a combat's damage"},
    EventVisibility{"TroopLost", std::nullopt, "a Troop becomes Lost"},
    EventVisibility{"TroopDefeated", std::nullopt, "a Troop is defeated"},
    EventVisibility{"LostTroopRecovered", std::nullopt, "a Lost Troop recovered or shuffled back"},
    EventVisibility{"ProvisionsPaid", std::nullopt, "Provisions paid for cards in play"},
    EventVisibility{"CardsDiscarded", Zone::Discard, "cards discarded face up"},
    EventVisibility{"TerritoryControlTaken", std::nullopt, "Control of a Territory"},
    EventVisibility{"TroopFled", std::nullopt, "a Shocked Troop flees"},
    EventVisibility{"Voided", std::nullopt, "a scorekeeper's void: which event, who, why"},
    EventVisibility{"BackupTo", std::nullopt, "a judge's backup: to which event, who, why"},
};
static_assert(kEventVisibility.size() == std::variant_size_v<core::Payload>,
              "every payload kind has a row in the visibility table (docs/rulings.md › Visibility)");

// Interned once, not on every card hidden.
const core::CardName& hidden_card() {
  static const core::CardName kName{kHiddenCard};
  return kName;
}

void hide(core::CardName& card) { card = hidden_card(); }

void hide(core::CardPile& pile) {
  int n = 0;
  for (const auto& [card, count] : pile) n += count;
  pile.clear();
  if (n > 0) pile.emplace(hidden_card(), n);
}

void hide(std::vector<core::HeldCard>& held) {
  for (core::HeldCard& h : held) hide(h.card);
}

void hide(std::vector<core::CardCount>& list) {
  int n = 0;
  for (const core::CardCount& c : list) n += c.count;
  list.clear();
  if (n > 0) list.push_back({hidden_card(), n});
}

template <class... F>
struct Overload : F... {
  using F::operator()...;
};
template <class... F>
Overload(F...) -> Overload<F...>;

}  // namespace

std::string_view to_string(Perspective p) noexcept {
  switch (p) {
    case Perspective::Judge: return "judge";
    case Perspective::Seat1: return "seat 1";
    case Perspective::Seat2: return "seat 2";
    case Perspective::Public: return "public";
  }
  return "judge";
}

std::optional<Perspective> perspective_from_string(std::string_view s) noexcept {
  for (Perspective p : {Perspective::Judge, Perspective::Seat1, Perspective::Seat2, Perspective::Public}) {
    if (s == to_string(p)) return p;
  }
  if (s == "1" || s == "seat1") return Perspective::Seat1;
  if (s == "2" || s == "seat2") return Perspective::Seat2;
  return std::nullopt;
}

core::Seat seat_of(Perspective p) noexcept {
  switch (p) {
    case Perspective::Seat1: return 0;
    case Perspective::Seat2: return 1;
    case Perspective::Judge:
    case Perspective::Public: return core::kNoSeat;
  }
  return core::kNoSeat;
}

std::string_view to_string(Seen s) noexcept {
  switch (s) {
    case Seen::Everyone: return "everyone";
    case Seen::OwnSeat: return "its seat";
    case Seen::NoOne: return "no one";
  }
  return "no one";
}

std::string_view to_string(Zone z) noexcept {
  switch (z) {
    case Zone::ArmyDeck: return "Army Deck";
    case Zone::OrdersDeck: return "Orders Deck";
    case Zone::Hand: return "hand";
    case Zone::Homeland: return "Homeland";
    case Zone::GambitsInPlay: return "Gambits in play";
    case Zone::Discard: return "discard";
    case Zone::Battlefield: return "battlefield";
    case Zone::TurncoatOffer: return "Turncoat offer";
  }
  return "hand";
}

Seen seen(Zone z, const core::Ruleset& rules) noexcept {
  switch (z) {
    case Zone::ArmyDeck:
    case Zone::OrdersDeck:
    case Zone::Hand:
    case Zone::TurncoatOffer: return Seen::OwnSeat;
    case Zone::Homeland: return rules.homeland_hidden ? Seen::OwnSeat : Seen::Everyone;
    case Zone::GambitsInPlay:
    case Zone::Discard:
    case Zone::Battlefield: return Seen::Everyone;
  }
  return Seen::NoOne;
}

std::span<const EventVisibility> event_visibility() noexcept { return kEventVisibility; }

const EventVisibility* event_visibility(const core::Payload& p) noexcept {
  const std::size_t i = p.index();
  return i < kEventVisibility.size() ? &kEventVisibility[i] : nullptr;
}

bool sees(Perspective who, Seen s, core::Seat owner) noexcept {
  if (who == Perspective::Judge) return true;
  switch (s) {
    case Seen::Everyone: return true;
    case Seen::OwnSeat: return owner != core::kNoSeat && seat_of(who) == owner;
    case Seen::NoOne: return false;
  }
  return false;
}

core::GameState view_of(const core::GameState& state, Perspective who, const core::Ruleset& rules) {
  core::GameState out = state;
  if (who == Perspective::Judge) return out;
  for (std::size_t i = 0; i < out.seats.size(); ++i) {
    const auto owner = static_cast<core::Seat>(i);
    core::SeatState& seat = out.seats[i];
    auto hidden = [&](Zone z) { return !sees(who, seen(z, rules), owner); };
    if (hidden(Zone::ArmyDeck)) hide(seat.deck);
    if (hidden(Zone::OrdersDeck)) hide(seat.orders);
    if (hidden(Zone::Hand)) {
      hide(seat.hand);
      hide(seat.this_turn.not_playable);
    }
    if (hidden(Zone::Homeland)) hide(seat.homeland);
    if (hidden(Zone::GambitsInPlay)) hide(seat.gambits_in_play);
    if (hidden(Zone::Discard)) hide(seat.discard);
    if (hidden(Zone::TurncoatOffer)) hide(seat.this_turn.turncoat_offer);
  }
  return out;
}

core::Event view_of(const core::Event& event, Perspective who, const core::Ruleset& rules) {
  core::Event out = event;
  const EventVisibility* row = event_visibility(event.payload);
  if (row == nullptr || !row->zone) return out;
  const core::Seat owner =
      std::holds_alternative<core::ArmyRegistered>(event.payload) ? std::get<core::ArmyRegistered>(event.payload).seat
                                                                   : event.seat;
  auto hidden = [&](Zone z) { return !sees(who, seen(z, rules), owner); };
  std::visit(Overload{
                 [&](core::ArmyRegistered& a) {
                   if (hidden(Zone::ArmyDeck)) hide(a.army);
                   if (hidden(Zone::OrdersDeck)) hide(a.orders);
                 },
                 [&](core::CardsDrawn& d) {
                   if (hidden(Zone::Hand)) std::for_each(d.cards.begin(), d.cards.end(), [](core::CardName& c) { hide(c); });
                 },
                 [&](core::Foraged& f) {
                   if (hidden(Zone::Homeland)) hide(f.card);
                 },
                 [&](core::ReturnedFromHomeland& r) {
                   if (hidden(Zone::Homeland)) hide(r.card);
                 },
                 [&](core::GambitStocked& g) {
                   if (hidden(Zone::Homeland)) hide(g.card);
                 },
                 [](auto&) {},
             },
             out.payload);
  return out;
}

}  // namespace warlog::replay
