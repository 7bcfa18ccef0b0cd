// warlog audit: many games on a pool of threads, with progress on a
// terminal, reported as text, JSON, JSON Lines or JUnit; with --shard K/N
// one share of them as a partial report for warlog merge (shard.hpp).

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <memory>
#include <stdexcept>

#include "color.hpp"
#include "common.hpp"
#include "isolated.hpp"
#include "json_schema.hpp"
#include "report_parts.hpp"
#include "shard.hpp"
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

// The audit's report in one format, from the games' entries in id order.
// Text, JSON and JSON Lines stream each game as it comes (the totals last);
// JUnit, which opens with them, holds its cases in a temporary file.
class AuditReport {
 public:
  AuditReport(std::string format, bool color, bool require_signed, Spool spool)
      : format_(std::move(format)), color_(color), require_signed_(require_signed), spool_(std::move(spool)) {}

  void game(const GameEntry& e) {
    if (!e.error.empty()) {
      std::fflush(stdout);  // what the games before it printed comes first
      fmt::print(stderr, "{}", e.error);
    }
    if (e.lost && format_ == "junit") spool_.write(junit_case(fmt::format("game {}", e.game), "", "", ""));
    if (!e.tally.empty()) {
      const auto n = untally(e.tally);
      if (n.size() != 6) throw std::logic_error("an audit tally of the wrong size");
      ++tallied_;
      events_ += n[0];
      violations_ += n[1];
      others_ += n[2];
      failing_games_ += n[1] > 0;
      games_with_findings_ += n[1] + n[2] > 0;
      trusted_ += n[3];
      refused_ += n[4];
      trust_errors_ += n[5];
      junit_failures_ += n[1] > 0 || n[4] > 0;
    }
    const std::string* piece = e.piece(format_);
    if (piece == nullptr) return;
    if (format_ == "json") {
      open();
      fmt::print("{}\n  {}", shown_ ? "," : "", *piece);
    } else if (format_ == "text") {
      fmt::print("{}", color_ ? paint_findings(*piece) : *piece);
    } else if (format_ == "jsonl") {
      fmt::print("{}", *piece);
    } else {
      spool_.write(*piece);
    }
    ++shown_;
  }

  int finish(std::size_t games) {
    const std::size_t errors = games - tallied_;
    const nlohmann::json summary{{"games", games},
                                 {"events", events_},
                                 {"violations", violations_},
                                 {"games_with_violations", failing_games_},
                                 {"other_findings", others_},
                                 {"games_with_findings", games_with_findings_},
                                 {"games_trusted", trusted_},
                                 {"games_refused_trust", refused_},
                                 {"errors", errors}};
    if (format_ == "json") {
      open();
      fmt::print("{}], \"summary\": {}}}\n", shown_ ? "\n" : "", summary.dump());
    } else if (format_ == "jsonl") {
      nlohmann::json line{{"type", "summary"}, {"schema", schema_json("audit")}};
      line.update(summary);
      fmt::print("{}\n", line.dump());
    } else if (format_ == "junit") {
      fmt::print("{}", junit_head("warlog audit", games, junit_failures_, errors));
      std::fflush(stdout);
      if (auto printed = spool_.print(); !printed) {
        error_line(printed.error());
        return kExitError;
      }
      fmt::print("{}", junit_tail());
    } else {
      fmt::print("summary: {} game{}, {} events, {} violation{} in {} game{}, {} other finding{}{}; {} of {} signed "
                 "as they stand by a trusted key{}\n",
                 games, games == 1 ? "" : "s", events_, violations_, violations_ == 1 ? "" : "s", failing_games_,
                 failing_games_ == 1 ? "" : "s", others_, others_ == 1 ? "" : "s",
                 errors ? fmt::format(", {} game(s) could not be audited", errors) : "", trusted_, tallied_,
                 refused_ ? fmt::format(", {} refused (broken, or a signature that fails{})", refused_,
                                        require_signed_ ? " or none trusted" : "")
                          : "");
    }
    // A game whose trust could not be checked is one line on stderr and exit 2.
    if (errors || trust_errors_) return kExitError;
    return violations_ || refused_ ? kExitViolations : kExitClean;
  }

 private:
  void open() {
    if (format_ == "json" && shown_ == 0) fmt::print("{{\"schema\": {}, \"games\": [", schema_json("audit").dump());
  }

  std::string format_;
  bool color_;
  bool require_signed_;
  Spool spool_;
  std::size_t violations_ = 0, others_ = 0, events_ = 0, tallied_ = 0, failing_games_ = 0, games_with_findings_ = 0,
              shown_ = 0, trusted_ = 0, refused_ = 0, trust_errors_ = 0, junit_failures_ = 0;
};

}  // namespace

Expected<Report> audit_report(const std::string& format, bool color, const nlohmann::json& args) {
  const auto& formats = part_formats("audit");
  if (std::find(formats.begin(), formats.end(), format) == formats.end()) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("audit has no format '{}' (text, json, jsonl or junit)", format));
  }
  auto spool = Spool::make();
  if (!spool) return tl::unexpected(spool.error());
  auto report = std::make_shared<AuditReport>(format, color, args.value("require_signed", false), std::move(*spool));
  return Report{[report](const GameEntry& e) { report->game(e); },
                [report](std::size_t games) { return report->finish(games); }};
}

