#pragma once
// Reaches Warfare and Attrition positions quickly for the rule tests: a
// configurable table (board, Territories, allegiances, armies), a clean
// provisioning turn, a deployment turn, and helpers that ask the fold itself
// what a clean log must say next (who leads, what is owed), so that a test
// only writes the events its rule is about.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "game_builder.hpp"
#include "warlog/core/state.hpp"

namespace warlog::testing {

// "b2" -> Space{1, 1}; "" or "-" -> the invalid space (a Gambit held in
// play, an Army Ability used off the battlefield).
inline core::Space sq(std::string_view s) {
  if (s.empty() || s == "-") return core::Space{};
  const auto sp = core::space_from_string(s);
  if (!sp) throw std::invalid_argument("not a space: " + std::string(s));
  return *sp;
}

// --- Armies: legal 30-card decks from the sample catalog -------------------
inline core::ArmyRegistered claw_army(core::Seat seat = 0) {
  return {seat,
          {{"Ironclaw Lancer", 6}, {"Claw Musketeer", 6}, {"Talon Sergeant", 4}, {"Supply Wagon", 4},
           {"Drill Orders", 4}, {"Claw Orders", 1}, {"Imperial Grenadier", 4}, {"Marshal Vex", 1}},
          {{"March Order", 5}, {"Hold the Line", 5}}};
}
inline core::ArmyRegistered paw_army(core::Seat seat = 1) {
  return {seat,
          {{"Paw Militia", 6}, {"Paw Slinger", 6}, {"Coalition Pikeman", 4}, {"Rebel Captain Moss", 1},
           {"Grain Cart", 6}, {"Barricade Levy", 6}, {"Rebel Rabble Token", 1}},
          {}};
}
inline core::ArmyRegistered weald_army(core::Seat seat = 1) {
  return {seat,
          {{"Weald Burrower", 6}, {"Briar Archer", 6}, {"Thornback Warden", 4}, {"Elder Rootmother", 1},
           {"Mossy Hollow", 6}, {"Spore Cache", 6}, {"Oldgrowth Tokens", 1}},
          {}};
}
// A Hireling company that splashes Paw Militia (surcharged: Allegiance Rule).
inline core::ArmyRegistered hireling_army(core::Seat seat = 0) {
  return {seat,
          {{"Sellsword", 6}, {"Hired Arquebusier", 6}, {"Free Company Captain", 4}, {"Gilded Champion", 1},
           {"Strongbox", 6}, {"Hireling Gold Tokens", 1}, {"Paw Militia", 6}},
          {}};
}

// What a seat does in the provisioning turn: Forage one card and stock one
// extra Gambit ("" for none). Both supply from the next turn on (R-010 and
// Card Text Timing).
struct Provisioning {
  std::string forage;
  std::string stock;
};

inline Provisioning default_provisioning(core::Allegiance a) {
  switch (a) {
    case core::Allegiance::ClawEmpire: return {"Supply Wagon", "Drill Orders"};    // supply 4
    case core::Allegiance::PawCoalition: return {"Grain Cart", "Barricade Levy"};  // supply 4
    case core::Allegiance::Weald: return {"Mossy Hollow", "Spore Cache"};          // supply 5
    case core::Allegiance::Hirelings: return {"Strongbox", "Strongbox"};           // supply 6
  }
  return {};
}

struct Table {
  std::int8_t cols = 5;
  std::int8_t rows = 2;  // 5x2: the two Vanguards touch, so a battle is one turn away
  std::vector<core::PlacedTerritory> territories;
  std::array<core::SeatSetup, core::kSeatCount> seats{
      {{"Ana", core::Allegiance::ClawEmpire}, {"Bo", core::Allegiance::PawCoalition}}};
  std::array<core::ArmyRegistered, core::kSeatCount> armies{claw_army(0), paw_army(1)};
  std::array<Provisioning, core::kSeatCount> provisioning{default_provisioning(core::Allegiance::ClawEmpire),
                                                          default_provisioning(core::Allegiance::PawCoalition)};

  // Claw Empire against the Weald (Burrow), provisioned accordingly.
  static Table against_weald() {
    Table t;
    t.seats[1] = {"Bo", core::Allegiance::Weald};
    t.armies[1] = weald_army(1);
    t.provisioning[1] = default_provisioning(core::Allegiance::Weald);
    return t;
  }
  // A 5x3 board with one Territory on c2, between the two Vanguards.
  static Table with_territory(std::string card = "Old Mill") {
    Table t;
    t.rows = 3;
    t.territories = {{std::move(card), core::Space{2, 1}}};
    return t;
  }
};

struct Placement {
  std::string card;
  std::string space;  // "" for a Gambit held in play
};

class Battle {
 public:
  explicit Battle(Table table = {}, core::Ruleset rules = {}) : table_(std::move(table)), rules_(std::move(rules)) {
    core::GameCreated g;
    g.title = "rules test";
    g.date = "2026-01-01";
    g.seats = {table_.seats.begin(), table_.seats.end()};
    g.territories = table_.territories;
    g.cols = table_.cols;
    g.rows = table_.rows;
    act(core::kNoSeat, g);
    for (const auto& army : table_.armies) act(core::kNoSeat, army);
  }

