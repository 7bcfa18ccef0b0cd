// warlog dispute: record a claim about an event, rule on it, list and show
// disputes, and turn a ruling into a regression test. Beside the log, never
// in it: the replay facade (replay/disputes.hpp) appends annotations.

#include "json_schema.hpp"
#include "dispute.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>

#include "common.hpp"
#include "trust.hpp"
#include "verbs.hpp"
#include "warlog/core/finding.hpp"
#include "warlog/replay/dispute_case.hpp"
#include "warlog/replay/dispute_report.hpp"
#include "warlog/replay/disputes.hpp"
#include "warlog/replay/report.hpp"
#include "warlog/store/signature.hpp"

namespace warlog::cli {

namespace {

using replay::Archive;
using replay::Dispute;

// --cite takes only ids the rule registry knows; anything else goes in --cite-text.
Expected<void> check_rule_ids(const std::vector<std::string>& cites) {
  for (const auto& c : cites) {
    if (core::find_rule(c) == nullptr) {
      return make_error(ErrorCode::InvalidArgument,
                        fmt::format("--cite {}: no such rule (warlog rules lists them); free text goes in --cite-text",
                                    c));
    }
  }
  return {};
}

Expected<replay::DisputeId> parse_id(const std::string& text) {
  auto id = replay::parse_dispute_id(text);
  if (!id) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("'{}' is not a dispute id: GAME:SEQ:N, as `warlog dispute list` shows", text));
  }
  return *id;
}

Expected<Archive> open(const DisputeArgs& a, Archive::Mode mode) {
  Options o;
  o.store = a.store;
  return open_archive(o, mode);
}

int fail(const Error& e) {
  error_line(e);
  return kExitError;
}

// --- Verbs -------------------------------------------------------------------------
int run_add(const DisputeArgs& a) {
  if (auto ok = check_rule_ids(a.cites); !ok) return fail(ok.error());
  auto archive = open(a, Archive::Mode::ReadWrite);
  if (!archive) return fail(archive.error());
  bool already = false;
  auto id = replay::add_dispute(*archive, {a.game, a.seq, a.claim, a.by, a.cites, now_utc(), a.cite_texts}, &already);
  if (!id) return fail(id.error());
  if (already) {
    fmt::print("already recorded as {} (game {}, seq {}); nothing written\n", replay::to_string(*id), id->game,
               id->seq);
    return kExitClean;
  }
  fmt::print("dispute {} recorded at game {}, seq {}\n", replay::to_string(*id), id->game, id->seq);
  return kExitClean;
}

// game id -> title, for listings.
std::map<core::GameId, std::string> titles(const Archive& archive) {
  std::map<core::GameId, std::string> out;
  if (auto games = archive.game_list()) {  // a record that cannot be read hides no other title
    for (const auto& g : *games) {
      if (g) out.emplace(g->id, g->title);
    }
  }
  return out;
}

int run_list(const DisputeArgs& a) {
  auto archive = open(a, Archive::Mode::ReadOnly);
  if (!archive) return fail(archive.error());
  // Game by game: a game whose annotation chain breaks, or annotations
  // with no game record, is one line on stderr and exit 2; the other
  // games' disputes are still listed.
  std::vector<Dispute> all;
  int rc = kExitClean;
  auto take = [&](const Expected<std::vector<Dispute>>& d) {
    if (!d) {
      error_line(d.error());
      rc = kExitError;
      return;
    }
    all.insert(all.end(), d->begin(), d->end());
  };
  if (a.games.empty()) {
    auto by_game = replay::disputes_by_game(*archive);
    if (!by_game) return fail(by_game.error());
    for (const auto& g : *by_game) take(g.disputes);
  }
  for (core::GameId g : a.games) take(replay::list_disputes(*archive, g));
  const auto title = titles(*archive);
  auto title_of = [&](core::GameId g) {
    auto it = title.find(g);
    return it == title.end() ? std::string{} : it->second;
  };
  if (a.format == "json") {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& d : all) out.push_back(replay::dispute_json(d, title_of(d.id.game)));
    fmt::print("{}\n", nlohmann::json{{"schema", schema_json("dispute-list")}, {"disputes", out}}.dump(2));
    return rc;
  }
  fmt::print("{:<12}  {:<8}  {:<16}  {}\n", "id", "status", "raised by", "claim");
  for (const auto& d : all) {
    fmt::print("{:<12}  {:<8}  {:<16}  {}\n", replay::to_string(d.id), replay::status_word(d.status()), d.raised.raised_by,
               d.raised.claim);
    // The second line: the game it is about and the ruling in force.
    const core::DisputeRuled* r = d.in_force();
    fmt::print("{:<12}  game {} \"{}\": {}\n", "", d.id.game, title_of(d.id.game),
               r == nullptr ? std::string("no ruling yet")
                            : fmt::format("ruled by {}{}: {}", r->ruled_by, r->signature ? " (signed)" : "", r->ruling));
  }
  return rc;
}

