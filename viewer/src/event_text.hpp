#pragma once
// The viewer's words for events: replay/event_text.hpp, shared with the
// dispute report so that the two never word an event differently.

#include "warlog/replay/event_text.hpp"

namespace warlog::viewer {

using replay::add_event_spaces;
using replay::event_label;
using replay::event_spaces;
using replay::payload_detail;
using replay::phase_title;
using replay::players_text;
using replay::seat_name;

}  // namespace warlog::viewer
