// Disputes through the replay facade on the spine sample: raise, rule, fold
// the history, and turn a ruling into a regression case that runs.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "temp_dir.hpp"
#include "warlog/core/notation.hpp"
#include "warlog/replay/dispute_case.hpp"
#include "warlog/replay/disputes.hpp"

namespace warlog {
namespace {

namespace fs = std::filesystem;
using replay::DisputeId;
using ::testing::HasSubstr;

const std::string kSample = std::string(WARLOG_SAMPLES_DIR) + "/tutorial/spine_first_blood.wlog";
constexpr core::Seq kThreeCards = 27;  // Bruno draws three cards (MUS-a.draw)

class DisputesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto a = replay::Archive::open(dir_.store(), replay::Archive::Mode::ReadWrite);
    ASSERT_TRUE(a) << a.error().message;
    archive_ = std::make_unique<replay::Archive>(std::move(*a));
    auto imported = archive_->import_file(kSample, {});
    ASSERT_TRUE(imported);
    ASSERT_EQ(imported->id, 1u);
  }
  DisputeId raise(core::Seq seq = kThreeCards, std::string claim = "Bruno drew three cards") {
    auto id = replay::add_dispute(*archive_, {1, seq, std::move(claim), "Alice", {"MUS-a.draw", "R-010"},
                                              "2026-03-20T10:00:00Z", {}});
    EXPECT_TRUE(id) << id.error().message;
    return *id;
  }
  replay::NewRuling ruling(std::optional<core::Expectation> e, bool supersede = false) {
    return {"Two cards per Muster Phase", "Judge Carla", {"MUS-a.draw"}, std::move(e), "2026-03-21T09:00:00Z",
            supersede, {}, std::nullopt, 0};
  }

  testing::TempDir dir_;
  std::unique_ptr<replay::Archive> archive_;
};

TEST(DisputeIds, PrintAndParse) {
  EXPECT_EQ(replay::to_string(DisputeId{1, 27, 0}), "1:27:0");
  EXPECT_EQ(replay::parse_dispute_id("12:70000:3"), (DisputeId{12, 70000, 3}));
  for (const char* bad : {"", "1:27", "1:27:0:1", "a:1:2", "1::2", "1:2:3x", "-1:2:3", " 1:2:3"}) {
    EXPECT_FALSE(replay::parse_dispute_id(bad)) << bad;
  }
}

TEST(Citations, AKnownRuleIdIsARuleAnythingElseText) {
  EXPECT_EQ(replay::make_citation("MUS-a.draw").kind, core::Citation::Kind::Rule);
  EXPECT_EQ(replay::make_citation("MUS-a.draws").kind, core::Citation::Kind::Text);
  EXPECT_EQ(replay::make_citation("rulings R-010").kind, core::Citation::Kind::Text);
}

TEST_F(DisputesTest, RaiseListShowResolve) {
  const DisputeId id = raise();
  EXPECT_EQ(id, (DisputeId{1, kThreeCards, 0}));
  auto listed = replay::list_disputes(*archive_, std::nullopt);
  ASSERT_TRUE(listed);
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ((*listed)[0].status(), core::DisputeStatus::Open);
  EXPECT_EQ((*listed)[0].raised.citations[0], (core::Citation{core::Citation::Kind::Rule, "MUS-a.draw"}));
  EXPECT_EQ((*listed)[0].raised.created_at, "2026-03-20T10:00:00Z");  // as given: no clock read

  auto resolved = replay::resolve_dispute(*archive_, id, ruling(core::Expectation{"MUS-a.draw", true}));
  ASSERT_TRUE(resolved) << resolved.error().message;
  EXPECT_EQ(resolved->status(), core::DisputeStatus::Resolved);
  auto shown = replay::find_dispute(*archive_, id);
  ASSERT_TRUE(shown);
  ASSERT_EQ(shown->rulings.size(), 1u);
  EXPECT_EQ(shown->in_force()->ruled_by, "Judge Carla");
  EXPECT_EQ(shown->in_force()->expectation, (core::Expectation{"MUS-a.draw", true}));

  // The events are untouched.
  auto v = archive_->verify(1);
  ASSERT_TRUE(v);
  EXPECT_TRUE(v->ok) << v->detail;
}

TEST_F(DisputesTest, AResolvedDisputeIsOnlyRuledAgainOnPurposeAndTheHistoryStays) {
  const DisputeId id = raise();
  ASSERT_TRUE(replay::resolve_dispute(*archive_, id, ruling(std::nullopt)));
  // The same ruling again records nothing; another one is an appeal.
  bool already = false;
  auto same = replay::resolve_dispute(*archive_, id, ruling(std::nullopt), &already);
  ASSERT_TRUE(same) << same.error().message;
  EXPECT_TRUE(already);
  EXPECT_EQ(same->rulings.size(), 1u);
  auto other = ruling(std::nullopt);
  other.ruling = "A different view";
  auto again = replay::resolve_dispute(*archive_, id, other, &already);
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, ErrorCode::Conflict);
  EXPECT_THAT(again.error().message, HasSubstr("--supersede"));
  auto appeal = ruling(core::Expectation{"MUS-a.draw", false}, true);
  appeal.ruling = "On appeal: the third card was a Gambit drawn by an ability";
  auto r = replay::resolve_dispute(*archive_, id, appeal);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->rulings.size(), 2u);
  EXPECT_EQ(r->in_force()->ruling, appeal.ruling);
  EXPECT_EQ(replay::find_dispute(*archive_, id)->rulings.size(), 2u);
}