int run_show(const DisputeArgs& a) {
  auto id = parse_id(a.id);
  if (!id) return fail(id.error());
  auto archive = open(a, Archive::Mode::ReadOnly);
  if (!archive) return fail(archive.error());
  auto d = replay::find_dispute(*archive, *id);
  if (!d) return fail(d.error());
  if (a.format == "json") {
    nlohmann::json out = replay::dispute_json(*d, titles(*archive)[id->game]);
    out["schema"] = schema_json("dispute");
    fmt::print("{}\n", out.dump(2));
    return kExitClean;
  }
  auto game = archive->game(id->game);
  if (!game) return fail(game.error());
  fmt::print("dispute {}: {}\n", replay::to_string(*id), replay::status_word(d->status()));
  fmt::print("game {}: {} ({}), {}\n", game->id, game->title, game->date, replay::seats_line(*game));

  // The moment in dispute, and what the audit says there, for the judge.
  auto events = archive->events(id->game);
  if (events && id->seq < events->size()) {
    const core::Event& ev = (*events)[id->seq];
    fmt::print("seq {}: turn {}, {}{}: {}\n", ev.seq, ev.turn, core::to_string(ev.phase),
               ev.seat == core::kNoSeat ? std::string{} : fmt::format(", seat {}", ev.seat + 1),
               core::payload_name(ev.payload));
  }
  fmt::print("\nclaim: {}\nraised by {}{}\n", d->raised.claim, d->raised.raised_by,
             d->raised.created_at.empty() ? "" : " at " + d->raised.created_at);
  for (const auto& c : d->raised.citations) fmt::print("  cites {}\n", replay::citation_words(c));

  if (auto audit = archive->audit(id->game)) {
    std::size_t n = 0;
    for (const auto& f : audit->findings) {
      if (f.finding.seq != id->seq) continue;
      if (n++ == 0) fmt::print("\nthe audit at seq {}:\n", id->seq);
      fmt::print("  {} {} ({}): {}\n", f.finding.rule_id, core::to_string(f.finding.severity),
                 core::to_string(f.finding.basis), f.finding.message);
    }
    if (n == 0) fmt::print("\nthe audit reports nothing at seq {}\n", id->seq);
  } else {
    fmt::print("\nthe audit could not run: {}\n", audit.error().message);
  }

  for (std::size_t i = 0; i < d->rulings.size(); ++i) {
    const auto& r = d->rulings[i];
    const bool superseded = i + 1 < d->rulings.size();
    fmt::print("\nruling {}{} by {}{}: {}\n  {}\n", i + 1, superseded ? " (superseded)" : "", r.ruled_by,
               r.ruled_at.empty() ? "" : " at " + r.ruled_at, replay::status_word(r.status), r.ruling);
    if (r.expectation) fmt::print("  expects: {}\n", replay::expectation_words(*r.expectation, id->seq));
    for (const auto& c : r.citations) fmt::print("  cites {}\n", replay::citation_words(c));
    if (r.signature) fmt::print("  signed by {} with key {} (warlog verify checks it)\n", r.ruled_by, store::key_id_hex(r.signature->key_id));
  }
  return kExitClean;
}

