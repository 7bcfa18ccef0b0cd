// warlog audit: many games on a pool of threads, with progress on a
// terminal, reported as text, JSON, JSON Lines or JUnit.

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <initializer_list>
#include <stdexcept>

#include "common.hpp"
#include "isolated.hpp"
#include "report_parts.hpp"
#include "verbs.hpp"
#include "warlog/replay/report.hpp"

namespace warlog::cli {

using replay::Archive;

// audit folds each game in an isolated reader (isolated.hpp),
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
  job.run = [&ao, format = o.format](const Archive& archive, core::GameId id, replay::Outbox& box) {
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
      box.put(kPiece, replay::audit_json(*r).dump());
    } else if (format == "junit") {
      box.put(kPiece, junit_case(fmt::format("game {}: {}", r->game.id, r->game.title), r->violations() ? "violation" : "",
                                 fmt::format("{} violation(s)", r->violations()),
                                 r->violations() ? replay::audit_text(*r) : ""));
    } else {
      put_stdout(box, replay::audit_text(*r));
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

}  // namespace warlog::cli
