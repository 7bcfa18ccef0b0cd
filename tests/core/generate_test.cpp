// Synthetic games (core/generate.hpp, issue 6 item 5): 200 seeds, each a
// legal game the fold accepts without a single finding, covering every
// faction, phase and victory type between them; deterministic per seed; and
// the notation round trip over generated games.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "game_builder.hpp"
#include "warlog/core/generate.hpp"
#include "warlog/core/notation.hpp"

namespace warlog {
namespace {

namespace fs = std::filesystem;
using namespace core;

constexpr std::uint64_t kSeeds = 200;

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

const Ruleset& standard() {
  static const Ruleset r = [] {
    auto parsed = load_ruleset(std::string(WARLOG_SAMPLES_DIR) + "/rulesets/standard.toml");
    if (!parsed) throw std::runtime_error(parsed.error().message);
    return *parsed;
  }();
  return r;
}

// The sample decks, sorted by allegiance the way the CLI does it.
const std::array<ArmyList, kAllegianceCount>& sample_armies() {
  static const auto armies = [] {
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(std::string(WARLOG_SAMPLES_DIR) + "/decks")) {
      if (e.path().extension() == ".deck") files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    std::vector<std::vector<CardCount>> decks;
    for (const auto& f : files) {
      auto d = parse_deck(read_text(f));
      if (!d) throw std::runtime_error(f.string() + ": " + d.error().message);
      decks.push_back(std::move(*d));
    }
    return armies_from_decks(decks, testing::sample_catalog());
  }();
  return armies;
}

GenerateOptions options(std::uint64_t seed) {
  GenerateOptions o;
  o.seed = seed;
  o.armies = sample_armies();
  o.assert_clean = false;  // report every failing seed below, not just the first
  return o;
}

std::string findings_text(const std::vector<Finding>& fs) {
  std::string s;
  for (const Finding& f : fs) s += fmt::format("  seq {} {}: {}\n", f.seq, f.rule_id, f.message);
  return s;
}

template <std::size_t... I>
std::vector<std::string_view> all_payload_names(std::index_sequence<I...>) {
  return {payload_name(Payload{std::in_place_index<I>})...};
}

// The 200 games, generated once for every test of the suite.
struct Corpus {
  std::vector<GeneratedGame> games;
  Corpus() {
    for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
      auto g = try_generate_game(options(seed), testing::sample_catalog(), standard());
      if (!g) throw std::runtime_error(g.error().message);
      games.push_back(std::move(*g));
    }
  }
};
const Corpus& corpus() {
  static const Corpus c;
  return c;
}

TEST(Generate, EverySeedFoldsWithoutAFindingAndEnds) {
  const Context ctx{testing::sample_catalog(), standard()};
  for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
    const GeneratedGame& g = corpus().games[seed - 1];
    EXPECT_TRUE(g.clean()) << g.failure;
    // Fold it again from scratch, as an audit would, invariants included.
    GameState state;
    std::vector<Finding> found;
    for (const Event& ev : g.events) {
      apply(ctx, state, ev, found);
      ASSERT_EQ(check_invariants(state), "") << "seed " << seed << " after seq " << ev.seq;
    }
    EXPECT_TRUE(found.empty()) << "seed " << seed << ":\n" << findings_text(found);
    ASSERT_FALSE(g.events.empty());
    ASSERT_TRUE(std::holds_alternative<GameEnded>(g.events.back().payload)) << "seed " << seed;
    const auto& end = std::get<GameEnded>(g.events.back().payload);
    ASSERT_TRUE(state.victory.has_value());
    EXPECT_EQ(end.victory, *state.victory) << "seed " << seed;
    if (end.victory == Victory::Unfinished) {
      EXPECT_EQ(state.turn, 12) << "seed " << seed << ": unfinished before the last turn";
      EXPECT_FALSE(state.decided_at.has_value());
    } else {
      EXPECT_TRUE(state.decided_at.has_value()) << "seed " << seed << ": a victory the fold did not derive";
    }
  }
}

