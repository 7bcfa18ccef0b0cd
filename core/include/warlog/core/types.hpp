#pragma once
// The game's small vocabulary types: seats, phases, spaces, factions.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace warlog::core {

// A seat at the table. The rules documents speak of two players ("both
// players", "the next player"); warlog supports exactly two seats (rulings R-001).
using Seat = std::uint8_t;
inline constexpr Seat kSeatCount = 2;
inline constexpr Seat kNoSeat = 0xFF;

[[nodiscard]] constexpr Seat other_seat(Seat s) noexcept { return s == 0 ? 1 : 0; }

// Where the game is. Setup precedes turn 1; End follows GameEnded.
enum class Phase : std::uint8_t { Setup, Muster, Warfare, Attrition, End };

[[nodiscard]] std::string_view to_string(Phase p) noexcept;
[[nodiscard]] std::optional<Phase> phase_from_string(std::string_view s) noexcept;

// The four allegiances (Deck Construction › Declaring Allegiance).
enum class Allegiance : std::uint8_t { ClawEmpire, PawCoalition, Weald, Hirelings };

[[nodiscard]] std::string_view to_string(Allegiance a) noexcept;  // "Claw Empire"
// Accepts the display name or a short key ("claw", "paw", "weald", "hirelings").
[[nodiscard]] std::optional<Allegiance> allegiance_from_string(std::string_view s) noexcept;

// A card space on the battlefield grid. Notation: column letter then row
// number, "a1" is column 0 row 0. Row 0 is seat 0's Vanguard; the last row is
// seat 1's Vanguard (rulings R-002, The Battlefield page does not exist yet).
struct Space {
  std::int8_t col = -1;
  std::int8_t row = -1;

  [[nodiscard]] constexpr bool valid() const noexcept { return col >= 0 && row >= 0; }
  friend constexpr bool operator==(Space, Space) noexcept = default;
};

[[nodiscard]] std::string to_string(Space s);                          // "c2"
[[nodiscard]] std::optional<Space> space_from_string(std::string_view s) noexcept;

// Orthogonal distance-1 (The Battlefield, assumed: "horizontally or vertically").
[[nodiscard]] constexpr bool adjacent(Space a, Space b) noexcept {
  const int dc = a.col - b.col;
  const int dr = a.row - b.row;
  return (dc == 0 && (dr == 1 || dr == -1)) || (dr == 0 && (dc == 1 || dc == -1));
}

}  // namespace warlog::core