TEST_F(DisputesTest, DisputesAtOneEventAreKeptApart) {
  const DisputeId a = raise();
  const DisputeId c = raise(3);
  const DisputeId b = raise(kThreeCards, "And a fourth");
  EXPECT_EQ(c, (DisputeId{1, 3, 0}));
  EXPECT_EQ(b, (DisputeId{1, kThreeCards, 1})) << "dense at its seq, whatever lies between";
  bool already = false;
  EXPECT_EQ(replay::add_dispute(*archive_, {1, kThreeCards, "And a fourth", "Alice", {"MUS-a.draw", "R-010"},
                                            "a later time", {}},
                                &already)
                .value(),
            b);
  EXPECT_TRUE(already) << "an exact repeat (the time aside) is the same dispute";
  ASSERT_TRUE(replay::resolve_dispute(*archive_, b, ruling(std::nullopt)));
  EXPECT_EQ(replay::find_dispute(*archive_, a)->status(), core::DisputeStatus::Open);
  EXPECT_EQ(replay::find_dispute(*archive_, b)->status(), core::DisputeStatus::Resolved);
  auto all = replay::list_disputes(*archive_, 1);
  ASSERT_TRUE(all);
  ASSERT_EQ(all->size(), 3u);
  EXPECT_EQ((*all)[1].id, c);  // in the order raised
  // There is no third dispute at the seq, whatever else is recorded there.
  EXPECT_EQ(replay::find_dispute(*archive_, {1, kThreeCards, 2}).error().code, ErrorCode::NotFound);
}

TEST_F(DisputesTest, BadInputIsRefused) {
  EXPECT_EQ(replay::add_dispute(*archive_, {1, 27, " ", "Alice", {}, "", {}}).error().code, ErrorCode::InvalidArgument);
  EXPECT_EQ(replay::add_dispute(*archive_, {1, 27, "x", "", {}, "", {}}).error().code, ErrorCode::InvalidArgument);
  EXPECT_EQ(replay::add_dispute(*archive_, {1, 38, "x", "A", {}, "", {}}).error().code, ErrorCode::NotFound);
  EXPECT_EQ(replay::add_dispute(*archive_, {2, 0, "x", "A", {}, "", {}}).error().code, ErrorCode::NotFound);
  EXPECT_EQ(replay::list_disputes(*archive_, 2).error().code, ErrorCode::NotFound);
  const DisputeId id = raise();
  auto unknown_rule = replay::resolve_dispute(*archive_, id, ruling(core::Expectation{"MUS-z.nope", true}));
  ASSERT_FALSE(unknown_rule);
  EXPECT_EQ(unknown_rule.error().code, ErrorCode::InvalidArgument);
  EXPECT_EQ(replay::resolve_dispute(*archive_, {1, 27, 5}, ruling(std::nullopt)).error().code,
            ErrorCode::NotFound);
}

// export-test prints a prefix of the game: every prefix must parse back to
// the same events, or a case would test something else. The setup is the
// notation's header and is printed whole (a header alone parses to a setup
// with an empty army for each seat), so prefixes start after it.
TEST_F(DisputesTest, EveryPrefixOfTheSampleExportsAndParsesBack) {
  auto events = archive_->events(1);
  ASSERT_TRUE(events);
  auto catalog = archive_->catalog_of(1);
  auto ruleset = archive_->ruleset_of(1);
  ASSERT_TRUE(catalog && ruleset);
  for (auto& ev : *events) ev.game = 0;
  const core::DeckLoader none = [](const std::string&) -> Expected<std::string> {
    return make_error(ErrorCode::NotFound, "no decks");
  };
  std::size_t setup = 0;
  while (setup < events->size() && (std::holds_alternative<core::GameCreated>((*events)[setup].payload) ||
                                    std::holds_alternative<core::ArmyRegistered>((*events)[setup].payload))) {
    ++setup;
  }
  ASSERT_EQ(setup, 3u);
  for (std::size_t n = setup; n <= events->size(); ++n) {
    const std::vector<core::Event> prefix(events->begin(), events->begin() + static_cast<std::ptrdiff_t>(n));
    auto parsed = core::parse_notation(core::export_notation(prefix), "prefix", *catalog, ruleset->hash, none);
    ASSERT_TRUE(parsed.ok()) << n << " events: " << parsed.errors[0].to_string();
    if (parsed.game.events != prefix) {
      ADD_FAILURE() << n << " events do not parse back:\n" << core::export_notation(prefix);
    }
  }
}