TEST(Generate, GamesLastAndEndInBothVictories) {
  std::map<Victory, int> by_victory;
  int long_games = 0;
  std::size_t events = 0, turns = 0;
  for (const GeneratedGame& g : corpus().games) {
    const Event& last = g.events.back();
    by_victory[std::get<GameEnded>(last.payload).victory]++;
    long_games += last.turn >= 8;
    turns += last.turn;
    events += g.events.size();
  }
  std::cout << fmt::format("[ generate ] {} games: {} supremacy, {} attrition, {} unfinished; {:.1f} turns and "
                           "{:.0f} events a game on average; {} of at least 8 turns\n",
                           kSeeds, by_victory[Victory::Supremacy], by_victory[Victory::Attrition],
                           by_victory[Victory::Unfinished], static_cast<double>(turns) / kSeeds,
                           static_cast<double>(events) / kSeeds, long_games);
  EXPECT_GE(by_victory[Victory::Supremacy], 20);
  EXPECT_GE(by_victory[Victory::Attrition], 20);
  EXPECT_GE(by_victory[Victory::Supremacy] + by_victory[Victory::Attrition], static_cast<int>(kSeeds * 7 / 10));
  EXPECT_GE(long_games, static_cast<int>(kSeeds * 3 / 4)) << "most games reach turn 8";
}

TEST(Generate, TheSeedsCoverEveryFactionPhaseAndAction) {
  std::set<Allegiance> factions;
  std::set<Phase> phases;
  std::set<std::string_view> kinds;
  int normal = 0, burrow = 0, declined = 0, unpaid_troops = 0, recovered_pay = 0, recovered_shuffle = 0;
  for (const GeneratedGame& g : corpus().games) {
    for (const auto& s : std::get<GameCreated>(g.events[0].payload).seats) factions.insert(s.allegiance);
    for (const Event& ev : g.events) {
      phases.insert(ev.phase);
      kinds.insert(payload_name(ev.payload));
      if (const auto* c = std::get_if<ChargeDeclared>(&ev.payload)) {
        normal += c->mode == ChargeMode::Normal;
        burrow += c->mode == ChargeMode::Burrow;
      }
      declined += std::holds_alternative<ChargeDeclined>(ev.payload);
      if (const auto* p = std::get_if<ProvisionsPaid>(&ev.payload)) {
        unpaid_troops += static_cast<int>(std::count_if(p->unpaid.begin(), p->unpaid.end(),
                                                        [](const PaidItem& i) { return i.space.valid(); }));
      }
      if (const auto* r = std::get_if<LostTroopRecovered>(&ev.payload)) {
        (r->mode == Recovery::Pay ? recovered_pay : recovered_shuffle)++;
      }
    }
  }
  EXPECT_EQ(factions.size(), 4u);
  for (Phase p : {Phase::Setup, Phase::Muster, Phase::Warfare, Phase::Attrition}) EXPECT_TRUE(phases.count(p));
  EXPECT_GT(normal, 0);
  EXPECT_GT(burrow, 0);
  EXPECT_GT(declined, 0);
  EXPECT_GT(unpaid_troops, 0);
  EXPECT_GT(recovered_pay, 0);
  EXPECT_GT(recovered_shuffle, 0);
  // Every payload kind of play appears in some game. Corrections (Voided,
  // BackupTo) are a scorekeeper's and a judge's, not a player's: the
  // generator plays, it does not make slips (tests/core/corrections_test.cpp).
  for (std::string_view name : all_payload_names(std::make_index_sequence<std::variant_size_v<Payload>>{})) {
    if (name == "Voided" || name == "BackupTo") continue;
    EXPECT_TRUE(kinds.count(name)) << name << " never generated";
  }
}

TEST(Generate, TheSameSeedGivesTheSameGame) {
  for (std::uint64_t seed : {1u, 77u, 200u}) {
    const auto again = generate_game(options(seed), testing::sample_catalog(), standard());
    EXPECT_EQ(again, corpus().games[seed - 1].events) << "seed " << seed;
  }
  EXPECT_NE(corpus().games[0].events, corpus().games[1].events);
}

TEST(Generate, ExportedNotationParsesBackToTheSameEvents) {
  for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
    const auto& events = corpus().games[seed - 1].events;
    const std::string text = export_notation(events);
    const ParseResult parsed = parse_notation(text, fmt::format("gen-{}.wlog", seed), testing::sample_catalog(),
                                              standard().hash, DeckLoader{});
    ASSERT_TRUE(parsed.ok()) << (parsed.errors.empty() ? "" : parsed.errors[0].to_string());
    EXPECT_EQ(parsed.game.events, events) << "seed " << seed;
    EXPECT_EQ(export_notation(parsed.game.events), text);
  }
}

