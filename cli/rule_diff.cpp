// warlog rule-diff: every game folded under a base and a candidate ruleset
// or card catalog, on a pool of threads. Text opens with the totals (the
// first screen answers the designer's question; per-game blocks follow from
// a temporary file); JSON, JSON Lines and CSV stream each game as it
// finishes, the totals last.

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>

#include "common.hpp"
#include "isolated.hpp"
#include "json_schema.hpp"
#include "report_parts.hpp"
#include "shard.hpp"
#include "verbs.hpp"
#include "warlog/core/finding.hpp"
#include "warlog/replay/rule_diff.hpp"
#include "warlog/replay/rule_diff_summary.hpp"

namespace warlog::cli {

namespace {

using replay::Archive;

bool ends_with_ci(std::string_view s, std::string_view tail) {
  if (s.size() < tail.size()) return false;
  return std::equal(tail.begin(), tail.end(), s.end() - static_cast<std::ptrdiff_t>(tail.size()), [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
  });
}

// A card list's first line names columns with commas and sets no key.
bool looks_like_csv(const std::string& path) {
  std::ifstream in(path);
  std::string first;
  std::getline(in, first);
  return first.find(',') != std::string::npos && first.find('=') == std::string::npos &&
         first.find('[') == std::string::npos;
}

// A file given to the wrong option: the option it belongs to.
std::optional<Error> misplaced(const std::string& path, bool ruleset, const char* instead) {
  if (path.empty()) return std::nullopt;
  const bool csv = ends_with_ci(path, ".csv") || (!ends_with_ci(path, ".toml") && looks_like_csv(path));
  if (ruleset && csv) {
    return Error{ErrorCode::InvalidArgument,
                 fmt::format("rule-diff: {} is a card catalog (CSV), not a ruleset: use {} {}", path, instead, path)};
  }
  if (!ruleset && ends_with_ci(path, ".toml")) {
    return Error{ErrorCode::InvalidArgument,
                 fmt::format("rule-diff: {} is a ruleset (TOML), not a card catalog: use {} {}", path, instead, path)};
  }
  return std::nullopt;
}

// "the candidate ruleset x.toml", "the candidate catalog y.csv against the base ruleset z.toml".
std::string against_words(const Options& o) {
  auto side = [](const char* which, const std::string& ruleset, const std::string& catalog) {
    // The file names only: the first line has 80 columns (JSON has the paths).
    std::string s = fmt::format("the {} ", which);
    if (!ruleset.empty()) s += "ruleset " + std::filesystem::path(ruleset).filename().string();
    if (!ruleset.empty() && !catalog.empty()) s += " and ";
    if (!catalog.empty()) s += "catalog " + std::filesystem::path(catalog).filename().string();
    return s;
  };
  std::string s = side("candidate", o.candidate_ruleset, o.candidate_catalog);
  if (!o.base_ruleset.empty() || !o.base_catalog.empty()) {
    s += " against " + side("base", o.base_ruleset, o.base_catalog);
  }
  return s;
}

nlohmann::json against_json(const Options& o) {
  auto path = [](const std::string& p) { return p.empty() ? nlohmann::json(nullptr) : nlohmann::json(p); };
  return {{"base", {{"ruleset", path(o.base_ruleset)}, {"catalog", path(o.base_catalog)}}},
          {"candidate", {{"ruleset", path(o.candidate_ruleset)}, {"catalog", path(o.candidate_catalog)}}}};
}

// rule-diff's report in one format, from the games' entries in id order.
// Text, HTML and JUnit open with the totals: the per-game parts wait in a
// temporary file. JSON, JSON Lines and CSV stream each game as it comes.
class DiffReport {
 public:
  DiffReport(std::string format, const nlohmann::json& report, Spool spool)
      : format_(std::move(format)),
        summary_only_(report.at("summary").get<bool>()),
        against_(report.at("against").get<std::string>()),
        compared_(report.at("compared")),
        spool_(std::move(spool)),
        summary_(filter_of(report)) {}

