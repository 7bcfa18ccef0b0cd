#pragma once
// The battlefield as a judge reads it: each Troop's face (name, seat, Vigor,
// Vitality and damage, Morale as it counts now, status badges) and each
// Territory's (count beneath toward its Threshold, who holds it), laid out
// from core's values with no rule logic of its own; and that board drawn.
// The viewer paints these faces on screen (viewer/battlefield_view.hpp);
// board_svg is the one drawing of a board on paper (the dispute report, its
// HTML and the viewer's PDF), so the two show the same board.

#include <string>
#include <string_view>
#include <vector>

#include "warlog/core/catalog.hpp"
#include "warlog/core/event.hpp"
#include "warlog/core/ruleset.hpp"
#include "warlog/core/state.hpp"

namespace warlog::replay {

struct BoardTroop {
  core::Space space;
  std::string name;
  core::Seat seat = 0;
  int vigor = 0;
  int vitality = 0;  // printed
  int damage = 0;
  int morale = 0;    // as it counts now (0 while unprovisioned)
  std::vector<std::string> badges;  // troop_badges
  bool known = true;                // the card is in the catalog
};

struct BoardTerritory {
  core::Space space;
  std::string name;
  int beneath = 0;
  int threshold = 0;
  core::Seat controller = core::kNoSeat;  // derived, never stored
  bool final_turn = false;                // its Threshold made this the final turn
};

struct Board {
  int cols = 0;
  int rows = 0;
  std::vector<BoardTroop> troops;  // in grid order
  std::vector<BoardTerritory> territories;
};

// "mustering", "Lost", "Burrowed", "unprovisioned", "Shocked", "moved",
// "Turncoat": what a Troop's card shows beside its numbers, in that order.
[[nodiscard]] std::vector<std::string> troop_badges(const core::GameState& s, const core::Troop& t,
                                                    const core::Card* card);
// Whether a badge is drawn in the colour of violations (Lost, unprovisioned).
[[nodiscard]] bool alarming_badge(std::string_view badge) noexcept;

[[nodiscard]] Board board_of(const core::GameState& state, const core::Catalog& catalog, const core::Ruleset& rules);

// A seat's colour, "#0072b2": the same in every view and on paper. Okabe
// and Ito's colour-blind-safe palette without its vermilion and orange: red
// is the colour of violations (and of Lost), amber of warnings, never of a
// seat.
[[nodiscard]] std::string_view seat_colour_hex(core::Seat seat) noexcept;

// The board as one <svg> element (SVG 1.1, its own xmlns, no reference
// outside itself, every text escaped): the grid with its column letters and
// row numbers, the cards, the `marked` spaces framed, `caption` above and a
// legend of the seats below. Well-formed XML, so it goes inline into XHTML.
[[nodiscard]] std::string board_svg(const Board& board, const std::vector<core::SeatSetup>& seats,
                                    const std::vector<core::Space>& marked, std::string_view caption);

// The same board as monospace text for Markdown (a fenced block): a row per
// grid row, a cell per space ("[Archer 2/3 S1 Lost]"), marked spaces in
// `>...<`, then the Territories and the seats spelled out.
[[nodiscard]] std::string board_text(const Board& board, const std::vector<core::SeatSetup>& seats,
                                     const std::vector<core::Space>& marked);

}  // namespace warlog::replay
