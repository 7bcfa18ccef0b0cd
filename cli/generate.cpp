// warlog generate: random legal games played through the rules engine
// (core/generate.hpp), imported into the store or written as .wlog files,
// for scale tests and benchmarks. No rule logic here: the CLI loads the
// catalog, ruleset and decks, and files or stores what the generator plays.

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "common.hpp"
#include "progress.hpp"
#include "verbs.hpp"
#include "warlog/core/generate.hpp"
#include "warlog/core/notation.hpp"
#include "warlog/store/store.hpp"

namespace warlog::cli {

namespace {

namespace fs = std::filesystem;

constexpr const char* kDefaultCatalog = "samples/catalogs/sample_cards.csv";
constexpr const char* kDefaultRuleset = "samples/rulesets/standard.toml";
constexpr const char* kDefaultDecks = "samples/decks";

// A default (samples/...) where it is: under the current directory (a
// checkout: the paths written into --out files stay relative), else where
// cmake --install put the samples beside this binary (BINDIR/WARLOG_DATA_FROM_BIN,
// PREFIX/share/warlog/samples), else in the source tree it was built from.
fs::path sample_path(const char* path) {
  std::error_code ec;
  if (fs::exists(path, ec)) return path;
  const fs::path rel = fs::path(path).lexically_relative("samples");
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path installed = (exe.parent_path() / WARLOG_DATA_FROM_BIN / "samples" / rel).lexically_normal();
    if (fs::exists(installed, ec)) return installed;
  }
  const fs::path source = fs::path(WARLOG_SOURCE_SAMPLES) / rel;
  if (fs::exists(source, ec)) return source;
  return path;  // not found: the error names it as the checkout has it
}

Expected<std::string> read_text(const fs::path& path, const char* flag) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    return make_error(ErrorCode::NotFound, fmt::format("no such file: {} (give {}, or install warlog: cmake "
                                                       "--install puts the samples in PREFIX/share/warlog)",
                                                       path.string(), flag));
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buf;
  buf << in.rdbuf();
  if (!in) return make_error(ErrorCode::IoError, fmt::format("cannot read {}", path.string()));
  return buf.str();
}

// What every game is played under, loaded once.
struct Inputs {
  std::string catalog_path, ruleset_path;
  std::string catalog_text, ruleset_text;
  core::Catalog catalog;
  core::Ruleset ruleset;
  std::array<core::ArmyList, core::kAllegianceCount> armies;
};

Expected<Inputs> load_inputs(const Options& o, const GenerateArgs& g) {
  Inputs in;
  in.catalog_path = o.catalog.empty() ? sample_path(kDefaultCatalog).string() : o.catalog;
  in.ruleset_path = o.ruleset.empty() ? sample_path(kDefaultRuleset).string() : o.ruleset;
  auto catalog_text = read_text(in.catalog_path, "--catalog");
  if (!catalog_text) return tl::unexpected(catalog_text.error());
  auto ruleset_text = read_text(in.ruleset_path, "--ruleset");
  if (!ruleset_text) return tl::unexpected(ruleset_text.error());
  in.catalog_text = std::move(*catalog_text);
  in.ruleset_text = std::move(*ruleset_text);
  auto catalog = core::parse_catalog_csv(in.catalog_text);
  if (!catalog) return make_error(catalog.error().code, in.catalog_path + ":" + catalog.error().message);
  auto ruleset = core::parse_ruleset_toml(in.ruleset_text);
  if (!ruleset) return make_error(ruleset.error().code, in.ruleset_path + ":" + ruleset.error().message);
  in.catalog = std::move(*catalog);
  in.ruleset = std::move(*ruleset);

  const fs::path decks_dir = g.decks.empty() ? sample_path(kDefaultDecks) : fs::path(g.decks);
  std::error_code ec;
  if (!fs::is_directory(decks_dir, ec)) {
    return make_error(ErrorCode::NotFound, fmt::format("no deck directory {} (give --decks, or install warlog: "
                                                       "cmake --install puts the samples in PREFIX/share/warlog)",
                                                       decks_dir.string()));
  }
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(decks_dir, ec)) {
    if (e.path().extension() == ".deck") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());  // the first deck of an allegiance wins: keep it stable
  std::vector<std::vector<core::CardCount>> decks;
  for (const fs::path& f : files) {
    auto text = read_text(f, "--decks");
    if (!text) return tl::unexpected(text.error());
    auto deck = core::parse_deck(*text);
    if (!deck) return make_error(deck.error().code, f.string() + ":" + deck.error().message);
    decks.push_back(std::move(*deck));
  }
  in.armies = core::armies_from_decks(decks, in.catalog);
  return in;
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + '"';
}

