// warlog record: a game recorded line by line as it is played, one durable
// event per action, audited at once (replay::Recorder; docs/recording.md).
// At a terminal: libedit (its readline-compatible callback interface) with
// history and completion that knows the game, following the store between
// keystrokes. From a pipe: one result per line.
//
// A writing verb, like import: main() runs it in a forked child
// (cli/store_process.hpp), so a damaged page is one line, never a signal.

#include <CLI/CLI.hpp>
#include <editline/readline.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>
#include <string_view>

#include "color.hpp"
#include "record_remote.hpp"
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

// An answer's text, its findings' severities and citations coloured as
// audit's are when `color` (--color, use_color: off when piped and under
// NO_COLOR).
std::string shown(std::string text, bool color) { return color ? paint_findings(text) : text; }

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

// Ctrl-C at the prompt cancels the line being typed, as in a shell, and
// never ends the session. libedit's own handler (it restores cooked mode)
// hands the signal on to this one, which poll() then returns for.
volatile std::sig_atomic_t g_interrupted = 0;
void on_sigint(int) { g_interrupted = 1; }

// libedit's callback interface hands a finished line (or end of input) to a
// plain function; the loop takes it from here.
std::optional<std::string> g_line;
bool g_end_of_input = false;
void take_line(char* raw) {
  if (raw == nullptr) {
    g_end_of_input = true;
    return;
  }
  g_line = raw;
  std::free(raw);
}

// How often the terminal looks for events recorded elsewhere: the issue asks
// that they show within a second; a look is one read-only transaction.
constexpr int kFollowEveryMs = 250;

// Only asked for a held line, outside the callback interface (libedit has
// left unbuffered mode once the line was taken). Ctrl-C or end of input is a no.
bool ask_yes(const std::string& question) {
  char* answer = ::readline(question.c_str());
  if (answer == nullptr) put("\n");
  const bool yes = g_interrupted == 0 && answer != nullptr && (answer[0] == 'y' || answer[0] == 'Y');
  std::free(answer);
  g_interrupted = 0;
  return yes;
}

class TerminalSession {
 public:
  TerminalSession(Recorder& r, bool strict, bool color) : r_(r), strict_(strict), color_(color) {}

  int run() {
    rl_readline_name = "warlog";
    static char breaks[] = " \t\n\",;>";
    rl_completer_word_break_characters = breaks;
    rl_attempted_completion_function = complete_line;
    g_completing = &r_;
    struct sigaction on_int {};
    on_int.sa_handler = on_sigint;
    sigemptyset(&on_int.sa_mask);
    struct sigaction before {};
    ::sigaction(SIGINT, &on_int, &before);
    using_history();
    put(fmt::format("recording game {}: type one action per line, 'help' for help, Ctrl-D to stop\n", r_.game()));
    const int code = loop();
    rl_callback_handler_remove();
    ::sigaction(SIGINT, &before, nullptr);
    g_completing = nullptr;
    if (code == kExitClean) put("\n");
    return code;
  }

 private:
  int loop() {
    new_prompt();
    for (;;) {
      pollfd in{STDIN_FILENO, POLLIN, 0};
      const int ready = ::poll(&in, 1, kFollowEveryMs);
      if (g_interrupted != 0) {
        cancel_line();
        continue;
      }
      if (ready < 0 && errno == EINTR) continue;
      if (ready < 0) {
        error_line(Error{ErrorCode::IoError, fmt::format("reading the terminal: {}", std::strerror(errno))});
        return kExitError;
      }
      if (ready == 0) {
        if (!follow()) return kExitError;
        continue;
      }
      if ((in.revents & POLLIN) != 0) {
        rl_callback_read_char();
        typed_ = true;
      }
      // The terminal hung up: nobody is left to type (and poll would not wait).
      if ((in.revents & (POLLHUP | POLLERR | POLLNVAL)) != 0) g_end_of_input = true;
      if (g_end_of_input) return kExitClean;
      if (g_line) {
        const std::string line = std::move(*g_line);
        g_line.reset();
        if (!enter(line)) return kExitError;
        new_prompt();
      }
    }
  }

