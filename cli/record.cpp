// warlog record: a game recorded line by line as it is played, one durable
// event per action, audited at once (replay::Recorder; docs/recording.md).
// At a terminal: libedit (its readline-compatible interface) with history
// and completion that knows the game. From a pipe: one result per line.
//
// A writing verb, like import: it opens the store in this process (the
// isolated readers of cli/isolated.hpp are for the reading verbs).

#include <CLI/CLI.hpp>
#include <editline/readline.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "common.hpp"
#include "verbs.hpp"
#include "warlog/replay/event_json.hpp"
#include "warlog/replay/line_json.hpp"
#include "warlog/replay/recorder.hpp"
#include "warlog/replay/report.hpp"

namespace warlog::cli {

namespace {

using replay::LineOutcome;
using replay::LineStatus;
using replay::Recorder;

// One JSON object per input line (docs/schema/record-line.schema.json).
std::string outcome_json(const Recorder& r, std::uint64_t line_no, const LineOutcome& o) {
  return replay::line_outcome_json(r, o, line_no).dump() + "\n";
}

void put(const std::string& s) {
  std::fwrite(s.data(), 1, s.size(), stdout);
  std::fflush(stdout);
}

// --- The terminal: libedit ---------------------------------------------------
// libedit's readline interface calls plain functions with no user pointer,
// so the recorder it completes against is this file's, for one session.
const Recorder* g_completing = nullptr;
std::vector<std::string> g_matches;

char* next_match(const char*, int state) {
  static std::size_t i = 0;
  if (state == 0) i = 0;
  return i < g_matches.size() ? ::strdup(g_matches[i++].c_str()) : nullptr;
}

// libedit hands over the word after its break characters, from `start`; the
// recorder's token may begin earlier (an open quote: "Ironclaw La).
char** complete_line(const char* text, int start, int end) {
  rl_attempted_completion_over = 1;
  if (g_completing == nullptr) return nullptr;
  const std::string line(rl_line_buffer, static_cast<std::size_t>(end));
  const replay::Completion c = g_completing->complete(line);
  const auto word_start = static_cast<std::size_t>(start);
  g_matches.clear();
  for (const std::string& cand : c.candidates) {
    if (c.start <= word_start) {
      if (word_start - c.start <= cand.size()) g_matches.push_back(cand.substr(word_start - c.start));
    } else {
      g_matches.push_back(line.substr(word_start, c.start - word_start) + cand);
    }
  }
  if (g_matches.empty()) return nullptr;
  return rl_completion_matches(text, next_match);
}

bool ask_yes(const std::string& question) {
  char* answer = ::readline(question.c_str());
  const bool yes = answer != nullptr && (answer[0] == 'y' || answer[0] == 'Y');
  std::free(answer);
  return yes;
}

int terminal_session(Recorder& r, bool strict) {
  rl_readline_name = "warlog";
  static char breaks[] = " \t\n\",;>";
  rl_completer_word_break_characters = breaks;
  rl_attempted_completion_function = complete_line;
  g_completing = &r;
  using_history();
  put(fmt::format("recording game {}: type one action per line, 'help' for help, Ctrl-D to stop\n", r.game()));
  for (;;) {
    const std::string prompt = fmt::format("{} seq {}> ", r.where(), r.next_seq());
    char* raw = ::readline(prompt.c_str());
    if (raw == nullptr) break;
    const std::string line(raw);
    std::free(raw);
    if (line.find_first_not_of(" \t") != std::string::npos) add_history(line.c_str());
    // At a terminal a judge's backup always says what it crosses and asks.
    auto o = r.enter(line, strict ? replay::Violations::Hold : replay::Violations::HoldBackup);
    if (o && o->status == LineStatus::NeedsConfirm) {
      put(replay::held_text(r, *o));
      const char* question = o->crossing.empty() ? "this line breaks a rule: record it anyway? [y/N] "
                                                 : "record this backup? [y/N] ";
      if (!ask_yes(question)) {
        put("nothing recorded\n");
        continue;
      }
      o = r.enter(line, replay::Violations::Record);
    }
    if (!o) {
      g_completing = nullptr;
      error_line(o.error());
      return kExitError;
    }
    put(replay::answer_text(r, *o));
  }
  g_completing = nullptr;
  put("\n");
  return kExitClean;
}

int pipe_session(Recorder& r, bool strict, bool jsonl) {
  std::string line;
  std::uint64_t n = 0;
  while (std::getline(std::cin, line)) {
    ++n;
    auto o = r.enter(line, strict ? replay::Violations::Hold : replay::Violations::Record);
    if (!o) {
      error_line(o.error());
      return kExitError;
    }
    put(jsonl ? outcome_json(r, n, *o) : replay::answer_text(r, *o));
  }
  return kExitClean;
}

}  // namespace

CLI::App* add_record(CLI::App& app, RecordArgs& a) {
  CLI::App* rec = app.add_subcommand("record", "Record a game as it is played: one durable event per line, audited at once");
  rec->add_option("store", a.store_positional, "Store directory (default: --store, $WARLOG_STORE, else .warlog/store)");
  rec->add_option("--store", a.store, "Store directory, as the other verbs take it");
  auto* header = rec->add_option("--header", a.header, "Start a new game from this .wlog holding only header tags");
  auto* game = rec->add_option("--game", a.game, "Continue the stored game with this id");
  header->excludes(game);
  rec->add_flag("--strict", a.strict, "Ask before recording a line that breaks a rule (from a pipe: needs-confirm)");
  rec->add_option("--format", a.format, "text (default) or jsonl: one JSON object per input line, from a pipe")
      ->check(CLI::IsMember({"text", "jsonl"}));
  rec->add_option("--catalog", a.catalog, "Card catalog CSV for a header without a [Catalog] tag");
  rec->add_option("--ruleset", a.ruleset, "Ruleset TOML for a header without a [Ruleset] tag");
  rec->add_option("--sign-as", a.sign_as,
                  "Sign every backup recorded with this key file (warlog keygen's; the judge's), checked by verify");
  rec->footer(
      "Each line is one action or marker of the notation (docs/notation.md), parsed in the game's context (turn,\n"
      "phase, acting seat, board). It is acknowledged, \"seq 57 recorded\", only once its commit is on disk; the\n"
      "findings of its event follow, with their rule citations, as audit prints them. A line that breaks a rule is\n"
      "recorded (it is what happened at the table); --strict asks first. A line that does not parse is refused with\n"
      "its column and hint, and nothing is written. After a GameEnded event nothing more is recorded: \"game N\n"
      "ended at seq S: call a judge\". Another recorder on the same game: its events are shown and the line is\n"
      "not recorded (\"conflict\"); enter it again if it still stands.\n"
      "Corrections are lines too, recorded as events, never edits (docs/recording.md):\n"
      "  void SEQ \"reason\" by \"WHO\"        a scorekeeper's slip: the event is skipped, kept, struck through\n"
      "  backup SEQ \"reason\" by \"JUDGE\"    a judge's backup to just before SEQ; says first what it crosses\n"
      "With --sign-as KEYFILE each backup carries the judge's signature over the history it backs up; verify\n"
      "names the signer against your keyring and says INVALID for one that does not hold.\n"
      "After a GameEnded only a backup or a void of the GameEnded is still taken.\n"
      "Commands that record nothing: board, hand 1, hand 2, state, findings, help.\n"
      "At a terminal: line editing, history (arrows) and Tab completion of verbs, the acting seat's hand, occupied\n"
      "spaces and the catalog's cards. From a pipe: one answer per input line; --format jsonl gives one JSON object\n"
      "per line, status ok|refused|conflict|needs-confirm|ended|command (docs/schema/record-line.schema.json).\n"
      "Examples:\n"
      "  warlog record .warlog/store --header table4.wlog      a new game: seats, decks, board, Territories\n"
      "  warlog record .warlog/store --game 12                 go on with game 12\n"
      "  producer | warlog record S --game 12 --format jsonl   driven by another program\n"
      "Exit 0 when the session ends (Ctrl-D, end of input), whatever lines were refused; 2 when the store fails\n"
      "(the line that met the failure is not acknowledged), for a header with errors (nothing written), a game\n"
      "that does not exist, or a usage error.");
  return rec;
}

int run_record(const RecordArgs& a) {
  if (a.header.empty() == (a.game == 0)) {
    fmt::print(stderr, "warlog: record: give --header FILE.wlog (a new game) or --game N (go on with one)\n");
    return kExitError;
  }
  Options o;
  o.store = !a.store_positional.empty() ? a.store_positional : a.store;
  auto archive = open_archive(o, replay::Archive::Mode::ReadWrite);
  if (!archive) {
    error_line(archive.error());
    return kExitError;
  }
  std::optional<store::KeyPair> key;
  if (!a.sign_as.empty()) {
    auto k = store::read_key_file(a.sign_as);
    if (!k) {
      error_line(k.error());
      return kExitError;
    }
    key = *k;
  }
  std::optional<Recorder> recorder;
  if (!a.header.empty()) {
    replay::ImportOptions io;
    if (!a.catalog.empty()) io.catalog_path = a.catalog;
    if (!a.ruleset.empty()) io.ruleset_path = a.ruleset;
    auto r = Recorder::create(*archive, a.header, io);
    if (!r) {
      // Every error at once: the header's own, then what it names (a missing
      // [Catalog] or [Ruleset]) when that failed too.
      const auto& errors = r.error().notation_errors;
      for (const auto& e : errors) fmt::print(stderr, "{}\n", e.to_string());
      const bool sources_failed = r.error().error.message != "notation errors";
      if (sources_failed) fmt::print(stderr, "warlog: {}: {}\n", a.header, r.error().error.message);
      if (!errors.empty()) {
        const std::size_t n = errors.size() + (sources_failed ? 1 : 0);
        fmt::print(stderr, "warlog: {}: {} error{} in the header, nothing recorded\n", a.header, n, n == 1 ? "" : "s");
      }
      return kExitError;
    }
    recorder.emplace(std::move(*r));
  } else {
    auto r = Recorder::open(*archive, a.game);
    if (!r) {
      error_line(r.error());
      return kExitError;
    }
    recorder.emplace(std::move(*r));
  }
  if (key) recorder->sign_backups_with(*key);
  const bool terminal = ::isatty(STDIN_FILENO) == 1 && ::isatty(STDOUT_FILENO) == 1;
  if (terminal && a.format == "text") return terminal_session(*recorder, a.strict);
  // From a pipe too, a new game's number comes first, to go on with it later
  // (--game N); jsonl carries it in every answer.
  if (!a.header.empty() && a.format == "text") {
    put(fmt::format("game {} created: go on with it with --game {}\n", recorder->game(), recorder->game()));
  }
  return pipe_session(*recorder, a.strict, a.format == "jsonl");
}

}  // namespace warlog::cli
