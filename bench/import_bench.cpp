// Import from notation: `warlog import` of many files naming one catalog and
// ruleset (Archive::import_files, 256 files a batch as cli/verbs.cpp), against
// the same files with the catalog and ruleset parsed again for every file, as
// import did before it parsed each once per run, keyed by content hash.

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench.hpp"
#include "data.hpp"
#include "timing.hpp"
#include "warlog/core/hash.hpp"
#include "warlog/core/notation.hpp"
#include "warlog/core/text_file.hpp"
#include "warlog/store/store.hpp"

namespace warlog::bench {

namespace {

namespace fs = std::filesystem;

constexpr std::size_t kBatch = 256;  // warlog import's batch (cli/verbs.cpp)

struct NotationFiles {
  fs::path dir;
  std::vector<std::string> paths;
  std::string catalog_text, ruleset_text;
  std::size_t events = 0;
  ~NotationFiles() {
    std::error_code ec;
    if (!dir.empty()) fs::remove_all(dir, ec);
  }
};

// `games` generated games exported as notation (hash tags: the store holds
// the catalog and ruleset, as after `warlog export`).
std::shared_ptr<const NotationFiles> notation_files(const Config& config, std::size_t games) {
  auto f = std::make_shared<NotationFiles>();
  std::string tmpl = (config.data / "notation-XXXXXX").string();
  if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp under " + config.data.string());
  f->dir = tmpl;
  const Inputs in = load_inputs();
  f->catalog_text = in.catalog_text;
  f->ruleset_text = in.ruleset_text;
  const auto generated = generate_games(in, 1, games);
  for (std::size_t i = 0; i < generated.size(); ++i) {
    const fs::path p = f->dir / ("game-" + std::to_string(i) + ".wlog");
    std::ofstream(p) << core::export_notation(generated[i]);
    f->paths.push_back(p.string());
    f->events += generated[i].size();
  }
  return f;
}

// A new store beside the data holding the two blobs.
struct FreshArchive {
  fs::path dir;
  std::unique_ptr<replay::Archive> archive;
  FreshArchive(const Config& config, const NotationFiles& f) {
    std::string tmpl = (config.data / "scratch-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp");
    dir = tmpl;
    archive = std::make_unique<replay::Archive>(
        or_throw(replay::Archive::open((dir / "store").string(), replay::Archive::Mode::ReadWrite)));
    (void)or_throw(archive->store().put_blob(store::BlobKind::Catalog, f.catalog_text));
    (void)or_throw(archive->store().put_blob(store::BlobKind::Ruleset, f.ruleset_text));
  }
  ~FreshArchive() {
    archive.reset();
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

// import/notation: Archive::import_files, as `warlog import` runs it.
void import_notation(benchmark::State& state, const Config& config, const NotationFiles& f) {
  for (auto _ : state) {
    state.PauseTiming();
    auto fresh = std::make_unique<FreshArchive>(config, f);
    state.ResumeTiming();
    for (std::size_t at = 0; at < f.paths.size(); at += kBatch) {
      const std::size_t n = std::min(kBatch, f.paths.size() - at);
      for (const auto& r : fresh->archive->import_files(std::span(f.paths).subspan(at, n), {})) {
        if (!r) throw std::runtime_error(r.error().error.message);
      }
    }
    state.PauseTiming();
    fresh.reset();
    state.ResumeTiming();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * f.events));
  state.counters["files"] = static_cast<double>(f.paths.size());
}

// import/notation_parse_each, the before: the same files and the same store
// calls, each file's catalog and ruleset read from the store and parsed for
// it (what Archive::prepare_file did until the parse was kept by hash).
void import_notation_parse_each(benchmark::State& state, const Config& config, const NotationFiles& f) {
  for (auto _ : state) {
    state.PauseTiming();
    auto fresh = std::make_unique<FreshArchive>(config, f);
    state.ResumeTiming();
    store::Store& st = fresh->archive->store();
    for (std::size_t at = 0; at < f.paths.size(); at += kBatch) {
      std::vector<std::vector<core::Event>> games;
      for (std::size_t i = at; i < std::min(f.paths.size(), at + kBatch); ++i) {
        const std::string text = or_throw(core::read_text_file(f.paths[i], core::kMaxGameFileBytes, "game file"));
        const core::NotationRefs refs = core::notation_refs(text);
        auto reader = or_throw(st.reader());
        const std::string catalog_bytes =
            or_throw(reader.get_blob(store::BlobKind::Catalog, *core::digest_from_hex(refs.catalog_ref)));
        const std::string ruleset_bytes =
            or_throw(reader.get_blob(store::BlobKind::Ruleset, *core::digest_from_hex(refs.ruleset_ref)));
        const core::Catalog catalog = or_throw(core::parse_catalog_csv(catalog_bytes));
        const core::Ruleset ruleset = or_throw(core::parse_ruleset_toml(ruleset_bytes));
        auto parsed = core::parse_notation(text, f.paths[i], catalog, ruleset.hash, {});
        if (!parsed.ok()) throw std::runtime_error(f.paths[i] + ": notation errors");
        games.push_back(std::move(parsed.game.events));
      }
      std::vector<std::span<const core::Event>> spans(games.begin(), games.end());
      for (const auto& r : or_throw(st.import_games(spans))) {
        if (!r) throw std::runtime_error(r.error().message);
      }
    }
    state.PauseTiming();
    fresh.reset();
    state.ResumeTiming();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * f.events));
}

}  // namespace

void register_import_benchmarks(const Config& config) {
  auto files = notation_files(config, config.import_games);
  benchmark::RegisterBenchmark("import/notation",
                               [config, files](benchmark::State& s) { import_notation(s, config, *files); })
      ->Unit(benchmark::kMillisecond)
      ->Iterations(3);
  benchmark::RegisterBenchmark("import/notation_parse_each",
                               [config, files](benchmark::State& s) { import_notation_parse_each(s, config, *files); })
      ->Unit(benchmark::kMillisecond)
      ->Iterations(3);
}

}  // namespace warlog::bench
