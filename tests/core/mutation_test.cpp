// Property tests: generated games audit clean, and each class of mistake a
// scorekeeper or a cheat makes is caught in every game it is applied to
// (issue 6: drop a payment, move a mustering Troop, fire twice, wrong Charge
// player, wrong combat order, overdraw).

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>

#include "game_builder.hpp"
#include "sample_armies.hpp"

namespace warlog {
namespace {

using core::Event;
using Events = std::vector<Event>;

constexpr std::uint64_t kGames = 40;

Events generated(std::uint64_t seed) {
  core::GenerateOptions o;
  o.seed = seed;
  o.armies = testing::sample_armies();
  return core::generate_game(o, testing::sample_catalog(), core::Ruleset{});
}

void renumber(Events& events) {
  for (core::Seq i = 0; i < events.size(); ++i) events[i].seq = i;
}

// The state just before event `at` (folding events[0, at)).
core::GameState state_before(const Events& events, std::size_t at) {
  core::GameState s;
  std::vector<core::Finding> sink;
  const core::Ruleset rules;
  const core::Context ctx{testing::sample_catalog(), rules};
  for (std::size_t i = 0; i < at; ++i) core::apply(ctx, s, events[i], sink);
  return s;
}

// A mutation edits a clean game; it returns false when the game offers no
// place to apply it (then the game is not counted).
struct Mutation {
  const char* name;
  std::vector<std::string_view> expected_rules;  // any of them catches it
  std::function<bool(Events&)> apply;
};

const std::vector<Mutation>& mutations() {
  static const std::vector<Mutation> kMutations = {
      {"drop a payment", {"ATT-3.listed", "WAR.wages"},  // a wage owed is a payment too
       [](Events& ev) {
         for (auto& e : ev) {
           if (auto* p = std::get_if<core::ProvisionsPaid>(&e.payload); p && !p->paid.empty()) {
             p->paid.erase(p->paid.begin());
             return true;
           }
         }
         return false;
       }},
      {"move a mustering Troop", {"MUS-mustering.move"},
       [](Events& ev) {
         for (std::size_t i = 0; i < ev.size(); ++i) {
           const auto* p = std::get_if<core::CardPlayed>(&ev[i].payload);
           if (p == nullptr || !p->space.valid()) continue;
           const core::Card* c = testing::sample_catalog().find(p->card);
           if (c == nullptr || c->type != core::CardType::Troop) continue;
           Event move = ev[i];
           const std::int8_t forward = ev[i].seat == 0 ? 1 : -1;
           move.payload = core::TroopMoved{p->space, core::Space{p->space.col, static_cast<std::int8_t>(p->space.row + forward)}};
           ev.insert(ev.begin() + static_cast<std::ptrdiff_t>(i) + 1, move);
           return true;
         }
         return false;
       }},
      {"fire twice", {"WAR-A.once"},
       [](Events& ev) {
         for (std::size_t i = 0; i < ev.size(); ++i) {
           if (std::holds_alternative<core::ShotteFired>(ev[i].payload)) {
             ev.insert(ev.begin() + static_cast<std::ptrdiff_t>(i) + 1, ev[i]);
             return true;
           }
         }
         return false;
       }},
      {"wrong Charge player", {"WAR-B.leader"},
       [](Events& ev) {
         for (auto& e : ev) {
           if (auto* c = std::get_if<core::ChargeDeclared>(&e.payload); c && c->mode == core::ChargeMode::Normal) {
             e.seat = core::other_seat(e.seat);
             return true;
           }
         }
         return false;
       }},
      {"wrong combat order", {"WAR-C.order"},
       [](Events& ev) {
         for (std::size_t i = 0; i + 1 < ev.size(); ++i) {
           const auto* a = std::get_if<core::CombatResolved>(&ev[i].payload);
           const auto* b = std::get_if<core::CombatResolved>(&ev[i + 1].payload);
           if (a == nullptr || b == nullptr) continue;
           const core::GameState s = state_before(ev, i);
           if (!s.at(a->troop) || !s.at(b->troop)) continue;
           const int ma = core::effective_morale(*s.at(a->troop), testing::sample_catalog());
           const int mb = core::effective_morale(*s.at(b->troop), testing::sample_catalog());
           if (ma <= mb) continue;  // only a strictly higher first combat can be put out of order
           std::swap(ev[i].payload, ev[i + 1].payload);
           return true;
         }
         return false;
       }},
      {"overdraw", {"MUS-a.draw"},
       [](Events& ev) {
         for (auto& e : ev) {
           if (auto* d = std::get_if<core::CardsDrawn>(&e.payload); d && !d->cards.empty()) {
             d->cards.push_back(d->cards.front());
             return true;
           }
         }
         return false;
       }},
  };
  return kMutations;
}

TEST(GeneratedGames, AuditClean) {
  for (std::uint64_t seed = 1; seed <= kGames; ++seed) {
    const auto f = testing::fold_events(generated(seed));
    EXPECT_TRUE(f.findings.empty()) << "seed " << seed << "\n" << f.all();
  }
}

TEST(GeneratedGames, EveryMutationIsCaughtInEveryGameItIsAppliedTo) {
  std::map<std::string, int> applied;
  for (std::uint64_t seed = 1; seed <= kGames; ++seed) {
    const Events clean = generated(seed);
    for (const Mutation& m : mutations()) {
      Events ev = clean;
      if (!m.apply(ev)) continue;
      renumber(ev);
      ++applied[m.name];
      const auto f = testing::fold_events(ev);
      const bool caught = std::any_of(m.expected_rules.begin(), m.expected_rules.end(),
                                      [&](std::string_view rule) { return !f.of(rule).empty(); });
      EXPECT_TRUE(caught) << "seed " << seed << ": '" << m.name << "' was not caught as " << m.expected_rules.front()
                          << "\n" << f.all();
    }
  }
  // Each mutation must have found places to apply, or the property says nothing.
  for (const Mutation& m : mutations()) {
    EXPECT_GE(applied[m.name], 5) << "'" << m.name << "' applied to only " << applied[m.name] << " of " << kGames
                                  << " games";
  }
}

}  // namespace
}  // namespace warlog