// The canonical export, with [Catalog] and [Ruleset] pointing at the files
// (relative to the game file) instead of hashes, so that it imports into
// any store.
std::string game_file(const std::vector<core::Event>& events, const Inputs& in, const fs::path& dir,
                      std::uint64_t seed) {
  auto relative = [&](const std::string& path) {
    std::error_code ec;
    const fs::path rel = fs::relative(fs::absolute(path), fs::absolute(dir), ec);
    return ec || rel.empty() ? fs::absolute(path).generic_string() : rel.generic_string();
  };
  const std::string ruleset_tag = "[Ruleset " + quoted(in.ruleset.hash) + "]";
  const std::string catalog_tag = "[Catalog " + quoted(in.catalog.hash()) + "]";
  std::istringstream lines(core::export_notation(events));
  std::string out = fmt::format("# A synthetic game: warlog generate --seed {} (random legal play, not a real game).\n",
                                seed);
  for (std::string line; std::getline(lines, line);) {
    if (line == ruleset_tag) line = "[Ruleset " + quoted(relative(in.ruleset_path)) + "]";
    if (line == catalog_tag) line = "[Catalog " + quoted(relative(in.catalog_path)) + "]";
    out += line + '\n';
  }
  return out;
}

}  // namespace

CLI::App* add_generate(CLI::App& app, Options& o, GenerateArgs& g) {
  CLI::App* sub = app.add_subcommand("generate", "Play random legal games through the rules engine and store them");
  sub->add_option("--store", o.store, "Store directory (default: $WARLOG_STORE, else .warlog/store)");
  sub->add_option("--games,-n", g.games, "How many games (default: 1)")->check(CLI::PositiveNumber);
  sub->add_option("--seed", g.seed, "Seed of the first game; game i uses seed + i (default: 1)");
  sub->add_option("--turns", g.turns, "Last turn played; no victory by then ends it unfinished (default: 12)")
      ->check(CLI::Range(1, 999));
  sub->add_option("--out", g.out, "Write DIR/gen-SEED.wlog files instead of importing into the store");
  sub->add_option("--catalog", o.catalog, fmt::format("Card catalog CSV (default: {})", kDefaultCatalog));
  sub->add_option("--ruleset", o.ruleset, fmt::format("Ruleset TOML (default: {})", kDefaultRuleset));
  sub->add_option("--decks", g.decks,
                  fmt::format("Directory of .deck files, one army per allegiance (default: {})", kDefaultDecks));
  sub->footer(
      "Each game is deterministic for its seed: the same seeds give the same games on every machine.\n"
      "Allegiances, Territories and play are chosen by the seed; every game audits clean.\n"
      "Examples:\n"
      "  warlog generate --games 1000 --seed 1 --store /tmp/bench   1000 games into a store\n"
      "  warlog generate --games 5 --seed 42 --out games/           five .wlog files to read or import\n"
      "Exit 0 when every game was stored, 1 when a game was dropped because the engine reported a\n"
      "finding on it (a bug in warlog: the event and finding are printed), 2 on error.\n"
      "A progress line with rate is shown when stderr is a terminal.");
  return sub;
}

