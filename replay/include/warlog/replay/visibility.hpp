#pragma once
// Who sees what: the visibility table (docs/rulings.md › Visibility) and the
// views derived from it. A judge sees everything; a seat sees what the table
// shows everyone and its own hidden cards; the public sees what the table
// shows everyone. The viewer's perspective switch, the dispute report and the
// server's public view all go through here, so they never disagree. Pure
// functions of (state or event, perspective, ruleset); the fold never reads
// them.

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "warlog/core/event.hpp"
#include "warlog/core/ruleset.hpp"
#include "warlog/core/state.hpp"

namespace warlog::replay {

enum class Perspective : std::uint8_t { Judge, Seat1, Seat2, Public };
[[nodiscard]] std::string_view to_string(Perspective p) noexcept;  // "judge", "seat 1", "seat 2", "public"
[[nodiscard]] std::optional<Perspective> perspective_from_string(std::string_view s) noexcept;
// The seat a perspective sits at, kNoSeat for the judge and the public.
[[nodiscard]] core::Seat seat_of(Perspective p) noexcept;

// Who sees a card (how many cards there are is always seen by everyone).
enum class Seen : std::uint8_t { Everyone, OwnSeat, NoOne };
[[nodiscard]] std::string_view to_string(Seen s) noexcept;

// The places a card can be. Deck *order* is no zone: the log records draws
// as revealed, and no one knows the order (NoOne), so no state holds it.
enum class Zone : std::uint8_t {
  ArmyDeck,       // what is left in the Army Deck
  OrdersDeck,     // the Claw Empire's Orders Deck
  Hand,
  Homeland,
  GambitsInPlay,
  Discard,
  Battlefield,    // Troops and Dwellings on the grid, Burrowed or not
  TurncoatOffer,  // drawn cards of the opponent's allegiance (Turncoat, parked)
};
[[nodiscard]] std::string_view to_string(Zone z) noexcept;

// Who sees the cards of a zone, under `rules` (R-070: visibility.homeland_hidden).
[[nodiscard]] Seen seen(Zone z, const core::Ruleset& rules) noexcept;

// One row of the event half of the table: what an event kind shows of the
// cards it names, and to whom.
struct EventVisibility {
  std::string_view event;  // core::payload_name
  std::optional<Zone> zone;  // the zone whose cards the event names; nullopt: it names none, or only public facts
  std::string_view note;   // what the event shows, in a few words
};
// Every payload kind, in the order of core::Payload.
[[nodiscard]] std::span<const EventVisibility> event_visibility() noexcept;
[[nodiscard]] const EventVisibility* event_visibility(const core::Payload& p) noexcept;

// Whether `who` sees a card of a zone seen as `s` that belongs to `owner`.
[[nodiscard]] bool sees(Perspective who, Seen s, core::Seat owner) noexcept;

// What stands for a card a perspective does not see.
inline constexpr std::string_view kHiddenCard = "(hidden)";

// The state as `who` sees it: every card `who` does not see becomes
// kHiddenCard (piles keep their counts, so sizes stay right); the judge's
// view is the state itself.
[[nodiscard]] core::GameState view_of(const core::GameState& state, Perspective who, const core::Ruleset& rules);

// The event as `who` sees it: the cards it names that `who` does not see
// become kHiddenCard (a draw shows how many cards, not which).
[[nodiscard]] core::Event view_of(const core::Event& event, Perspective who, const core::Ruleset& rules);

}  // namespace warlog::replay
