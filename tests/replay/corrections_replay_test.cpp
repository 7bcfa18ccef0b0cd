// Corrections through the replay facade (docs/warlog-rules.md › Corrections):
// the sample the_mill_road_appeal (a slip voided in turn 2, a judge's backup
// in turn 4, a timed scoresheet) audits with its corrections as notes and
// its struck events listed, seeks and surveys like the fresh fold, rule-diffs
// through the corrections, and says what a backup crosses.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iterator>

#include <nlohmann/json.hpp>

#include "temp_dir.hpp"
#include "warlog/core/corrections.hpp"
#include "warlog/replay/corrections.hpp"
#include "warlog/replay/replay.hpp"
#include "warlog/replay/report.hpp"
#include "warlog/replay/rule_diff.hpp"
#include "warlog/replay/seek.hpp"
#include "warlog/replay/survey.hpp"

namespace warlog {
namespace {

namespace fs = std::filesystem;

struct Imported {
  testing::TempDir dir;
  std::unique_ptr<replay::Archive> archive;
  core::GameId id = 0;
};

std::unique_ptr<Imported> import_sample(const std::string& name) {
  auto out = std::make_unique<Imported>();
  auto a = replay::Archive::open(out->dir.store(), replay::Archive::Mode::ReadWrite);
  if (!a) throw std::runtime_error(a.error().message);
  out->archive = std::make_unique<replay::Archive>(std::move(*a));
  out->archive->use_snapshot_cache(out->dir.cache_dir(), out->dir.key_file());
  auto r = out->archive->import_file((fs::path(WARLOG_SAMPLES_DIR) / "games" / (name + ".wlog")).string(), {});
  if (!r) throw std::runtime_error(r.error().error.message);
  out->id = r->id;
  return out;
}

TEST(CorrectionsReplay, TheAuditListsTheCorrectionsAsNotesAndTheStruckEvents) {
  const auto g = import_sample("the_mill_road_appeal");
  auto a = g->archive->audit(g->id);
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_EQ(a->violations(), 0u) << replay::audit_text(*a);
  ASSERT_EQ(a->struck.size(), 5u) << replay::audit_text(*a);  // the slip; the move and the three after it
  EXPECT_EQ(a->struck[0], (replay::StruckEvent{26, "CardPlayed", core::Standing::Voided, 27, "Scorekeeper Lin",
                                               "wrong card typed: the Gilded Champion was played", false}));
  for (std::size_t i = 1; i < 5; ++i) {
    EXPECT_EQ(a->struck[i].seq, 59 + i);
    EXPECT_EQ(a->struck[i].standing, core::Standing::Superseded);
    EXPECT_EQ(a->struck[i].by, 64u);
    EXPECT_EQ(a->struck[i].who, "J. Ruiz");
  }
  const std::string text = replay::audit_text(*a);
  EXPECT_NE(text.find("  seq   26  ~~CardPlayed~~  voided at seq 27 by Scorekeeper Lin: wrong card typed"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  seq   60  ~~TroopMoved~~  superseded by the backup at seq 64 by J. Ruiz (unsigned)"),
            std::string::npos)
      << text;
  const auto j = replay::audit_json(*a);
  ASSERT_TRUE(j.contains("struck"));
  EXPECT_EQ(j["struck"][0]["standing"], "voided");
  EXPECT_EQ(j["struck"][1]["signed"], false);
  // The final state is the_mill_road's: the corrections changed nothing of the game.
  const auto plain = import_sample("the_mill_road");
  auto b = plain->archive->audit(plain->id);
  ASSERT_TRUE(b);
  // (Seqs differ: the corrected game is seven events longer.)
  const core::GameState& x = a->final_state;
  const core::GameState& y = b->final_state;
  EXPECT_TRUE(x.seats == y.seats && x.grid == y.grid && x.territories == y.territories)
      << core::to_text(x) << "\n----\n" << core::to_text(y);
  EXPECT_EQ(x.victory, y.victory);
  EXPECT_EQ(x.winner, y.winner);
  EXPECT_EQ(x.turn, y.turn);
  ASSERT_TRUE(x.decided_at && y.decided_at);
  EXPECT_EQ(*x.decided_at, *y.decided_at + 7);
  EXPECT_FALSE(replay::audit_json(*b).contains("struck"));  // a game without corrections: as before
  EXPECT_TRUE(b->struck.empty());
}

TEST(CorrectionsReplay, AuditTimesShowEachPartOfATimedScoresheet) {
  const auto g = import_sample("the_mill_road_appeal");
  auto a = g->archive->audit(g->id);
  ASSERT_TRUE(a);
  ASSERT_FALSE(a->times.empty());
  // Turn 1 from 19:02:10; its start part (Turn, Morale) runs to Muster 2 at 19:02:55.
  const auto start = std::find_if(a->times.begin(), a->times.end(), [](const replay::PartTime& p) { return p.turn == 1; });
  ASSERT_NE(start, a->times.end());
  EXPECT_EQ(start->seat, core::kNoSeat);
  EXPECT_EQ(start->end_ms - start->start_ms, 45'000);
  const std::string text = replay::audit_times_text(*a);
  EXPECT_NE(text.find("turn  1  start"), std::string::npos) << text;
  EXPECT_NE(text.find("19:02:10"), std::string::npos) << text;
  EXPECT_NE(text.find("no time recorded"), std::string::npos) << text;  // turns 3 on are untimed
  const auto j = replay::audit_times_json(*a);
  EXPECT_EQ(j["turns"][0]["turn"], 1);
  EXPECT_EQ(j["turns"][0]["start_ms"], start->start_ms);
  // A game without times shows none.
  const auto plain = import_sample("the_mill_road");
  auto b = plain->archive->audit(plain->id);
  ASSERT_TRUE(b);
  EXPECT_TRUE(b->times.empty());
  EXPECT_EQ(replay::audit_times_text(*b), "  times: none recorded\n");
}

TEST(CorrectionsReplay, ABackupSaysWhatItCrosses) {
  const auto g = import_sample("the_mill_road_appeal");
  auto events = g->archive->events(g->id);
  ASSERT_TRUE(events);
  // Before the judge's backup (seq 64), a backup to seq 60 crosses Yara's draw and play.
  const std::vector<core::Event> before(events->begin(), events->begin() + 64);
  auto c = replay::backup_crossing(before, 60);
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->events, 4u);
  ASSERT_EQ(c->crossed.size(), 2u);
  EXPECT_EQ(c->crossed[0], (replay::Crossed{62, 0, replay::Crossed::Kind::Drawn, "Hired Arquebusier, Sellsword"}));
  EXPECT_EQ(c->crossed[1], (replay::Crossed{63, 0, replay::Crossed::Kind::Revealed, "Sellsword played from hand"}));
  // A voided event is not crossed (the slip never happened at the table).
  auto slip = replay::backup_crossing(std::vector<core::Event>(events->begin(), events->begin() + 29), 25);
  ASSERT_TRUE(slip);
  ASSERT_EQ(slip->crossed.size(), 2u);
  EXPECT_EQ(slip->crossed[0].kind, replay::Crossed::Kind::Drawn);
  EXPECT_EQ(slip->crossed[1].what, "Gilded Champion played from hand");
  // The scorekeeper's trial: the crossing counted the events still standing,
  // the backup's finding the events it superseded (its void too): one number now.
  std::vector<core::Event> backed(events->begin(), events->begin() + 29);
  core::Event backup = backed.back();
  backup.seq = 29;
  backup.payload = core::BackupTo{25, "appeal", "J. Ruiz", {}};
  backed.push_back(backup);
  auto catalog = g->archive->catalog_of(g->id);
  auto ruleset = g->archive->ruleset_of(g->id);
  ASSERT_TRUE(catalog && ruleset);
  const core::Context ctx{*catalog, *ruleset};
  core::CorrectedFold fold(ctx, backed);
  std::vector<core::Finding> step;
  while (!fold.done()) {
    step.clear();
    fold.step(step);
  }
  const std::string said = fmt::format("; {} events superseded", slip->events);
  EXPECT_TRUE(std::any_of(step.begin(), step.end(), [&](const core::Finding& f) {
    return f.message.find(said) != std::string::npos;
  })) << "the backup's finding does not say" << said << " as its crossing counts";
  EXPECT_FALSE(replay::backup_crossing(*events, 0));     // GameCreated
  EXPECT_FALSE(replay::backup_crossing(*events, 9999));  // no such event
}

TEST(CorrectionsReplay, SeekAtAndAcrossTheCorrectionsEqualsTheFreshFold) {
  const auto g = import_sample("the_mill_road_appeal");
  auto events = g->archive->events(g->id);
  ASSERT_TRUE(events);
  auto catalog = g->archive->catalog_of(g->id);
  auto ruleset = g->archive->ruleset_of(g->id);
  ASSERT_TRUE(catalog && ruleset);
  const core::Context ctx{*catalog, *ruleset};
  ASSERT_TRUE(replay::build_snapshots(*g->archive, g->id, 7));
  auto seeker = replay::Seeker::open(*g->archive, g->id);
  ASSERT_TRUE(seeker);
  for (const core::Seq seq : {core::Seq{25}, core::Seq{26}, core::Seq{27}, core::Seq{28}, core::Seq{63}, core::Seq{64},
                              core::Seq{65}, core::Seq{events->size() - 1}}) {
    const std::vector<core::Event> prefix(events->begin(), events->begin() + static_cast<std::ptrdiff_t>(seq + 1));
    std::vector<core::Finding> found;
    const core::GameState fresh = core::fold(ctx, prefix, found);
    auto r = seeker->seek(seq);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_TRUE(r->moment.state == fresh) << "seq " << seq;
    std::vector<core::Finding> last;
    for (const auto& f : found) {
      if (f.seq == seq) last.push_back(f);
    }
    EXPECT_EQ(r->moment.findings, last) << "seq " << seq;
  }
  // The survey the viewer folds is the audit's.
  auto survey = replay::survey_game(*g->archive, g->id);
  auto audit = g->archive->audit(g->id);
  ASSERT_TRUE(survey && audit);
  ASSERT_EQ(survey->findings.size(), audit->findings.size());
  EXPECT_TRUE(survey->state == audit->final_state);
  EXPECT_EQ(survey->struck, audit->struck);
}

TEST(CorrectionsReplay, RuleDiffComparesThroughTheCorrections) {
  const auto g = import_sample("the_mill_road_appeal");
  // The same ruleset on both sides: nothing differs, corrections or not.
  auto same = replay::rule_diff(*g->archive, g->id, {});
  ASSERT_TRUE(same) << same.error().message;
  EXPECT_FALSE(same->changed());
  // Shotte damage as recorded instead of the shooter's Vigor: the same games
  // change with and without the corrections (the_mill_road fires in turn 3).
  auto ruleset = g->archive->ruleset_of(g->id);
  ASSERT_TRUE(ruleset);
  replay::RuleDiffOptions options;
  options.candidate.ruleset = *ruleset;
  options.candidate.ruleset->shotte_damage_is_vigor = !ruleset->shotte_damage_is_vigor;
  auto corrected = replay::rule_diff(*g->archive, g->id, options);
  const auto plain = import_sample("the_mill_road");
  auto uncorrected = replay::rule_diff(*plain->archive, plain->id, options);
  ASSERT_TRUE(corrected && uncorrected);
  EXPECT_EQ(corrected->changed(), uncorrected->changed());
  EXPECT_EQ(corrected->outcome_changed(), uncorrected->outcome_changed());
  EXPECT_EQ(corrected->added.size(), uncorrected->added.size());
}

}  // namespace
}  // namespace warlog
