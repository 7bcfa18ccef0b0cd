#pragma once
// Whole games as events in memory, for tests that need rich states: every
// sample game in samples/games/*.wlog (parsed with the catalog and ruleset its
// tags name) and synthetic games from core::try_generate_game.

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "warlog/core/catalog.hpp"
#include "warlog/core/event.hpp"
#include "warlog/core/generate.hpp"
#include "warlog/core/notation.hpp"
#include "warlog/core/ruleset.hpp"

namespace warlog::testing {

namespace corpus_fs = std::filesystem;

inline std::string read_text_file(const corpus_fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + p.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A game with what it was played under, texts included (a store wants them as blobs).
struct CorpusGame {
  std::string name;
  std::vector<core::Event> events;
  std::string catalog_text;
  std::string ruleset_text;
  core::Catalog catalog;
  core::Ruleset ruleset;
};

// Every sample game: the library (samples/games) and the short tutorial game
// (samples/tutorial), sorted by path.
inline std::vector<corpus_fs::path> sample_game_files() {
  std::vector<corpus_fs::path> out;
  for (const char* sub : {"games", "tutorial"}) {
    for (const auto& e : corpus_fs::directory_iterator(corpus_fs::path(WARLOG_SAMPLES_DIR) / sub)) {
      if (e.path().extension() == ".wlog") out.push_back(e.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

inline CorpusGame load_sample_game(const corpus_fs::path& file) {
  const std::string text = read_text_file(file);
  const corpus_fs::path dir = file.parent_path();
  const core::NotationRefs refs = core::notation_refs(text);
  auto tag = [&](const std::string& ref, const char* name) {
    if (ref.empty()) throw std::runtime_error(file.string() + ": no [" + std::string(name) + "] tag");
    return dir / ref;
  };
  CorpusGame g;
  g.name = file.stem().string();
  g.catalog_text = read_text_file(tag(refs.catalog_ref, "Catalog"));
  g.ruleset_text = read_text_file(tag(refs.ruleset_ref, "Ruleset"));
  auto catalog = core::parse_catalog_csv(g.catalog_text);
  auto ruleset = core::parse_ruleset_toml(g.ruleset_text);
  if (!catalog || !ruleset) throw std::runtime_error(file.string() + ": catalog or ruleset does not parse");
  g.catalog = std::move(*catalog);
  g.ruleset = std::move(*ruleset);
  const core::DeckLoader load_deck = [&dir](const std::string& ref) -> Expected<std::string> {
    return read_text_file(dir / ref);
  };
  auto parsed = core::parse_notation(text, file.string(), g.catalog, g.ruleset.hash, load_deck);
  if (!parsed.ok()) throw std::runtime_error(parsed.errors.front().to_string());
  g.events = std::move(parsed.game.events);
  for (core::Seq i = 0; i < g.events.size(); ++i) g.events[i].seq = i;
  return g;
}

// A synthetic game under the sample catalog and standard ruleset. Whether the
// generator played it clean does not matter here: any stream folds the same
// way every time, which is all a codec or seek test needs.
inline CorpusGame generated_game(std::uint64_t seed, int max_turns = 12) {
  const corpus_fs::path samples(WARLOG_SAMPLES_DIR);
  CorpusGame g;
  g.name = "generated_" + std::to_string(seed);
  g.catalog_text = read_text_file(samples / "catalogs" / "sample_cards.csv");
  g.ruleset_text = read_text_file(samples / "rulesets" / "standard.toml");
  auto catalog = core::parse_catalog_csv(g.catalog_text);
  auto ruleset = core::parse_ruleset_toml(g.ruleset_text);
  if (!catalog || !ruleset) throw std::runtime_error("sample catalog or ruleset does not parse");
  g.catalog = std::move(*catalog);
  g.ruleset = std::move(*ruleset);
  std::vector<corpus_fs::path> files;
  for (const auto& e : corpus_fs::directory_iterator(samples / "decks")) {
    if (e.path().extension() == ".deck") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  std::vector<std::vector<core::CardCount>> decks;
  for (const auto& f : files) {
    auto d = core::parse_deck(read_text_file(f));
    if (!d) throw std::runtime_error(f.string() + ": " + d.error().message);
    decks.push_back(std::move(*d));
  }
  core::GenerateOptions o;
  o.seed = seed;
  o.max_turns = max_turns;
  o.armies = core::armies_from_decks(decks, g.catalog);
  o.assert_clean = false;
  auto game = core::try_generate_game(o, g.catalog, g.ruleset);
  if (!game) throw std::runtime_error("generate seed " + std::to_string(seed) + ": " + game.error().message);
  g.events = std::move(game->events);
  return g;
}

// A long game: a generated one without its GameEnded, then whole turns of
// drawing and discarding until it holds `total` events. Not a legal game
// (the fold reports findings); a long stream whose states stay rich, for
// snapshots every 1000 events and for the snapshots seeks and the viewer lay.
inline CorpusGame long_game(std::uint64_t seed, std::size_t total) {
  CorpusGame g = generated_game(seed);
  g.name = "long_" + std::to_string(seed) + "_" + std::to_string(total);
  auto& ev = g.events;
  while (!ev.empty() && std::holds_alternative<core::GameEnded>(ev.back().payload)) ev.pop_back();
  std::uint16_t turn = ev.back().turn;
  static const char* const kCards[2][3] = {{"Ironclaw Lancer", "Claw Musketeer", "Supply Wagon"},
                                           {"Paw Militia", "Paw Slinger", "Grain Cart"}};
  auto add = [&](core::Phase phase, core::Seat seat, core::Payload p) {
    core::Event e;
    e.seq = ev.size();
    e.turn = turn;
    e.phase = phase;
    e.seat = seat;
    e.payload = std::move(p);
    ev.push_back(std::move(e));
  };
  while (ev.size() < total) {
    ++turn;
    add(core::Phase::Muster, core::kNoSeat, core::TurnStarted{});
    add(core::Phase::Muster, core::kNoSeat, core::MoraleChecked{0});
    for (core::Seat s = 0; s < core::kSeatCount; ++s) {
      add(core::Phase::Muster, s, core::PhaseStarted{});
      add(core::Phase::Muster, s, core::CardsDrawn{{kCards[s][turn % 3], kCards[s][(turn + 1) % 3]}});
    }
    add(core::Phase::Warfare, 0, core::PhaseStarted{});
    add(core::Phase::Warfare, 0, core::ChargeDeclined{});
    for (core::Seat s = 0; s < core::kSeatCount; ++s) {
      add(core::Phase::Attrition, s, core::PhaseStarted{});
      add(core::Phase::Attrition, s, core::CardsDiscarded{{kCards[s][turn % 3], kCards[s][(turn + 1) % 3]}});
    }
  }
  ev.resize(total);
  return g;
}

}  // namespace warlog::testing
