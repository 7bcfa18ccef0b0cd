// Store figures: batched import against raw LMDB puts of the same bytes,
// durable single-event appends, and stored bytes per event.

#include <benchmark/benchmark.h>
#include <lmdb.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench.hpp"
#include "data.hpp"
#include "warlog/events/codec.hpp"
#include "warlog/replay/event_json.hpp"
#include "warlog/store/keys.hpp"
#include "warlog/store/store.hpp"

namespace warlog::bench {

namespace {

namespace fs = std::filesystem;

// A fresh directory beside the data (the same disk), removed at the end.
class ScratchDir {
 public:
  explicit ScratchDir(const fs::path& parent) {
    std::string tmpl = (parent / "scratch-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp under " + parent.string());
    path_ = tmpl;
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  [[nodiscard]] const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

void check(int rc, const char* what) {
  if (rc != MDB_SUCCESS) throw std::runtime_error(std::string(what) + ": " + mdb_strerror(rc));
}

struct ImportData {
  std::vector<std::vector<core::Event>> games;
  std::vector<std::span<const core::Event>> spans;
  // The bytes the store writes for them, keyed as the store keys them.
  std::vector<std::pair<store::EventKey, std::string>> encoded;
  std::size_t events = 0;
};

std::shared_ptr<const ImportData> import_data(std::size_t games) {
  auto d = std::make_shared<ImportData>();
  d->games = generate_games(load_inputs(), 1, games);
  for (std::size_t g = 0; g < d->games.size(); ++g) {
    d->spans.emplace_back(d->games[g]);
    for (std::size_t s = 0; s < d->games[g].size(); ++s) {
      core::Event ev = d->games[g][s];
      ev.game = g + 1;
      ev.seq = s;
      std::string bytes = events::encode_event(ev);
      d->encoded.emplace_back(store::event_key(ev.game, ev.seq), std::move(bytes));
    }
    d->events += d->games[g].size();
  }
  return d;
}

// import/batch: Store::import_games of every game in one transaction, then
// one sync: encoding, hash chain, identity index, metadata, commit.
void import_batch(benchmark::State& state, const Config& config, const ImportData& d) {
  for (auto _ : state) {
    state.PauseTiming();
    auto scratch = std::make_unique<ScratchDir>(config.data);
    auto opened = store::Store::open(scratch->path() / "store", store::Options{.map_size = std::size_t{1} << 30});
    if (!opened) throw std::runtime_error(opened.error().message);
    std::optional<store::Store> st(std::move(*opened));
    state.ResumeTiming();
    auto ids = st->import_games(d.spans, store::Durability::Relaxed);
    if (!ids) throw std::runtime_error(ids.error().message);
    if (auto s = st->sync(); !s) throw std::runtime_error(s.error().message);
    state.PauseTiming();
    for (const auto& id : *ids) {
      if (!id) throw std::runtime_error(id.error().message);
    }
    st.reset();  // closed before its directory goes
    scratch.reset();
    state.ResumeTiming();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * d.events));
  state.counters["games"] = static_cast<double>(d.games.size());
}

// import/raw_lmdb, the baseline: the same keys and bytes, already encoded,
// put with MDB_APPEND into one unnamed database in one transaction, then one
// sync. What LMDB itself costs for these values.
void import_raw(benchmark::State& state, const Config& config, const ImportData& d) {
  for (auto _ : state) {
    state.PauseTiming();
    ScratchDir scratch(config.data);
    MDB_env* env = nullptr;
    check(mdb_env_create(&env), "mdb_env_create");
    check(mdb_env_set_mapsize(env, std::size_t{1} << 30), "mdb_env_set_mapsize");
    check(mdb_env_open(env, scratch.path().c_str(), MDB_NOMETASYNC, 0644), "mdb_env_open");
    state.ResumeTiming();
    MDB_txn* txn = nullptr;
    check(mdb_txn_begin(env, nullptr, 0, &txn), "mdb_txn_begin");
    MDB_dbi dbi = 0;
    check(mdb_dbi_open(txn, nullptr, 0, &dbi), "mdb_dbi_open");
    for (const auto& [key, bytes] : d.encoded) {
      MDB_val k{key.size(), const_cast<char*>(key.data())};
      MDB_val v{bytes.size(), const_cast<char*>(bytes.data())};
      check(mdb_put(txn, dbi, &k, &v, MDB_APPEND), "mdb_put");
    }
    check(mdb_txn_commit(txn), "mdb_txn_commit");
    check(mdb_env_sync(env, 1), "mdb_env_sync");
    state.PauseTiming();
    mdb_env_close(env);
    state.ResumeTiming();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * d.events));
}

// append/durable: one event per Store::append with Durability::Sync, as a
// live recorder appends: one commit, data and meta page flushed, per event.
void append_durable(benchmark::State& state, const Config& config) {
  ScratchDir scratch(config.data);
  auto st = store::Store::open(scratch.path() / "store");
  if (!st) throw std::runtime_error(st.error().message);
  const auto game = generate_games(load_inputs(), 7, 1).front();
  auto id = st->import_game(std::span(game).first(game.size() - 1));
  if (!id) throw std::runtime_error(id.error().message);
  core::Seq next = game.size() - 1;
  const core::Event one = game[game.size() - 2];  // any event: the store knows no rules
  for (auto _ : state) {
    auto n = st->append(*id, next, std::span(&one, 1), store::Durability::Sync);
    if (!n) throw std::runtime_error(n.error().message);
    next = *n;
  }
  state.SetItemsProcessed(state.iterations());
}

// bytes/per_event: for the first games of the archive, the stored value
// (packed Cap'n Proto) and the JSON Lines line (`warlog export --format
// json`) of every event. scripts/bench adds the on-disk pages (mdb_stat).
void bytes_per_event(benchmark::State& state, const Config& config) {
  std::size_t events = 0, packed = 0, jsonl = 0;
  for (auto _ : state) {
    events = packed = jsonl = 0;
    auto reader = config.archive->store().reader();
    if (!reader) throw std::runtime_error(reader.error().message);
    auto ids = reader->game_ids();
    if (!ids) throw std::runtime_error(ids.error().message);
    const std::size_t n = std::min(config.bytes_games, ids->size());
    for (std::size_t i = 0; i < n; ++i) {
      auto raw = reader->scan_raw((*ids)[i], 0, store::kEndSeq, [&](core::Seq, std::string_view bytes) {
        packed += bytes.size();
        return true;
      });
      auto dec = reader->scan((*ids)[i], 0, store::kEndSeq, [&](const core::Event& ev) {
        jsonl += replay::event_json(ev).dump().size() + 1;
        return true;
      });
      if (!raw || !dec) throw std::runtime_error("bytes: scan failed");
      events += *raw;
    }
  }
  state.counters["events"] = static_cast<double>(events);
  state.counters["packed_bytes_per_event"] = static_cast<double>(packed) / static_cast<double>(events);
  state.counters["jsonl_bytes_per_event"] = static_cast<double>(jsonl) / static_cast<double>(events);
  // The whole archive's blocks, for the page count scripts/bench divides
  // (pages ÷ events) and what a stored event is made of.
  auto reader = config.archive->store().reader();
  if (!reader) throw std::runtime_error(reader.error().message);
  const auto l = reader->layout_stats();
  if (!l) throw std::runtime_error(l.error().message);
  const auto per = [&](std::uint64_t bytes) { return static_cast<double>(bytes) / static_cast<double>(l->events); };
  state.counters["archive_events"] = static_cast<double>(l->events);
  state.counters["archive_blocks"] = static_cast<double>(l->blocks);
  state.counters["compressed_blocks"] = static_cast<double>(l->compressed_blocks);
  state.counters["value_bytes_per_event"] = per(l->value_bytes);
  state.counters["header_tag_bytes_per_event"] = per(l->header_bytes);
  state.counters["stored_body_bytes_per_event"] = per(l->stored_body_bytes);
  state.counters["raw_body_bytes_per_event"] = per(l->raw_body_bytes);
  state.counters["key_bytes_per_event"] = per(l->key_bytes);
  state.counters["zstd_ratio"] = l->compressed_stored_bytes > 0 ? static_cast<double>(l->compressed_raw_bytes) /
                                                                   static_cast<double>(l->compressed_stored_bytes)
                                                             : 0.0;
}

}  // namespace

void register_store_benchmarks(const Config& config) {
  auto data = import_data(config.import_games);
  benchmark::RegisterBenchmark("import/batch", [config, data](benchmark::State& s) { import_batch(s, config, *data); })
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime()
      ->Iterations(5);
  benchmark::RegisterBenchmark("import/raw_lmdb", [config, data](benchmark::State& s) { import_raw(s, config, *data); })
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime()
      ->Iterations(5);
  benchmark::RegisterBenchmark("append/durable", [config](benchmark::State& s) { append_durable(s, config); })
      ->Unit(benchmark::kMicrosecond)
      ->UseRealTime()
      ->Iterations(static_cast<benchmark::IterationCount>(config.append_count));
  benchmark::RegisterBenchmark("bytes/per_event", [config](benchmark::State& s) { bytes_per_event(s, config); })
      ->Unit(benchmark::kMillisecond)
      ->Iterations(1);
}

}  // namespace warlog::bench