// The report for a head judge to file or send (replay/dispute_report.hpp).
int run_report(const DisputeArgs& a) {
  auto id = parse_id(a.id);
  if (!id) return fail(id.error());
  auto ring = open_keyring(a.keyring, a.store, false);
  if (!ring) return fail(ring.error());
  auto archive = open(a, Archive::Mode::ReadOnly);
  if (!archive) return fail(archive.error());
  // Without --format, the --out name says which (as the viewer's export does).
  std::string format = a.report_format;
  const bool format_given = a.report != nullptr && a.report->get_option("--format")->count() > 0;
  const std::string ext = std::filesystem::path(a.report_out).extension().string();
  if (!format_given && (ext == ".md" || ext == ".markdown")) format = "md";
  if (!format_given && ext == ".pdf") {
    return fail(Error{ErrorCode::InvalidArgument,
                      "dispute report writes html or md; the PDF comes from the viewer (File › Export dispute report)"});
  }
  if (format_given && format == "html" && (ext == ".md" || ext == ".markdown")) {
    return fail(Error{ErrorCode::InvalidArgument, fmt::format("--format html into {}: give --format md, or a .html name",
                                                              a.report_out)});
  }
  replay::DisputeReportOptions o;
  o.format = format == "md" ? replay::DisputeReportFormat::Markdown : replay::DisputeReportFormat::Html;
  if (!a.rules.empty()) o.rules = a.rules;
  auto r = replay::dispute_report(*archive, *id, *ring, o);
  if (!r) return fail(r.error());
  if (a.report_out.empty() || a.report_out == "-") {
    fmt::print("{}", r->text);
  } else {
    // Written beside its final name, then renamed: never half a report.
    const std::filesystem::path out(a.report_out);
    const std::filesystem::path partial = out.string() + ".partial";
    {
      std::ofstream f(partial, std::ios::binary | std::ios::trunc);
      f << r->text;
      f.close();
      if (!f) {
        std::error_code ignored;
        std::filesystem::remove(partial, ignored);
        return fail(Error{ErrorCode::IoError, fmt::format("cannot write {}", out.string())});
      }
    }
    std::error_code ec;
    std::filesystem::rename(partial, out, ec);
    if (ec) {
      std::error_code ignored;
      std::filesystem::remove(partial, ignored);
      return fail(Error{ErrorCode::IoError, fmt::format("cannot write {}: {}", out.string(), ec.message())});
    }
    fmt::print(stderr, "wrote {} ({}, {} bytes)\n", out.string(), r->title, r->text.size());
  }
  if (!r->chain_ok) {
    fmt::print(stderr, "warlog: game {}: verify finds it broken; the report says so (warlog verify says more)\n",
               id->game);
    return kExitViolations;
  }
  return kExitClean;
}

int run_resolve(const DisputeArgs& a) {
  auto id = parse_id(a.id);
  if (!id) return fail(id.error());
  if (!a.expect.empty() && !a.expect_none.empty()) {
    return fail(Error{ErrorCode::InvalidArgument, "give --expect or --expect-none, not both"});
  }
  if (auto ok = check_rule_ids(a.cites); !ok) return fail(ok.error());
  replay::NewRuling r;
  r.ruling = a.ruling;
  r.ruled_by = a.by;
  r.citations = a.cites;
  r.text_citations = a.cite_texts;
  r.ruled_at = now_utc();
  r.supersede = a.supersede;
  if (!a.expect.empty()) r.expectation = core::Expectation{a.expect, true};
  if (!a.expect_none.empty()) r.expectation = core::Expectation{a.expect_none, false};
  if (!a.key.empty()) {
    auto key = store::read_key_file(a.key);
    if (!key) return fail(key.error());
    r.key = std::move(*key);
    r.signed_at_ms = now_ms();
  }
  auto archive = open(a, Archive::Mode::ReadWrite);
  if (!archive) return fail(archive.error());
  bool already = false;
  auto d = replay::resolve_dispute(*archive, *id, r, &already);
  if (!d) return fail(d.error());
  if (already) {
    fmt::print("this ruling is already recorded as {} (by {}); nothing written\n", replay::to_string(*id),
               d->in_force()->ruled_by);
    return kExitClean;
  }
  fmt::print("dispute {} resolved by {}{}\n", replay::to_string(*id), a.by,
             r.key ? fmt::format(", signed with key {}", store::key_id_hex(store::key_id_of(r.key->public_key))) : "");
  if (r.expectation) {
    fmt::print("expects: {}\n", replay::expectation_words(*r.expectation, id->seq));
    fmt::print("make it a regression test: warlog dispute export-test {}\n", replay::to_string(*id));
  }
  return kExitClean;
}