  // --- Raw events ----------------------------------------------------------
  Battle& act(core::Seat seat, core::Payload payload) {
    core::Event ev;
    ev.seq = events_.size();
    ev.turn = turn_;
    ev.phase = phase_;
    ev.seat = seat;
    ev.payload = std::move(payload);
    events_.push_back(std::move(ev));
    return *this;
  }
  // TurnStarted and the Morale Check for the leader the fold derives
  // (higher Morale total, a tie keeps last turn's leader: R-004).
  Battle& turn() { return turn(derived_leader()); }
  Battle& turn(core::Seat leader) {
    ++turn_;
    phase_ = core::Phase::Muster;
    act(core::kNoSeat, core::TurnStarted{});
    leader_ = leader;
    return act(core::kNoSeat, core::MoraleChecked{leader});
  }
  Battle& phase(core::Phase p, core::Seat seat) {
    phase_ = p;
    return act(seat, core::PhaseStarted{});
  }
  Battle& muster(core::Seat seat, std::string a, std::string b) {
    phase(core::Phase::Muster, seat);
    return act(seat, core::CardsDrawn{{std::move(a), std::move(b)}});
  }
  // A quiet Muster part: draws two fillers, does nothing else.
  Battle& muster(core::Seat seat) {
    auto f = fillers(seat, {}, 2);
    return muster(seat, f[0], f[1]);
  }
  // Both quiet Muster parts, leader first.
  Battle& musters() { return muster(leader_).muster(core::other_seat(leader_)); }
  Battle& play(core::Seat seat, std::string card, std::string_view space) {
    return act(seat, core::CardPlayed{std::move(card), sq(space)});
  }
  Battle& move(core::Seat seat, std::string_view from, std::string_view to) {
    return act(seat, core::TroopMoved{sq(from), sq(to)});
  }
  Battle& warfare() { return phase(core::Phase::Warfare, leader_); }
  Battle& attrition(core::Seat seat) { return phase(core::Phase::Attrition, seat); }
  Battle& pay(core::Seat seat, std::vector<core::PaidItem> paid, std::vector<core::PaidItem> unpaid = {}) {
    return act(seat, core::ProvisionsPaid{std::move(paid), std::move(unpaid)});
  }
  // Provisions everything the seat owes, as the fold sees it now.
  Battle& pay_all(core::Seat seat) { return pay(seat, owed(seat)); }
  // Both Attrition parts, leader first, each paying everything owed.
  Battle& settle() {
    attrition(leader_).pay_all(leader_);
    return attrition(core::other_seat(leader_)).pay_all(core::other_seat(leader_));
  }

  // --- Whole turns ---------------------------------------------------------
  // Turn 1: each seat draws its Provisioning cards, Forages one and stocks
  // the other; nobody plays, so nothing is owed.
  Battle& provision_turn(core::Seat leader = 0) {
    turn(leader);
    for (core::Seat seat : {leader, core::other_seat(leader)}) {
      const Provisioning& p = table_.provisioning[seat];
      muster(seat, p.forage, p.stock.empty() ? fillers(seat, {p.forage}, 1)[0].str() : p.stock);
      if (!p.forage.empty()) act(seat, core::Foraged{p.forage});
      if (!p.stock.empty()) act(seat, core::GambitStocked{p.stock});
    }
    return warfare().settle();
  }
  // A Muster part that draws the placed cards (padded with fillers to two)
  // and plays them.
  Battle& muster_playing(core::Seat seat, const std::vector<Placement>& cards) {
    if (cards.size() > 2) throw std::invalid_argument("muster_playing: two draws a turn");
    std::vector<std::string> draws;
    for (const Placement& p : cards) draws.push_back(p.card);
    for (const std::string& f : fillers(seat, draws, 2 - draws.size())) draws.push_back(f);
    muster(seat, draws[0], draws[1]);
    for (const Placement& p : cards) play(seat, p.card, p.space);
    return *this;
  }
  // One turn in which each seat draws and plays up to two cards; ends after
  // the Warfare Phase starts (call settle() to finish the turn).
  Battle& deploy(const std::vector<Placement>& ana, const std::vector<Placement>& bo) {
    turn();
    const std::array<const std::vector<Placement>*, core::kSeatCount> plan{&ana, &bo};
    muster_playing(leader_, *plan[leader_]);
    muster_playing(core::other_seat(leader_), *plan[core::other_seat(leader_)]);
    return warfare();
  }
  // Provisioning turn, then as many deployment turns as the placements need
  // (two cards a seat a turn), each settled. The next turn is a battle turn
  // when every Troop was placed in the first deployment turn.
  Battle& face_off(const std::vector<Placement>& ana, const std::vector<Placement>& bo) {
    provision_turn();
    for (std::size_t i = 0; i < std::max(ana.size(), bo.size()); i += 2) {
      deploy(slice(ana, i), slice(bo, i)).settle();
    }
    return *this;
  }

