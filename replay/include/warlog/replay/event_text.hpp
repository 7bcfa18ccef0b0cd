#pragma once
// Words for events and game vocabulary, as the viewer and the dispute
// report show them. Plain C++ (no Qt): a pure mapping from domain values to
// text, unit-tested on its own (tests/viewer/event_text_test.cpp) and shared
// by every viewer model and by replay/dispute_report.hpp.

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "warlog/core/event.hpp"
#include "warlog/core/types.hpp"

namespace warlog::replay {

// --- Names -------------------------------------------------------------

// "Muster", "Warfare": the phase as a heading.
[[nodiscard]] std::string phase_title(core::Phase p);

// The player's name for a seat, "seat 2" when the game does not name it,
// "table" for kNoSeat (table-wide events).
[[nodiscard]] std::string seat_name(std::span<const core::SeatSetup> seats, core::Seat seat);

// "Ana (Claw Empire) vs Bo (Paw Coalition)".
[[nodiscard]] std::string players_text(std::span<const core::SeatSetup> seats);

// --- Events ------------------------------------------------------------

// The payload's fields in a few words ("Ironclaw Lancer → a1"); "" when the
// payload has none worth showing. A seat the payload names is left out when
// it is `actor`, the event's acting seat, already shown beside it.
[[nodiscard]] std::string payload_detail(const core::Payload& p, std::span<const core::SeatSetup> seats,
                                         core::Seat actor = core::kNoSeat);

// One timeline row: "seq 17  Ana: CardPlayed Ironclaw Lancer → a1".
[[nodiscard]] std::string event_label(const core::Event& ev, std::span<const core::SeatSetup> seats);

// The battlefield spaces the payload names (a Troop's, a target's, where
// it moved to, a Territory's), valid ones only, each once, in the order the
// payload names them: what the battlefield marks at the event.
[[nodiscard]] std::vector<core::Space> event_spaces(const core::Payload& p);
// The same, appended to `out` where not there yet: the spaces of the events
// an event's findings concern join its own (the viewer and the report mark both).
void add_event_spaces(std::vector<core::Space>& out, const core::Payload& p);

}  // namespace warlog::replay