  [[nodiscard]] std::string prompt() const { return record_prompt(r_.where(), r_.next_seq()); }

  // A fresh, empty line under a new prompt (libedit resets its line buffer).
  void new_prompt() {
    g_interrupted = 0;  // a Ctrl-C while the last line was committed cancels nothing here
    shown_ = prompt();
    rl_callback_handler_remove();
    rl_callback_handler_install(shown_.c_str(), take_line);
    typed_ = false;
  }

  void cancel_line() {
    put("^C\n");
    new_prompt();
  }

  // Events recorded elsewhere, printed above the prompt: the prompt and the
  // half-typed line are erased, the events written, and libedit draws the
  // line again, as it was, under the new prompt.
  bool follow() {
    auto f = r_.follow();
    if (!f) {
      error_line(f.error());
      return false;
    }
    if (f->events.empty()) return true;
    put(erase_prompt() + shown(replay::followed_text(r_, *f), color_));
    shown_ = prompt();
    rl_set_prompt(shown_.c_str());
    rl_forced_update_display();
    return true;
  }

  // Back to the first column of the prompt's first row, and clear below. A
  // dumb terminal (TERM=dumb: an editor's shell buffer) gets a new line.
  [[nodiscard]] std::string erase_prompt() const {
    const char* term = std::getenv("TERM");
    if (term == nullptr || *term == '\0' || std::string_view(term) == "dumb") return "\n";
    int rows = 0;
    int cols = 0;
    rl_get_screen_size(&rows, &cols);
    // rl_point is libedit's only after a key was read under this prompt.
    const std::size_t at = shown_.size() + (typed_ ? static_cast<std::size_t>(std::max(rl_point, 0)) : 0);
    const std::size_t up = cols > 0 ? at / static_cast<std::size_t>(cols) : 0;
    return "\r" + (up > 0 ? fmt::format("\033[{}A", up) : std::string()) + "\033[J";
  }

  // One line typed: false when the store failed (the session ends).
  bool enter(const std::string& line) {
    if (line.find_first_not_of(" \t") != std::string::npos) add_history(line.c_str());
    // At a terminal a judge's backup always says what it crosses and asks.
    auto o = r_.enter(line, strict_ ? replay::Violations::Hold : replay::Violations::HoldBackup);
    if (o && o->status == LineStatus::NeedsConfirm) {
      put(shown(replay::held_text(r_, *o), color_));
      const char* question = o->crossing.empty() ? "this line breaks a rule: record it anyway? [y/N] "
                                                 : "record this backup? [y/N] ";
      if (!ask_yes(question)) {
        put("nothing recorded\n");
        return true;
      }
      const LineOutcome held = std::move(*o);
      o = r_.enter(line, replay::Violations::Record);
      if (o) {
        put(shown(replay::confirmed_text(r_, held, *o), color_));
        return true;
      }
    }
    if (!o) {
      error_line(o.error());
      return false;
    }
    put(shown(replay::answer_text(r_, *o), color_));
    return true;
  }

  Recorder& r_;
  bool strict_ = false;
  bool color_ = false;
  std::string shown_;   // the prompt libedit shows
  bool typed_ = false;  // a key was read under it
};

int terminal_session(Recorder& r, bool strict, bool color) { return TerminalSession(r, strict, color).run(); }

int pipe_session(Recorder& r, bool strict, bool jsonl, bool color) {
  std::string line;
  std::uint64_t n = 0;
  while (std::getline(std::cin, line)) {
    ++n;
    auto o = r.enter(line, strict ? replay::Violations::Hold : replay::Violations::Record);
    if (!o) {
      error_line(o.error());
      return kExitError;
    }
    put(jsonl ? outcome_json(r, n, *o) : shown(replay::answer_text(r, *o), color));
  }
  return kExitClean;
}

}  // namespace

