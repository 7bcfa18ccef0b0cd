// warlog merge: joins the partial reports of `audit --shard K/N` or
// `rule-diff --shard K/N` (cli/shard.hpp) into the report one run over the
// whole store gives, byte for byte, in any of the verb's formats. A
// streaming merge: one game line of each part is held at a time.

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "color.hpp"
#include "common.hpp"
#include "merge.hpp"
#include "shard.hpp"

namespace warlog::cli {

namespace {

struct Part {
  std::string path;
  std::unique_ptr<std::ifstream> in;
  std::size_t line = 0;
  nlohmann::json header;
  std::optional<GameEntry> head;  // the next game of this part
  std::size_t games = 0;          // game lines read
  std::optional<std::size_t> end;  // the end line's count, once read
  core::GameId last = 0;
  bool cut = false;  // the last line read stops before its newline: a truncated copy
};

Error bad(const Part& p, const std::string& why) {
  return Error{ErrorCode::InvalidArgument, fmt::format("merge: {}:{}: {}", p.path, p.line, why)};
}

std::optional<nlohmann::json> next_line(Part& p) {
  std::string text;
  if (!std::getline(*p.in, text)) return std::nullopt;
  ++p.line;
  auto j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    // A shard writes whole lines, each ended by a newline: the file's last
    // line without one, that does not parse, is a copy cut mid-line.
    p.cut = p.in->eof();
    return nlohmann::json(nullptr);
  }
  return j;
}

// A line that does not parse: cut short when the file stops in it.
Error not_a_line(const Part& p, std::string_view why) {
  if (p.cut) {
    return bad(p, "the part is cut short in this line (the file stops mid-line: a truncated copy; copy it again "
                  "or run the shard again)");
  }
  return bad(p, std::string(why));
}

// Reads the part's next game into p.head (none at its end). Errors: a line
// that is no game, ids out of order, a part cut short.
Expected<void> advance(Part& p) {
  p.head.reset();
  if (p.end) return {};
  auto j = next_line(p);
  if (!j) return tl::unexpected(bad(p, "the part ends without its end line (cut short: run the shard again)"));
  if (!j->is_object()) return tl::unexpected(not_a_line(p, "not a line of a partial report"));
  const std::string type = j->value("type", "");
  if (type == "end") {
    p.end = j->value("games", std::size_t{0});
    if (*p.end != p.games) {
      return tl::unexpected(bad(p, fmt::format("the part says {} games and holds {}", *p.end, p.games)));
    }
    if (next_line(p)) return tl::unexpected(bad(p, "a line after the end line"));
    return {};
  }
  if (type != "game" || !j->contains("game") || !(*j)["game"].is_number_unsigned()) {
    return tl::unexpected(bad(p, "not a game line of a partial report"));
  }
  GameEntry e;
  e.game = (*j)["game"].get<core::GameId>();
  if (p.games > 0 && e.game <= p.last) {
    return tl::unexpected(bad(p, fmt::format("game {} after game {}: a part is sorted by game id", e.game, p.last)));
  }
  const std::uint64_t count = p.header["shard"]["count"].get<std::uint64_t>();
  if (shard_of(e.game, count) != p.header["shard"]["index"].get<std::uint64_t>()) {
    return tl::unexpected(bad(p, fmt::format("game {} is not of this shard", e.game)));
  }
  e.tally = j->value("tally", "");
  e.error = j->value("error", "");
  e.lost = j->value("lost", false);
  if (auto it = j->find("pieces"); it != j->end() && it->is_object()) {
    for (const auto& [format, text] : it->items()) {
      if (!text.is_string()) return tl::unexpected(bad(p, "a piece that is not text"));
      e.pieces.emplace(format, text.get<std::string>());
    }
  }
  p.last = e.game;
  ++p.games;
  p.head = std::move(e);
  return {};
}

// Opens a part and reads its header. Errors: InvalidArgument / IoError.
Expected<Part> open_part(const std::string& path) {
  Part p;
  p.path = path;
  p.in = std::make_unique<std::ifstream>(path, std::ios::binary);
  if (!*p.in) return make_error(ErrorCode::IoError, fmt::format("merge: cannot read {}", path));
  auto h = next_line(p);
  if (!h || !h->is_object() || h->value("type", "") != "part" || !h->contains("shard") ||
      !(*h)["shard"].contains("index") || !(*h)["shard"].contains("count")) {
    return tl::unexpected(
        bad(p, "not a partial report (write one with audit or rule-diff --shard K/N)"));
  }
  if ((*h)["schema"] != nlohmann::json{{"name", "warlog.part"}, {"version", kPartVersion}}) {
    return tl::unexpected(bad(p, fmt::format("a partial report of another version: {}", (*h)["schema"].dump())));
  }
  p.header = std::move(*h);
  return p;
}

// Everything but the shard must agree, or the parts are of different runs.
nlohmann::json run_of(const nlohmann::json& header) {
  nlohmann::json r = header;
  r["shard"].erase("index");
  return r;
}

}  // namespace

