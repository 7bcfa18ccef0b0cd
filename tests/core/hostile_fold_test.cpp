// The fold over hostile events (issue 9): one event can name thousands of
// things that are all wrong. Its findings are capped, so that a small stored
// value cannot cost seconds or fill a report.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "battle_builder.hpp"
#include "game_builder.hpp"

namespace warlog {
namespace {

using ::testing::HasSubstr;
using testing::fold_events;

// The input fuzz target "event" timed out on (fuzz/corpus/event/
// timeout-16000-territories): a GameCreated whose Territories are thousands of
// unknown cards off the grid, each worth a finding and a catalog hint.
TEST(HostileFold, ThousandsOfBadTerritoriesGiveCappedFindings) {
  core::GameCreated g;
  g.seats = {{"Ana", core::Allegiance::ClawEmpire}, {"Bo", core::Allegiance::PawCoalition}};
  g.territories.assign(16'000, core::PlacedTerritory{"No Such Territory Card", core::Space{}});
  core::Event ev;
  ev.payload = g;
  const auto f = fold_events({ev});

  ASSERT_EQ(f.findings.size(), 65u) << "64 listed and one that counts the rest";
  EXPECT_THAT(f.findings[0].message, HasSubstr("closest:")) << "the listed ones keep their hint";
  EXPECT_EQ(f.findings.back().rule_id, "LOG.unknown-card");
  EXPECT_EQ(f.findings.back().message,
            "31936 more findings of this event are not listed (the first 64 are; the next is LOG.unknown-card)");
  // Uncapped, 32,000 findings and 16,000 edit distances over the catalog
  // (seconds); the cap is asserted by count, never by time.
}

// A capped event does not cap the next one.
TEST(HostileFold, TheCapIsPerEvent) {
  testing::GameBuilder b;
  b.turn().morale(0);
  auto events = b.events();
  core::CardsDrawn drawn;
  drawn.cards.assign(100, "Nobody");
  core::Event bad = events.back();
  bad.seq = events.size();
  bad.phase = core::Phase::Muster;
  bad.seat = 0;
  bad.payload = drawn;
  events.push_back(bad);
  core::Event again = bad;
  again.seq = events.size();
  again.payload = core::CardsDrawn{{"Nobody", "Nobody Else"}};
  events.push_back(again);
  const auto f = fold_events(events);
  std::size_t at_bad = 0, at_again = 0;
  for (const auto& x : f.findings) {
    at_bad += x.seq == bad.seq;
    at_again += x.seq == again.seq;
  }
  EXPECT_EQ(at_bad, 65u) << f.all();
  EXPECT_GE(at_again, 2u) << f.all();
  EXPECT_LT(at_again, 65u) << f.all();
}

// After the last part of a turn, a phase that is no part of it (a Warfare
// Phase of the player not leading) took "part 6", and the next TurnStarted
// read the name of part 7 past the end of the five (fuzz/corpus/snapshot/
// crash-phase-after-the-last-part). Checked builds abort on the broken
// invariant; the asan preset would report the read.
TEST(HostileFold, APhaseAfterTheLastPartOfATurnStaysInRange) {
  testing::GameBuilder b;
  b.turn().morale(0);
  b.phase(core::Phase::Muster, 0).phase(core::Phase::Muster, 1).phase(core::Phase::Warfare, 0);
  b.phase(core::Phase::Attrition, 0).phase(core::Phase::Attrition, 1);
  b.phase(core::Phase::Warfare, 1);
  b.turn();
  const auto f = fold_events(b.events());
  EXPECT_LE(f.state.part, 5u);
  EXPECT_EQ(core::check_invariants(f.state), "");
  EXPECT_FALSE(f.of("LOG.order").empty()) << f.all();
}

// A Charge declared by no seat of the game (seat 5 of 2) made seat 5 the
// charger, and checked builds aborted on the broken invariant (found by
// fuzzing the event decoder: fuzz/corpus/event/crash-charge-by-no-seat).
// It is a LOG.actor finding, and nobody charges.
TEST(HostileFold, AChargeByNoSeatChargesNothing) {
  testing::GameBuilder b;
  b.turn().morale(0);
  b.phase(core::Phase::Muster, 0).phase(core::Phase::Muster, 1).phase(core::Phase::Warfare, 0);
  b.act(5, core::ChargeDeclared{});
  const auto f = fold_events(b.events());
  EXPECT_EQ(f.state.this_turn.charger, core::kNoSeat);
  EXPECT_FALSE(f.state.this_turn.charge_declared);
  EXPECT_EQ(core::check_invariants(f.state), "");
  EXPECT_FALSE(f.of("LOG.actor").empty()) << f.all();
}

// The same Charge by the seat Leading in Morale is declared (the passing case).
TEST(HostileFold, AChargeByTheLeaderIsDeclared) {
  testing::GameBuilder b;
  b.turn().morale(0);
  b.phase(core::Phase::Muster, 0).phase(core::Phase::Muster, 1).phase(core::Phase::Warfare, 0);
  b.act(0, core::ChargeDeclared{});
  const auto f = fold_events(b.events());
  EXPECT_EQ(f.state.this_turn.charger, 0);
  EXPECT_TRUE(f.state.this_turn.charge_declared);
  EXPECT_TRUE(f.of("LOG.actor").empty()) << f.all();
}

}  // namespace
}  // namespace warlog

namespace warlog {
namespace {

// A hostile count (the event's Int32) wrapped a pile's int: INT_MAX twice
// aborted checked builds. Past 10,000 cards an army is a LOG.setup finding
// and the cards are not registered; the fold's counts stay whole.
TEST(HostileFold, AnArmyOfMoreCardsThanAnIntHoldsIsAFindingNotAnOverflow) {
  const testing::GameBuilder b;
  std::vector<core::Event> events{b.events().front()};  // GameCreated only
  core::ArmyRegistered a;
  a.seat = 0;
  a.army = {{"Paw Militia", 2147483647}, {"Paw Militia", 2147483647}, {"Paw Militia", 7}};
  events.push_back(core::Event{events.front().game, 1, 0, core::Phase::Setup, core::kNoSeat, a});
  const auto f = fold_events(events);
  EXPECT_EQ(core::check_invariants(f.state), "");
  EXPECT_EQ(f.state.cards_in_game, 7);
  EXPECT_EQ(f.of("LOG.setup").size(), 2u) << f.all();
}

// Card conservation: every card the armies registered is in exactly one
// place. A folded game holds; a card out of nowhere, or one gone from every
// place, is refused (and so is a snapshot carrying such a state).
TEST(CheckInvariants, CardConservationHoldsForAFoldedGameAndFailsForACardGainedOrLost) {
  testing::Battle b;
  b.turn(0).musters();
  const auto f = b.fold();
  ASSERT_EQ(core::check_invariants(f.state), "");
  ASSERT_GT(f.state.cards_in_game, 0);

  core::GameState gained = f.state;
  ++gained.seats[0].hand["Paw Militia"];
  EXPECT_NE(core::check_invariants(gained).find("cards are in the game's places"), std::string::npos);

  core::GameState lost = f.state;
  ASSERT_FALSE(lost.seats[1].deck.empty());
  auto first = lost.seats[1].deck.begin();
  if (--first->second == 0) lost.seats[1].deck.erase(first);
  EXPECT_NE(core::check_invariants(lost), "");

  core::GameState moved = f.state;  // a card moved, not made: still whole
  auto card = moved.seats[1].deck.begin();
  const std::string name = card->first;
  if (--card->second == 0) moved.seats[1].deck.erase(card);
  ++moved.seats[1].discard[name];
  EXPECT_EQ(core::check_invariants(moved), "");
}

}  // namespace
}  // namespace warlog
