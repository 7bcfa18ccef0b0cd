#include "harness.hpp"

#include <sodium.h>
#include <zstd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "warlog/core/fold.hpp"
#include "warlog/core/generate.hpp"
#include "warlog/core/hash.hpp"
#include "warlog/events/codec.hpp"
#include "warlog/events/snapshot.hpp"

namespace warlog::fuzz {

namespace fs = std::filesystem;

namespace {

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("fuzz: cannot read " + p.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<fs::path> files_in(const fs::path& dir, std::string_view ext) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ext) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

Samples load() {
  const fs::path dir(WARLOG_SAMPLES_DIR);
  Samples s;
  s.catalog_text = read_file(dir / "catalogs" / "sample_cards.csv");
  s.ruleset_text = read_file(dir / "rulesets" / "standard.toml");
  auto catalog = core::parse_catalog_csv(s.catalog_text);
  auto ruleset = core::parse_ruleset_toml(s.ruleset_text);
  if (!catalog || !ruleset) throw std::runtime_error("fuzz: the sample catalog or ruleset does not parse");
  s.catalog = std::move(*catalog);
  s.ruleset = std::move(*ruleset);

  std::vector<std::pair<std::string, std::string>> decks;  // file name, text
  std::vector<std::vector<core::CardCount>> deck_lists;
  for (const auto& f : files_in(dir / "decks", ".deck")) {
    decks.emplace_back(f.filename().string(), read_file(f));
    auto d = core::parse_deck(decks.back().second);
    if (!d) throw std::runtime_error("fuzz: " + f.string() + ": " + d.error().message);
    deck_lists.push_back(std::move(*d));
  }
  s.load_deck = [decks](const std::string& ref) -> Expected<std::string> {
    const std::string name = fs::path(ref).filename().string();
    for (const auto& [file, text] : decks) {
      if (file == name) return text;
    }
    return make_error(ErrorCode::NotFound, "no sample deck " + ref);
  };

  for (const auto& f : files_in(dir / "games", ".wlog")) {
    s.game_texts.push_back(read_file(f));
    auto parsed = core::parse_notation(s.game_texts.back(), f.string(), s.catalog, s.ruleset.hash, s.load_deck);
    if (!parsed.ok()) throw std::runtime_error("fuzz: " + parsed.errors.front().to_string());
    s.games.push_back(std::move(parsed.game.events));
  }
  // Two generated games: states richer than the one sample reaches.
  for (std::uint64_t seed : {1u, 2u}) {
    core::GenerateOptions o;
    o.seed = seed;
    o.max_turns = 6;
    o.armies = core::armies_from_decks(deck_lists, s.catalog);
    o.assert_clean = false;
    auto game = core::try_generate_game(o, s.catalog, s.ruleset);
    if (!game) throw std::runtime_error("fuzz: generate: " + game.error().message);
    s.games.push_back(std::move(game->events));
  }
  return s;
}

}  // namespace

const Samples& samples() {
  static const Samples s = load();
  return s;
}

const std::vector<std::string>& target_names() {
  static const std::vector<std::string> names{"event", "notation", "catalog", "ruleset", "snapshot", "block"};
  return names;
}

std::vector<std::string> seeds(std::string_view target) {
  const Samples& s = samples();
  std::vector<std::string> out;
  if (target == "event") {
    for (const auto& game : s.games) {
      for (const auto& ev : game) out.push_back(events::encode_event(ev));
    }
  } else if (target == "block") {
    // Blocks as store format 2 lays them (store/src/block.hpp): event 0
    // alone, then 64 events a block; S and tags left zero (the target
    // recomputes S; a tag's value does not change how a block parses).
    auto le = [](std::string& out, std::size_t v, int bytes) {
      for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>(v >> (8 * i) & 0xFF));
    };
    auto block = [&](const std::vector<core::Event>& game, std::size_t first, std::size_t n, bool zstd = false) {
      std::string body;
      for (std::size_t i = first; i < first + n; ++i) {
        const std::string e = events::encode_event(game[i]);
        le(body, e.size(), 4);
        body += e;
      }
      std::string v;
      v.push_back(1);
      v.push_back(zstd ? 1 : 0);
      le(v, n, 2);
      le(v, body.size(), 4);
      v.append(32 + 8 * n, '\0');
      if (!zstd) return v + body;
      std::string z(ZSTD_compressBound(body.size()), '\0');
      z.resize(ZSTD_compress(z.data(), z.size(), body.data(), body.size(), 3));
      // The frame's check (store/src/block.hpp frame_check): SipHash-2-4 under
      // BLAKE2b-256("warlog.zstd-frame-check.1")'s first 16 bytes.
      const core::Digest key = core::blake2b("warlog.zstd-frame-check.1");
      unsigned char check[crypto_shorthash_BYTES];
      crypto_shorthash(check, reinterpret_cast<const unsigned char*>(z.data()), z.size(), key.data());
      return v + z + std::string(reinterpret_cast<const char*>(check), sizeof check);
    };
    for (const auto& game : s.games) {
      if (game.empty()) continue;
      out.push_back(block(game, 0, 1));
      if (game.size() > 65) out.push_back(block(game, 1, 64));
      if (game.size() > 65) out.push_back(block(game, 1, 64, true));  // sealed, as the store writes it
    }
  } else if (target == "notation") {
    out = s.game_texts;
    for (const auto& game : s.games) out.push_back(core::export_notation(game));
  } else if (target == "catalog") {
    out.push_back(s.catalog_text);
  } else if (target == "ruleset") {
    out.push_back(s.ruleset_text);
  } else if (target == "snapshot") {
    const core::Context ctx{s.catalog, s.ruleset};
    for (const auto& game : s.games) {
      core::GameState state;
      std::vector<core::Finding> findings;
      for (const auto& ev : game) {
        core::apply(ctx, state, ev, findings);
        events::SnapshotHeader h;
        h.engine_version = core::kEngineVersion;
        h.ruleset_hash = s.ruleset.hash;
        h.catalog_hash = s.catalog.hash();
        h.seq = ev.seq;
        std::string bytes = events::encode_snapshot(state, h);
        bytes.resize(bytes.size() - h.chain_hash.size());  // the target appends the checksum
        out.push_back(std::move(bytes));
      }
    }
  }
  return out;
}

}  // namespace warlog::fuzz