CLI::App* add_merge(CLI::App& app, MergeArgs& m) {
  CLI::App* merge = app.add_subcommand("merge", "Join the partial reports of audit or rule-diff --shard K/N");
  merge->add_option("parts", m.parts, "The partial reports, one per shard 0/N to N-1/N, in any order")->required();
  merge->add_option("--format", m.format,
                    "text, json, jsonl, junit; rule-diff also csv and html (what the verb's --format takes)")
      ->check(CLI::IsMember({"text", "json", "jsonl", "csv", "html", "junit"}));
  merge->add_option("--color", m.color, "Colour audit text's severities and citations: auto (on a terminal, unless "
                                        "NO_COLOR is set), always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  merge->footer("Each part is what one shard wrote on stdout: warlog audit --shard 2/8 > part-2.\n"
                "The parts must be of one verb with the same options and warlog version, one per shard, each\n"
                "whole; the report is then the one a single run gives, byte for byte, in the format asked.\n"
                "docs/scaling.md: GNU parallel, Slurm and Kubernetes recipes (scripts/shard-job).\n"
                "--color as audit's (text reports of audit parts).\n"
                "Example: warlog merge parts/part-*-of-8.jsonl --format html > report.html\n"
                "Exit 0 when the report is clean; 1 as the verb's: audit when any game has a violation,\n"
                "rule-diff when any game changes; 2 when a game could not be read, or on a part that is\n"
                "missing, of another run, cut short or unreadable (one line on stderr naming file and line).");
  return merge;
}

int run_merge(const MergeArgs& m) {
  std::vector<Part> parts;
  for (const auto& path : m.parts) {
    auto p = open_part(path);
    if (!p) {
      error_line(p.error());
      return kExitError;
    }
    parts.push_back(std::move(*p));
  }
  const nlohmann::json run = run_of(parts.front().header);
  const std::uint64_t count = parts.front().header["shard"]["count"].get<std::uint64_t>();
  std::vector<const Part*> by_index(count, nullptr);
  for (const Part& p : parts) {
    if (run_of(p.header) != run) {
      error_line(bad(p, fmt::format("a part of another run than {} (verb, options, files or warlog version differ)",
                                    parts.front().path)));
      return kExitError;
    }
    const auto k = p.header["shard"]["index"].get<std::uint64_t>();
    if (k >= count) {
      error_line(bad(p, fmt::format("shard {}/{} does not exist", k, count)));
      return kExitError;
    }
    if (by_index[k] != nullptr) {
      error_line(bad(p, fmt::format("shard {}/{} is also {}", k, count, by_index[k]->path)));
      return kExitError;
    }
    by_index[k] = &p;
  }
  for (std::uint64_t k = 0; k < count; ++k) {
    if (by_index[k] == nullptr) {
      error_line(Error{ErrorCode::InvalidArgument,
                       fmt::format("merge: shard {}/{} is missing ({} of {} parts given)", k, count, parts.size(), count)});
      return kExitError;
    }
  }
  const std::string verb = run["verb"].get<std::string>();
  auto report = verb == "audit" ? audit_report(m.format, use_color(m.color), run["report"]) : rule_diff_report(m.format, run["report"]);
  if (!report) {
    error_line(Error{ErrorCode::InvalidArgument, "merge: " + report.error().message});
    return kExitError;
  }
  for (Part& p : parts) {
    if (auto a = advance(p); !a) {
      error_line(a.error());
      return kExitError;
    }
  }
  // Each part is sorted by id and the shards share no game: the smallest
  // head is the next game. N is a few hundred at most: a scan will do.
  for (;;) {
    Part* next = nullptr;
    for (Part& p : parts) {
      if (p.head && (next == nullptr || p.head->game < next->head->game)) next = &p;
    }
    if (next == nullptr) break;
    report->game(*next->head);
    if (auto a = advance(*next); !a) {
      std::fflush(stdout);
      error_line(a.error());
      return kExitError;
    }
  }
  std::size_t games = 0;
  for (const Part& p : parts) games += *p.end;
  return report->finish(games);
}

}  // namespace warlog::cli