std::string record_prompt(std::string_view where, std::uint64_t next_seq) {
  return fmt::format("{} seq {}> ", where, next_seq);
}

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
  rec->add_option("--color", a.color,
                  "Colour the severities and citations of findings, as audit does: auto (on a terminal, unless "
                  "NO_COLOR is set), always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  rec->add_option("--catalog", a.catalog, "Card catalog CSV for a header without a [Catalog] tag");
  rec->add_option("--ruleset", a.ruleset, "Ruleset TOML for a header without a [Ruleset] tag");
  auto* server = rec->add_option("--server", a.server,
                                 "Record through warlog serve's RPC at HOST:PORT (its --rpc) instead of into a local store");
  server->excludes(header);
  rec->add_option("--token", a.token, "The token for --server (else $WARLOG_TOKEN): warlog serve token issue");
  rec->add_option("--retry-seconds", a.retry_seconds,
                  "With --server: how long a line not confirmed is sent again before giving up (default 60)")
      ->check(CLI::PositiveNumber);
  rec->add_option("--sign-as", a.sign_as,
                  "Sign every backup recorded with this key file (warlog keygen's; the judge's), checked by verify");
  rec->footer(
      "Each line is one action or marker of the notation (docs/notation.md), parsed in the game's context (turn,\n"
      "phase, acting seat, board). It is acknowledged, \"seq 57 recorded\", only once its commit is on disk; the\n"
      "findings of its event follow, with their rule citations, as audit prints them. A line that breaks a rule is\n"
      "recorded (it is what happened at the table); --strict asks first. A line that does not parse is refused with\n"
      "its column and hint, and nothing is written. After a GameEnded event nothing more is recorded: \"game N\n"
      "ended at seq S: call a judge\". Another recorder on the same game (the viewer's record bar, a terminal, a\n"
      "pipe, the server): at a terminal its events show above the prompt within a second, the line being typed\n"
      "kept; a line entered before they came is not recorded (\"conflict\"): enter it again if it still stands.\n"
      "Corrections are lines too, recorded as events, never edits (docs/recording.md):\n"
      "  void SEQ \"reason\" by \"WHO\"        a scorekeeper's slip: the event is skipped, kept, struck through\n"
      "  backup SEQ \"reason\" by \"JUDGE\"    a judge's backup to just before SEQ; says first what it crosses\n"
      "With --sign-as KEYFILE each backup carries the judge's signature over the history it backs up; verify\n"
      "names the signer against your keyring and says INVALID for one that does not hold.\n"
      "After a GameEnded only a backup or a void of the GameEnded is still taken.\n"
      "Commands that record nothing: board, hand 1, hand 2, state, findings, help.\n"
      "At a terminal: line editing, history (arrows) and Tab completion of verbs, the acting seat's hand, occupied\n"
      "spaces and the catalog's cards; Ctrl-C cancels the line being typed, Ctrl-D on an empty line ends the\n"
      "session. From a pipe: one answer per input line; --format jsonl gives one JSON object\n"
      "per line, status ok|nothing|refused|conflict|needs-confirm|ended|command (docs/schema/record-line.schema.json;\n"
      "a needs-confirm answer's events and findings have no seq: nothing is recorded).\n"
      "With --server HOST:PORT --game N the lines go to a running warlog serve --rpc (a token from --token or\n"
      "WARLOG_TOKEN): the same answers, worded by the server's recorder. A line with no answer (the connection\n"
      "dropped, the server busy or restarting) is \"not confirmed\" on stderr and sent again with the same expected\n"
      "seq until answered (a retry is never recorded twice), for --retry-seconds (60), then exit 2.\n"
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
  if (!a.server.empty()) return record_remote(a);
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
  const bool color = a.format == "text" && use_color(a.color);
  if (terminal && a.format == "text") return terminal_session(*recorder, a.strict, color);
  // From a pipe too, a new game's number comes first, to go on with it later
  // (--game N); jsonl carries it in every answer.
  if (!a.header.empty() && a.format == "text") {
    put(fmt::format("game {} created: go on with it with --game {}\n", recorder->game(), recorder->game()));
  }
  return pipe_session(*recorder, a.strict, a.format == "jsonl", color);
}

}  // namespace warlog::cli
