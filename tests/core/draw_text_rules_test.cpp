// Muster Phase › Steps › a. Draw cards, and a card whose text draws one more
// (rulings R-097). The documents say "Draw 2 cards"; the sample catalog's
// Spore Cache says "Muster Phase: draw one more card". A recorded use of
// such a card (`ability - "Spore Cache"`) or of Local Favor to draw allows
// one more draw; a third draw with such a card in place but its use
// unrecorded is a warning a judge checks at the table (MUS-a.draw-text),
// never a silent clean, and without such a card it stays MUS-a.draw.

#include <gtest/gtest.h>

#include "battle_builder.hpp"

namespace warlog {
namespace {

using core::Phase;
using core::Ruleset;
using core::Severity;
using testing::Battle;
using testing::Folded;
using testing::Table;
using testing::expect_clean;
using testing::expect_none;
using testing::expect_single;

constexpr core::Seat kAna = 0;
constexpr core::Seat kBo = 1;

// Ana (Claw Empire) against Bo (The Weald), who stocked a Spore Cache in his
// Homeland in turn 1. Turn 2 is under way: Ana has mustered, Bo's Muster
// part has begun and nothing is drawn yet.
Battle bo_with_a_spore_cache(Ruleset r = {}) {
  Battle b(Table::against_weald(), std::move(r));
  b.provision_turn(kAna);
  b.turn(kAna).muster(kAna).phase(Phase::Muster, kBo);
  return b;
}

Battle& draw(Battle& b, std::size_t n) {
  return b.act(kBo, core::CardsDrawn{b.fillers(kBo, {}, n)});
}

Battle& finish_turn(Battle& b) { return b.warfare().settle(); }

core::AbilityUsed spore_cache() { return core::AbilityUsed{core::Space{}, "Spore Cache"}; }

TEST(MusterStepA_DrawCardText, TwoDrawsWithADrawCardInPlaceAreClean) {
  auto b = bo_with_a_spore_cache();
  draw(b, 2);
  finish_turn(b);
  expect_clean(b.fold());
}

TEST(MusterStepA_DrawCardText, AThirdDrawAfterARecordedUseOfTheCardIsClean) {
  auto b = bo_with_a_spore_cache();
  b.act(kBo, spore_cache());
  draw(b, 3);
  finish_turn(b);
  expect_clean(b.fold());
}

TEST(MusterStepA_DrawCardText, AThirdDrawWithTheCardInPlaceButItsUseUnrecordedIsAWarning) {
  auto b = bo_with_a_spore_cache();
  draw(b, 3);
  const core::Seq drawn = b.last_seq();
  finish_turn(b);
  const Folded f = b.fold();
  expect_single(f, "MUS-a.draw-text", drawn,
                "Bo drew 3 cards this turn, 1 beyond 2: 'Spore Cache' could allow it, but no use of it is recorded");
  EXPECT_EQ(f.of("MUS-a.draw-text")[0].severity, Severity::Warning);
  expect_none(f, "MUS-a.draw");
  EXPECT_EQ(f.findings.size(), 1u) << f.all();
}

// Two Spore Caches in place: named once, with their count, and two draws
// beyond are within what they could allow.
TEST(MusterStepA_DrawCardText, TwoDrawCardsInPlaceAreNamedOnceWithTheirCount) {
  Battle b(Table::against_weald());
  b.provision_turn(kAna);
  b.turn(kAna).muster(kAna).phase(Phase::Muster, kBo);
  b.act(kBo, core::CardsDrawn{{"Spore Cache", b.fillers(kBo, {"Spore Cache"}, 1)[0]}});
  b.act(kBo, core::GambitStocked{"Spore Cache"});
  b.warfare().settle();
  b.turn(kAna).muster(kAna).phase(Phase::Muster, kBo);
  draw(b, 4);
  const Folded f = b.fold();
  expect_single(f, "MUS-a.draw-text", b.last_seq(),
                "Bo drew 4 cards this turn, 2 beyond 2: 2 × 'Spore Cache' could allow them, but no use of one is "
                "recorded");
  expect_none(f, "MUS-a.draw");
}

TEST(MusterStepA_DrawCardText, AFourthDrawBeyondWhatTheCardsInPlaceAllowIsAViolation) {
  auto b = bo_with_a_spore_cache();
  draw(b, 4);
  const Folded f = b.fold();
  expect_single(f, "MUS-a.draw", b.last_seq(), "Bo drew 4 cards this turn, not 2");
  expect_none(f, "MUS-a.draw-text");
}

TEST(MusterStepA_DrawCardText, WithoutTheRulingOptionAThirdDrawIsAViolation) {
  Ruleset r;
  r.draws_from_card_text = false;
  auto b = bo_with_a_spore_cache(r);
  draw(b, 3);
  const Folded f = b.fold();
  expect_single(f, "MUS-a.draw", b.last_seq(), "Bo drew 3 cards this turn, not 2");
  expect_none(f, "MUS-a.draw-text");
}

// The card stocked this turn cannot use its Phase-timed text (Card Text
// Timing), so it neither allows the draw nor excuses it.
TEST(MusterStepA_DrawCardText, ADrawCardStockedThisTurnAllowsNoThirdDraw) {
  Battle b(Table::against_weald());
  b.turn(kAna).muster(kAna).phase(Phase::Muster, kBo);
  b.act(kBo, core::CardsDrawn{{"Spore Cache", b.fillers(kBo, {"Spore Cache"}, 1)[0]}});
  b.act(kBo, core::GambitStocked{"Spore Cache"}).act(kBo, spore_cache());
  const core::Seq used = b.last_seq();
  draw(b, 1);
  const Folded f = b.fold();
  expect_single(f, "MUS-timing.phase", used, "'Spore Cache' uses Phase-timed text the turn it arrived");
  expect_single(f, "MUS-a.draw", b.last_seq(), "Bo drew 3 cards this turn, not 2");
  expect_none(f, "MUS-a.draw-text");
}

// Local Favor's options are unpublished: one recorded as a draw
// allows one more, in the holder's next Muster Phase.
TEST(MusterStepA_DrawCardText, LocalFavorUsedToDrawAllowsAThirdDraw) {
  Battle b;  // Claw Empire against the Paw Coalition: no card of Bo's draws
  b.provision_turn(kAna);
  b.turn(kAna).musters().warfare().act(kAna, core::ChargeDeclined{}).settle();
  b.turn(kAna).phase(Phase::Muster, kAna).act(kAna, core::LocalFavorUsed{"draw one more card"});
  b.act(kAna, core::CardsDrawn{b.fillers(kAna, {}, 3)});
  b.muster(kBo).warfare().settle();
  expect_clean(b.fold());
}

TEST(MusterStepA_DrawCardText, LocalFavorUsedForSomethingElseAllowsNoThirdDraw) {
  Battle b;
  b.provision_turn(kAna);
  b.turn(kAna).musters().warfare().act(kAna, core::ChargeDeclined{}).settle();
  b.turn(kAna).phase(Phase::Muster, kAna).act(kAna, core::LocalFavorUsed{"move a Troop"});
  b.act(kAna, core::CardsDrawn{b.fillers(kAna, {}, 3)});
  const Folded f = b.fold();
  expect_single(f, "MUS-a.draw", b.last_seq(), "Ana drew 3 cards this turn, not 2");
  expect_none(f, "MUS-a.draw-text");
}

}  // namespace
}  // namespace warlog