// audit folds each game in an isolated reader (isolated.hpp), on o.jobs
// threads there; the report is put together here, in game order. Each game
// also says who attests it, as verify does (trust.hpp), against the keyring.
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
  const std::vector<std::string> formats = piece_formats(o, "audit");
  auto keyring = open_keyring(o.keyring, o.store, false);
  if (!keyring) {
    error_line(keyring.error());
    return kExitError;
  }
  VerbJob job;
  job.jobs = o.jobs;
  job.progress = "audited";
  // With orphans: events or annotations under an id with no game record (a
  // deleted record) are a game the audit cannot read, one line and exit 2,
  // never silently left out of an audit of every game.
  job.orphans = true;  // --shard is applied by run_verb_job, after it parses it
  job.run = [&ao, &formats, &rule, floor, summary = o.summary, quiet = o.quiet, times = o.times, &ring = *keyring,
             require_signed = o.require_signed](const Archive& archive, core::GameId id, replay::Outbox& box) {
    auto r = archive.audit(id, *ao);
    if (!r) {
      box.put(kFailed, fmt::format("warlog: {}{}\n", r.error().code == ErrorCode::DataLoss ? "data loss: " : "",
                                   r.error().message));
      for (const auto& format : formats) {
        if (format == "junit") box.put(kPiece, format_piece(format, junit_case(fmt::format("game {}", id), "", "", "")));
      }
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
    // Who attests the events just folded: audit read them through verify's
    // own check (a game broken within its events is no audit), which said
    // whether anything after them is broken (r->verified).
    auto trust = checked_trust_report(archive, id, ring, r->verified);
    if (!trust) {
      box.put(kFailed, fmt::format("warlog: {}\n", trust.error().message));  // the audit itself still stands
    }
    const bool trusted = trust && !trust->refused(false) && trust->trust.verdict == replay::GameTrust::Verdict::Trusted;
    const bool refused = !trust || trust->refused(require_signed);
    if (trust && trust->broken) {
      box.put(kFailed, fmt::format("warlog: game {}: verify finds it {}; the audit is of bytes that are not the game "
                                   "as recorded\n", id, trust->line));
    }
    const std::string trust_line =
        trust ? trust->line : fmt::format("cannot be checked: {}", trust.error().message);
    box.put(kTally, tally({r->game.events, r->violations(), r->findings.size() - r->violations(), trusted ? 1u : 0u,
                           refused ? 1u : 0u, (!trust || trust->broken) ? 1u : 0u}));
    auto game_json = [&] {
      nlohmann::json j = replay::audit_json(*r);
      j["trust"] = trust ? trust_json(*trust) : nlohmann::json(nullptr);
      j["unsigned_refused"] = trust && trust->unsigned_refused(require_signed);
      if (times) j["times"] = replay::audit_times_json(*r);
      return j;
    };
    for (const auto& format : formats) {
      if (format != "junit" && (summary || (quiet && r->findings.empty() && !refused))) continue;
      std::string piece;
      if (format == "json") {
        piece = game_json().dump();
      } else if (format == "jsonl") {
        nlohmann::json line{{"type", "game"}, {"schema", schema_json("audit")}};
        line.update(game_json());
        piece = line.dump() + "\n";
      } else if (format == "junit") {
        const std::string name = fmt::format("game {}: {}", r->game.id, r->game.title);
        if (r->violations()) {
          piece = junit_case(name, "violation", fmt::format("{} violation(s)", r->violations()),
                             with_trust_line(replay::audit_text(*r), trust_line), "trust: " + trust_line);
        } else {
          piece = junit_case(name, refused ? "trust" : "", trust_line, "", "trust: " + trust_line);
        }
      } else {
        piece = with_trust_line(replay::audit_text(*r), trust_line);
        if (trust && trust->trust.failed()) {
          for (const auto& note : trust->trust.notes) piece += fmt::format("  {}\n", note);
        }
        if (trust && trust->unsigned_refused(require_signed)) {
          piece += "  not signed as it stands by a trusted key (--require-signed)\n";
        }
        if (times) piece += replay::audit_times_text(*r);
      }
      box.put(kPiece, format_piece(format, piece));
    }
  };

  // What must agree for parts to merge: every option that changes what is
  // reported (the override files by content, not by path).
  ShardedVerb v;
  v.verb = "audit";
  v.args = {{"games", o.games},
            {"ruleset", ao->ruleset ? nlohmann::json(ao->ruleset->hash) : nlohmann::json(nullptr)},
            {"catalog", ao->catalog ? nlohmann::json(ao->catalog->hash()) : nlohmann::json(nullptr)},
            {"severity", o.severity},
            {"rule", rule},
            {"quiet", o.quiet},
            {"summary", o.summary},
            {"times", o.times},
            {"rests_on", o.rests_on},
            {"require_signed", o.require_signed}};
  v.report = nlohmann::json{{"require_signed", o.require_signed}};
  v.writer = [&o, report = v.report] { return audit_report(o.format, use_color(o.color), report); };
  return run_reported(o, std::move(job), v);
}

}  // namespace warlog::cli
