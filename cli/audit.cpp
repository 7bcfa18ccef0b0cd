// warlog audit and warlog rule-diff: many games on a pool of threads, with
// progress on a terminal, reported as text, JSON or JUnit.

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common.hpp"
#include "progress.hpp"
#include "verbs.hpp"
#include "warlog/replay/batch.hpp"
#include "warlog/replay/report.hpp"
#include "warlog/replay/rule_diff.hpp"

namespace warlog::cli {

namespace {

using replay::Archive;

// Runs fn over every selected game on o.jobs threads, with a progress line.
template <class Result, class Fn>
std::vector<Expected<Result>> run_all(const Options& o, const std::vector<core::GameId>& ids, const char* what, Fn fn) {
  std::vector<Expected<Result>> results(ids.size(), make_error(ErrorCode::Internal, "not run"));
  Progress bar(what, ids.size());
  replay::parallel_for(
      ids.size(), o.jobs, [&](std::size_t i) { results[i] = fn(ids[i]); },
      [&](std::size_t done) { bar.update(done); });
  bar.finish();
  return results;
}

std::string junit_case(const std::string& name, const std::string& failure_type, const std::string& failure_message,
                       const std::string& body) {
  std::string out = fmt::format("    <testcase classname=\"warlog\" name=\"{}\">\n", xml_escape(name));
  if (!failure_type.empty()) {
    out += fmt::format("      <failure type=\"{}\" message=\"{}\">{}</failure>\n", xml_escape(failure_type),
                       xml_escape(failure_message), xml_escape(body));
  }
  return out + "    </testcase>\n";
}

std::string junit_suite(const std::string& name, std::size_t tests, std::size_t failures, std::size_t errors,
                        const std::string& cases) {
  return fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"{0}\" tests=\"{1}\" failures=\"{2}\" "
      "errors=\"{3}\">\n  <testsuite name=\"{0}\" tests=\"{1}\" failures=\"{2}\" errors=\"{3}\">\n{4}  "
      "</testsuite>\n</testsuites>\n",
      xml_escape(name), tests, failures, errors, cases);
}

}  // namespace

int run_audit(const Options& opts) {
  Options o = opts;
  auto sel = open_selection(o, Archive::Mode::ReadOnly);
  if (!sel) {
    error_line(sel.error());
    return kExitError;
  }
  auto ao = load_overrides(o.ruleset, o.catalog);
  if (!ao) {
    error_line(ao.error());
    return kExitError;
  }
  auto results = run_all<replay::GameAudit>(o, sel->ids, "audited", [&](core::GameId id) {
    auto a = sel->archive.audit(id, *ao);
    // The report needs the findings, and the JSON report the state's digest.
    if (a) a->drop_state(o.format == "json");
    return a;
  });

  std::size_t violations = 0, others = 0, events = 0, errors = 0, failing_games = 0;
  nlohmann::json json = nlohmann::json::array();
  std::string text, cases;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const auto& r = results[i];
    if (!r) {
      ++errors;
      fmt::print(stderr, "warlog: {}{}\n", r.error().code == ErrorCode::DataLoss ? "data loss: " : "", r.error().message);
      if (o.format == "junit") cases += junit_case(fmt::format("game {}", sel->ids[i]), "", "", "");
      continue;
    }
    events += r->game.events;
    violations += r->violations();
    others += r->findings.size() - r->violations();
    failing_games += r->violations() > 0;
    if (o.format == "json") {
      json.push_back(replay::audit_json(*r));
    } else if (o.format == "junit") {
      cases += junit_case(fmt::format("game {}: {}", r->game.id, r->game.title), r->violations() ? "violation" : "",
                          fmt::format("{} violation(s)", r->violations()),
                          r->violations() ? replay::audit_text(*r) : "");
    } else {
      fmt::print("{}", replay::audit_text(*r));
    }
  }
  if (o.format == "json") {
    fmt::print("{}\n", json.dump(2));
  } else if (o.format == "junit") {
    fmt::print("{}", junit_suite("warlog audit", results.size(), failing_games, errors, cases));
  } else {
    fmt::print("summary: {} game{}, {} events, {} violation{} in {} game{}, {} other finding{}{}\n", results.size(),
               results.size() == 1 ? "" : "s", events, violations, violations == 1 ? "" : "s", failing_games,
               failing_games == 1 ? "" : "s", others, others == 1 ? "" : "s",
               errors ? fmt::format(", {} game(s) could not be audited", errors) : "");
  }
  if (errors) return kExitError;
  return violations ? kExitViolations : kExitClean;
}

int run_rule_diff(const Options& opts) {
  Options o = opts;
  auto sel = open_selection(o, Archive::Mode::ReadOnly);
  if (!sel) {
    error_line(sel.error());
    return kExitError;
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
  auto results = run_all<replay::GameDiff>(o, sel->ids, "compared",
                                           [&](core::GameId id) { return replay::rule_diff(sel->archive, id, rd); });

  std::size_t changed = 0, flipped = 0, errors = 0, added = 0, removed = 0;
  nlohmann::json games = nlohmann::json::array();
  std::string cases;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const auto& r = results[i];
    if (!r) {
      ++errors;
      error_line(r.error());
      continue;
    }
    changed += r->changed();
    flipped += r->outcome_changed();
    added += r->added.size();
    removed += r->removed.size();
    if (o.format == "json") {
      games.push_back(replay::diff_json(*r));
    } else if (o.format == "junit") {
      cases += junit_case(fmt::format("game {}: {}", r->game.id, r->game.title),
                          r->outcome_changed() ? "outcome" : r->changed() ? "changed" : "",
                          r->changed() ? fmt::format("first divergence at seq {}", r->first->seq) : "",
                          replay::diff_text(*r));
    } else {
      fmt::print("{}", replay::diff_text(*r));
    }
  }
  if (o.format == "json") {
    fmt::print("{}\n", nlohmann::json{{"games", games},
                                      {"summary",
                                       {{"games", results.size()},
                                        {"changed", changed},
                                        {"outcomes_flipped", flipped},
                                        {"findings_added", added},
                                        {"findings_removed", removed},
                                        {"errors", errors}}}}
                              .dump(2));
  } else if (o.format == "junit") {
    fmt::print("{}", junit_suite("warlog rule-diff", results.size(), changed, errors, cases));
  } else {
    fmt::print("summary: {} game{} compared, {} changed, {} outcome{} flipped, findings +{} -{}{}\n", results.size(),
               results.size() == 1 ? "" : "s", changed, flipped, flipped == 1 ? "" : "s", added, removed,
               errors ? fmt::format(", {} game(s) could not be compared", errors) : "");
  }
  if (errors) return kExitError;
  return changed ? kExitViolations : kExitClean;
}

}  // namespace warlog::cli
