#include "verbs.hpp"

#include "common.hpp"
#include "isolated.hpp"
#include "json_schema.hpp"
#include "trust.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "warlog/core/finding.hpp"
#include "warlog/core/notation.hpp"
#include "warlog/replay/replay.hpp"
#include "warlog/replay/backup_signature.hpp"
#include "warlog/replay/export.hpp"
#include "warlog/replay/report.hpp"
#include "warlog/replay/rule_diff.hpp"
#include "warlog/replay/rule_text.hpp"
#include "warlog/store/store.hpp"
#include "warlog/replay/seek.hpp"
#include "warlog/replay/signatures.hpp"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <optional>
#include <iostream>
#include <sstream>
#include <streambuf>
#include <span>

namespace warlog::cli {

using replay::Archive;

int run_import(const Options& o) {
  auto archive = open_archive(o, Archive::Mode::ReadWrite);
  if (!archive) {
    error_line(archive.error());
    return kExitError;
  }
  replay::ImportOptions io;
  if (!o.catalog.empty()) io.catalog_path = o.catalog;
  if (!o.ruleset.empty()) io.ruleset_path = o.ruleset;
  // Files go in batches, one store transaction each (Archive::import_files):
  // each file all or nothing, one commit per batch instead of per file.
  constexpr std::size_t kBatchFiles = 256;
  int rc = kExitClean;
  for (std::size_t first = 0; first < o.files.size(); first += kBatchFiles) {
    const auto batch = std::span(o.files).subspan(first, std::min(kBatchFiles, o.files.size() - first));
    const auto results = archive->import_files(batch, io);
    for (std::size_t i = 0; i < batch.size(); ++i) {
      const std::string& file = batch[i];
      const auto& r = results[i];
      if (!r) {
        rc = kExitError;
        if (r.error().notation_errors.empty()) {
          fmt::print(stderr, "warlog: {}: {}\n", file, r.error().error.message);
        }
        for (const auto& e : r.error().notation_errors) fmt::print(stderr, "{}\n", e.to_string());
        if (!r.error().notation_errors.empty()) {
          fmt::print(stderr, "warlog: {}: {} error{}, nothing imported\n", file, r.error().notation_errors.size(),
                     r.error().notation_errors.size() == 1 ? "" : "s");
        }
        continue;
      }
      if (r->already_imported) {
        fmt::print("{} is already imported as game {} ({} events): nothing written\n", file, r->id, r->events);
        continue;
      }
      fmt::print("imported {} as game {} ({} events)\n", file, r->id, r->events);
    }
  }
  return rc;
}

// verify, list and export read the store in an isolated child (isolated.hpp):
// a damaged page ends that child, not warlog.
namespace {

// verify --snapshots for one game: its lines, and kExitViolations when a
// snapshot differed from the fold.
void verify_snapshots(const Archive& archive, core::GameId id, replay::Outbox& box) {
  using Status = replay::SnapshotCheck::Status;
  auto report = replay::check_snapshots(archive, id, /*remove=*/true);
  if (!report) return put_error(box, report.error());
  for (const auto& c : report->checks) {
    if (c.status == Status::Agrees) continue;
    const bool removed = c.status == Status::Mismatch || c.status == Status::Unusable;
    put_stdout(box, fmt::format("  snapshot at seq {}: {}{}\n", c.seq, c.detail, removed ? "; removed" : ""));
  }
  put_stdout(box, fmt::format("  snapshots: {} agree with the fold, {} differ, {} unusable, {} stale, {} of other rulesets{}\n",
                              report->count(Status::Agrees), report->count(Status::Mismatch),
                              report->count(Status::Unusable), report->count(Status::Stale),
                              report->count(Status::Foreign),
                              report->removed ? fmt::format("; {} removed", report->removed) : std::string()));
  if (report->count(Status::Mismatch) > 0) put_exit(box, kExitViolations);
}


// The keyring's memory of a signed state, as a child sends it to warlog: the
// child checks, warlog remembers and saves (one writer of the keyring).
std::string state_text(const replay::SignedState& st) {
  std::string key_id;
  for (auto b : st.key_id) key_id += fmt::format("{:02x}", b);
  return fmt::format("{} {} {} {} {} {} {}", core::to_hex(st.identity), st.event_count, core::to_hex(st.event_head),
                     st.annotation_count, core::to_hex(st.annotation_head), key_id, st.signed_at_ms);
}

std::optional<replay::SignedState> state_of(const std::string& text) {
  std::istringstream in(text);
  std::string identity, event_head, annotation_head, key_id;
  replay::SignedState st;
  if (!(in >> identity >> st.event_count >> event_head >> st.annotation_count >> annotation_head >> key_id >>
        st.signed_at_ms) ||
      key_id.size() != 16) {
    return std::nullopt;
  }
  auto a = core::digest_from_hex(identity), b = core::digest_from_hex(event_head),
       c = core::digest_from_hex(annotation_head);
  if (!a || !b || !c) return std::nullopt;
  st.identity = *a;
  st.event_head = *b;
  st.annotation_head = *c;
  for (std::size_t i = 0; i < 8; ++i) st.key_id[i] = static_cast<std::uint8_t>(std::stoul(key_id.substr(2 * i, 2), nullptr, 16));
  return st;
}

}  // namespace

int run_verify(const Options& o) {
  if (o.format == "json" && o.snapshots) {
    error_line(Error{ErrorCode::InvalidArgument, "verify: --snapshots has no JSON output; leave out --format json"});
    return kExitError;
  }
  auto keyring = open_keyring(o.keyring, o.store, false);
  if (!keyring) {
    error_line(keyring.error());
    return kExitError;
  }
  VerbJob job;
  // With orphans: events stored under an id with no game record (a deleted
  // record) are a game too, reported broken.
  job.orphans = true;  // --shard is applied by run_verb_job, after it parses it
  const bool json = o.format == "json";
  job.run = [snapshots = o.snapshots, require_signed = o.require_signed, json, &ring = *keyring](
                const Archive& archive, core::GameId id, replay::Outbox& box) {
    auto v = archive.verify(id);
    if (!v) return put_error(box, v.error());
    // JSON: the same facts as one object a game (docs/schema/verify.schema.json), sent last.
    nlohmann::json j{{"game", id},
                     {"ok", v->ok},
                     {"broken_at", v->ok ? nlohmann::json(nullptr) : nlohmann::json(v->first_bad_seq.value_or(0))},
                     {"detail", v->detail},
                     {"migrated", nullptr},
                     {"trust", nullptr},
                     {"unsigned_refused", false}};
    auto say = [&](std::string text) {
      if (!json) put_stdout(box, std::move(text));
    };
    struct Send {  // on every way out
      std::function<void()> f;
      ~Send() { f(); }
    } send{[&] {
      if (json) box.put(kTally, j.dump());
    }};
    if (v->ok) {
      say(fmt::format("game {}: ok, {}\n", id, v->detail));
    } else {
      say(fmt::format("game {}: BROKEN at seq {}: {}\n", id, v->first_bad_seq ? *v->first_bad_seq : 0, v->detail));
      // No record to check events or annotations against: a game that cannot be checked.
      put_exit(box, v->no_record ? kExitError : kExitViolations);
    }
    auto migrated = migrated_line(archive, id);
    if (!migrated) return;  // no readable record (an orphan, a corrupt one): no signatures to check
    if (*migrated) {
      say(fmt::format("  {}\n", **migrated));
      j["migrated"] = **migrated;
    }
    // Who attests it, against the keyring (replay/keyring.hpp), then every
    // signature and signed ruling, and any signed state that has vanished.
    auto report = trust_report(archive, id, ring, v->ok);
    if (!report && !v->ok) return;  // the damage named above stops it too
    if (!report) return put_error(box, report.error());
    // A judge's signed backups, checked as signed rulings are.
    // A broken chain is named above and cannot be read through.
    auto backups = v->ok ? replay::check_backup_signatures(archive, id)
                         : Expected<std::vector<replay::BackupSignatureCheck>>(std::vector<replay::BackupSignatureCheck>{});
    if (!backups) return put_error(box, backups.error());
    for (const auto& b : *backups) {
      const replay::TrustedKey* k = ring.find(b.key_id);
      report->trust.notes.push_back(fmt::format(
          "- the backup at seq {} signed {}, as '{}': {}", b.seq,
          k != nullptr ? fmt::format("by trusted '{}' (key {})", k->name, store::key_id_hex(b.key_id))
                       : fmt::format("by an unknown key {}", store::key_id_hex(b.key_id)),
          b.by, b.detail));
      report->trust.bad_ruling = report->trust.bad_ruling || !b.valid;
    }
    say(fmt::format("  {}\n", report->line));
    for (const auto& note : report->trust.notes) say(fmt::format("  {}\n", note));
    j["trust"] = trust_json(*report);
    if (report->trust.failed()) put_exit(box, kExitViolations);
    if (report->unsigned_refused(require_signed)) {
      say("  not signed as it stands by a trusted key (--require-signed)\n");
      j["unsigned_refused"] = true;
      put_exit(box, kExitViolations);
    }
    const auto* trust = &report->trust;
    for (const auto& state : trust->to_remember) box.put(kPiece, state_text(state));
    if (snapshots) verify_snapshots(archive, id, box);
  };
  bool learned = false;
  job.on_record = [&](core::GameId, const replay::Record& r) {
    if (r.tag != kPiece) return;
    if (auto st = state_of(r.bytes)) learned = keyring->remember(*st) || learned;
  };
  std::size_t listed = 0;
  const std::string head = fmt::format("{{\"schema\": {}, \"games\": [", schema_json("verify").dump());
  if (json) {
    job.on_record = [&, remember = std::move(job.on_record)](core::GameId id, const replay::Record& r) {
      if (r.tag == kTally) {
        fmt::print("{}\n  {}", listed++ ? "," : head, r.bytes);
        return;
      }
      remember(id, r);
    };
  }
  auto outcome = run_verb_job(o, std::move(job));
  if (!outcome) return kExitError;
  if (json) fmt::print("{}]}}\n", listed ? "\n" : head);
  int rc = outcome->code;
  if (learned) {
    if (auto saved = keyring->save(); !saved) {
      error_line(saved.error());
      rc = std::max(rc, kExitError);
    }
  }
  return rc;
}

namespace {

// The result the game's log records (its GameEnded event, on that event's
// turn); empty when the log records none. Reads the last block only: list
// folds nothing (audit gives the result the rules derive).
Expected<std::optional<replay::Outcome>> recorded_result(const Archive& archive, const replay::GameSummary& g) {
  std::optional<replay::Outcome> out;
  if (g.events == 0) return out;
  auto reader = archive.store().reader();
  if (!reader) return tl::unexpected(reader.error());
  auto n = reader->scan(g.id, g.events - 1, store::kEndSeq, [&](const core::Event& ev) {
    if (const auto* end = std::get_if<core::GameEnded>(&ev.payload)) {
      out = replay::Outcome{end->winner, end->victory, ev.turn};
    }
    return true;
  });
  if (!n) return tl::unexpected(n.error());
  return out;
}

// One row of list's table: game, date, events, title, result, players.
template <typename... A>
std::string list_line(const A&... a) {
  return fmt::format("{:>5}  {:<10}  {:>6}  {:<40}  {:<40}  {}\n", a...);
}

}  // namespace

int run_list(const Options& o) {
  const bool json = o.format == "json";
  VerbJob job;
  // From the keys: a game whose record does not decode is still selected,
  // and run reports it alone (one line), the others are listed; so are
  // events or annotations with no game record (a deleted record).
  job.select = [](const Archive& archive) { return archive.game_ids(/*orphans=*/true); };
  job.run = [json](const Archive& archive, core::GameId id, replay::Outbox& box) {
    auto g = archive.game(id);
    if (!g) return put_error(box, g.error());
    auto result = recorded_result(archive, *g);
    if (!result) return put_error(box, result.error());
    if (json) {
      box.put(kPiece, nlohmann::json{{"game", g->id},
                                     {"title", g->title},
                                     {"date", g->date},
                                     {"events", g->events},
                                     {"players", replay::players_json(*g)},
                                     {"result", *result ? replay::outcome_json(**result, *g) : nlohmann::json(nullptr)}}
                          .dump());
      return;
    }
    const std::string recorded = *result ? replay::describe(**result, *g) : "none recorded";
    box.put(kPiece, list_line(g->id, g->date, g->events, g->title, recorded, replay::seats_line(*g)));
    if (auto m = migrated_line(archive, id); m && *m) box.put(kPiece, fmt::format("{:>5}  {}\n", "", **m));
  };
  // The header comes with the first game (or at the end): a store that
  // cannot be opened prints only its error line, as before.
  bool header = false;
  auto print_header = [&header] {
    if (!header) fmt::print("{}", list_line("game", "date", "events", "title", "result (recorded)", "players"));
    header = true;
  };
  std::size_t listed = 0;
  job.on_record = [&](core::GameId, const replay::Record& r) {
    if (r.tag != kPiece) return;
    if (json) {  // streamed: a game a line inside one object
      fmt::print("{}\n  {}", listed++ ? "," : fmt::format("{{\"schema\": {}, \"games\": [", schema_json("list").dump()),
                 r.bytes);
      return;
    }
    print_header();
    fmt::print("{}", r.bytes);
  };
  auto outcome = run_verb_job(o, std::move(job));
  if (!outcome) return kExitError;
  if (json) {
    fmt::print("{}]}}\n", listed ? "\n" : fmt::format("{{\"schema\": {}, \"games\": [", schema_json("list").dump()));
  } else {
    print_header();
    if (outcome->games == 0 && isatty(STDOUT_FILENO)) fmt::print("(no games yet: warlog import FILE.wlog)\n");
  }
  return outcome->code;
}

namespace {

// An ostream whose bytes go to an outbox as stdout records of about 64 KiB,
// flushed as they fill: a long export streams out of the reader.
class OutboxBuf : public std::streambuf {
 public:
  explicit OutboxBuf(replay::Outbox& box) : box_(box) {}
  ~OutboxBuf() override { send(); }