int run_generate(const Options& o, const GenerateArgs& g) {
  auto in = load_inputs(o, g);
  if (!in) {
    error_line(in.error());
    return kExitError;
  }
  std::optional<replay::Archive> archive;
  if (g.out.empty()) {
    auto a = open_archive(o, replay::Archive::Mode::ReadWrite);
    if (!a) {
      error_line(a.error());
      return kExitError;
    }
    archive.emplace(std::move(*a));
  } else if (std::error_code ec; !fs::create_directories(g.out, ec) && ec) {
    error_line(Error{ErrorCode::IoError, fmt::format("cannot create {}: {}", g.out, ec.message())});
    return kExitError;
  }

  core::GenerateOptions opt;
  opt.max_turns = g.turns;
  opt.armies = in->armies;
  opt.assert_clean = false;  // a faulted game is dropped and reported, not a crash
  std::map<core::Victory, std::size_t> outcomes;
  std::size_t stored = 0, dropped = 0, failed = 0, events = 0, turns = 0;
  core::GameId first_id = 0, last_id = 0;
  Progress progress("generated", g.games);
  const auto start = std::chrono::steady_clock::now();

  // Games go into the store in batches, one transaction each
  // (Archive::import_events_batch): each game all or nothing, one commit per
  // batch instead of one per game.
  constexpr std::size_t kBatchEvents = 250'000;
  std::vector<std::vector<core::Event>> batch;
  std::vector<std::uint64_t> batch_seeds;
  std::size_t batch_events = 0;
  bool store_failed = false;
  auto count = [&](const std::vector<core::Event>& game) {
    ++stored;
    ++outcomes[std::get<core::GameEnded>(game.back().payload).victory];
    events += game.size();
    turns += game.back().turn;
  };
  auto flush = [&]() {
    if (batch.empty()) return;
    auto results = archive->import_events_batch(batch, in->catalog_text, in->ruleset_text, /*bulk=*/true);
    if (!results) {  // a store error: nothing of the batch was written, the rest would fail alike
      progress.finish();
      fmt::print(stderr, "warlog: seeds {}..{}: {}\n", batch_seeds.front(), batch_seeds.back(),
                 results.error().message);
      failed += batch.size();
      store_failed = true;
    } else {
      for (std::size_t k = 0; k < batch.size(); ++k) {
        const auto& r = (*results)[k];
        if (!r) {
          progress.finish();
          fmt::print(stderr, "warlog: seed {}: {}\n", batch_seeds[k], r.error().message);
          ++failed;
          continue;
        }
        if (stored == 0) first_id = r->id;
        last_id = r->id;
        count(batch[k]);
      }
    }
    batch.clear();
    batch_seeds.clear();
    batch_events = 0;
  };

  for (std::uint64_t i = 0; i < g.games && !store_failed; ++i) {
    opt.seed = g.seed + i;
    auto game = core::try_generate_game(opt, in->catalog, in->ruleset);
    if (!game) {
      progress.finish();
      error_line(game.error());
      return kExitError;
    }
    if (!game->clean()) {
      progress.finish();
      fmt::print(stderr, "warlog: seed {} dropped: the engine reported a finding on a generated event (a bug in "
                         "warlog)\n{}\n", opt.seed, game->failure);
      ++dropped;
      continue;
    }
    if (archive) {
      batch_events += game->events.size();
      batch.push_back(std::move(game->events));
      batch_seeds.push_back(opt.seed);
      if (batch_events >= kBatchEvents) flush();
    } else {
      const fs::path file = fs::path(g.out) / fmt::format("gen-{}.wlog", opt.seed);
      std::ofstream f(file, std::ios::binary);
      f << game_file(game->events, *in, g.out, opt.seed);
      if (!f.flush()) {
        progress.finish();
        error_line(Error{ErrorCode::IoError, fmt::format("cannot write {}", file.string())});
        return kExitError;
      }
      count(game->events);
    }
    progress.update(i + 1);
  }
  if (archive) {
    flush();
    if (auto s = archive->store().sync(); !s) {
      progress.finish();
      error_line(s.error());
      return kExitError;
    }
  }
  progress.finish();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double n = stored == 0 ? 1.0 : static_cast<double>(stored);
  fmt::print("generated {} game{} (seeds {}..{}): {} supremacy, {} attrition, {} unfinished; {:.1f} turns, {:.0f} "
             "events a game; {:.0f} events/s\n",
             stored, stored == 1 ? "" : "s", g.seed, g.seed + g.games - 1, outcomes[core::Victory::Supremacy],
             outcomes[core::Victory::Attrition], outcomes[core::Victory::Unfinished], static_cast<double>(turns) / n,
             static_cast<double>(events) / n, secs > 0 ? static_cast<double>(events) / secs : 0.0);
  if (archive && stored > 0) {
    fmt::print("imported into {} as games {}..{}\n", archive->path(), first_id, last_id);
  } else if (!archive) {
    fmt::print("written to {}/gen-SEED.wlog\n", g.out);
  }
  if (failed > 0) return kExitError;
  return dropped > 0 ? kExitViolations : kExitClean;
}

}  // namespace warlog::cli