  void game(const GameEntry& e) {
    ++entries_;
    if (!e.error.empty()) {
      std::fflush(stdout);  // what the games before it printed comes first
      fmt::print(stderr, "{}", e.error);
    }
    if (e.tally.empty()) {
      summary_.add_error();
    } else {
      auto t = replay::tally_from_line(e.tally);
      if (!t) throw std::logic_error("a rule-diff tally that does not parse");
      summary_.add(*t);
    }
    const std::string* piece = e.piece(format_);
    if (piece == nullptr) return;
    open();
    if (format_ == "json") {
      fmt::print("{}\n  {}", shown_ ? "," : "", *piece);
    } else if (format_ == "jsonl" || format_ == "csv") {
      fmt::print("{}", *piece);
    } else {
      spool_.write(*piece);  // text, HTML and JUnit open with the totals: printed after them
    }
    ++shown_;
  }

  int finish(std::size_t games) {
    for (std::size_t i = entries_; i < games; ++i) summary_.add_error();
    // The verdict and JUnit are of every game compared, whatever the filter.
    const std::size_t changed = summary_.compared_changed();
    if (format_ == "json") {
      open();
      fmt::print("{}], \"summary\": {}}}\n", shown_ ? "\n" : "", summary_.json().dump());
    } else if (format_ == "jsonl") {
      nlohmann::json line{{"type", "summary"}, {"schema", schema_json("rule-diff")}, {"compared", compared_}};
      line.update(summary_.json());
      fmt::print("{}\n", line.dump());
    } else if (format_ == "csv") {
      open();
    } else if (format_ == "html") {
      fmt::print("{}", summary_.html_head(against_));
      if (!print_spool()) return kExitError;
      fmt::print("{}", replay::DiffSummary::html_tail());
    } else if (format_ == "junit") {
      fmt::print("{}", junit_head("warlog rule-diff", games, changed, summary_.errors()));
      if (!print_spool()) return kExitError;
      fmt::print("{}", junit_tail());
    } else {
      fmt::print("{}", summary_.text(against_));
      if (!summary_only_) {
        const std::string filters = summary_.filter().words();
        if (changed == 0) {
          fmt::print("no game changes{}{}\n", filters.empty() ? "" : " ", filters);
        } else {
          fmt::print("{}\n", replay::fit(fmt::format("per game below: {} of {} changed game{}{}{}", shown_, changed,
                                                     changed == 1 ? "" : "s", filters.empty() ? "" : " ", filters),
                                         80));
        }
        if (!print_spool()) return kExitError;
      }
    }
    if (summary_.errors()) return kExitError;
    return changed ? kExitViolations : kExitClean;
  }

 private:
  void open() {
    if (std::exchange(opened_, true)) return;
    if (format_ == "json") {
      fmt::print("{{\"schema\": {}, \"compared\": {}, \"games\": [", schema_json("rule-diff").dump(),
                 compared_.dump());
    } else if (format_ == "csv") {
      fmt::print("{}", replay::diff_csv_header());
    }
  }
  bool print_spool() {
    std::fflush(stdout);
    if (auto printed = spool_.print(); !printed) {
      error_line(printed.error());
      return false;
    }
    return true;
  }

  static replay::DiffFilter filter_of(const nlohmann::json& report) {
    replay::DiffFilter f;
    if (const auto c = report.at("only").get<std::string>(); !c.empty()) f.only = replay::diff_class_from_string(c);
    f.rule = report.at("rule").get<std::string>();
    return f;
  }

  std::string format_;
  bool summary_only_;
  std::string against_;
  nlohmann::json compared_;
  Spool spool_;
  replay::DiffSummary summary_;
  std::size_t entries_ = 0, shown_ = 0;
  bool opened_ = false;
};

}  // namespace

Expected<Report> rule_diff_report(const std::string& format, const nlohmann::json& report) {
  const auto& formats = part_formats("rule-diff");
  if (std::find(formats.begin(), formats.end(), format) == formats.end()) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("rule-diff has no format '{}' (text, json, jsonl, csv, html or junit)", format));
  }
  auto spool = Spool::make();
  if (!spool) return tl::unexpected(spool.error());
  auto r = std::make_shared<DiffReport>(format, report, std::move(*spool));
  return Report{[r](const GameEntry& e) { r->game(e); }, [r](std::size_t games) { return r->finish(games); }};
}