 protected:
  int_type overflow(int_type c) override {
    if (c != traits_type::eof()) pending_.push_back(static_cast<char>(c));
    if (pending_.size() >= kChunk) send();
    return c == traits_type::eof() ? 0 : c;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    pending_.append(s, static_cast<std::size_t>(n));
    if (pending_.size() >= kChunk) send();
    return n;
  }

 private:
  static constexpr std::size_t kChunk = 64 * 1024;
  void send() {
    if (pending_.empty()) return;
    put_stdout(box_, std::exchange(pending_, {}));
    box_.flush();
  }
  replay::Outbox& box_;
  std::string pending_;
};

}  // namespace

int run_export(const Options& o) {
  const bool binary = o.format == "capnp" || o.format == "capnp-binary";
  if (binary && isatty(STDOUT_FILENO)) {
    error_line(Error{ErrorCode::InvalidArgument, "not writing Cap'n Proto bytes to a terminal; redirect to a file"});
    return kExitError;
  }
  auto keyring = open_keyring(o.keyring, o.store, false);
  if (!keyring) {
    error_line(keyring.error());
    return kExitError;
  }
  VerbJob job;
  job.select = [game = o.game](const Archive&) -> Expected<std::vector<core::GameId>> {
    return std::vector<core::GameId>{game};
  };
  // Who attests what was exported, on stderr (stdout is the game): once the
  // game was read through its chain check, in verify's words (trust.hpp).
  auto attest = [&ring = *keyring](const Archive& archive, core::GameId id, replay::Outbox& box) {
    auto report = checked_trust_report(archive, id, ring);
    if (!report) return put_error(box, report.error());
    box.put(kStderr, fmt::format("game {}: trust: {}\n", id, report->line));
    if (report->broken) put_exit(box, kExitError);  // what was printed is not the game as recorded
    if (report->trust.failed()) {
      for (const auto& note : report->trust.notes) box.put(kStderr, fmt::format("  {}\n", note));
    }
  };
  job.run = [format = o.format, attest](const Archive& archive, core::GameId id, replay::Outbox& box) {
    if (format == "json" || format == "capnp" || format == "capnp-binary") {
      const auto f = format == "json"    ? replay::ExportFormat::JsonLines
                     : format == "capnp" ? replay::ExportFormat::CapnpPacked
                                         : replay::ExportFormat::CapnpBinary;
      Expected<replay::ExportStats> stats = make_error(ErrorCode::Internal, "not run");
      {
        OutboxBuf buf(box);
        std::ostream out(&buf);
        stats = replay::export_game(archive, id, f, out);
      }
      if (!stats) return put_error(box, stats.error());
      return attest(archive, id, box);
    }
    // Read back as import would read it: a notation that does not carry the
    // game exactly says so (exit 1), rather than let a re-import be another game.
    auto exported = replay::export_notation_checked(archive, id);
    if (!exported) return put_error(box, exported.error());
    put_stdout(box, exported->text);
    attest(archive, id, box);
    if (exported->unchecked) {
      put_error(box, Error{exported->unchecked->code,
                           fmt::format("game {}: exported, but not read back to check it: {}", id,
                                       exported->unchecked->message)});
    }
    if (exported->differs) {
      box.put(kStderr, fmt::format("warlog: game {}: the notation does not carry this game exactly, so a re-import "
                                   "would be another game: {}; --format capnp keeps every byte\n",
                                   id, *exported->differs));
      put_exit(box, kExitViolations);
    }
  };
  auto outcome = run_verb_job(o, std::move(job));
  return outcome ? outcome->code : kExitError;
}

namespace {

// The ids a rule had before it was renamed (core::rule_aliases()).
std::vector<std::string_view> old_ids_of(const core::Rule& r) {
  std::vector<std::string_view> out;
  for (const core::RuleAlias& a : core::rule_aliases()) {
    if (a.id == r.id) out.push_back(a.old_id);
  }
  return out;
}

// The ruleset options that change a rule: the register writes several as
// "deck.min, deck.max"; JSON gives them as a list.
std::vector<std::string> options_of(const core::Rule& r) {
  std::vector<std::string> out;
  std::string_view rest = r.option;
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    std::string_view one = rest.substr(0, comma);
    while (!one.empty() && one.front() == ' ') one.remove_prefix(1);
    while (!one.empty() && one.back() == ' ') one.remove_suffix(1);
    if (!one.empty()) out.emplace_back(one);
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
  }
  return out;
}

}  // namespace