TEST(Generate, OptionsAreHonoured) {
  GenerateOptions o = options(9);
  o.allegiances = std::array{Allegiance::Weald, Allegiance::Hirelings};
  o.max_turns = 3;
  o.cols = 6;
  o.rows = 5;
  o.territories = {{"Stone Bridge", Space{2, 2}}};
  o.title = "Bench";
  o.date = "2026-05-01";
  const auto events = generate_game(o, testing::sample_catalog(), standard());
  const auto& created = std::get<GameCreated>(events[0].payload);
  EXPECT_EQ(created.seats[0].allegiance, Allegiance::Weald);
  EXPECT_EQ(created.seats[1].allegiance, Allegiance::Hirelings);
  EXPECT_EQ(created.cols, 6);
  EXPECT_EQ(created.rows, 5);
  EXPECT_EQ(created.territories, o.territories);
  EXPECT_EQ(created.title, "Bench");
  EXPECT_EQ(created.ruleset_hash, standard().hash);
  EXPECT_EQ(created.catalog_hash, testing::sample_catalog().hash());
  EXPECT_LE(events.back().turn, 3);
  EXPECT_TRUE(std::holds_alternative<GameEnded>(events.back().payload));
}

// Every ruling option and WIP rule flipped, other boards, mirror matches and
// long games (decks run out): still not a single finding.
TEST(Generate, OtherRulesetsAndBoardsStayClean) {
  Ruleset flipped = standard();
  flipped.hash.clear();
  flipped.empty_deck_penalty = true;
  flipped.turncoat = true;
  flipped.foraged_supply_immediate = true;
  flipped.overspend_provisions = true;
  flipped.renowned_unique_per_player = false;
  flipped.attrition_moves_both_players = true;
  flipped.combat_split_all = false;
  flipped.defender_strikes_each_combat = true;
  flipped.shotte_damage_is_vigor = false;
  const Context ctx{testing::sample_catalog(), flipped};
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    GenerateOptions o = options(seed);
    o.max_turns = 20;
    if (seed % 4 == 0) o.allegiances = std::array{Allegiance::Hirelings, Allegiance::Hirelings};
    if (seed % 3 == 0) {
      o.cols = 7;
      o.rows = 5;
    }
    if (seed % 5 == 0) {
      o.cols = 3;
      o.rows = 3;
    }
    const auto g = try_generate_game(o, testing::sample_catalog(), flipped);
    ASSERT_TRUE(g.has_value()) << g.error().message;
    EXPECT_TRUE(g->clean()) << g->failure;
    std::vector<Finding> found;
    (void)fold(ctx, g->events, found);
    EXPECT_TRUE(found.empty()) << "seed " << seed << ":\n" << findings_text(found);
  }
}

TEST(Generate, BadOptionsAreErrorsNotGames) {
  GenerateOptions o = options(1);
  o.rows = 2;
  EXPECT_EQ(try_generate_game(o, testing::sample_catalog(), standard()).error().code, ErrorCode::InvalidArgument);
  o = options(1);
  o.territories = {{"Ironclaw Lancer", Space{1, 1}}};
  EXPECT_EQ(try_generate_game(o, testing::sample_catalog(), standard()).error().code, ErrorCode::InvalidArgument);
  o = options(1);
  o.armies = {};
  EXPECT_EQ(try_generate_game(o, testing::sample_catalog(), standard()).error().code, ErrorCode::InvalidArgument);
  EXPECT_THROW((void)generate_game(o, testing::sample_catalog(), standard()), std::logic_error);
}

TEST(Generate, ArmiesFromDecksSortsTheSampleDecksByAllegiance) {
  const auto& armies = sample_armies();
  for (const ArmyList& a : armies) EXPECT_FALSE(a.army.empty());
  const auto& claw = armies[static_cast<std::size_t>(Allegiance::ClawEmpire)];
  ASSERT_FALSE(claw.orders.empty());
  EXPECT_EQ(claw.orders[0].card, "March Order");
  EXPECT_TRUE(armies[static_cast<std::size_t>(Allegiance::Weald)].orders.empty());
}

}  // namespace
}  // namespace warlog
