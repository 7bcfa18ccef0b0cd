// warlog audit: many games on a pool of threads, with progress on a
// terminal, reported as text, JSON, JSON Lines or JUnit.

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <stdexcept>

#include "common.hpp"
#include "isolated.hpp"
#include "json_schema.hpp"
#include "report_parts.hpp"
#include "verbs.hpp"
#include "warlog/core/finding.hpp"
#include "warlog/replay/report.hpp"

namespace warlog::cli {

using replay::Archive;

// audit folds each game in an isolated reader (isolated.hpp), on o.jobs
// threads there; the report is put together here, in game order. Text, JSON
// and JSON Lines stream each game as it finishes (the totals last); JUnit,
// which opens with them, holds its cases in a temporary file.
int run_audit(const Options& o) {
  auto ao = load_overrides(o.ruleset, o.catalog);
  if (!ao) {
    error_line(ao.error());
    return kExitError;
  }
  core::Severity floor = core::Severity::Note;  // --severity: at least this (Violation is the most severe)
  if (o.severity == "violation") floor = core::Severity::Violation;
  if (o.severity == "warning") floor = core::Severity::Warning;
  std::string rule;
  if (!o.rule.empty()) {
    const core::Rule* r = core::find_rule(o.rule);
    if (r == nullptr) {
      error_line(Error{ErrorCode::NotFound, fmt::format("audit: no rule '{}' (warlog rules lists them)", o.rule)});
      return kExitError;
    }
    rule = std::string(r->id);
  }
  ao->rests_on = o.rests_on;
  const std::string format = o.format;
  const bool pieces = !o.summary || format == "junit";
  auto spool = Spool::make();
  if (!spool) {
    error_line(spool.error());
    return kExitError;
  }
  VerbJob job;
  job.jobs = o.jobs;
  job.progress = "audited";
  job.run = [&ao, &format, &rule, floor, pieces, quiet = o.quiet, times = o.times](
                const Archive& archive, core::GameId id, replay::Outbox& box) {
    auto r = archive.audit(id, *ao);
    if (!r) {
      box.put(kStderr, fmt::format("warlog: {}{}\n", r.error().code == ErrorCode::DataLoss ? "data loss: " : "",
                                   r.error().message));
      if (format == "junit") box.put(kPiece, junit_case(fmt::format("game {}", id), "", "", ""));
      return;  // counted as an error by the missing tally
    }
    // The findings chosen, and with them what each rests on (kept in step).
    const auto left_out = [&](const replay::LocatedFinding& f) {
      return f.finding.severity > floor || (!rule.empty() && f.finding.rule_id != rule);
    };
    if (r->rests_on && r->rests_on->findings.size() == r->findings.size()) {
      std::size_t kept = 0;
      for (std::size_t i = 0; i < r->findings.size(); ++i) {
        if (left_out(r->findings[i])) continue;
        if (kept != i) {  // never moved onto itself, which would empty it
          r->findings[kept] = std::move(r->findings[i]);
          r->rests_on->findings[kept] = std::move(r->rests_on->findings[i]);
        }
        ++kept;
      }
      r->findings.resize(kept);
      r->rests_on->findings.resize(kept);
    } else {
      std::erase_if(r->findings, left_out);
    }
    box.put(kTally, tally({r->game.events, r->violations(), r->findings.size() - r->violations()}));
    if (!pieces || (quiet && r->findings.empty() && format != "junit")) return;
    if (format == "json") {
      nlohmann::json j = replay::audit_json(*r);
      if (times) j["times"] = replay::audit_times_json(*r);
      box.put(kPiece, j.dump());
    } else if (format == "jsonl") {
      nlohmann::json line{{"type", "game"}, {"schema", schema_json("audit")}};
      line.update(replay::audit_json(*r));
      if (times) line["times"] = replay::audit_times_json(*r);
      box.put(kPiece, line.dump());
    } else if (format == "junit") {
      box.put(kPiece, junit_case(fmt::format("game {}: {}", r->game.id, r->game.title), r->violations() ? "violation" : "",
                                 fmt::format("{} violation(s)", r->violations()),
                                 r->violations() ? replay::audit_text(*r) : ""));
    } else {
      put_stdout(box, replay::audit_text(*r) + (times ? replay::audit_times_text(*r) : std::string()));
    }
  };

  std::size_t violations = 0, others = 0, events = 0, tallied = 0, failing_games = 0, games_with_findings = 0,
              shown = 0;
  auto open = [&] {
    if (format == "json" && shown == 0) fmt::print("{{\"schema\": {}, \"games\": [", schema_json("audit").dump());
  };
  job.on_record = [&](core::GameId, const replay::Record& r) {
    if (r.tag == kTally) {
      const auto n = untally(r.bytes);
      if (n.size() != 3) throw std::logic_error("an audit tally of the wrong size");
      ++tallied;
      events += n[0];
      violations += n[1];
      others += n[2];
      failing_games += n[1] > 0;
      games_with_findings += n[1] + n[2] > 0;
      return;
    }
    if (r.tag != kPiece) return;
    if (format == "json") {
      open();
      fmt::print("{}\n  {}", shown ? "," : "", r.bytes);
    } else if (format == "jsonl") {
      fmt::print("{}\n", r.bytes);
    } else {
      spool->write(r.bytes);
    }
    ++shown;
  };
  job.on_lost = [&](const replay::LostGame& lost) {
    if (format == "junit") spool->write(junit_case(fmt::format("game {}", lost.game), "", "", ""));
  };
  auto outcome = run_verb_job(o, std::move(job));
  if (!outcome) return kExitError;
  const std::size_t games = outcome->games, errors = games - tallied;
  const nlohmann::json summary{{"games", games},
                               {"events", events},
                               {"violations", violations},
                               {"games_with_violations", failing_games},
                               {"other_findings", others},
                               {"games_with_findings", games_with_findings},
                               {"errors", errors}};
  if (format == "json") {
    open();
    fmt::print("{}], \"summary\": {}}}\n", shown ? "\n" : "", summary.dump());
  } else if (format == "jsonl") {
    nlohmann::json line{{"type", "summary"}, {"schema", schema_json("audit")}};
    line.update(summary);
    fmt::print("{}\n", line.dump());
  } else if (format == "junit") {
    fmt::print("{}", junit_head("warlog audit", games, failing_games, errors));
    std::fflush(stdout);
    if (auto printed = spool->print(); !printed) {
      error_line(printed.error());
      return kExitError;
    }
    fmt::print("{}", junit_tail());
  } else {
    fmt::print("summary: {} game{}, {} events, {} violation{} in {} game{}, {} other finding{}{}\n", games,
               games == 1 ? "" : "s", events, violations, violations == 1 ? "" : "s", failing_games,
               failing_games == 1 ? "" : "s", others, others == 1 ? "" : "s",
               errors ? fmt::format(", {} game(s) could not be audited", errors) : "");
  }
  if (errors) return kExitError;
  return violations ? kExitViolations : kExitClean;
}

}  // namespace warlog::cli
