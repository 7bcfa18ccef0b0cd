// replay::Recorder: a game recorded line by line is the game imported from
// the same file (apart from recordedAt and gameUuid); a refused line, a held
// violation, a conflict and an ended game write nothing; two recorders on
// one game lose nothing and record nothing twice.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "sample_lines.hpp"
#include "temp_dir.hpp"
#include "warlog/replay/recorder.hpp"
#include "warlog/replay/report.hpp"

namespace warlog::replay {
namespace {

using ::testing::AllOf;
using ::testing::AnyOf;
using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

// What recording adds to an imported game: the time, the uuid.
std::vector<core::Event> without_recording(std::vector<core::Event> events) {
  for (auto& ev : events) {
    ev.recorded_at_ms = 0;
    ev.game = 0;
    if (auto* c = std::get_if<core::GameCreated>(&ev.payload)) c->game_uuid.clear();
  }
  return events;
}

struct Fixture {
  testing::TempDir dir;
  Archive archive = [this] {
    auto a = Archive::open(dir.store(), Archive::Mode::ReadWrite);
    EXPECT_TRUE(a.has_value()) << a.error().message;
    return std::move(*a);
  }();
  testing::SampleLines spine = testing::sample_lines(dir.path(), "tutorial/spine_first_blood.wlog");

