#include "shard.hpp"

#include <fmt/format.h>

#include <cstdio>

#include "common.hpp"
#include "json_schema.hpp"
#include "warlog/core/fold.hpp"
#include "warlog/core/hash.hpp"

namespace warlog::cli {

std::uint64_t shard_of(core::GameId id, std::uint64_t count) noexcept {
  char be[8];
  for (int i = 7; i >= 0; --i, id >>= 8) be[i] = static_cast<char>(id & 0xFF);
  const core::Digest d = core::blake2b(std::string_view(be, sizeof be));
  std::uint64_t h = 0;
  for (int i = 0; i < 8; ++i) h = h << 8 | d[static_cast<std::size_t>(i)];
  return h % count;
}

std::string format_piece(std::string_view format, std::string_view text) {
  std::string out;
  out.reserve(format.size() + 1 + text.size());
  out.append(format).append(1, '\n').append(text);
  return out;
}

void EntryCollector::record(core::GameId id, const replay::Record& r) {
  if (current_ && current_->game != id) flush();
  if (!current_) {
    current_.emplace();
    current_->game = id;
  }
  if (r.tag == kTally) {
    current_->tally = r.bytes;
  } else if (r.tag == kPiece) {
    const auto nl = r.bytes.find('\n');
    if (nl == std::string::npos) throw std::logic_error("a report piece without its format");
    current_->pieces.insert_or_assign(r.bytes.substr(0, nl), r.bytes.substr(nl + 1));
  } else if (r.tag == kFailed) {
    current_->error += r.bytes;
  }
}

void EntryCollector::lost(core::GameId id, std::string error) {
  if (id == 0) return;  // the store itself: run_isolated's error says it
  if (current_ && current_->game != id) flush();
  if (!current_) {
    current_.emplace();
    current_->game = id;
  }
  current_->lost = true;
  current_->tally.clear();  // a reader that died is no answer for the game
  current_->error += error;
}

void EntryCollector::flush() {
  if (!current_) return;
  ++entries_;
  out_(*current_);
  current_.reset();
}

const std::vector<std::string>& part_formats(std::string_view verb) {
  static const std::vector<std::string> audit{"text", "json", "jsonl", "junit"};
  static const std::vector<std::string> diff{"text", "json", "jsonl", "csv", "html", "junit"};
  return verb == "audit" ? audit : diff;
}

std::vector<std::string> piece_formats(const Options& o, std::string_view verb) {
  if (o.shard.empty()) return {o.format};
  return part_formats(verb);
}

namespace {

// Every line of a part names its schema, as every JSON Lines line does
// (docs/schema/part.schema.json); the part's own version, not kJsonSchemaVersion.
nlohmann::json part_schema() { return {{"name", "warlog.part"}, {"version", kPartVersion}}; }

std::string part_line(const GameEntry& e) {
  nlohmann::json j{{"type", "game"}, {"schema", part_schema()}, {"game", e.game}};
  if (!e.tally.empty()) j["tally"] = e.tally;
  j["pieces"] = nlohmann::json::object();
  for (const auto& [format, text] : e.pieces) j["pieces"][format] = text;
  if (!e.error.empty()) j["error"] = e.error;
  if (e.lost) j["lost"] = true;
  return j.dump();
}

}  // namespace

int run_reported(const Options& o, VerbJob job, const ShardedVerb& v) {
  Options parsed = o;
  if (auto s = parse_shard(parsed); !s) {
    error_line(s.error());
    return kExitError;
  }
  if (parsed.shard_count == 0) {
    auto report = v.writer();
    if (!report) {
      error_line(report.error());
      return kExitError;
    }
    EntryCollector c([&](const GameEntry& e) { report->game(e); });
    job.on_record = [&](core::GameId id, const replay::Record& r) { c.record(id, r); };
    job.on_lost = [&](const replay::LostGame& lost) { c.lost(lost.game, ""); };  // its line is printed
    auto outcome = run_verb_job(o, std::move(job));
    if (!outcome) return kExitError;
    c.flush();
    return report->finish(outcome->games);
  }

  if (o.format_given) {
    error_line(Error{ErrorCode::InvalidArgument,
                     fmt::format("{}: --shard writes a partial report holding every format: give --format to "
                                 "warlog merge instead",
                                 v.verb)});
    return kExitError;
  }
  const nlohmann::json header{{"type", "part"},
                              {"schema", part_schema()},
                              {"warlog", WARLOG_VERSION},
                              {"engine", core::kEngineVersion},
                              {"json-schema", kJsonSchemaVersion},
                              {"verb", v.verb},
                              {"shard", {{"index", parsed.shard_index}, {"count", parsed.shard_count}, {"by", kShardHash}}},
                              {"args", v.args},
                              {"report", v.report}};
  fmt::print("{}\n", header.dump());
  const std::string store_words = fmt::format("of shard {}/{}", parsed.shard_index, parsed.shard_count);
  EntryCollector c([](const GameEntry& e) { fmt::print("{}\n", part_line(e)); });
  job.on_record = [&](core::GameId id, const replay::Record& r) { c.record(id, r); };
  job.on_lost = [&](const replay::LostGame& lost) {
    c.lost(lost.game, fmt::format("warlog: {}\n", lost.message(store_words)));
  };
  auto outcome = run_verb_job(o, std::move(job));
  if (!outcome) return kExitError;
  c.flush();
  // The last line says the part is whole: merge refuses one cut short.
  fmt::print("{}\n", nlohmann::json{{"type", "end"}, {"schema", part_schema()}, {"games", outcome->games}}.dump());
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    error_line(Error{ErrorCode::IoError, "cannot write the partial report (is the disk full?)"});
    return kExitError;
  }
  return kExitClean;
}

}  // namespace warlog::cli
