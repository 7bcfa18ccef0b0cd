// Synthetic games (generate.hpp): setup, the turn loop, and the one place
// where events are folded and checked. The players for each part of a turn
// are in generate_muster.cpp, generate_warfare.cpp and generate_attrition.cpp.
//
// Play is random but biased so that most games end in a victory after turn
// 8: each seat builds up off the Territories' sides until its `bold_from`
// turn (6 to 8), then advances on them; at any time a seat steps onto a side
// of a Territory the enemy Controls (no Supremacy by walking into an empty
// field), so Troops fight beside Territories and fill their Thresholds.

#include "warlog/core/generate.hpp"

#include <cassert>
#include <cstdlib>
#include <stdexcept>
#include <fmt/format.h>

#include "generate_play.hpp"

namespace warlog::core {

namespace gen {

Game::Game(const GenerateOptions& options, const Catalog& catalog, const Ruleset& rules)
    : opt(options), ctx{catalog, rules}, rng(options.seed) {
  events.reserve(256);  // a typical game: one allocation
}

Event Game::header(Seat seat, Payload payload) const {
  return Event{0, events.size(), state.turn, state.phase, seat, std::move(payload)};
}

bool Game::emit(Seat seat, Payload payload) {
  if (!findings.empty()) return false;
  // Once the fold has decided the game, only GameEnded may follow.
  if (state.decided_at && !std::holds_alternative<GameEnded>(payload)) return false;
  return fold(header(seat, std::move(payload)));
}

bool Game::emit_turn() {
  if (halted()) return false;
  return fold(Event{0, events.size(), static_cast<std::uint16_t>(state.turn + 1), Phase::Muster, kNoSeat,
                    TurnStarted{}});
}

bool Game::emit_phase(Phase phase, Seat seat) {
  if (halted()) return false;
  return fold(Event{0, events.size(), state.turn, phase, seat, PhaseStarted{}});
}

bool Game::fold(Event ev) {
  std::vector<Finding> found;
  apply(ctx, state, ev, found);
  events.push_back(std::move(ev));
  if (found.empty()) return true;
  const Event& e = events.back();
  failure = fmt::format("seed {}: event {} (turn {}, {}, seat {}, {}):", opt.seed, e.seq, e.turn, to_string(e.phase),
                        e.seat == kNoSeat ? std::string("-") : std::to_string(e.seat + 1), payload_name(e.payload));
  for (const Finding& f : found) failure += fmt::format("\n  {}: {}", f.rule_id, f.message);
  findings = std::move(found);
#ifndef NDEBUG
  if (opt.assert_clean) {
    fmt::print(stderr, "warlog generate: the engine rejected a generated event\n{}\n", failure);
    assert(false && "the rules engine reported a finding on a generated event");
  }
#endif
  return false;
}

const Card& Game::card(const std::string& name) const {
  static const Card kUnknown{};
  const Card* c = ctx.catalog.find(name);
  return c == nullptr ? kUnknown : *c;
}

int Game::cost(const std::string& name, Seat seat) const {
  return card_cost(card(name), state.seats[seat].allegiance, ctx.rules);
}

std::vector<Space> Game::neighbours(Space sp) const {
  const Neighbours n = core::neighbours(state, sp);
  return std::vector<Space>(n.begin(), n.end());
}

std::vector<Space> Game::enemies_next_to(Space sp, Seat owner, bool include_lost) const {
  std::vector<Space> out;
  for (Space n : neighbours(sp)) {
    const auto& slot = state.at(n);
    // The enemies the rules let it fight: Troops, not hidden Burrowed ones.
    if (slot && slot->owner != owner && (include_lost || !slot->has(kTroopLost)) &&
        in_combat(*slot, ctx.catalog, ctx.rules)) {
      out.push_back(n);
    }
  }
  return out;
}

std::vector<Space> Game::own_troops(Seat seat) const {
  std::vector<Space> out;
  for (std::size_t i = 0; i < state.grid.size(); ++i) {
    if (state.grid[i] && state.grid[i]->owner == seat) out.push_back(state.space_of(i));
  }
  return out;
}

bool Game::territory_on(Space sp) const {
  return std::any_of(state.territories.begin(), state.territories.end(),
                     [&](const TerritoryState& t) { return t.space == sp; });
}

bool Game::territory_side(Space sp) const {
  return std::any_of(state.territories.begin(), state.territories.end(),
                     [&](const TerritoryState& t) { return adjacent(t.space, sp); });
}

bool Game::ready(const Troop& t) const {
  return !still_mustering(state, t) && !t.has(kTroopLost) && !t.has(kTroopBurrowed);
}

int Game::gambit_costs(Seat seat) const {
  int total = 0;
  for (const HeldCard& h : state.seats[seat].gambits_in_play) total += cost(h.card, seat);
  return total;
}

std::vector<Space> Game::steps_from(Space sp) const {
  auto left_this_turn = [&](Space n) {
    const auto& d = state.this_turn.defeated;
    const auto& f = state.this_turn.fled;
    return std::find(d.begin(), d.end(), n) != d.end() || std::find(f.begin(), f.end(), n) != f.end();
  };
  std::vector<Space> out;
  for (Space n : neighbours(sp)) {
    if (!state.at(n) && !territory_on(n) && !left_this_turn(n)) out.push_back(n);
  }
  return out;
}

int Game::side_value(Space sp, Seat seat) const {
  int value = 0;
  for (const TerritoryState& t : state.territories) {
    if (!adjacent(t.space, sp)) continue;
    const Seat holder = territory_controller(state, t, ctx.catalog, ctx.rules);
    if (holder == other_seat(seat)) {
      value += 45;  // contest it: an enemy in Control is a Supremacy in the making
    } else if (bold(seat)) {
      value += holder == seat ? 5 : 25;
    } else {
      // Building up: keep off the Territories' sides, so that nobody wins
      // by walking into an empty field on turn 2.
      value -= 100;
    }
  }
  // Not yet on a side, but one step from one: ready to contest.
  if (value == 0 && !territory_on(sp)) {
    for (const TerritoryState& t : state.territories) {
      if (std::abs(t.space.col - sp.col) + std::abs(t.space.row - sp.row) == 2) value = 15;
    }
  }
  return value;
}

Space Game::choose_step(Space from, Seat seat, const std::vector<Space>& forbidden) {
  const int forward = seat == 0 ? 1 : -1;
  auto nearest_enemy = [&](Space sp) {
    int best = 99;
    for (std::size_t i = 0; i < state.grid.size(); ++i) {
      const auto& slot = state.grid[i];
      if (!slot || slot->owner == seat || slot->has(kTroopLost)) continue;
      const Space e = state.space_of(i);
      best = std::min(best, std::abs(e.col - sp.col) + std::abs(e.row - sp.row));
    }
    return best;
  };
  Space best{};
  int best_score = -1000;
  const int here = side_value(from, seat);
  for (Space to : steps_from(from)) {
    if (std::find(forbidden.begin(), forbidden.end(), to) != forbidden.end()) continue;
    int score = rng.below(12) + side_value(to, seat) - std::max(here, 0);
    const int dr = (to.row - from.row) * forward;
    if (dr < 0) score -= 25;
    if (dr > 0) score += bold(seat) ? 8 : 4;
    if (bold(seat) && nearest_enemy(to) < nearest_enemy(from)) score += 12;
    if (score > best_score) {
      best_score = score;
      best = to;
    }
  }
  return best_score < 0 ? Space{} : best;
}

std::string draw_from(Rng& rng, const CardPile& pile) {
  int total = 0;
  for (const auto& [card, n] : pile) total += n;
  int k = rng.below(total);
  for (const auto& [card, n] : pile) {
    if (k < n) return card;
    k -= n;
  }
  return pile.back().first;
}

bool leader_supreme(const Game& g) {
  const GameState& s = g.state;
  if (s.leader >= kSeatCount || s.territories.empty()) return false;
  return std::all_of(s.territories.begin(), s.territories.end(),
                     [&](const TerritoryState& t) { return territory_controller(s, t, g.ctx.catalog, g.ctx.rules) == s.leader; });
}

namespace {

constexpr const char* kNames[] = {"Ana", "Bo", "Cato", "Dara", "Emil", "Fen", "Greta", "Hal", "Iris", "Joss"};

// The game the fold would derive if it ended now: a GameEnded on a copy.
bool finish_if_decided(Game& g) {
  if (!g.findings.empty()) return true;
  GameState probe = g.state;
  std::vector<Finding> ignored;
  apply(g.ctx, probe, Event{0, g.events.size(), g.state.turn, g.state.phase, kNoSeat, GameEnded{}}, ignored);
  if (!probe.decided_at || !probe.victory) return false;
  (void)g.emit(kNoSeat, GameEnded{probe.winner, *probe.victory});
  return true;
}

Seat morale_leader(Game& g) {
  const int mine = morale_total(g.state, 0, g.ctx.catalog);
  const int theirs = morale_total(g.state, 1, g.ctx.catalog);
  if (mine != theirs) return mine > theirs ? Seat{0} : Seat{1};
  // A tie keeps last turn's leader; turn 1 accepts whoever is recorded.
  return g.state.leader == kNoSeat ? static_cast<Seat>(g.rng.below(2)) : g.state.leader;
}

std::vector<PlacedTerritory> default_territories(Game& g, std::int8_t cols, std::int8_t rows) {
  std::vector<std::string> cards;
  for (const Card& c : g.ctx.catalog.cards()) {
    if (c.type == CardType::Territory) cards.push_back(c.name);
  }
  std::vector<PlacedTerritory> out;
  if (cards.empty()) return out;
  // The middle row(s): two on an even board, so that a pair of Territories
  // leans one toward each Vanguard.
  const std::vector<std::int8_t> middle =
      rows % 2 == 1 ? std::vector<std::int8_t>{static_cast<std::int8_t>(rows / 2)}
                    : std::vector<std::int8_t>{static_cast<std::int8_t>(rows / 2 - 1), static_cast<std::int8_t>(rows / 2)};
  const int lo = cols >= 3 ? 1 : 0;
  const int hi = cols >= 3 ? cols - 2 : cols - 1;
  const int count = std::min<int>(cols >= 4 && cards.size() >= 2 ? 1 + g.rng.below(2) : 1, static_cast<int>(cards.size()));
  g.rng.shuffle(cards);
  const int first_row = g.rng.below(static_cast<int>(middle.size()));
  for (int i = 0; i < count; ++i) {
    const std::int8_t row = middle[static_cast<std::size_t>((first_row + i) % static_cast<int>(middle.size()))];
    for (int tries = 0; tries < 32; ++tries) {
      const Space sp{static_cast<std::int8_t>(g.rng.between(lo, hi)), row};
      const bool clash = std::any_of(out.begin(), out.end(), [&](const PlacedTerritory& t) {
        return std::abs(t.space.col - sp.col) + std::abs(t.space.row - sp.row) < 3;
      });
      if (clash) continue;
      out.push_back(PlacedTerritory{cards[static_cast<std::size_t>(i)], sp});
      break;
    }
  }
  return out;
}

Expected<GameCreated> setup(Game& g) {
  const GenerateOptions& o = g.opt;
  if (o.cols < 1 || o.cols > 26 || o.rows < 3 || o.rows > 99) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("a {}x{} board: generated games need 1 to 26 columns and 3 to 99 rows (the "
                                  "Territories stand between the Vanguards)",
                                  static_cast<int>(o.cols), static_cast<int>(o.rows)));
  }
  if (o.max_turns < 1) return make_error(ErrorCode::InvalidArgument, "max turns must be at least 1");
  GameCreated created;
  std::array<Allegiance, kSeatCount> sides{};
  if (o.allegiances) {
    sides = *o.allegiances;
  } else {
    const int a = g.rng.below(4);
    int b = g.rng.below(3);
    if (b >= a) ++b;
    sides = {static_cast<Allegiance>(a), static_cast<Allegiance>(b)};
  }
  const int name = g.rng.below(static_cast<int>(std::size(kNames)));
  const int other = (name + 1 + g.rng.below(static_cast<int>(std::size(kNames)) - 1)) % static_cast<int>(std::size(kNames));
  created.seats = {SeatSetup{kNames[name], sides[0]}, SeatSetup{kNames[other], sides[1]}};
  for (Allegiance a : sides) {
    if (o.armies[static_cast<std::size_t>(a)].army.empty()) {
      return make_error(ErrorCode::InvalidArgument, fmt::format("no army given for {}", to_string(a)));
    }
  }
  created.territories = o.territories.empty() ? default_territories(g, o.cols, o.rows) : o.territories;
  for (const PlacedTerritory& t : created.territories) {
    const Card* c = g.ctx.catalog.find(t.card);
    if (c == nullptr || c->type != CardType::Territory || t.space.col < 0 || t.space.row < 0 ||
        t.space.col >= o.cols || t.space.row >= o.rows) {
      return make_error(ErrorCode::InvalidArgument, fmt::format("'{}' on {} is not a Territory card of the catalog on "
                                                                "the {}x{} board",
                                                                t.card, to_string(t.space), static_cast<int>(o.cols),
                                                                static_cast<int>(o.rows)));
    }
  }
  created.title = o.title.empty() ? fmt::format("Generated game, seed {}", o.seed) : o.title;
  created.date = o.date.empty() ? fmt::format("2026-{:02}-{:02}", 1 + o.seed % 12, 1 + (o.seed / 12) % 28) : o.date;
  created.ruleset_hash = g.ctx.rules.hash;
  created.catalog_hash = g.ctx.catalog.hash();
  created.cols = o.cols;
  created.rows = o.rows;
  return created;
}

}  // namespace

}  // namespace gen

