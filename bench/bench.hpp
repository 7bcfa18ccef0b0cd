#pragma once
// The benchmark groups; main() registers them with the data they run on.
// Names are "group/measure"; scripts/bench_report.py reads them by name.

#include <cstddef>
#include <filesystem>
#include <memory>

#include "warlog/replay/replay.hpp"

namespace warlog::bench {

struct Config {
  std::filesystem::path data;      // holds archive/ and long/ (scripts/bench)
  std::size_t import_games = 1000;  // games in the batched-import benchmark
  std::size_t append_count = 200;   // durable appends timed
  std::size_t seeks = 5000;         // random seeks timed
  std::size_t bytes_games = 1000;   // games measured for bytes per event
  std::size_t audit_events = 1'000'000;  // the one-thread audit sample: the archive's first games up to this
  // Opened once in main (a store may be open only once per process), read-only.
  std::shared_ptr<const replay::Archive> archive;    // data/archive
  std::shared_ptr<const replay::Archive> long_game;  // data/long: game 1
};

// import/batch, import/raw_lmdb, append/durable, bytes/per_event.
void register_store_benchmarks(const Config& config);
// audit/{one_thread,decode_only,raw_scan,long_game,long_game_raw_scan},
// archive/{audit_2_threads,raw_scan_2_threads}, seek/{random,full_refold}, step/end.
void register_replay_benchmarks(const Config& config);
// record/{line,lmdb_synced_put,complete}: a recorded line against LMDB's own
// synced commit, and completion (needs only config.data, as scratch space).
void register_record_benchmarks(const Config& config);
// import/{notation,notation_parse_each}: Archive::import_files of exported
// games against the catalog and ruleset parsed for every file (the before).
void register_import_benchmarks(const Config& config);
// notation/{lex_line,parse_long_line}/{1,2,4}MiB: one long line (no data).
void register_notation_benchmarks();

}  // namespace warlog::bench
