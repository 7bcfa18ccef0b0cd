#pragma once
// Builds event streams for rule tests without the notation, so a rule test
// says exactly which events it feeds the fold.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "warlog/core/catalog.hpp"
#include "warlog/core/fold.hpp"

namespace warlog::testing {

// The sample catalog (samples/catalogs/sample_cards.csv), loaded once per test.
inline const core::Catalog& sample_catalog() {
  static const core::Catalog catalog = [] {
    auto c = core::load_catalog(std::string(WARLOG_SAMPLES_DIR) + "/catalogs/sample_cards.csv");
    if (!c) throw std::runtime_error(c.error().message);
    return std::move(*c);
  }();
  return catalog;
}

class GameBuilder {
 public:
  // Claw Empire (seat 1, "Ana") against Paw Coalition (seat 2, "Bo") on a
  // 5x4 battlefield with the Old Mill on c2, both armies registered.
  GameBuilder() {
    core::GameCreated g;
    g.title = "test";
    g.date = "2026-01-01";
    g.seats = {{"Ana", core::Allegiance::ClawEmpire}, {"Bo", core::Allegiance::PawCoalition}};
    g.territories = {{"Old Mill", core::Space{2, 1}}};
    g.cols = 5;
    g.rows = 4;
    add(core::kNoSeat, g);
    add(core::kNoSeat, core::ArmyRegistered{0, {{"Ironclaw Lancer", 6}, {"Claw Musketeer", 6}, {"Talon Sergeant", 4},
                                                {"Supply Wagon", 4}, {"Drill Orders", 4}, {"Claw Orders", 1},
                                                {"Imperial Grenadier", 4}, {"Marshal Vex", 1}},
                                            {{"March Order", 5}, {"Hold the Line", 5}}});
    add(core::kNoSeat, core::ArmyRegistered{1, {{"Paw Militia", 6}, {"Paw Slinger", 6}, {"Coalition Pikeman", 4},
                                                {"Rebel Captain Moss", 1}, {"Grain Cart", 6},
                                                {"Barricade Levy", 6}, {"Rebel Rabble Token", 1}},
                                            {}});
  }

  GameBuilder& turn() {
    ++turn_;
    phase_ = core::Phase::Muster;
    return add(core::kNoSeat, core::TurnStarted{});
  }
  GameBuilder& morale(core::Seat leader) { return add(core::kNoSeat, core::MoraleChecked{leader}); }
  GameBuilder& phase(core::Phase p, core::Seat seat) {
    phase_ = p;
    return add(seat, core::PhaseStarted{});
  }
  GameBuilder& act(core::Seat seat, core::Payload payload) { return add(seat, std::move(payload)); }
  // A full, clean Muster part: draw the two named cards.
  GameBuilder& muster(core::Seat seat, std::string a, std::string b) {
    phase(core::Phase::Muster, seat);
    return act(seat, core::CardsDrawn{{std::move(a), std::move(b)}});
  }

  [[nodiscard]] const std::vector<core::Event>& events() const { return events_; }
  [[nodiscard]] core::Seq last_seq() const { return events_.back().seq; }

 private:
  GameBuilder& add(core::Seat seat, core::Payload payload) {
    core::Event ev;
    ev.seq = events_.size();
    ev.turn = turn_;
    ev.phase = phase_;
    ev.seat = seat;
    ev.payload = std::move(payload);
    events_.push_back(std::move(ev));
    return *this;
  }
  std::vector<core::Event> events_;
  std::uint16_t turn_ = 0;
  core::Phase phase_ = core::Phase::Setup;
};

struct Folded {
  core::GameState state;
  std::vector<core::Finding> findings;

  [[nodiscard]] std::vector<core::Finding> of(std::string_view rule) const {
    std::vector<core::Finding> out;
    std::copy_if(findings.begin(), findings.end(), std::back_inserter(out),
                 [&](const core::Finding& f) { return f.rule_id == rule; });
    return out;
  }
  [[nodiscard]] std::string all() const {
    std::string s;
    for (const auto& f : findings) s += std::to_string(f.seq) + " " + std::string(f.rule_id) + ": " + f.message + "\n";
    return s;
  }
};

// Folds with the default ruleset, checking invariants after every event.
inline Folded fold_events(const std::vector<core::Event>& events, const core::Ruleset& rules = {}) {
  Folded f;
  const core::Context ctx{sample_catalog(), rules};
  for (const core::Event& ev : events) {
    core::apply(ctx, f.state, ev, f.findings);
    const std::string why = core::check_invariants(f.state);
    EXPECT_EQ(why, "") << "after seq " << ev.seq;
  }
  return f;
}

}  // namespace warlog::testing