int run_rules(const Options& o) {
  std::vector<const core::Rule*> shown;
  for (const std::string& id : o.rule_ids) {
    const core::Rule* r = core::find_rule(id);  // an old id names its rule under the id it has now
    if (r == nullptr) {
      error_line(Error{ErrorCode::NotFound, fmt::format("no rule '{}' (warlog rules lists them)", id)});
      return kExitError;
    }
    if (std::find(shown.begin(), shown.end(), r) == shown.end()) shown.push_back(r);
  }
  if (o.rule_ids.empty()) {
    for (const core::Rule& r : core::all_rules()) shown.push_back(&r);
  }
  // --show: each rule's section, read once the folder is known; a rule on an
  // unpublished page says so in its place, and the run then exits 2.
  std::vector<Expected<replay::RuleSection>> sections;
  if (o.rules_show) {
    const auto folder =
        replay::find_rules_folder(o.rules_dir.empty() ? std::nullopt : std::optional<std::filesystem::path>(o.rules_dir));
    for (const core::Rule* r : shown) sections.push_back(replay::rule_section(*r, folder));
  }
  const bool all_shown = std::all_of(sections.begin(), sections.end(), [](const auto& s) { return s.has_value(); });
  if (o.format == "json") {
    nlohmann::json out = nlohmann::json::array();
    for (std::size_t i = 0; i < shown.size(); ++i) {
      const core::Rule* r = shown[i];
      nlohmann::json rule = {{"id", r->id},
                             {"citation", r->citation},
                             {"summary", r->summary},
                             {"severity", core::to_string(r->severity)},
                             {"basis", core::to_string(r->basis)},
                             {"options", options_of(*r)},
                             {"ruling", r->ruling.empty() ? nlohmann::json(nullptr) : nlohmann::json(r->ruling)},
                             {"aliases", old_ids_of(*r)}};
      if (i < sections.size()) {
        if (const auto& sec = sections[i]) {
          rule["section"] = {{"document", sec->document},
                             {"first_line", sec->lines.first},
                             {"last_line", sec->lines.last},
                             {"text", sec->text}};
        } else {
          rule["section_error"] = sec.error().message;
        }
      }
      out.push_back(std::move(rule));
    }
    fmt::print("{}\n", nlohmann::json{{"schema", schema_json("rules")}, {"rules", out}}.dump(2));
    return all_shown ? kExitClean : kExitError;
  }
  for (std::size_t i = 0; i < shown.size(); ++i) {
    const core::Rule* r = shown[i];
    fmt::print("{:<28} {:<9} {:<7} {}\n", r->id, core::to_string(r->severity), core::to_string(r->basis), r->citation);
    fmt::print("{:<28} {}", "", r->summary);
    if (!r->option.empty()) fmt::print(" [option: {}]", r->option);
    if (!r->ruling.empty()) fmt::print(" [ruling: {}]", r->ruling);
    if (const auto old = old_ids_of(*r); !old.empty()) fmt::print(" [formerly: {}]", fmt::join(old, ", "));
    fmt::print("\n");
    if (i < sections.size()) {
      if (const auto& sec = sections[i]) {
        fmt::print("\n  {}, lines {}-{}:\n", sec->document, sec->lines.first, sec->lines.last);
        std::string_view text = sec->text;
        while (!text.empty()) {
          const std::size_t end = text.find('\n');
          const std::string_view line = text.substr(0, end);
          fmt::print("  |{}{}\n", line.empty() ? "" : " ", line);
          text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
        }
        fmt::print("\n");
      } else {
        error_line(sec.error());
      }
    }
  }
  return all_shown ? kExitClean : kExitError;
}

}  // namespace warlog::cli
