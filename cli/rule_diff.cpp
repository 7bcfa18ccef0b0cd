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
#include <stdexcept>

#include "common.hpp"
#include "isolated.hpp"
#include "json_schema.hpp"
#include "report_parts.hpp"
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

}  // namespace

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
  std::optional<replay::DiffClass> only;
  if (!o.only.empty()) only = replay::diff_class_from_string(o.only);
  std::string rule;
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
  const std::string format = o.format;
  const bool pieces = !o.summary || format == "junit";
  auto spool = Spool::make();
  if (!spool) {
    error_line(spool.error());
    return kExitError;
  }

  VerbJob job;
  job.jobs = o.jobs;
  job.progress = "compared";
  job.run = [&rd, &format, only, &rule, pieces](const Archive& archive, core::GameId id, replay::Outbox& box) {
    auto r = replay::rule_diff(archive, id, rd);
    if (!r) {
      box.put(kStderr, fmt::format("warlog: {}\n", r.error().message));
      return;  // counted as an error by the missing tally
    }
    box.put(kTally, replay::to_line(replay::tally_of(*r)));
    if (!pieces) return;
    if (format == "junit") {
      box.put(kPiece, junit_case(fmt::format("game {}: {}", r->game.id, r->game.title),
                                 r->changed() ? std::string(replay::to_string(r->klass())) : "",
                                 r->changed() ? fmt::format("first divergence at seq {}", r->first->seq) : "",
                                 replay::diff_text(*r)));
      return;
    }
    if (!replay::shown(*r, only, rule)) return;
    if (format == "json") {
      box.put(kPiece, replay::diff_json(*r).dump());
    } else if (format == "jsonl") {
      nlohmann::json line{{"type", "game"}, {"schema", schema_json("rule-diff")}};
      line.update(replay::diff_json(*r));
      box.put(kPiece, line.dump());
    } else if (format == "csv") {
      box.put(kPiece, replay::diff_csv_row(*r));
    } else if (format == "html") {
      box.put(kPiece, replay::diff_html_row(*r));
    } else {
      box.put(kPiece, replay::diff_text(*r));
    }
  };

  replay::DiffSummary summary;
  std::size_t tallied = 0, shown_games = 0;
  bool opened = false;
  auto open = [&] {
    if (std::exchange(opened, true)) return;
    if (format == "json") {
      fmt::print("{{\"schema\": {}, \"compared\": {}, \"games\": [", schema_json("rule-diff").dump(),
                 against_json(o).dump());
    } else if (format == "csv") {
      fmt::print("{}", replay::diff_csv_header());
    }
  };
  job.on_record = [&](core::GameId, const replay::Record& r) {
    if (r.tag == kTally) {
      auto t = replay::tally_from_line(r.bytes);
      if (!t) throw std::logic_error("a rule-diff tally that does not parse");
      ++tallied;
      summary.add(*t);
      return;
    }
    if (r.tag != kPiece) return;
    open();
    if (format == "json") {
      fmt::print("{}\n  {}", shown_games ? "," : "", r.bytes);
    } else if (format == "jsonl") {
      fmt::print("{}\n", r.bytes);
    } else if (format == "csv") {
      fmt::print("{}", r.bytes);
    } else {
      spool->write(r.bytes);  // text and JUnit open with the totals: printed after them
    }
    ++shown_games;
  };
  auto outcome = run_verb_job(o, std::move(job));
  if (!outcome) return kExitError;
  for (std::size_t i = tallied; i < outcome->games; ++i) summary.add_error();
  const std::size_t changed = outcome->games - summary.errors() - summary.count(replay::DiffClass::Unchanged);
  if (format == "json") {
    open();
    fmt::print("{}], \"summary\": {}}}\n", shown_games ? "\n" : "", summary.json().dump());
  } else if (format == "jsonl") {
    nlohmann::json line{{"type", "summary"}, {"schema", schema_json("rule-diff")}, {"compared", against_json(o)}};
    line.update(summary.json());
    fmt::print("{}\n", line.dump());
  } else if (format == "csv") {
    open();
  } else if (format == "html") {
    fmt::print("{}", summary.html_head(against_words(o)));
    std::fflush(stdout);
    if (auto printed = spool->print(); !printed) {
      error_line(printed.error());
      return kExitError;
    }
    fmt::print("{}", replay::DiffSummary::html_tail());
  } else if (format == "junit") {
    fmt::print("{}", junit_head("warlog rule-diff", outcome->games, changed, summary.errors()));
    std::fflush(stdout);
    if (auto printed = spool->print(); !printed) {
      error_line(printed.error());
      return kExitError;
    }
    fmt::print("{}", junit_tail());
  } else {
    fmt::print("{}", summary.text(against_words(o)));
    if (!o.summary) {
      std::string filters;
      if (only) filters += fmt::format(" in class {}", replay::to_string(*only));
      if (!rule.empty()) filters += fmt::format("{} whose {} findings change", filters.empty() ? "" : ",", rule);
      fmt::print("{}\n", replay::fit(fmt::format("per game below: {} of {} changed game{}{}", shown_games, changed,
                                                 changed == 1 ? "" : "s", filters),
                                     80));
      std::fflush(stdout);
      if (auto printed = spool->print(); !printed) {
        error_line(printed.error());
        return kExitError;
      }
    }
  }
  if (summary.errors()) return kExitError;
  return changed ? kExitViolations : kExitClean;
}

}  // namespace warlog::cli