int run_rule_diff(const Options& o) {
  if (o.candidate_ruleset.empty() && o.candidate_catalog.empty()) {
    error_line(Error{ErrorCode::InvalidArgument,
                     "rule-diff: nothing to compare: give a candidate ruleset (--candidate RULES.toml) or card "
                     "catalog (--candidate-catalog CARDS.csv)"});
    return kExitError;
  }
  for (const auto& wrong : {misplaced(o.candidate_ruleset, true, "--candidate-catalog"),
                            misplaced(o.base_ruleset, true, "--base-catalog"),
                            misplaced(o.candidate_catalog, false, "--candidate"),
                            misplaced(o.base_catalog, false, "--base")}) {
    if (wrong) {
      error_line(*wrong);
      return kExitError;
    }
  }
  replay::DiffFilter filter;
  if (!o.only.empty()) filter.only = replay::diff_class_from_string(o.only);
  std::string& rule = filter.rule;
  if (!o.rule.empty()) {
    const core::Rule* r = core::find_rule(o.rule);
    if (r == nullptr) {
      error_line(Error{ErrorCode::NotFound, fmt::format("rule-diff: no rule '{}' (warlog rules lists them)", o.rule)});
      return kExitError;
    }
    rule = std::string(r->id);
  }
  replay::RuleDiffOptions rd;
  auto base = load_overrides(o.base_ruleset, o.base_catalog);
  auto cand = load_overrides(o.candidate_ruleset, o.candidate_catalog);
  if (!base || !cand) {
    error_line(!base ? base.error() : cand.error());
    return kExitError;
  }
  rd.base = std::move(*base);
  rd.candidate = std::move(*cand);
  const std::vector<std::string> formats = piece_formats(o, "rule-diff");

  VerbJob job;
  job.jobs = o.jobs;
  job.progress = "compared";
  job.run = [&rd, &formats, &filter, summary = o.summary](const Archive& archive, core::GameId id,
                                                          replay::Outbox& box) {
    auto r = replay::rule_diff(archive, id, rd);
    if (!r) {
      box.put(kFailed, fmt::format("warlog: {}\n", r.error().message));
      return;  // counted as an error by the missing tally
    }
    const replay::DiffTally tally = replay::tally_of(*r);
    box.put(kTally, replay::to_line(tally));
    for (const auto& format : formats) {
      if (format == "junit") {
        box.put(kPiece, format_piece(format, junit_case(fmt::format("game {}: {}", r->game.id, r->game.title),
                                                        r->changed() ? std::string(replay::to_string(r->klass())) : "",
                                                        r->changed() ? fmt::format("first divergence at seq {}",
                                                                                   r->first->seq)
                                                                     : "",
                                                        replay::diff_text(*r))));
        continue;
      }
      if (summary || !replay::shown(tally, filter)) continue;
      std::string piece;
      if (format == "json") {
        piece = replay::diff_json(*r).dump();
      } else if (format == "jsonl") {
        nlohmann::json line{{"type", "game"}, {"schema", schema_json("rule-diff")}};
        line.update(replay::diff_json(*r));
        piece = line.dump() + "\n";
      } else if (format == "csv") {
        piece = replay::diff_csv_row(*r);
      } else if (format == "html") {
        piece = replay::diff_html_row(*r);
      } else {
        piece = replay::diff_text(*r);
      }
      box.put(kPiece, format_piece(format, piece));
    }
  };

  // What must agree for parts to merge (the files by content), and what the
  // report prints of the arguments (the files as they were named).
  auto hash_of = [](const replay::AuditOptions& a) {
    return nlohmann::json{{"ruleset", a.ruleset ? nlohmann::json(a.ruleset->hash) : nlohmann::json(nullptr)},
                          {"catalog", a.catalog ? nlohmann::json(a.catalog->hash()) : nlohmann::json(nullptr)}};
  };
  ShardedVerb v;
  v.verb = "rule-diff";
  v.args = {{"games", o.games}, {"base", hash_of(rd.base)}, {"candidate", hash_of(rd.candidate)}};
  v.report = {{"summary", o.summary},
              {"only", o.only},
              {"rule", rule},
              {"against", against_words(o)},
              {"compared", against_json(o)}};
  v.writer = [&o, &v] { return rule_diff_report(o.format, v.report); };
  return run_reported(o, std::move(job), v);
}

}  // namespace warlog::cli