TEST_F(DisputesTest, ARulingBecomesACaseThatRuns) {
  const DisputeId id = raise();
  ASSERT_TRUE(replay::resolve_dispute(*archive_, id, ruling(core::Expectation{"MUS-a.draw", true})));
  auto c = replay::make_dispute_case(*archive_, id, "");
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->name, "first_blood_at_the_old_mill_seq27");
  EXPECT_TRUE(c->engine_agrees) << c->engine_detail;
  EXPECT_THAT(c->expect, HasSubstr("expect: MUS-a.draw\n"));
  EXPECT_THAT(c->expect, HasSubstr("citation: rule MUS-a.draw (Muster Phase"));
  EXPECT_THAT(c->expect, HasSubstr("citation: text R-010"));

  testing::TempDir out;
  auto written = replay::write_dispute_case(*c, out.path() / "cases", false);
  ASSERT_TRUE(written) << written.error().message;
  EXPECT_EQ(written->data.size(), 2u);
  EXPECT_EQ(replay::write_dispute_case(*c, out.path() / "cases", false).error().code, ErrorCode::Conflict);
  ASSERT_TRUE(replay::write_dispute_case(*c, out.path() / "cases", true));

  auto spec = replay::read_case(written->expect);
  ASSERT_TRUE(spec) << spec.error().message;
  EXPECT_EQ(spec->seq, kThreeCards);
  auto outcome = replay::run_case(*spec, out.path() / "scratch");
  ASSERT_TRUE(outcome) << outcome.error().message;
  EXPECT_TRUE(outcome->passed) << outcome->detail;
}

TEST_F(DisputesTest, ADisputeAboutSetupGetsTheWholeSetup) {
  const DisputeId id = raise(1);  // Alice's army list
  ASSERT_TRUE(replay::resolve_dispute(*archive_, id, ruling(core::Expectation{"MUS-a.draw", false})));
  auto c = replay::make_dispute_case(*archive_, id, "army");
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_THAT(c->notation, HasSubstr("events 0..2 of"));
  EXPECT_THAT(c->expect, HasSubstr("seq: 1\n"));
  testing::TempDir out;
  auto written = replay::write_dispute_case(*c, out.path(), false);
  ASSERT_TRUE(written);
  auto outcome = replay::run_case(*replay::read_case(written->expect), out.path() / "scratch");
  ASSERT_TRUE(outcome) << outcome.error().message;
  EXPECT_TRUE(outcome->passed) << outcome->detail;
}

TEST_F(DisputesTest, ACaseTheEngineDisagreesWithFails) {
  const DisputeId id = raise();
  ASSERT_TRUE(replay::resolve_dispute(*archive_, id, ruling(core::Expectation{"MUS-a.draw", false})));
  auto c = replay::make_dispute_case(*archive_, id, "absent");
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_FALSE(c->engine_agrees);
  testing::TempDir out;
  auto written = replay::write_dispute_case(*c, out.path(), false);
  ASSERT_TRUE(written);
  auto outcome = replay::run_case(*replay::read_case(written->expect), out.path() / "scratch");
  ASSERT_TRUE(outcome) << outcome.error().message;
  EXPECT_FALSE(outcome->passed);
  EXPECT_THAT(outcome->detail, HasSubstr("reports MUS-a.draw at seq 27"));
}

TEST_F(DisputesTest, OnlyAResolvedDisputeWithAnExpectationBecomesACase) {
  const DisputeId id = raise();
  EXPECT_EQ(replay::make_dispute_case(*archive_, id, "").error().code, ErrorCode::InvalidArgument);
  ASSERT_TRUE(replay::resolve_dispute(*archive_, id, ruling(std::nullopt)));
  auto c = replay::make_dispute_case(*archive_, id, "");
  ASSERT_FALSE(c);
  EXPECT_THAT(c.error().message, HasSubstr("--expect"));
}

TEST(DisputeCaseFile, MalformedFilesSayWhere) {
  testing::TempDir dir;
  auto check = [&](const std::string& text, const std::string& says) {
    const fs::path p = dir.path() / "x.expect";
    std::ofstream(p) << text;
    auto r = replay::read_case(p);
    ASSERT_FALSE(r) << text;
    EXPECT_THAT(r.error().message, HasSubstr(says)) << text;
  };
  const std::string base = "format: 1\ngame: x.wlog\ncatalog: c.csv\nruleset: r.toml\nseq: 3\n";
  check(base, "exactly one of 'expect'");
  check(base + "expect: MUS-a.draw\nexpect-none: MUS-a.draw\n", "exactly one");
  check(base + "expect: NOPE\n", "no rule 'NOPE'");
  check(base + "expect: MUS-a.draw\nbogus: 1\n", "x.expect:7: unknown key 'bogus'");
  check("format: 2\n", "'game' is missing");
  check(base + "seq: 4\n", "'seq' given twice");
  check("no colon here\n", "x.expect:1:");
}

}  // namespace
}  // namespace warlog
