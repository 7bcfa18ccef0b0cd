// Bench data: samples, generated games, the long game and its store.

#include "data.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "warlog/core/notation.hpp"
#include "warlog/replay/replay.hpp"
#include "warlog/replay/seek.hpp"
#include "warlog/store/store.hpp"

namespace warlog::bench {

namespace fs = std::filesystem;

namespace {

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

template <class T>
T or_throw(Expected<T> v, const std::string& what) {
  if (!v) throw std::runtime_error(what + ": " + v.error().message);
  return std::move(*v);
}

}  // namespace

Inputs load_inputs() {
  const fs::path samples(WARLOG_SAMPLES_DIR);
  Inputs in;
  in.catalog_text = read_text(samples / "catalogs" / "sample_cards.csv");
  in.ruleset_text = read_text(samples / "rulesets" / "standard.toml");
  in.catalog = or_throw(core::parse_catalog_csv(in.catalog_text), "sample catalog");
  in.ruleset = or_throw(core::parse_ruleset_toml(in.ruleset_text), "sample ruleset");
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(samples / "decks")) {
    if (e.path().extension() == ".deck") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());  // as `warlog generate` does: the first deck of an allegiance wins
  std::vector<std::vector<core::CardCount>> decks;
  for (const auto& f : files) decks.push_back(or_throw(core::parse_deck(read_text(f)), f.string()));
  in.armies = core::armies_from_decks(decks, in.catalog);
  return in;
}

std::vector<std::vector<core::Event>> generate_games(const Inputs& in, std::uint64_t first_seed, std::size_t count) {
  core::GenerateOptions o;
  o.armies = in.armies;
  o.assert_clean = false;
  std::vector<std::vector<core::Event>> out;
  out.reserve(count);
  for (std::uint64_t seed = first_seed; out.size() < count; ++seed) {
    o.seed = seed;
    auto g = core::try_generate_game(o, in.catalog, in.ruleset);
    if (!g) throw std::runtime_error("generate: " + g.error().message);
    if (g->clean()) out.push_back(std::move(g->events));
  }
  return out;
}

// The setup of a generated game (GameCreated, both ArmyRegistered), then
// quiet turns until it holds `events` events: each seat in its Muster Phase
// draws its two cards while its deck lasts and Forages or Returns one card,
// the leader declines to Charge, and nothing is owed at Attrition, for no
// Troop is ever played. The builder folds every event and keeps the count
// of findings the engine reports (LongGame::findings). The generator itself
// cannot play a game this long: its games are decided by turn 8 to 12.
//
// Disputed: the same turns, but a seat whose Army Deck has run out still
// records drawing two cards (the last two it drew: not in its deck), and
// the seat not Leading in Morale declines a Charge too, every turn. That is
// the worst a judge would open: findings all through the game, about one
// for every three events, their messages repeating with the cards named.
LongGame long_game(const Inputs& in, std::size_t events, bool disputed) {
  core::GenerateOptions o;
  o.seed = 3;
  o.armies = in.armies;
  o.max_turns = 1;
  const std::vector<core::Event> setup = core::generate_game(o, in.catalog, in.ruleset);
  LongGame out;
  auto& ev = out.events;
  ev.reserve(events);
  const core::Context ctx{in.catalog, in.ruleset};
  core::GameState state;
  std::vector<core::Finding> found;
  auto add = [&](std::uint16_t turn, core::Phase phase, core::Seat seat, core::Payload p) {
    ev.push_back(core::Event{0, ev.size(), turn, phase, seat, std::move(p)});
    found.clear();
    core::apply(ctx, state, ev.back(), found);
    for (const auto& f : found) ++out.findings[std::string(f.rule_id)];
  };
  for (std::size_t i = 0; i < 3; ++i) add(setup[i].turn, setup[i].phase, setup[i].seat, setup[i].payload);
  std::uint16_t turn = 0;
  std::array<std::vector<core::CardName>, core::kSeatCount> last_drawn;
  while (ev.size() < events) {
    ++turn;
    add(turn, core::Phase::Muster, core::kNoSeat, core::TurnStarted{});
    add(turn, core::Phase::Muster, core::kNoSeat, core::MoraleChecked{0});
    const core::Seat leader = state.leader < core::kSeatCount ? state.leader : core::Seat{0};
    for (const core::Seat s : {leader, core::other_seat(leader)}) {
      add(turn, core::Phase::Muster, s, core::PhaseStarted{});
      const core::SeatState& seat = state.seats[s];
      std::vector<core::CardName> drawn;
      for (const auto& [name, n] : seat.deck) {
        for (int k = 0; k < n && drawn.size() < 2; ++k) drawn.push_back(name);
      }
      if (!drawn.empty()) last_drawn[s] = drawn;
      if (disputed && drawn.empty()) drawn = last_drawn[s];
      if (!drawn.empty()) add(turn, core::Phase::Muster, s, core::CardsDrawn{drawn});
      if (turn % 2 == 1 && !seat.hand.empty()) {
        add(turn, core::Phase::Muster, s, core::Foraged{seat.hand.begin()->first});
      } else if (turn % 2 == 0 && !seat.homeland.empty()) {
        add(turn, core::Phase::Muster, s, core::ReturnedFromHomeland{seat.homeland.front().card});
      }
    }
    add(turn, core::Phase::Warfare, leader, core::PhaseStarted{});
    add(turn, core::Phase::Warfare, leader, core::ChargeDeclined{});
    if (disputed) add(turn, core::Phase::Warfare, core::other_seat(leader), core::ChargeDeclined{});
    for (const core::Seat s : {leader, core::other_seat(leader)}) add(turn, core::Phase::Attrition, s, core::PhaseStarted{});
  }
  ev.resize(events);
  return out;
}

void make_long_store(const fs::path& dir, std::size_t events, bool disputed) {
  const Inputs in = load_inputs();
  const LongGame game = long_game(in, events, disputed);
  std::size_t total = 0;
  for (const auto& [rule, n] : game.findings) total += n;
  fmt::print("long game{}: {} events, {} findings from the engine while building it\n", disputed ? " (disputed)" : "",
             game.events.size(), total);
  for (const auto& [rule, n] : game.findings) fmt::print("  {} x {}\n", n, rule);
  auto archive = or_throw(replay::Archive::open(dir.string(), replay::Archive::Mode::ReadWrite), "open " + dir.string());
  const auto imported = or_throw(archive.import_events(game.events, in.catalog_text, in.ruleset_text, /*bulk=*/true), "import");
  (void)or_throw(replay::build_snapshots(archive, imported.id), "snapshots");
  if (auto s = archive.store().sync(); !s) throw std::runtime_error("sync: " + s.error().message);
}

}  // namespace warlog::bench