  Recorder create() {
    auto r = Recorder::create(archive, spine.header.string());
    EXPECT_TRUE(r.has_value()) << r.error().error.message;
    return std::move(*r);
  }
  core::Seq stored(core::GameId id) {
    auto g = archive.game(id);
    EXPECT_TRUE(g.has_value());
    return g->events;
  }
};

LineOutcome enter(Recorder& r, std::string_view line, Violations v = Violations::Record) {
  auto o = r.enter(line, v);
  EXPECT_TRUE(o.has_value()) << o.error().message;
  return o ? std::move(*o) : LineOutcome{};
}

TEST(Recorder, EverySampleRecordedLineByLineIsTheGameImportedFromTheSameFile) {
  Fixture f;
  std::vector<std::string> samples = {"tutorial/spine_first_blood.wlog"};
  for (const auto& e : std::filesystem::directory_iterator(std::string(WARLOG_SAMPLES_DIR) + "/games")) {
    samples.push_back("games/" + e.path().filename().string());
  }
  std::sort(samples.begin(), samples.end());
  for (const std::string& sample : samples) {
    SCOPED_TRACE(sample);
    const testing::SampleLines lines = testing::sample_lines(f.dir.path(), sample);
    auto r = Recorder::create(f.archive, lines.header.string());
    ASSERT_TRUE(r.has_value()) << r.error().error.message;
    std::vector<LocatedFinding> live;
    for (const std::string& line : lines.body) {
      LineOutcome o = enter(*r, line);
      ASSERT_THAT(o.status, AnyOf(LineStatus::Recorded, LineStatus::Nothing)) << line;
      live.insert(live.end(), o.findings.begin(), o.findings.end());
    }
    auto imported = f.archive.import_file(lines.whole.string(), {});
    ASSERT_TRUE(imported.has_value()) << imported.error().error.message;
    auto recorded_events = f.archive.events(r->game());
    auto imported_events = f.archive.events(imported->id);
    ASSERT_TRUE(recorded_events && imported_events);
    EXPECT_EQ(without_recording(*recorded_events), without_recording(*imported_events));
    for (const auto& ev : *recorded_events) EXPECT_GT(ev.recorded_at_ms, 0) << "seq " << ev.seq;
    EXPECT_EQ(std::get<core::GameCreated>(recorded_events->front().payload).game_uuid.size(), 16u);

    // The findings shown live are the audit's, text for text; a finding of
    // an event struck later (voided, or superseded by a backup) was shown as
    // it stood when recorded, and the audit keeps it as a struck note that
    // quotes it (docs/rulings.md R-065).
    auto audit = f.archive.audit(imported->id);
    ASSERT_TRUE(audit.has_value());
    ASSERT_EQ(live.size(), audit->findings.size());
    for (std::size_t i = 0; i < live.size(); ++i) {
      const LocatedFinding& later = audit->findings[i];
      if (later.finding.message.starts_with("struck (")) {
        EXPECT_EQ(live[i].finding.rule_id, later.finding.rule_id);
        EXPECT_THAT(later.finding.message, HasSubstr(live[i].finding.message));
        continue;
      }
      EXPECT_EQ(finding_text(live[i], r->seats()), finding_text(later, audit->game.seats));
    }
    auto verified = f.archive.verify(r->game());
    ASSERT_TRUE(verified.has_value());
    EXPECT_TRUE(verified->ok) << verified->detail;
  }
}

TEST(Recorder, ARefusedLineWritesNothing) {
  Fixture f;
  Recorder r = f.create();
  ASSERT_EQ(enter(r, "Turn 1").status, LineStatus::Recorded);
  const core::Seq before = f.stored(r.game());
  LineOutcome o = enter(r, "Muster 1 extra");
  EXPECT_EQ(o.status, LineStatus::Refused);
  ASSERT_FALSE(o.errors.empty());
  EXPECT_EQ(o.errors.front().col, 10u);
  EXPECT_EQ(f.stored(r.game()), before);
  EXPECT_EQ(r.next_seq(), before);
}

TEST(Recorder, StrictHoldsAViolationUntilConfirmed) {
  // spine_first_blood seq 27: Bruno draws three cards (MUS-a.draw).
  Fixture f;
  Recorder r = f.create();
  std::size_t held = 0;
  for (const std::string& line : f.spine.body) {
    LineOutcome o = enter(r, line, Violations::Hold);
    if (o.status == LineStatus::NeedsConfirm) {
      ++held;
      EXPECT_EQ(f.stored(r.game()), r.next_seq()) << "nothing written for a held line";
      ASSERT_FALSE(o.findings.empty());
      EXPECT_EQ(o.findings.front().finding.rule_id, "MUS-a.draw");
      EXPECT_EQ(o.events.front().seq, 27u);
      o = enter(r, line, Violations::Record);
    }
    ASSERT_THAT(o.status, AnyOf(LineStatus::Recorded, LineStatus::Nothing)) << line;
  }
  EXPECT_EQ(held, 1u);
  EXPECT_EQ(f.stored(r.game()), 38u);
}

TEST(Recorder, AfterGameEndedNothingIsRecorded) {
  Fixture f;
  Recorder r = f.create();
  for (const std::string& line : f.spine.body) {
    ASSERT_THAT(enter(r, line).status, AnyOf(LineStatus::Recorded, LineStatus::Nothing)) << line;
  }
  ASSERT_EQ(r.ended_at(), 37u);
  EXPECT_EQ(r.where(), "ended at seq 37") << "the prompt says so before a line is refused";
  // The kind of victory by its name, not its number ("victory 0").
  const std::string state = enter(r, "state").message;
  EXPECT_THAT(state, HasSubstr(" victory supremacy decided_at "));
  EXPECT_THAT(state, ::testing::Not(HasSubstr("victory 0")));
  LineOutcome o = enter(r, "Turn 9");
  EXPECT_EQ(o.status, LineStatus::Ended);
  EXPECT_EQ(o.message, fmt::format("game {} ended at seq 37: call a judge", r.game()));
  EXPECT_EQ(f.stored(r.game()), 38u);
  // A recorder opened on the ended game knows it too.
  auto again = Recorder::open(f.archive, r.game());
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(enter(*again, "Turn 9").status, LineStatus::Ended);
  EXPECT_EQ(f.stored(r.game()), 38u);
  // A refused line is still refused, not "ended".
  EXPECT_EQ(enter(*again, "Turn x").status, LineStatus::Refused);
}

TEST(Recorder, TwoRecordersOnOneGameLoseNothingAndRecordNothingTwice) {
  Fixture f;
  Recorder a = f.create();
  auto b_opened = Recorder::open(f.archive, a.game());
  ASSERT_TRUE(b_opened.has_value());
  Recorder& b = *b_opened;
  ASSERT_EQ(enter(a, "Turn 1").status, LineStatus::Recorded);
  ASSERT_EQ(enter(a, "Morale 1").status, LineStatus::Recorded);
  // b still thinks seq 3 is next: its line is not recorded, a's two are shown.
  LineOutcome c = enter(b, "Turn 1");
  ASSERT_EQ(c.status, LineStatus::Conflict);
  ASSERT_EQ(c.events.size(), 2u);
  EXPECT_EQ(c.events[0].seq, 3u);
  EXPECT_TRUE(std::holds_alternative<core::MoraleChecked>(c.events[1].payload));
  EXPECT_EQ(f.stored(a.game()), 5u);
  // b now stands where a does: its next line goes on from there.
  EXPECT_EQ(b.next_seq(), 5u);
  EXPECT_EQ(b.where(), "turn 1 muster");
  LineOutcome ok = enter(b, "Muster 1");
  ASSERT_EQ(ok.status, LineStatus::Recorded);
  EXPECT_EQ(ok.events.front().seq, 5u);
  // and a, in turn, hears of it before recording on top.
  LineOutcome back = enter(a, "Muster 1");
  ASSERT_EQ(back.status, LineStatus::Conflict);
  ASSERT_EQ(back.events.size(), 1u);
  EXPECT_EQ(enter(a, "draw \"Supply Wagon\", \"Ironclaw Lancer\"").status, LineStatus::Recorded);
  auto events = f.archive.events(a.game());
  ASSERT_TRUE(events.has_value());
  ASSERT_EQ(events->size(), 7u);
  for (core::Seq s = 0; s < events->size(); ++s) EXPECT_EQ((*events)[s].seq, s);
  EXPECT_TRUE(std::holds_alternative<core::PhaseStarted>((*events)[5].payload));
  EXPECT_TRUE(std::holds_alternative<core::CardsDrawn>((*events)[6].payload));
}

TEST(Recorder, CommandsShowTheGameAndRecordNothing) {
  Fixture f;
  Recorder r = f.create();
  for (const char* line : {"Turn 1", "Morale 1", "Muster 1", "draw \"Supply Wagon\", \"Ironclaw Lancer\"",
                           "play \"Ironclaw Lancer\" b1"}) {
    ASSERT_EQ(enter(r, line).status, LineStatus::Recorded) << line;
  }
  const core::Seq before = f.stored(r.game());
  LineOutcome board = enter(r, "board");
  EXPECT_EQ(board.status, LineStatus::Command);
  EXPECT_THAT(board.message, HasSubstr("b1  Ironclaw Lancer"));
  // Control derived from the Troops beside it: none stands beside a2 yet.
  EXPECT_THAT(board.message, HasSubstr("Territory Old Mill at a2: 0 beneath, uncontrolled"));
  EXPECT_THAT(enter(r, "hand 1").message, HasSubstr("Supply Wagon"));
  EXPECT_THAT(enter(r, "hand 3").message, HasSubstr("hand 1 or hand 2"));
  const std::string state = enter(r, "state").message;
  EXPECT_THAT(state, HasSubstr("Ironclaw Lancer"));
  EXPECT_THAT(state, HasSubstr(" victory undecided decided_at -1 in turn 0 "));
  EXPECT_THAT(enter(r, "findings").message, HasSubstr("no findings"));
  EXPECT_THAT(enter(r, "help").message, HasSubstr("board"));
  EXPECT_EQ(f.stored(r.game()), before);
}

TEST(Recorder, CompletionKnowsTheGame) {
  Fixture f;
  Recorder r = f.create();
  for (const char* line : {"Turn 1", "Morale 1", "Muster 1", "draw \"Supply Wagon\", \"Ironclaw Lancer\"",
                           "play \"Ironclaw Lancer\" b1"}) {
    ASSERT_EQ(enter(r, line).status, LineStatus::Recorded) << line;
  }
  Completion verbs = r.complete("fo");
  EXPECT_THAT(verbs.candidates, Contains("forage"));
  EXPECT_EQ(verbs.start, 0u);
  Completion hand = r.complete("forage \"Sup");
  EXPECT_EQ(hand.candidates, std::vector<std::string>{"\"Supply Wagon\""});  // the only card left in hand
  EXPECT_EQ(hand.start, 7u);
  EXPECT_EQ(r.complete("move ").candidates, std::vector<std::string>{"b1"});
  EXPECT_THAT(r.complete("fire b1 ").candidates, ::testing::IsEmpty()) << "no Troop of Bruno's on the board";
  EXPECT_THAT(r.complete("2: draw \"Coal").candidates, Contains("\"Coalition Pikeman\""));
  EXPECT_THAT(r.complete("ha").candidates, Contains("hand"));
}

// docs/rulings.md R-066: after a GameEnded a judge's backup (an appeal) is
// still recorded, and play goes on from before its target; a void of the
// GameEnded reopens the game; any other void is recorded with its finding.
TEST(Recorder, R066AJudgesBackupAfterTheEndIsRecordedAndPlayGoesOnFromBeforeItsTarget) {
  Fixture f;
  Recorder r = f.create();
  for (const std::string& line : f.spine.body) {
    ASSERT_THAT(enter(r, line).status, AnyOf(LineStatus::Recorded, LineStatus::Nothing)) << line;
  }
  ASSERT_EQ(r.ended_at(), 37u);
  const std::string end_line = f.spine.body.back();

  LineOutcome backup = enter(r, "backup 37 \"appeal: the result was declared too early\" by \"Judge Ada\"");
  ASSERT_EQ(backup.status, LineStatus::Recorded) << backup.message;
  ASSERT_EQ(backup.events.size(), 1u);
  EXPECT_EQ(backup.events.front().seq, 38u);
  EXPECT_FALSE(r.ended_at()) << "the GameEnded is superseded: the game is open again";
  EXPECT_THAT(backup.findings, Contains(::testing::Field(&LocatedFinding::finding,
                                                         ::testing::Field(&core::Finding::rule_id, "LOG.backup"))));
  // The game ends again, as the judge ruled.
  ASSERT_EQ(enter(r, end_line).status, LineStatus::Recorded) << end_line;
  EXPECT_EQ(r.ended_at(), 39u);

  // A void of an ordinary event after the end: recorded, and the fold says
  // it may not be (LOG.correction).
  LineOutcome late = enter(r, "void 20 \"a slip noticed after the end\" by \"Scorekeeper Lin\"");
  ASSERT_EQ(late.status, LineStatus::Recorded);
  EXPECT_THAT(late.findings, Contains(::testing::Field(&LocatedFinding::finding,
                                                       ::testing::Field(&core::Finding::rule_id, "LOG.correction"))));
  // A void of the GameEnded itself reopens it.
  ASSERT_EQ(enter(r, "void 39 \"not over yet\" by \"Scorekeeper Lin\"").status, LineStatus::Recorded);
  EXPECT_FALSE(r.ended_at());

  // A recorder opened on the stored game sees the same, and the stream verifies.
  auto again = Recorder::open(f.archive, r.game());
  ASSERT_TRUE(again.has_value()) << again.error().message;
  EXPECT_FALSE(again->ended_at());
  EXPECT_EQ(again->next_seq(), r.next_seq());
  EXPECT_EQ(again->state(), r.state());
  EXPECT_EQ(again->place().turn, r.place().turn);
  auto verified = f.archive.verify(r.game());
  ASSERT_TRUE(verified.has_value());
  EXPECT_TRUE(verified->ok) << verified->detail;
}

// docs/rulings.md R-064: before a backup is recorded it says what it
// crosses (cards drawn, shuffles, hidden cards revealed), and holds for a
// judge's yes; recorded, it says so again.
TEST(Recorder, R064ABackupSaysWhatItCrossesBeforeItIsRecorded) {
  Fixture f;
  Recorder r = f.create();
  for (const std::string& line : f.spine.body) {
    ASSERT_THAT(enter(r, line).status, AnyOf(LineStatus::Recorded, LineStatus::Nothing)) << line;
  }
  const core::Seq before = f.stored(r.game());
  const std::string line = "backup 20 \"appeal\" by \"Judge Ada\"";
  LineOutcome held = enter(r, line, Violations::HoldBackup);
  ASSERT_EQ(held.status, LineStatus::NeedsConfirm);
  ASSERT_FALSE(held.crossing.empty());
  EXPECT_THAT(held.crossing.front(), HasSubstr("a backup to seq 20 supersedes"));
  EXPECT_THAT(held.crossing, Contains(AllOf(StartsWith("  seq "), HasSubstr(": drawn "))))
      << "the spine draws after seq 20";
  EXPECT_EQ(f.stored(r.game()), before) << "nothing written for a held backup";
  LineOutcome done = enter(r, line, Violations::Record);
  ASSERT_EQ(done.status, LineStatus::Recorded);
  EXPECT_EQ(done.crossing, held.crossing);
  EXPECT_EQ(f.stored(r.game()), before + 1);
  // A line with no backup is never held for one.
  EXPECT_NE(enter(r, "Turn 5", Violations::HoldBackup).status, LineStatus::NeedsConfirm);
}


// Issue 16: a terminal follows the store. What another recorder appended is
// taken without a line (the viewer's record bar beside the terminal), so
// the next line entered is no conflict.
TEST(Recorder, FollowTakesAnotherRecordersEventsSoTheNextLineIsNoConflict) {
  Fixture f;
  Recorder a = f.create();
  auto b_opened = Recorder::open(f.archive, a.game());
  ASSERT_TRUE(b_opened.has_value());
  Recorder& b = *b_opened;
  auto none = b.follow();
  ASSERT_TRUE(none.has_value()) << none.error().message;
  EXPECT_TRUE(none->events.empty());
  EXPECT_EQ(followed_text(b, *none), "");
  ASSERT_EQ(enter(a, "Turn 1").status, LineStatus::Recorded);
  ASSERT_EQ(enter(a, "Morale 1").status, LineStatus::Recorded);
  auto theirs = b.follow();
  ASSERT_TRUE(theirs.has_value()) << theirs.error().message;
  ASSERT_EQ(theirs->events.size(), 2u);
  EXPECT_EQ(theirs->events[0].seq, 3u);
  EXPECT_EQ(b.next_seq(), 5u);
  EXPECT_EQ(b.where(), "turn 1 muster");
  EXPECT_THAT(followed_text(b, *theirs), StartsWith("another recorder recorded seqs 3..4:\n  seq 3 "));
  // The turn's opening belongs to no seat; the Morale Check to the leader's.
  EXPECT_THAT(followed_text(b, *theirs), HasSubstr("  seq 3 TurnStarted (turn 1 "));
  EXPECT_THAT(followed_text(b, *theirs), Not(HasSubstr("seat 0")));
  EXPECT_TRUE(b.follow()->events.empty()) << "taken once";
  LineOutcome ok = enter(b, "Muster 1");
  ASSERT_EQ(ok.status, LineStatus::Recorded) << answer_text(b, ok);
  EXPECT_EQ(ok.events.front().seq, 5u);
  EXPECT_EQ(b.state(), Recorder::open(f.archive, a.game())->state());
}

// The trial: "a backup to seq 60 supersedes 4 events, crossing:" over two
// lines (the_mill_road_appeal's appeal: Yara's draw and play are crossed,
// the Warden's move and the Muster marker are not). The count and the list
// now agree, and the head says why the list is shorter.
TEST(Recorder, R082ABackupsCrossingSaysHowManyOfTheEventsItSupersedesItLists) {
  Fixture f;
  const testing::SampleLines appeal = testing::sample_lines(f.dir.path(), "games/the_mill_road_appeal.wlog");
  auto created = Recorder::create(f.archive, appeal.header.string());
  ASSERT_TRUE(created.has_value()) << created.error().error.message;
  Recorder& r = *created;
  std::string backup;
  for (const std::string& line : appeal.body) {
    if (line.starts_with("backup 60")) {
      backup = line;
      break;
    }
    ASSERT_THAT(enter(r, line).status, AnyOf(LineStatus::Recorded, LineStatus::Nothing)) << line;
  }
  ASSERT_EQ(r.next_seq(), 64u);
  LineOutcome held = enter(r, backup, Violations::HoldBackup);
  ASSERT_EQ(held.status, LineStatus::NeedsConfirm);
  ASSERT_EQ(held.crossing.size(), 3u);
  EXPECT_EQ(held.crossing[0],
            "a backup to seq 60 supersedes 4 events; 2 of them cross hidden information (cards drawn, shuffles, "
            "hidden cards revealed), the other 2 reveal nothing:");
  EXPECT_THAT(held.crossing[1], HasSubstr("seq 62"));
  EXPECT_THAT(held.crossing[2], HasSubstr("seq 63"));
  EXPECT_TRUE(std::any_of(held.findings.begin(), held.findings.end(), [](const LocatedFinding& lf) {
    return lf.finding.message.find("; 4 events superseded") != std::string::npos;
  })) << "the same number as the backup's LOG.backup finding";
}

// The trial's --strict at a terminal printed a held line's findings twice:
// under the question, then under "recorded". Confirmed, the line says they
// are the ones above (spine_first_blood seq 27: Bruno draws three).
TEST(Recorder, AConfirmedLineDoesNotRepeatTheFindingsShownWhenItWasHeld) {
  Fixture f;
  Recorder r = f.create();
  for (const std::string& line : f.spine.body) {
    LineOutcome held = enter(r, line, Violations::Hold);
    if (held.status != LineStatus::NeedsConfirm) continue;
    ASSERT_THAT(held_text(r, held), HasSubstr("MUS-a.draw"));
    LineOutcome done = enter(r, line, Violations::Record);
    ASSERT_EQ(done.status, LineStatus::Recorded);
    EXPECT_EQ(confirmed_text(r, held, done), "seq 27 recorded (its 1 finding is shown above)\n");
    // Something else than what was shown (here, no findings held) is answered whole.
    EXPECT_EQ(confirmed_text(r, LineOutcome{}, done), answer_text(r, done));
    return;
  }
  FAIL() << "no line of the spine was held";
}

}  // namespace
}  // namespace warlog::replay