  // --- What the fold says now ----------------------------------------------
  [[nodiscard]] core::GameState state() const { return state_at(events_.size()); }
  // The state after the first `n` events (a moment of the game).
  [[nodiscard]] core::GameState state_at(std::size_t n) const {
    std::vector<core::Finding> ignored;
    const core::Context ctx{sample_catalog(), rules_};
    return core::fold(ctx, std::span(events_.data(), n), ignored);
  }
  // Folds everything, checking invariants after every event.
  [[nodiscard]] Folded fold() const { return fold_events(events_, rules_); }
  [[nodiscard]] Folded fold(const core::Ruleset& other) const { return fold_events(events_, other); }

  [[nodiscard]] std::vector<core::PaidItem> owed(core::Seat seat) const {
    const core::GameState s = state();
    std::vector<core::PaidItem> out;
    for (const core::HeldCard& g : s.seats[seat].gambits_in_play) out.push_back({core::Space{}, g.card});
    for (std::size_t i = 0; i < s.grid.size(); ++i) {
      const auto& slot = s.grid[i];
      const core::Card* c = slot ? sample_catalog().find(slot->card) : nullptr;
      if (c != nullptr && slot->owner == seat && c->type == core::CardType::Troop) {
        out.push_back({s.space_of(i), slot->card});
      }
    }
    for (const core::WageDue& w : s.seats[seat].this_turn.wages_due) out.push_back({w.space, w.card});
    return out;
  }
  [[nodiscard]] core::Seat derived_leader() const {
    const core::GameState s = state();
    const int a = core::morale_total(s, 0, sample_catalog());
    const int b = core::morale_total(s, 1, sample_catalog());
    if (a != b) return a > b ? 0 : 1;
    return s.leader == core::kNoSeat ? 0 : s.leader;
  }
  [[nodiscard]] core::Seat leader() const { return leader_; }
  // `n` cards to draw besides `taken`: what is left in the seat's Army Deck,
  // Dwellings and Gambits first, most copies first, so that fillers never
  // run a test out of the Troops it plays.
  [[nodiscard]] std::vector<core::CardName> fillers(core::Seat seat, const std::vector<std::string>& taken,
                                                    std::size_t n) const {
    core::CardPile deck = state().seats[seat].deck;
    for (const std::string& t : taken) {
      if (auto it = deck.find(t); it != deck.end()) --it->second;
    }
    std::vector<core::CardName> out;
    while (out.size() < n) {
      core::CardName best;
      int best_rank = -1;
      for (const auto& [card, left] : deck) {
        const core::Card* c = sample_catalog().find(card);
        if (left <= 0 || c == nullptr) continue;
        const int rank = (c->type == core::CardType::Troop ? 0 : 100) + left;
        if (rank > best_rank) {
          best_rank = rank;
          best = card;
        }
      }
      if (best.empty()) throw std::runtime_error("fillers: the Army Deck is empty");
      --deck[best];
      out.push_back(best);
    }
    return out;
  }
  [[nodiscard]] const std::vector<core::Event>& events() const { return events_; }
  [[nodiscard]] core::Seq last_seq() const { return events_.back().seq; }
  [[nodiscard]] core::Seq next_seq() const { return events_.size(); }
  [[nodiscard]] const core::Ruleset& rules() const { return rules_; }

 private:
  static std::vector<Placement> slice(const std::vector<Placement>& v, std::size_t from) {
    if (from >= v.size()) return {};
    return {v.begin() + static_cast<std::ptrdiff_t>(from),
            v.begin() + static_cast<std::ptrdiff_t>(std::min(v.size(), from + 2))};
  }

  Table table_;
  core::Ruleset rules_;
  std::vector<core::Event> events_;
  std::uint16_t turn_ = 0;
  core::Phase phase_ = core::Phase::Setup;
  core::Seat leader_ = 0;
};

// Deploys in turn 2 (and 3 when more than two cards a side), then starts the
// battle turn: Morale Check, both quiet Muster parts, the Warfare Phase.
inline Battle battle_turn(const std::vector<Placement>& ana, const std::vector<Placement>& bo, Table t = {},
                          core::Ruleset r = {}) {
  Battle b(std::move(t), std::move(r));
  b.face_off(ana, bo).turn().musters().warfare();
  return b;
}

// --- Assertions --------------------------------------------------------------

// Exactly one finding of `rule`, at `seq`, whose message contains `words`.
inline void expect_single(const Folded& f, std::string_view rule, core::Seq seq, std::string_view words) {
  const auto hits = f.of(rule);
  ASSERT_EQ(hits.size(), 1u) << "findings of " << rule << ":\n" << f.all();
  EXPECT_EQ(hits[0].seq, seq) << f.all();
  EXPECT_NE(hits[0].message.find(words), std::string::npos) << "message: " << hits[0].message;
}

inline void expect_none(const Folded& f, std::string_view rule) {
  EXPECT_TRUE(f.of(rule).empty()) << "unexpected " << rule << ":\n" << f.all();
}

inline void expect_clean(const Folded& f) { EXPECT_TRUE(f.findings.empty()) << f.all(); }

inline int count(const core::CardPile& pile, std::string_view card) {
  const auto it = pile.find(card);
  return it == pile.end() ? 0 : it->second;
}

}  // namespace warlog::testing
