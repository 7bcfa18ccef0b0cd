// rests_on (issue 15): a finding or the result that exists only because of
// an earlier violation says so; one that would be there anyway does not.

#include <gtest/gtest.h>

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "battle_builder.hpp"
#include "warlog/replay/report.hpp"
#include "warlog/replay/rests_on.hpp"

namespace warlog {
namespace {

using testing::Battle;
using testing::Table;
using testing::sample_catalog;
using testing::sq;

constexpr core::Seat kAna = 0;
constexpr core::Seat kBo = 1;

struct Audited {
  std::vector<core::Event> events;
  std::vector<replay::LocatedFinding> findings;
  core::GameState state;
};

Audited audit(const Battle& b) {
  Audited a;
  a.events = b.events();
  const core::Context ctx{sample_catalog(), b.rules()};
  std::vector<core::Finding> found;
  a.state = core::fold(ctx, a.events, found);
  for (core::Finding& f : found) {
    const core::Event& ev = a.events.at(f.seq);
    a.findings.push_back(replay::LocatedFinding{std::move(f), ev.turn, ev.phase, ev.seat, {}});
  }
  return a;
}

replay::RestsOn rests(const Audited& a, const Battle& b, std::size_t max = replay::kRestsOnViolations) {
  const core::Context ctx{sample_catalog(), b.rules()};
  return replay::rests_on(ctx, a.events, a.findings, a.state, max);
}

std::size_t index_of(const Audited& a, std::string_view rule) {
  const auto it = std::find_if(a.findings.begin(), a.findings.end(),
                               [&](const replay::LocatedFinding& f) { return f.finding.rule_id == rule; });
  EXPECT_NE(it, a.findings.end()) << rule;
  return static_cast<std::size_t>(it - a.findings.begin());
}

// The Old Mill on c2 (5x3). Turn 2: Ana plays a Lancer on b1 and moves it,
// still mustering, onto b2 beside the Mill (MUS-mustering.move, at `move`);
// Bo draws three cards (MUS-a.draw, at `draw`), which touches no Territory.
// Ana alone holds a side of the Mill when she pays: a Supremacy Victory,
// after which Bo's Attrition part is play after the end (LOG.result).
struct Game {
  Battle b;
  core::Seq move = 0;
  core::Seq draw = 0;
};

Game mustering_supremacy() {
  Game g{Battle(Table::with_territory())};
  Battle& b = g.b;
  b.provision_turn().turn(kAna).muster_playing(kAna, {{"Ironclaw Lancer", "b1"}});
  b.move(kAna, "b1", "b2");
  g.move = b.last_seq();
  b.phase(core::Phase::Muster, kBo).act(kBo, core::CardsDrawn{b.fillers(kBo, {}, 3)});
  g.draw = b.last_seq();
  b.warfare().act(kAna, core::ChargeDeclined{}).attrition(kAna).pay_all(kAna);
  b.attrition(kBo);
  return g;
}

TEST(RestsOn, ASupremacyThatOnlyAnIllegalMoveGaveRestsOnIt) {
  const Game g = mustering_supremacy();
  const Audited a = audit(g.b);
  ASSERT_EQ(a.state.victory, core::Victory::Supremacy);
  const replay::RestsOn r = rests(a, g.b);
  EXPECT_EQ(r.tried, (std::vector<core::Seq>{g.move, g.draw}));
  EXPECT_EQ(r.result, std::vector<core::Seq>{g.move}) << "the extra draw changes no Territory";
  // Bo's part after the end is a finding only because the game ended.
  const std::size_t after_end = index_of(a, "LOG.result");
  EXPECT_EQ(r.findings.at(after_end), std::vector<core::Seq>{g.move});
  // A violation does not rest on itself.
  EXPECT_TRUE(r.findings.at(index_of(a, "MUS-mustering.move")).empty());
  EXPECT_TRUE(r.findings.at(index_of(a, "MUS-a.draw")).empty());
  EXPECT_EQ(r.folds, 3u) << "one fold to the last violation tried, one more from each";
}

TEST(RestsOn, ACleanGameTriesNothingAndFoldsNothing) {
  Battle b(Table::with_territory());
  b.provision_turn();
  const Audited a = audit(b);
  ASSERT_TRUE(a.findings.empty());
  const replay::RestsOn r = rests(a, b);
  EXPECT_TRUE(r.tried.empty());
  EXPECT_TRUE(r.result.empty());
  EXPECT_EQ(r.folds, 0u);
}

TEST(RestsOn, OnlyTheFirstViolationsAreTried) {
  const Game g = mustering_supremacy();
  const Audited a = audit(g.b);
  const replay::RestsOn r = rests(a, g.b, 1);
  EXPECT_EQ(r.tried, std::vector<core::Seq>{g.move});
  EXPECT_EQ(r.folds, 2u);
}

TEST(RestsOn, TheAuditTextSaysWhatRestsOnWhat) {
  EXPECT_EQ(replay::violations_text({88}), "the violation at seq 88");
  EXPECT_EQ(replay::violations_text({12, 40}), "the violations at seq 12 and 40");
  EXPECT_EQ(replay::violations_text({3, 12, 40}), "the violations at seq 3, 12 and 40");
  const Game g = mustering_supremacy();
  const Audited a = audit(g.b);
  replay::GameAudit audit;
  audit.findings = a.findings;
  audit.final_state = a.state;
  audit.game.seats = {{"Ana", core::Allegiance::ClawEmpire}, {"Bo", core::Allegiance::PawCoalition}};
  audit.rests_on = rests(a, g.b);
  const std::string text = replay::audit_text(audit);
  EXPECT_NE(text.find(fmt::format("rests on the violation at seq {}", g.move)), std::string::npos) << text;
  EXPECT_NE(text.find(fmt::format("  result: Seat 1 (Ana) wins by Supremacy on turn 2 rests on the violation at "
                                  "seq {}",
                                  g.move)),
            std::string::npos)
      << text;
  const auto json = replay::audit_json(audit);
  EXPECT_EQ(json.at("rests_on").at("result"), nlohmann::json::array({g.move}));
  EXPECT_EQ(json.at("findings").at(index_of(a, "LOG.result")).at("rests_on"), nlohmann::json::array({g.move}));
}

// The same game, but Ana pays nothing: her Supremacy is derived when Bo's
// Attrition PhaseStarted closes her part (Attrition › 2 at the end of the
// leader's part, R-035), a marker, and turn 3's TurnStarted, another
// marker, is play after the end (LOG.result).
struct MarkerGame {
  Battle b;
  core::Seq move = 0;
  core::Seq decided = 0;  // Bo's Attrition PhaseStarted
  core::Seq next_turn = 0;
};

MarkerGame supremacy_at_a_marker() {
  MarkerGame g{Battle(Table::with_territory())};
  Battle& b = g.b;
  b.provision_turn().turn(kAna).muster_playing(kAna, {{"Ironclaw Lancer", "b1"}});
  b.move(kAna, "b1", "b2");
  g.move = b.last_seq();
  b.muster(kBo).warfare().act(kAna, core::ChargeDeclined{}).attrition(kAna);
  b.attrition(kBo);
  g.decided = b.last_seq();
  g.next_turn = b.next_seq();
  b.turn(kAna);
  return g;
}

TEST(RestsOn, AResultDerivedAtAMarkerAndAFindingAtAMarkerRestOnTheViolation) {
  const MarkerGame g = supremacy_at_a_marker();
  const Audited a = audit(g.b);
  ASSERT_EQ(a.state.victory, core::Victory::Supremacy);
  ASSERT_EQ(a.state.decided_at, g.decided) << "derived at the marker that closes Ana's part";
  const replay::RestsOn r = rests(a, g.b);
  EXPECT_EQ(r.tried, std::vector<core::Seq>{g.move});
  EXPECT_EQ(r.result, std::vector<core::Seq>{g.move});
  const std::size_t after_end = index_of(a, "LOG.result");
  ASSERT_EQ(a.findings.at(after_end).finding.seq, g.next_turn) << "at turn 3's TurnStarted";
  EXPECT_EQ(r.findings.at(after_end), std::vector<core::Seq>{g.move});

  replay::GameAudit audit;
  audit.findings = a.findings;
  audit.final_state = a.state;
  audit.game.seats = {{"Ana", core::Allegiance::ClawEmpire}, {"Bo", core::Allegiance::PawCoalition}};
  audit.rests_on = r;
  const std::string text = replay::audit_text(audit);
  EXPECT_NE(text.find(fmt::format("  result: Seat 1 (Ana) wins by Supremacy on turn 2 rests on the violation at "
                                  "seq {}",
                                  g.move)),
            std::string::npos)
      << text;
  EXPECT_NE(text.find(fmt::format("rests on the violation at seq {}", g.move),
                      text.find(fmt::format("seq {:>4}", g.next_turn))),
            std::string::npos)
      << text;
  const auto json = replay::audit_json(audit);
  EXPECT_EQ(json.at("rests_on").at("result"), nlohmann::json::array({g.move}));
  EXPECT_EQ(json.at("findings").at(after_end).at("seq"), g.next_turn);
  EXPECT_EQ(json.at("findings").at(after_end).at("rests_on"), nlohmann::json::array({g.move}));
}

}  // namespace
}  // namespace warlog