int run_export_test(const DisputeArgs& a) {
  auto id = parse_id(a.id);
  if (!id) return fail(id.error());
  auto archive = open(a, Archive::Mode::ReadOnly);
  if (!archive) return fail(archive.error());
  auto c = replay::make_dispute_case(*archive, *id, a.name);
  if (!c) return fail(c.error());
  auto written = replay::write_dispute_case(*c, a.out, a.force);
  if (!written) return fail(written.error());
  fmt::print("wrote {}\nwrote {}\n", written->wlog.string(), written->expect.string());
  for (const auto& p : written->data) fmt::print("wrote {}\n", p.string());
  if (!c->engine_agrees) {
    // Written anyway: the case is the ruling; it fails until the engine agrees.
    fmt::print(stderr, "warlog: the engine disagrees with the ruling today ({}); the case fails until it is fixed\n",
               c->engine_detail);
    return kExitViolations;
  }
  fmt::print("the engine agrees today: {}\n", c->engine_detail);
  return kExitClean;
}

}  // namespace

std::string now_utc() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

CLI::App* add_dispute(CLI::App& app, DisputeArgs& a) {
  CLI::App* d = app.add_subcommand("dispute", "Record disputes about events, rule on them, make rulings into tests");
  d->require_subcommand(1);
  d->footer(
      "Disputes are kept beside the game, never in it: the events stay as recorded.\n"
      "A dispute is named GAME:SEQ:N: the N-th dispute raised about event SEQ of game GAME (0, 1, ...).\n"
      "Repeating an add or the ruling in force records nothing and says \"already recorded as GAME:SEQ:N\" (exit 0).\n"
      "Example (game 1 is samples/games/cut_off.wlog when the samples are imported as the README does):\n"
      "  warlog dispute add --game 1 --seq 122 --claim \"the Archer on e3 was Lost and fought\" --by Ines --cite WAR-C.lost\n"
      "  warlog dispute resolve 1:122:0 --ruling \"Upheld: a Lost Troop cannot fight\" --by Judge --expect WAR-C.lost\n"
      "  warlog dispute export-test 1:122:0 --name cut_off_seq122\n"
      "Exit 0 on success, 2 on error; export-test exits 1 when the engine disagrees with the ruling.");
  auto store = [&a](CLI::App* sub) {
    sub->add_option("--store", a.store, "Store directory (default: $WARLOG_STORE, else .warlog/store)");
  };

  a.add = d->add_subcommand("add", "Raise a dispute about one event");
  store(a.add);
  a.add->add_option("--game", a.game, "Game id")->required();
  a.add->add_option("--seq", a.seq, "The disputed event's seq (as the audit prints it)")->required();
  a.add->add_option("--claim", a.claim, "What is claimed, in a sentence")->required();
  a.add->add_option("--by", a.by, "Who raises it")->required();
  a.add->footer("Exit 0 on success, 2 on error.");
  a.add->add_option("--cite", a.cites,
                    "A rule id that `warlog rules` lists (a renamed rule's old id is recorded as its id now); "
                    "repeatable");
  a.add->add_option("--cite-text", a.cite_texts, "Any other citation (a ruling number, a letter); repeatable");

  a.list = d->add_subcommand("list", "List disputes: status, who raised them, the claim, the game and the ruling in force");
  store(a.list);
  a.list->add_option("--game", a.games, "Only these game(s)");
  a.list->add_option("--format", a.format, "text or json")->check(CLI::IsMember({"text", "json"}));
  a.list->footer(
      "Each game's annotation chain is checked as it is read: a game whose chain breaks (a dispute or\n"
      "ruling edited, removed or reordered in place) is one line on stderr, \"game G: trust: BROKEN at\n"
      "annotation N: ...\", and none of its disputes is listed; so are annotations stored under a game id\n"
      "with no game record. The other games' disputes are still listed (warlog verify says more).\n"
      "Exit 0 on success, 2 on error (any such line).");

  a.show = d->add_subcommand("show", "Show a dispute: the event, the audit there, the claim and every ruling");
  store(a.show);
  a.show->add_option("id", a.id, "Dispute id GAME:SEQ:N")->required();
  a.show->add_option("--format", a.format, "text or json")->check(CLI::IsMember({"text", "json"}));
  a.show->footer(
      "The game's annotation chain is checked as it is read: a broken one is refused, one line,\n"
      "\"game G: trust: BROKEN at annotation N: ...\".\n"
      "Exit 0 on success, 2 on error (no such dispute, a broken annotation chain).");

  a.resolve = d->add_subcommand("resolve", "Rule on a dispute (appends the ruling; the history stays)");
  store(a.resolve);
  a.resolve->add_option("id", a.id, "Dispute id GAME:SEQ:N")->required();
  a.resolve->add_option("--ruling", a.ruling, "The ruling, in a sentence or two")->required();
  a.resolve->add_option("--by", a.by, "Who rules")->required();
  a.resolve->add_option("--cite", a.cites, "A rule id that `warlog rules` lists; repeatable");
  a.resolve->add_option("--cite-text", a.cite_texts, "Any other citation (a ruling number, a letter); repeatable");
  a.resolve->add_option("--key", a.key, "The judge's secret key file (warlog keygen): signs the ruling as --by");
  a.resolve->add_option("--expect", a.expect,
                        "The audit must report this rule id at the event (an old id is recorded as the id now)");
  a.resolve->add_option("--expect-none", a.expect_none, "The audit must NOT report this rule id at the event");
  a.resolve->add_flag("--supersede", a.supersede, "Rule again on a resolved dispute (an appeal)");
  a.resolve->footer("Exit 0 on success, 2 on error (no such dispute, or one already resolved without --supersede).");

  a.export_test = d->add_subcommand("export-test", "Write a resolved dispute as a regression case for the test suite");
  store(a.export_test);
  a.export_test->add_option("id", a.id, "Dispute id GAME:SEQ:N")->required();
  a.export_test->add_option("--out", a.out, "Directory (default: tests/disputes)");
  a.export_test->add_option("--name", a.name, "File stem (default: the title and seq)");
  a.export_test->add_flag("--force", a.force, "Replace an existing case of that name");
  a.export_test->footer(
      "Writes NAME.wlog (the events up to the disputed one), NAME.expect (the expected finding or its\n"
      "absence, the citations) and the recorded catalog and ruleset under data/. ctest runs every case.\n"
      "Exit 0 when the engine agrees with the ruling, 1 when it disagrees today (the case is written,\n"
      "and fails until the engine is fixed), 2 on error.");

  a.report = d->add_subcommand("report", "Write a dispute's report for the head judge to file or send (HTML or Markdown)");
  store(a.report);
  a.report->add_option("id", a.id, "Dispute id GAME:SEQ:N")->required();
  a.report->add_option("--format", a.report_format,
                       "html (XHTML, boards drawn in SVG) or md (Markdown); default: as --out's name says (.md), else html")
      ->check(CLI::IsMember({"html", "md"}));
  a.report->add_option("--out", a.report_out, "The file to write (default: standard output)");
  a.report->add_option("--rules", a.rules,
                       "The folder of the rules documents quoted beside each finding (default: $WARLOG_RULES, "
                       "else the folder this build was configured with)");
  a.report->add_option("--keyring", a.keyring, "Keyring naming the signers (default: $WARLOG_KEYRING, else ~/.config/warlog/keyring)");
  a.report->footer(
      "One self-contained file: the game and players, the claim, the events around the disputed one,\n"
      "the board before and after it (the spaces it concerns framed), the findings there with the words\n"
      "of the section each cites, every ruling with who made it and when, and what verify says of the\n"
      "game's chain and signatures. The HTML is XHTML with nothing outside itself (its boards are inline\n"
      "SVG); Markdown draws the boards as text grids.\n"
      "Example: warlog dispute report 1:122:0 --out dispute-1-122-0.html\n"
      "Exit 0 on success, 1 when verify finds the game broken (the report says so), 2 on error.");
  return d;
}

int run_dispute(const DisputeArgs& a) {
  if (a.add && a.add->parsed()) return run_add(a);
  if (a.list && a.list->parsed()) return run_list(a);
  if (a.show && a.show->parsed()) return run_show(a);
  if (a.resolve && a.resolve->parsed()) return run_resolve(a);
  if (a.export_test && a.export_test->parsed()) return run_export_test(a);
  if (a.report && a.report->parsed()) return run_report(a);
  return kExitError;
}

}  // namespace warlog::cli
