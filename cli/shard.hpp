#pragma once
// An audit or rule-diff split by game (--shard K/N), and the partial report
// each shard writes for `warlog merge` (cli/merge.cpp) to join.
//
// A report is fed one GameEntry per game in id order, then finished; the
// single run, the shard and the merge all go through the same entries, so
// the merged report is the single run's byte for byte (what a verb prints
// is decided once, in its report writer).
//
// A partial report is JSON Lines (docs/schema/part.schema.json), each line
// with "schema": {"name": "warlog.part", "version": kPartVersion}:
//   {"type": "part", "schema": ..., "warlog": VERSION, "engine": N,
//    "json-schema": kJsonSchemaVersion, "verb": "audit", "shard": {"index":
//    K, "count": N, "by": kShardHash}, "args": {...}, "report": {...}}
//   {"type": "game", "schema": ..., "game": ID, "tally": "...", "pieces":
//    {FORMAT: TEXT, ...}, "error": LINE, "lost": true}   one per game, by id
//   {"type": "end", "schema": ..., "games": COUNT}
// It holds no time, host, store path or duration: parts of the same
// arguments on any machines merge into one report. `args` are the options
// that change what is reported (file contents by hash); `report` what the
// writer needs to print the totals (rule-diff's "against" words).

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "isolated.hpp"
#include "verbs.hpp"
#include "warlog/core/event.hpp"

namespace warlog::cli {

// How a game is given a shard (docs/scaling.md): the first 8 bytes of
// BLAKE2b-256 of the id's 8 big-endian bytes, read big-endian, modulo N.
// A game keeps its shard as ids grow, and the shares stay even.
// The part format's version: merge refuses a part of another one. (The
// game and end lines name it too since issue 19's schema; a part without
// that, of the same version, still merges.)
inline constexpr int kPartVersion = 1;

inline constexpr const char* kShardHash = "blake2b-256(id u64 BE)[0..8] BE mod N";
[[nodiscard]] std::uint64_t shard_of(core::GameId id, std::uint64_t count) noexcept;

// Per-game records a verb's job puts besides kPiece and kTally.
inline constexpr std::uint32_t kFailed = 6;  // the stderr line of a game the verb could not read

// A piece as it crosses from the reader: "FORMAT\n" then the text.
[[nodiscard]] std::string format_piece(std::string_view format, std::string_view text);

struct GameEntry {
  core::GameId game = 0;
  std::string tally;                          // empty: the game could not be read
  std::map<std::string, std::string> pieces;  // format -> what it shows of the game
  std::string error;                          // a line for stderr ("warlog: ...\n"), if any
  bool lost = false;                          // its reader died
  [[nodiscard]] const std::string* piece(const std::string& format) const {
    auto it = pieces.find(format);
    return it == pieces.end() ? nullptr : &it->second;
  }
};

// A verb's report writer.
struct Report {
  std::function<void(const GameEntry&)> game;
  // After the last game: prints the totals; returns the exit code.
  std::function<int(std::size_t games)> finish;
};

// Gathers a game's records (they come in game order) into one GameEntry.
class EntryCollector {
 public:
  explicit EntryCollector(std::function<void(const GameEntry&)> out) : out_(std::move(out)) {}
  void record(core::GameId id, const replay::Record& r);
  // A lost game; `error` is the line to keep with it (empty when printed).
  void lost(core::GameId id, std::string error);
  void flush();
  [[nodiscard]] std::size_t entries() const noexcept { return entries_; }

 private:
  std::function<void(const GameEntry&)> out_;
  std::optional<GameEntry> current_;
  std::size_t entries_ = 0;
};

// A verb's run: the single report in o.format, or with --shard the part.
struct ShardedVerb {
  std::string verb;                // "audit"
  nlohmann::json args;             // what must agree for parts to merge
  nlohmann::json report;           // what the writer needs (Report of merge)
  std::function<Expected<Report>()> writer;  // for o.format
};
// Runs the job over the selection and writes the report or the part.
// `job.run` must put pieces for o.format, or with a shard for every format.
// Exit: the report's; for a part 0 once written (merge gives the verdict),
// 2 when it could not be.
[[nodiscard]] int run_reported(const Options& o, VerbJob job, const ShardedVerb& v);

// The formats a shard's part holds for the verb.
[[nodiscard]] const std::vector<std::string>& part_formats(std::string_view verb);

// The formats a job puts pieces for: o.format, or with --shard every one.
[[nodiscard]] std::vector<std::string> piece_formats(const Options& o, std::string_view verb);

// Merge's side: the writer of a verb for a format, from a part's "report".
// Errors: InvalidArgument for a format the verb does not have.
// color: paint the text report's severities and citations (color.hpp).
[[nodiscard]] Expected<Report> audit_report(const std::string& format, bool color = false,
                                                  const nlohmann::json& report = nlohmann::json::object());
[[nodiscard]] Expected<Report> rule_diff_report(const std::string& format, const nlohmann::json& report);

}  // namespace warlog::cli
