// Corrections are events: warlog rules › Corrections (LOG.void, LOG.backup,
// LOG.correction) and rulings. Each rule: a case that takes
// effect and one that is refused; and the fold of a corrected stream is, at
// every seq, the plain fold of the events that still count.

#include <gtest/gtest.h>

#include "game_builder.hpp"
#include "warlog/core/corrections.hpp"
#include "warlog/core/notation.hpp"

namespace warlog {
namespace {

using core::Mark;
using core::Phase;
using core::Space;
using core::Standing;
using testing::Folded;
using testing::GameBuilder;

constexpr Space sp(char col, int row) {
  return Space{static_cast<std::int8_t>(col - 'a'), static_cast<std::int8_t>(row - 1)};
}

Folded fold_all(const std::vector<core::Event>& events) {
  Folded f;
  const core::Ruleset rules;
  const core::Context ctx{testing::sample_catalog(), rules};
  f.state = core::fold(ctx, events, f.findings);
  EXPECT_EQ(core::check_invariants(f.state), "");
  return f;
}

// The state a stream folds to, with the position it reached taken out: a
// corrected stream is longer than the events that count.
core::GameState without_seq(core::GameState s) {
  s.next_seq = 0;
  return s;
}

std::size_t violations(const Folded& f) {
  return static_cast<std::size_t>(std::count_if(f.findings.begin(), f.findings.end(), [](const core::Finding& x) {
    return x.severity == core::Severity::Violation;
  }));
}

// Turn 1, Ana's Muster part with two cards drawn: seq 0..6.
GameBuilder opening() {
  GameBuilder b;
  b.turn().morale(0).muster(0, "Ironclaw Lancer", "Claw Musketeer");
  return b;
}

core::Event correction(const GameBuilder& b, core::Payload p) {
  core::Event ev = b.events().back();
  ev.seq = b.events().size();
  ev.seat = core::kNoSeat;
  ev.payload = std::move(p);
  return ev;
}

TEST(LogCorrections, VoidOfASlipFoldsAsIfItWereNeverRecorded) {
  auto clean = opening();
  auto slipped = opening();
  slipped.act(0, core::CardPlayed{"Claw Musketeer", sp('a', 1)});  // seq 7: the wrong card typed
  auto events = slipped.events();
  events.push_back(correction(slipped, core::Voided{7, "wrong card typed", "Scorekeeper Ana"}));

  const Folded f = fold_all(events);
  EXPECT_EQ(without_seq(f.state), without_seq(fold_all(clean.events()).state));
  EXPECT_EQ(f.state.next_seq, 9u);
  ASSERT_EQ(f.of("LOG.void").size(), 1u) << f.all();
  EXPECT_EQ(f.of("LOG.void")[0].severity, core::Severity::Note);
  EXPECT_NE(f.of("LOG.void")[0].message.find("Scorekeeper Ana voided seq 7 (CardPlayed"), std::string::npos)
      << f.all();
  EXPECT_EQ(violations(f), 0u) << f.all();
  const auto marks = core::standings(events);
  EXPECT_EQ(marks[7], (Mark{Standing::Voided, 8}));
  EXPECT_EQ(marks[8].standing, Standing::Correction);
}

TEST(LogCorrections, PlayAfterAVoidGoesOnFromTheCorrectedState) {
  auto b = opening();
  b.act(0, core::CardPlayed{"Claw Musketeer", sp('a', 1)});
  auto events = b.events();
  events.push_back(correction(b, core::Voided{7, "wrong card typed", ""}));
  core::Event right = events[7];
  right.seq = 9;
  right.payload = core::CardPlayed{"Ironclaw Lancer", sp('a', 1)};
  events.push_back(right);
  const Folded f = fold_all(events);
  EXPECT_EQ(violations(f), 0u) << f.all();  // no LOG.order for the gap the void leaves
  ASSERT_TRUE(f.state.at(sp('a', 1)).has_value());
  EXPECT_EQ(f.state.at(sp('a', 1))->card, "Ironclaw Lancer");
  EXPECT_EQ(f.state.seats[0].hand.count("Claw Musketeer"), 1u);
}

TEST(LogCorrections, AVoidedViolationIsStruckNotReported) {
  auto b = opening();
  b.act(0, core::CardPlayed{"Marshal Vex", sp('a', 1)});  // not in hand: LOG.zone
  auto events = b.events();
  ASSERT_EQ(fold_all(events).of("LOG.zone").size(), 1u);
  events.push_back(correction(b, core::Voided{7, "typed the wrong name", "Ana"}));
  const Folded f = fold_all(events);
  ASSERT_EQ(f.of("LOG.zone").size(), 1u) << f.all();
  const core::Finding struck = f.of("LOG.zone")[0];
  EXPECT_EQ(struck.severity, core::Severity::Note);
  EXPECT_EQ(struck.message.rfind("struck (voided at seq 8 by Ana: typed the wrong name): was a violation: ", 0), 0u)
      << struck.message;
  EXPECT_EQ(violations(f), 0u) << f.all();
  // The void cites what it answers.
  EXPECT_NE(f.of("LOG.void")[0].message.find("answers LOG.zone at seq 7 (warlog rules › Zones)"), std::string::npos)
      << f.all();
}

TEST(LogCorrections, AVoidOfNoEarlierEventIsRefused) {
  auto b = opening();
  auto events = b.events();
  events.push_back(correction(b, core::Voided{7, "names itself", ""}));  // seq 7
  events.push_back(correction(b, core::Voided{99, "names the future", ""}));
  events.back().seq = 8;
  const Folded f = fold_all(events);
  ASSERT_EQ(f.of("LOG.correction").size(), 2u) << f.all();
  EXPECT_NE(f.of("LOG.correction")[0].message.find("no earlier event"), std::string::npos);
  EXPECT_TRUE(f.of("LOG.order").empty()) << f.all();
  EXPECT_TRUE(f.of("LOG.void").empty()) << "a refused void voids nothing: " << f.all();
  EXPECT_EQ(without_seq(f.state), without_seq(fold_all(b.events()).state));
  EXPECT_EQ(core::standings(events)[7].standing, Standing::Refused);
}

TEST(LogCorrections, AVoidOfAVoidedEventOrACorrectionOrTheSetupIsRefused) {
  auto b = opening();
  b.act(0, core::CardPlayed{"Claw Musketeer", sp('a', 1)});       // seq 7
  auto events = b.events();
  events.push_back(correction(b, core::Voided{7, "first", ""}));   // seq 8: takes effect
  events.push_back(correction(b, core::Voided{7, "again", ""}));   // seq 9: already voided
  events.push_back(correction(b, core::Voided{8, "undo", ""}));    // seq 10: a correction
  events.push_back(correction(b, core::Voided{0, "setup", ""}));   // seq 11: GameCreated
  for (std::size_t i = 8; i < events.size(); ++i) events[i].seq = i;
  const Folded f = fold_all(events);
  const auto refused = f.of("LOG.correction");
  ASSERT_EQ(refused.size(), 3u) << f.all();
  EXPECT_NE(refused[0].message.find("seq 7 was already voided at seq 8"), std::string::npos) << f.all();
  EXPECT_NE(refused[1].message.find("is a Voided"), std::string::npos) << f.all();
  EXPECT_NE(refused[2].message.find("GameCreated"), std::string::npos) << f.all();
}

TEST(LogCorrections, ABackupReturnsToTheStateJustBeforeItsTarget) {
  auto b = opening();
  b.act(0, core::CardPlayed{"Claw Musketeer", sp('a', 1)});  // seq 7
  b.act(0, core::CardPlayed{"Marshal Vex", sp('b', 1)});     // seq 8: LOG.zone
  b.phase(Phase::Muster, 1);                                 // seq 9
  auto events = b.events();
  events.push_back(correction(b, core::BackupTo{7, "appeal: the Musketeer was never played", "J. Ruiz", ""}));

  const Folded f = fold_all(events);
  const std::vector<core::Event> before_target(events.begin(), events.begin() + 7);
  EXPECT_EQ(without_seq(f.state), without_seq(fold_all(before_target).state));
  const auto marks = core::standings(events);
  for (std::size_t p = 7; p < 10; ++p) EXPECT_EQ(marks[p], (Mark{Standing::Superseded, 10})) << p;
  ASSERT_EQ(f.of("LOG.backup").size(), 1u) << f.all();
  const std::string note = f.of("LOG.backup")[0].message;
  EXPECT_NE(note.find("judge's backup by J. Ruiz (unsigned) to just before seq 7"), std::string::npos) << note;
  EXPECT_NE(note.find("3 events superseded; answers LOG.zone at seq 8"), std::string::npos) << note;
  EXPECT_EQ(violations(f), 0u) << f.all();
  EXPECT_NE(f.of("LOG.zone")[0].message.find("struck (superseded by the backup at seq 10 by J. Ruiz"),
            std::string::npos);
}

TEST(LogCorrections, ABackupToTheSetupIsRefused) {
  auto b = opening();
  auto events = b.events();
  events.push_back(correction(b, core::BackupTo{0, "start over", "J. Ruiz", ""}));
  const Folded f = fold_all(events);
  ASSERT_EQ(f.of("LOG.correction").size(), 1u) << f.all();
  EXPECT_TRUE(f.of("LOG.backup").empty()) << "a refused backup returns nowhere: " << f.all();
  EXPECT_EQ(without_seq(f.state), without_seq(fold_all(b.events()).state));
}

TEST(LogCorrections, ABackupUndoesAVoidRecordedAfterItsTarget) {
  auto b = opening();
  b.act(0, core::CardPlayed{"Claw Musketeer", sp('a', 1)});  // seq 7
  b.act(0, core::CardPlayed{"Ironclaw Lancer", sp('b', 1)});  // seq 8
  auto events = b.events();
  events.push_back(correction(b, core::Voided{7, "slip", ""}));        // seq 9
  events.push_back(correction(b, core::BackupTo{8, "appeal", "J", ""}));  // seq 10: back to before seq 8
  events[10].seq = 10;
  const auto marks = core::standings(events);
  // Before seq 8 the Musketeer stood: the void at 9 is superseded with the rest.
  EXPECT_EQ(marks[7].standing, Standing::Effective);
  EXPECT_EQ(marks[8], (Mark{Standing::Superseded, 10}));
  EXPECT_EQ(marks[9], (Mark{Standing::Superseded, 10}));
  const Folded f = fold_all(events);
  EXPECT_EQ(without_seq(f.state), without_seq(fold_all(std::vector<core::Event>(events.begin(), events.begin() + 8)).state));
}

// After the end: only a backup or a void of the GameEnded.
GameBuilder ended() {
  auto b = opening();
  b.act(core::kNoSeat, core::GameEnded{0, core::Victory::Concession});  // seq 7
  return b;
}

TEST(LogCorrections, AfterTheEndAVoidOfTheGameEndedTakesEffect) {
  auto b = ended();
  auto events = b.events();
  events.push_back(correction(b, core::Voided{7, "nobody conceded", ""}));
  const Folded f = fold_all(events);
  EXPECT_TRUE(f.of("LOG.correction").empty()) << f.all();
  EXPECT_NE(f.state.phase, Phase::End);
}

TEST(LogCorrections, AfterTheEndAVoidOfAnythingElseIsRefused) {
  auto b = ended();
  auto events = b.events();
  events.push_back(correction(b, core::Voided{6, "the draw was wrong", ""}));
  const Folded f = fold_all(events);
  ASSERT_EQ(f.of("LOG.correction").size(), 1u) << f.all();
  EXPECT_NE(f.of("LOG.correction")[0].message.find("the game ended at seq 7"), std::string::npos);
  EXPECT_EQ(f.state.phase, Phase::End);
}

TEST(LogCorrections, AfterTheEndAJudgesBackupTakesEffect) {
  auto b = ended();
  auto events = b.events();
  events.push_back(correction(b, core::BackupTo{6, "appeal", "J. Ruiz", std::string("\x01\x02", 2)}));
  const Folded f = fold_all(events);
  EXPECT_TRUE(f.of("LOG.correction").empty()) << f.all();
  EXPECT_NE(f.state.phase, Phase::End);
  EXPECT_NE(f.of("LOG.backup")[0].message.find("(signed; the fold does not check signatures)"), std::string::npos);
}

// Every prefix: the state CorrectedFold reaches is the fresh fold of that
// prefix, and the findings it gives for the last event are that fold's.
TEST(LogCorrections, EveryPrefixOfACorrectedStreamFoldsFresh) {
  auto b = opening();
  b.act(0, core::CardPlayed{"Claw Musketeer", sp('a', 1)});  // 7
  auto events = b.events();
  events.push_back(correction(b, core::Voided{7, "slip", ""}));  // 8
  core::Event e = events[7];
  e.seq = 9;
  e.payload = core::CardPlayed{"Ironclaw Lancer", sp('a', 1)};
  events.push_back(e);                                             // 9
  e.seq = 10;
  e.payload = core::TroopMoved{sp('a', 1), sp('a', 2)};            // 10: still mustering
  events.push_back(e);
  events.push_back(correction(b, core::BackupTo{9, "appeal", "J", ""}));  // 11
  events[11].seq = 11;

  const core::Ruleset rules;
  const core::Context ctx{testing::sample_catalog(), rules};
  core::CorrectedFold stepper(ctx, events);
  for (std::size_t n = 1; n <= events.size(); ++n) {
    std::vector<core::Finding> now;
    stepper.step(now);
    const std::vector<core::Event> prefix(events.begin(), events.begin() + static_cast<std::ptrdiff_t>(n));
    std::vector<core::Finding> fresh;
    const core::GameState state = core::fold(ctx, prefix, fresh);
    EXPECT_EQ(stepper.state(), state) << "after seq " << n - 1;
    EXPECT_EQ(stepper.findings(), fresh) << "after seq " << n - 1;
    std::vector<core::Finding> last;
    std::copy_if(fresh.begin(), fresh.end(), std::back_inserter(last),
                 [&](const core::Finding& f) { return f.seq == n - 1; });
    if (core::standings(prefix).back().standing == Standing::Effective ||
        core::is_correction(prefix.back().payload)) {
      EXPECT_EQ(now, last) << "seq " << n - 1;
    }
  }
}

TEST(LogCorrections, TheSixtyFifthCorrectionIsRefused) {
  auto b = opening();
  auto events = b.events();
  // Draw and void it, 64 times: each takes effect; the 65th void is refused.
  for (std::size_t i = 0; i <= core::kMaxCorrections; ++i) {
    core::Event draw = events.back();
    draw.seq = events.size();
    draw.seat = 0;
    draw.payload = core::CardsDrawn{};
    events.push_back(draw);
    core::Event v = correction(b, core::Voided{draw.seq, "slip", ""});
    v.seq = events.size();
    events.push_back(v);
  }
  const Folded f = fold_all(events);
  EXPECT_EQ(f.of("LOG.void").size(), core::kMaxCorrections);
  ASSERT_EQ(f.of("LOG.correction").size(), 1u) << f.all();
  EXPECT_NE(f.of("LOG.correction")[0].message.find("more than 64 corrections"), std::string::npos);
}

TEST(LogCorrections, AStreamWithoutCorrectionsFoldsAsEventByEventApply) {
  auto b = opening();
  b.act(0, core::CardPlayed{"Marshal Vex", sp('a', 1)});
  EXPECT_FALSE(core::has_corrections(b.events()));
  const Folded whole = fold_all(b.events());
  const Folded stepwise = testing::fold_events(b.events());
  EXPECT_EQ(whole.state, stepwise.state);
  EXPECT_EQ(whole.findings, stepwise.findings);
}

TEST(LogCorrections, ExportMarksStruckLinesAndParsesBackToTheSameEvents) {
  auto b = opening();
  b.act(0, core::CardPlayed{"Claw Musketeer", sp('a', 1)});
  auto events = b.events();
  events.push_back(correction(b, core::Voided{7, "wrong card \"typed\"", "Ana"}));
  const std::string text = core::export_notation(events);
  EXPECT_NE(text.find("  play \"Claw Musketeer\" a1  # voided at seq 8\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\nvoid 7 \"wrong card \\\"typed\\\"\" by \"Ana\"\n"), std::string::npos) << text;
  auto parsed = core::parse_notation(text, "x.wlog", testing::sample_catalog(), "", [](const std::string&) {
    return warlog::Expected<std::string>(std::string());
  });
  ASSERT_TRUE(parsed.ok()) << parsed.errors[0].to_string();
  ASSERT_EQ(parsed.game.events.size(), events.size());
  // The header's events carry the catalog's hash and the armies' seats; the body is the same.
  for (std::size_t i = 3; i < events.size(); ++i) EXPECT_EQ(parsed.game.events[i], events[i]) << i;
  const std::string again = core::export_notation(parsed.game.events);
  EXPECT_EQ(again.substr(again.find("\nTurn 1")), text.substr(text.find("\nTurn 1")));
}

}  // namespace
}  // namespace warlog
