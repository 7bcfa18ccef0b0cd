#pragma once
// The generator's working parts (generate*.cpp): a portable PRNG, the game
// being played (state, events, findings) and the per-phase players. Every
// choice reads the GameState the fold keeps, so what the generator believes
// is what the engine believes.

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "warlog/core/fold.hpp"
#include "warlog/core/generate.hpp"
#include "warlog/core/state.hpp"

namespace warlog::core::gen {

// xoshiro256** seeded by splitmix64: the same numbers on every platform and
// standard library (std distributions differ between libraries).
class Rng {
 public:
  explicit Rng(std::uint64_t seed) noexcept {
    for (auto& s : s_) s = splitmix(seed);
  }
  std::uint64_t next() noexcept {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, n); n > 0. Rejection keeps it unbiased.
  int below(int n) noexcept {
    const auto un = static_cast<std::uint64_t>(n);
    const std::uint64_t limit = UINT64_MAX - UINT64_MAX % un;
    std::uint64_t x = next();
    while (x >= limit) x = next();
    return static_cast<int>(x % un);
  }
  int between(int lo, int hi) noexcept { return lo + below(hi - lo + 1); }  // inclusive
  bool chance(int percent) noexcept { return below(100) < percent; }
  template <class T>
  const T& pick(const std::vector<T>& v) noexcept { return v[static_cast<std::size_t>(below(static_cast<int>(v.size())))]; }
  template <class T>
  void shuffle(std::vector<T>& v) noexcept {
    for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[static_cast<std::size_t>(below(static_cast<int>(i)))]);
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) noexcept { return (x << k) | (x >> (64 - k)); }
  static std::uint64_t splitmix(std::uint64_t& x) noexcept {
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::array<std::uint64_t, 4> s_{};
};

// One game being generated. emit() folds each event and stops the game at
// the first finding; after that, and once the fold has decided the game,
// emit() does nothing, so the players need not check after every action.
class Game {
 public:
  Game(const GenerateOptions& options, const Catalog& catalog, const Ruleset& rules);

  // --- Emitting ------------------------------------------------------------
  // Appends and folds one event in the current turn and phase.
  bool emit(Seat seat, Payload payload);
  bool emit_turn();
  bool emit_phase(Phase phase, Seat seat);
  // A finding stopped the game, or the fold decided it (only GameEnded may follow).
  [[nodiscard]] bool halted() const noexcept { return !findings.empty() || state.decided_at.has_value(); }

  // --- Reading the state ---------------------------------------------------
  [[nodiscard]] const Card& card(const std::string& name) const;
  [[nodiscard]] int cost(const std::string& name, Seat seat) const;  // with the Allegiance surcharge
  [[nodiscard]] std::vector<Space> neighbours(Space sp) const;
  // Enemy Troops next to sp for a Troop of `owner`; Lost ones when include_lost.
  [[nodiscard]] std::vector<Space> enemies_next_to(Space sp, Seat owner, bool include_lost) const;
  [[nodiscard]] std::vector<Space> own_troops(Seat seat) const;
  [[nodiscard]] bool territory_on(Space sp) const;
  [[nodiscard]] bool territory_side(Space sp) const;
  // A Troop that may move or fire: not still mustering, not Lost or Burrowed.
  [[nodiscard]] bool ready(const Troop& t) const;
  // Gambits in play cost this much each Attrition Phase, paid first.
  [[nodiscard]] int gambit_costs(Seat seat) const;

  // --- Choosing where to stand ---------------------------------------------
  [[nodiscard]] bool bold(Seat seat) const noexcept { return state.turn >= bold_from[seat]; }
  // Where a Troop may step now: empty, on the board, no Territory, no space a
  // Troop left this turn (wages are owed by space, see generate_attrition.cpp).
  [[nodiscard]] std::vector<Space> steps_from(Space sp) const;
  // What standing on sp is worth to seat for the Territories around it.
  [[nodiscard]] int side_value(Space sp, Seat seat) const;
  // Chooses a step for the Troop on `from`, or an invalid Space to stay.
  [[nodiscard]] Space choose_step(Space from, Seat seat, const std::vector<Space>& forbidden = {});

  const GenerateOptions& opt;
  const Context ctx;
  GameState state;  // what the fold has made of `events`
  Rng rng;
  std::vector<Event> events;
  std::vector<Finding> findings;
  std::string failure;
  // The turn from which each seat plays for the Territories rather than
  // building up (drawn per game): it keeps games from ending on turn 2.
  std::array<int, kSeatCount> bold_from{};

 private:
  Event header(Seat seat, Payload payload) const;
  bool fold(Event ev);
};

// One card at random from a pile, weighted by its count.
[[nodiscard]] std::string draw_from(Rng& rng, const CardPile& pile);

// Failing to pay a Gambit or a defeated un-Burrowed Troop costs a discard
// from hand (Attrition › 3); with an empty hand the owner could not make it.
// True when this turn's supply (less recovery) pays every such card plus
// `extra_cost`, or, when `hand_counts`, the hand holds a discard for each of
// them plus `extra_items`.
[[nodiscard]] bool discards_covered(const Game& g, Seat seat, int extra_cost, int extra_items, bool hand_counts);
[[nodiscard]] int hand_size(const SeatState& seat);
// The cards a seat keeps in hand for those discards when its supply falls
// short: a card leaves the hand (Forage, stock, play) only above this.
[[nodiscard]] int hand_reserve(const Game& g, Seat seat);

// The players, one per part of a turn (generate_muster.cpp, ...).
void play_muster(Game& g, Seat seat);
void play_warfare(Game& g);
void play_attrition(Game& g, Seat seat);

// The leader Controls every Territory (Attrition › 2, rulings R-017).
[[nodiscard]] bool leader_supreme(const Game& g);

}  // namespace warlog::core::gen