Expected<GeneratedGame> try_generate_game(const GenerateOptions& options, const Catalog& catalog,
                                          const Ruleset& rules) {
  gen::Game g(options, catalog, rules);
  auto created = gen::setup(g);
  if (!created) return tl::unexpected(created.error());
  const std::array<Allegiance, kSeatCount> sides{created->seats[0].allegiance, created->seats[1].allegiance};
  (void)g.emit(kNoSeat, std::move(*created));
  for (Seat s = 0; s < kSeatCount; ++s) {
    const ArmyList& list = options.armies[static_cast<std::size_t>(sides[s])];
    (void)g.emit(s, ArmyRegistered{s, list.army, list.orders});
  }
  // When each seat stops building up and plays for the Territories.
  for (int& b : g.bold_from) b = g.rng.between(6, 8);

  while (g.emit_turn()) {
    const Seat leader = gen::morale_leader(g);
    (void)g.emit(kNoSeat, MoraleChecked{leader});
    gen::play_muster(g, leader);
    gen::play_muster(g, other_seat(leader));
    gen::play_warfare(g);
    gen::play_attrition(g, leader);
    if (gen::finish_if_decided(g)) break;
    gen::play_attrition(g, other_seat(leader));
    if (gen::finish_if_decided(g)) break;
    if (g.state.turn >= options.max_turns) {
      (void)g.emit(kNoSeat, GameEnded{kNoSeat, Victory::Unfinished});
      break;
    }
  }
  return GeneratedGame{std::move(g.events), std::move(g.findings), std::move(g.failure)};
}

std::vector<Event> generate_game(const GenerateOptions& options, const Catalog& catalog, const Ruleset& rules) {
  auto game = try_generate_game(options, catalog, rules);
  if (!game) throw std::logic_error("generate_game: " + game.error().message);
  if (!game->clean()) throw std::logic_error("generate_game: the engine rejected a generated event: " + game->failure);
  return std::move(game->events);
}

std::array<ArmyList, kAllegianceCount> armies_from_decks(const std::vector<std::vector<CardCount>>& decks,
                                                         const Catalog& catalog) {
  std::array<ArmyList, kAllegianceCount> out;
  for (const auto& deck : decks) {
    const Card* ability = nullptr;
    for (const CardCount& cc : deck) {
      const Card* c = catalog.find(cc.card);
      if (c != nullptr && c->type == CardType::ArmyAbility) ability = c;
    }
    if (ability == nullptr) {
      auto& orders = out[static_cast<std::size_t>(Allegiance::ClawEmpire)].orders;
      if (orders.empty()) orders = deck;
      continue;
    }
    auto& army = out[static_cast<std::size_t>(ability->faction)].army;
    if (army.empty()) army = deck;
  }
  return out;
}

}  // namespace warlog::core
