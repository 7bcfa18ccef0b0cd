#pragma once
// Events as JSON, one object per event: what `warlog export --format json`
// writes, one per line (JSON Lines). Built from core values only, so it does
// not depend on the Cap'n Proto codec and reads the same whatever the schema.
//
//   {"game":1,"seq":27,"turn":2,"phase":"muster","seat":2,"type":"CardsDrawn",
//    "payload":{"cards":["Paw Slinger","Paw Militia","Barricade Levy"]}}
//
// Every field of core::Event and its payload is present, defaults included.
// Conventions shared with the audit's JSON (report.hpp): seats are 1-based
// with 0 for none (also the payload's seat, leader and winner); phases and
// enumerants are lowercase words ("supremacy", "burrow", "reshuffle");
// allegiances their display name ("Claw Empire"); spaces as in the notation
// ("b2"), null for none, {"col":C,"row":R} for one the notation cannot write.

#include <nlohmann/json_fwd.hpp>

#include "warlog/core/error.hpp"
#include "warlog/core/event.hpp"

namespace warlog::replay {

[[nodiscard]] nlohmann::json event_json(const core::Event& ev);

// The inverse: event_from_json(event_json(e)) == e for every event. Errors:
// InvalidArgument naming the first missing or malformed field.
[[nodiscard]] Expected<core::Event> event_from_json(const nlohmann::json& j);

}  // namespace warlog::replay
