// warlog audit and warlog rule-diff: many games on a pool of threads, with
// progress on a terminal, reported as text, JSON or JUnit.

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <initializer_list>
#include <stdexcept>

#include "common.hpp"
#include "isolated.hpp"
#include "verbs.hpp"
#include "warlog/replay/report.hpp"
#include "warlog/replay/rule_diff.hpp"

namespace warlog::cli {

namespace {

using replay::Archive;

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

// A game's numbers for the summary, as a kTally record ("3 1 0 1").
std::string tally(std::initializer_list<std::size_t> numbers) {
  std::string out;
  for (std::size_t n : numbers) out += fmt::format("{} ", n);
  return out;
}

std::vector<std::size_t> untally(const std::string& text) {
  std::vector<std::size_t> out;
  std::size_t n = 0;
  bool digits = false;
  for (char c : text) {
    if (c >= '0' && c <= '9') {
      n = n * 10 + static_cast<std::size_t>(c - '0');
      digits = true;
    } else if (digits) {
      out.push_back(std::exchange(n, 0));
      digits = false;
    }
  }
  return out;
}

}  // namespace

// audit and rule-diff fold each game in an isolated reader (isolated.hpp),
// on o.jobs threads there; the report is put together here, in game order.
int run_audit(const Options& o) {
  auto ao = load_overrides(o.ruleset, o.catalog);
  if (!ao) {
    error_line(ao.error());
    return kExitError;
  }
  VerbJob job;
  job.jobs = o.jobs;
  job.progress = "audited";
  job.run = [&ao, format = o.format, times = o.times](const Archive& archive, core::GameId id, replay::Outbox& box) {
    auto r = archive.audit(id, *ao);
    if (!r) {
      box.put(kStderr, fmt::format("warlog: {}{}\n", r.error().code == ErrorCode::DataLoss ? "data loss: " : "",
                                   r.error().message));
      if (format == "junit") box.put(kPiece, junit_case(fmt::format("game {}", id), "", "", ""));
      return;  // counted as an error by the missing tally
    }
    // The report needs the findings, and the JSON report the state's digest.
    r->drop_state(format == "json");
    box.put(kTally, tally({r->game.events, r->violations(), r->findings.size() - r->violations()}));
    if (format == "json") {
      nlohmann::json j = replay::audit_json(*r);
      if (times) j["times"] = replay::audit_times_json(*r);
      box.put(kPiece, j.dump());
    } else if (format == "junit") {
      box.put(kPiece, junit_case(fmt::format("game {}: {}", r->game.id, r->game.title), r->violations() ? "violation" : "",
                                 fmt::format("{} violation(s)", r->violations()),
                                 r->violations() ? replay::audit_text(*r) : ""));
    } else {
      put_stdout(box, replay::audit_text(*r) + (times ? replay::audit_times_text(*r) : std::string()));
    }
  };

  std::size_t violations = 0, others = 0, events = 0, tallied = 0, failing_games = 0;
  nlohmann::json json = nlohmann::json::array();
  std::string cases;
  job.on_record = [&](core::GameId, const replay::Record& r) {
    if (r.tag == kTally) {
      const auto n = untally(r.bytes);
      if (n.size() != 3) throw std::logic_error("an audit tally of the wrong size");
      ++tallied;
      events += n[0];
      violations += n[1];
      others += n[2];
      failing_games += n[1] > 0;
    } else if (r.tag == kPiece && o.format == "json") {
      json.push_back(nlohmann::json::parse(r.bytes));
    } else if (r.tag == kPiece) {
      cases += r.bytes;
    }
  };
  job.on_lost = [&](const replay::LostGame& lost) {
    if (o.format == "junit") cases += junit_case(fmt::format("game {}", lost.game), "", "", "");
  };
  auto outcome = run_verb_job(o, std::move(job));
  if (!outcome) return kExitError;
  const std::size_t games = outcome->games, errors = games - tallied;
  if (o.format == "json") {
    fmt::print("{}\n", json.dump(2));
  } else if (o.format == "junit") {
    fmt::print("{}", junit_suite("warlog audit", games, failing_games, errors, cases));
  } else {
    fmt::print("summary: {} game{}, {} events, {} violation{} in {} game{}, {} other finding{}{}\n", games,
               games == 1 ? "" : "s", events, violations, violations == 1 ? "" : "s", failing_games,
               failing_games == 1 ? "" : "s", others, others == 1 ? "" : "s",
               errors ? fmt::format(", {} game(s) could not be audited", errors) : "");
  }
  if (errors) return kExitError;
  return violations ? kExitViolations : kExitClean;
}

int run_rule_diff(const Options& o) {
  replay::RuleDiffOptions rd;
  auto base = load_overrides(o.base_ruleset, o.base_catalog);
  auto cand = load_overrides(o.candidate_ruleset, o.candidate_catalog);
  if (!base || !cand) {
    error_line(!base ? base.error() : cand.error());
    return kExitError;
  }
  rd.base = std::move(*base);
  rd.candidate = std::move(*cand);
  VerbJob job;
  job.jobs = o.jobs;
  job.progress = "compared";
  job.run = [&rd, format = o.format](const Archive& archive, core::GameId id, replay::Outbox& box) {
    auto r = replay::rule_diff(archive, id, rd);
    if (!r) {
      box.put(kStderr, fmt::format("warlog: {}\n", r.error().message));
      return;
    }
    box.put(kTally, tally({r->changed(), r->outcome_changed(), r->added.size(), r->removed.size()}));
    if (format == "json") {
      box.put(kPiece, replay::diff_json(*r).dump());
    } else if (format == "junit") {
      box.put(kPiece, junit_case(fmt::format("game {}: {}", r->game.id, r->game.title),
                                 r->outcome_changed() ? "outcome" : r->changed() ? "changed" : "",
                                 r->changed() ? fmt::format("first divergence at seq {}", r->first->seq) : "",
                                 replay::diff_text(*r)));
    } else {
      put_stdout(box, replay::diff_text(*r));
    }
  };

  std::size_t changed = 0, flipped = 0, tallied = 0, added = 0, removed = 0;
  nlohmann::json games = nlohmann::json::array();
  std::string cases;
  job.on_record = [&](core::GameId, const replay::Record& r) {
    if (r.tag == kTally) {
      const auto n = untally(r.bytes);
      if (n.size() != 4) throw std::logic_error("a rule-diff tally of the wrong size");
      ++tallied;
      changed += n[0];
      flipped += n[1];
      added += n[2];
      removed += n[3];
    } else if (r.tag == kPiece && o.format == "json") {
      games.push_back(nlohmann::json::parse(r.bytes));
    } else if (r.tag == kPiece) {
      cases += r.bytes;
    }
  };
  auto outcome = run_verb_job(o, std::move(job));
  if (!outcome) return kExitError;
  const std::size_t count = outcome->games, errors = count - tallied;
  if (o.format == "json") {
    fmt::print("{}\n", nlohmann::json{{"games", games},
                                      {"summary",
                                       {{"games", count},
                                        {"changed", changed},
                                        {"outcomes_flipped", flipped},
                                        {"findings_added", added},
                                        {"findings_removed", removed},
                                        {"errors", errors}}}}
                              .dump(2));
  } else if (o.format == "junit") {
    fmt::print("{}", junit_suite("warlog rule-diff", count, changed, errors, cases));
  } else {
    fmt::print("summary: {} game{} compared, {} changed, {} outcome{} flipped, findings +{} -{}{}\n", count,
               count == 1 ? "" : "s", changed, flipped, flipped == 1 ? "" : "s", added, removed,
               errors ? fmt::format(", {} game(s) could not be compared", errors) : "");
  }
  if (errors) return kExitError;
  return changed ? kExitViolations : kExitClean;
}

}  // namespace warlog::cli
