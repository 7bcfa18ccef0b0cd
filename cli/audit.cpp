// warlog audit: many games on a pool of threads, with progress on a
// terminal, reported as text, JSON, JSON Lines or JUnit.

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <stdexcept>

#include "common.hpp"
#include "isolated.hpp"
#include "json_schema.hpp"
#include "report_parts.hpp"
#include "trust.hpp"
#include "verbs.hpp"
#include "warlog/core/finding.hpp"
#include "warlog/replay/report.hpp"

namespace warlog::cli {

using replay::Archive;

namespace {

// The game's first line, then who attests what was folded, then the rest.
std::string with_trust_line(std::string text, const std::string& line) {
  const auto eol = text.find('\n');
  text.insert(eol == std::string::npos ? text.size() : eol + 1, fmt::format("  trust: {}\n", line));
  return text;
}

}  // namespace

// audit folds each game in an isolated reader (isolated.hpp), on o.jobs
// threads there; the report is put together here, in game order. Text, JSON
// and JSON Lines stream each game as it finishes (the totals last); JUnit,
// which opens with them, holds its cases in a temporary file. Each game also
// says who attests it, as verify does (trust.hpp), against the keyring.
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
  const std::string format = o.format;
  const bool pieces = !o.summary || format == "junit";
  auto spool = Spool::make();
  if (!spool) {
    error_line(spool.error());
    return kExitError;
  }
  auto keyring = open_keyring(o.keyring, o.store, false);
  if (!keyring) {
    error_line(keyring.error());
    return kExitError;
  }
  VerbJob job;
  job.jobs = o.jobs;
  job.progress = "audited";
  job.run = [&ao, &format, &rule, floor, pieces, quiet = o.quiet, times = o.times, &ring = *keyring,
             require_signed = o.require_signed](const Archive& archive, core::GameId id, replay::Outbox& box) {
    auto r = archive.audit(id, *ao);
    if (!r) {
      box.put(kStderr, fmt::format("warlog: {}{}\n", r.error().code == ErrorCode::DataLoss ? "data loss: " : "",
                                   r.error().message));
      if (format == "junit") box.put(kPiece, junit_case(fmt::format("game {}", id), "", "", ""));
      return;  // counted as an error by the missing tally
    }
    std::erase_if(r->findings, [&](const replay::LocatedFinding& f) {
      return f.finding.severity > floor || (!rule.empty() && f.finding.rule_id != rule);
    });
    // Who attests the events just folded: audit read them through the
    // chain check (a broken game is no audit), so the chain holds here.
    auto trust = trust_report(archive, id, ring);
    if (!trust) put_error(box, trust.error());  // reported; the audit itself still stands
    const bool trusted = trust && trust->trust.verdict == replay::GameTrust::Verdict::Trusted;
    const bool refused = !trust || trust->refused(require_signed);
    const std::string trust_line =
        trust ? trust->line : fmt::format("cannot be checked: {}", trust.error().message);
    box.put(kTally, tally({r->game.events, r->violations(), r->findings.size() - r->violations(), trusted ? 1u : 0u,
                           refused ? 1u : 0u}));
    if (!pieces || (quiet && r->findings.empty() && !refused && format != "junit")) return;
    auto game_json = [&] {
      nlohmann::json j = replay::audit_json(*r);
      j["trust"] = trust ? trust_json(*trust) : nlohmann::json(nullptr);
      j["unsigned_refused"] = trust && trust->unsigned_refused(require_signed);
      if (times) j["times"] = replay::audit_times_json(*r);
      return j;
    };
    if (format == "json") {
      box.put(kPiece, game_json().dump());
    } else if (format == "jsonl") {
      nlohmann::json line{{"type", "game"}, {"schema", schema_json("audit")}};
      line.update(game_json());
      box.put(kPiece, line.dump());
    } else if (format == "junit") {
      const std::string name = fmt::format("game {}: {}", r->game.id, r->game.title);
      if (r->violations()) {
        box.put(kPiece, junit_case(name, "violation", fmt::format("{} violation(s)", r->violations()),
                                   with_trust_line(replay::audit_text(*r), trust_line), "trust: " + trust_line));
      } else {
        box.put(kPiece, junit_case(name, refused ? "trust" : "", trust_line, "", "trust: " + trust_line));
      }
    } else {
      std::string text = with_trust_line(replay::audit_text(*r), trust_line);
      if (trust && trust->trust.failed()) {
        for (const auto& note : trust->trust.notes) text += fmt::format("  {}\n", note);
      }
      if (trust && trust->unsigned_refused(require_signed)) {
        text += "  not signed as it stands by a trusted key (--require-signed)\n";
      }
      put_stdout(box, text + (times ? replay::audit_times_text(*r) : std::string()));
    }
  };

  std::size_t violations = 0, others = 0, events = 0, tallied = 0, failing_games = 0, games_with_findings = 0,
              shown = 0, trusted = 0, refused = 0, junit_failures = 0;
  auto open = [&] {
    if (format == "json" && shown == 0) fmt::print("{{\"schema\": {}, \"games\": [", schema_json("audit").dump());
  };
  job.on_record = [&](core::GameId, const replay::Record& r) {
    if (r.tag == kTally) {
      const auto n = untally(r.bytes);
      if (n.size() != 5) throw std::logic_error("an audit tally of the wrong size");
      ++tallied;
      events += n[0];
      violations += n[1];
      others += n[2];
      failing_games += n[1] > 0;
      games_with_findings += n[1] + n[2] > 0;
      trusted += n[3];
      refused += n[4];
      junit_failures += n[1] > 0 || n[4] > 0;
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
                               {"games_trusted", trusted},
                               {"games_refused_trust", refused},
                               {"errors", errors}};
  if (format == "json") {
    open();
    fmt::print("{}], \"summary\": {}}}\n", shown ? "\n" : "", summary.dump());
  } else if (format == "jsonl") {
    nlohmann::json line{{"type", "summary"}, {"schema", schema_json("audit")}};
    line.update(summary);
    fmt::print("{}\n", line.dump());
  } else if (format == "junit") {
    fmt::print("{}", junit_head("warlog audit", games, junit_failures, errors));
    std::fflush(stdout);
    if (auto printed = spool->print(); !printed) {
      error_line(printed.error());
      return kExitError;
    }
    fmt::print("{}", junit_tail());
  } else {
    fmt::print("summary: {} game{}, {} events, {} violation{} in {} game{}, {} other finding{}{}; {} of {} signed as "
               "they stand by a trusted key{}\n",
               games, games == 1 ? "" : "s", events, violations, violations == 1 ? "" : "s", failing_games,
               failing_games == 1 ? "" : "s", others, others == 1 ? "" : "s",
               errors ? fmt::format(", {} game(s) could not be audited", errors) : "", trusted, tallied,
               refused ? fmt::format(", {} refused (a signature that fails{})", refused,
                                     o.require_signed ? " or none trusted" : "")
                       : "");
  }
  if (errors) return kExitError;
  // A game whose trust could not be checked is one line on stderr and exit 2 (outcome->code).
  return std::max(outcome->code, violations || refused ? kExitViolations : kExitClean);
}

}  // namespace warlog::cli
