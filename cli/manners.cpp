// The CLI's manners: what a user who mistypes, or asks, is told. CLI11 does
// the parsing; this file answers the few cases it gets wrong for warlog (an
// unknown verb before --help, `help VERB`) and words every error it reports
// as one line "warlog: [VERB: ]what".

#include "manners.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>

#include "json_schema.hpp"
#include "verbs.hpp"
#include "warlog/store/keys.hpp"

#ifndef WARLOG_VERSION
#error "WARLOG_VERSION comes from the CMake project version (cli/CMakeLists.txt)"
#endif

namespace warlog::cli {

namespace {

// Optimal string alignment distance: insertions, deletions, substitutions
// and a swap of neighbours ("fromat", "recrod") each count one.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

std::string_view undashed(std::string_view s) {
  while (s.starts_with('-')) s.remove_prefix(1);
  return s;
}

std::string version_text() {
  return fmt::format("warlog {}\njson-schema {}\nstore-format {}", WARLOG_VERSION, kJsonSchemaVersion,
                     store::kFormatVersion);
}

std::vector<std::string> verb_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) names.push_back(sub->get_name());
  return names;
}

const CLI::App* find_verb(const CLI::App& app, std::string_view name) {
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->get_name() == name) return sub;
  }
  return nullptr;
}

// "audit", "dispute add"; empty for warlog itself.
std::string path_of(const CLI::App* app) {
  std::string path;
  for (; app != nullptr && app->get_parent() != nullptr; app = app->get_parent()) {
    path = path.empty() ? app->get_name() : app->get_name() + " " + path;
  }
  return path;
}

// Where to look: "warlog help audit", or "warlog --help" at the top.
std::string see(const std::string& path) { return path.empty() ? "warlog --help" : "warlog help " + path; }

// A level whose every option is a flag takes no words but its verbs': a word
// that names none of them is a mistyped verb, not an option's value.
bool takes_only_verbs(const CLI::App& app) {
  if (app.get_subcommands([](const CLI::App*) { return true; }).empty()) return false;
  const auto options = app.get_options();
  return std::all_of(options.begin(), options.end(),
                     [](const CLI::Option* o) { return !o->get_positional() && o->get_expected_max() == 0; });
}

bool is_flag_of(const CLI::App& app, const std::string& arg) {
  const auto options = app.get_options();
  return std::any_of(options.begin(), options.end(),
                     [&](const CLI::Option* o) { return o->get_expected_max() == 0 && o->check_name(arg); });
}

// Every name an option of app answers to: "--format", "-j".
std::vector<std::string> option_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* o : app.get_options()) {
    for (const auto& n : o->get_lnames()) names.push_back("--" + n);
    for (const auto& n : o->get_snames()) names.push_back("-" + n);
  }
  return names;
}

std::string unknown_option(const CLI::App& app, const std::string& arg) {
  const std::string option = arg.substr(0, arg.find('='));
  const std::string path = path_of(&app);
  const std::string where = path.empty() ? "" : path + ": ";
  if (auto near = closest(option, option_names(app))) {
    return fmt::format("warlog: {}unknown option '{}': did you mean '{}'?\n", where, option, *near);
  }
  return fmt::format("warlog: {}unknown option '{}' ({} lists the options)\n", where, option, see(path));
}

// " (the verbs: a, b, c)" or ": did you mean 'b'?"
std::string verb_hint(const CLI::App& level, std::string_view word) {
  const auto names = verb_names(level);
  if (auto near = closest(word, names)) return fmt::format(": did you mean '{}'?", *near);
  return fmt::format(" (the verbs: {})", fmt::join(names, ", "));
}

// where: "", "dispute: ", "help: ", ...
int unknown_verb(const CLI::App& level, std::string_view word, std::string_view where) {
  fmt::print(stderr, "warlog: {}unknown verb '{}'{}\n", where, word, verb_hint(level, word));
  return kExitError;
}

// warlog help [VERB [SUB-VERB]]: the help `warlog VERB --help` prints.
int run_help(const CLI::App& app, int argc, const char* const* argv, int first) {
  const CLI::App* target = &app;
  std::string prev;  // what help() puts before the verb's name in its usage line
  for (int i = first; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      fmt::print("{}", find_verb(app, "help")->help(app.get_name()));
      return kExitClean;
    }
    if (arg.starts_with('-')) {
      fmt::print(stderr, "warlog: help: unknown option '{}' (warlog help help)\n", arg);
      return kExitError;
    }
    const CLI::App* sub = find_verb(*target, arg);
    if (sub == nullptr) {
      const std::string path = path_of(target);
      return unknown_verb(*target, arg, path.empty() ? "help: " : "help: " + path + ": ");
    }
    prev = prev.empty() ? target->get_name() : prev + " " + target->get_name();
    target = sub;
  }
  fmt::print("{}", target->help(prev));
  return kExitClean;
}

// CLI11's error, as one line. app is the one exit() was called on; the
// error belongs to the deepest verb it had selected.
std::string one_line(const CLI::App* app, const CLI::Error& e) {
  const CLI::App* verb = app;
  for (auto selected = verb->get_subcommands(); !selected.empty(); selected = verb->get_subcommands()) {
    verb = selected.front();
  }
  const std::string path = path_of(verb);
  const std::string where = path.empty() ? "" : path + ": ";
  if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr) {
    // The words nobody took wait in the verb that met them, or above it.
    std::vector<std::string> extras;
    for (const CLI::App* a = verb; a != nullptr; a = a->get_parent()) {
      for (std::string w : a->remaining(false)) extras.push_back(std::move(w));
    }
    const auto unknown = std::find_if(extras.begin(), extras.end(),
                                      [](const std::string& w) { return w.size() > 1 && w.starts_with('-'); });
    if (unknown != extras.end()) return unknown_option(*verb, *unknown);
    // CLI11 lists them last first.
    if (!extras.empty()) {
      return fmt::format("warlog: {}unexpected argument{} '{}' ({})\n", where, extras.size() == 1 ? "" : "s",
                         fmt::join(extras, " "), see(path));
    }
  }
  std::string what = e.what();
  std::replace(what.begin(), what.end(), '\n', ' ');
  // CLI11 says subcommand; warlog's word is verb.
  for (auto p = what.find("subcommand"); p != std::string::npos; p = what.find("subcommand", p)) {
    what.replace(p, 10, "verb");
  }
  return fmt::format("warlog: {}{} ({})\n", where, what, see(path));
}

void set_failure_message(CLI::App& app) {
  app.failure_message(one_line);
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) set_failure_message(*sub);
}

}  // namespace

std::optional<std::string> closest(std::string_view word, const std::vector<std::string>& candidates) {
  const std::string_view w = undashed(word);
  if (w.empty()) return std::nullopt;
  std::optional<std::string> best;
  std::size_t best_distance = 0;
  for (const auto& c : candidates) {
    const std::string_view n = undashed(c);
    const std::size_t d = edit_distance(w, n);
    // Close enough to be a typo: one slip in a short word, two in a longer
    // one, and never a whole word changed ("-x" is not a typo of "-j").
    const std::size_t limit = std::min<std::size_t>(w.size() - 1, std::max(w.size(), n.size()) <= 4 ? 1 : 2);
    if (d <= limit && (!best || d < best_distance)) {
      best = c;
      best_distance = d;
    }
  }
  if (best) return best;
  // Else a word that begins exactly one candidate ("gen", "--for").
  std::vector<std::string> begun;
  for (const auto& c : candidates) {
    if (w.size() >= 2 && undashed(c).starts_with(w)) begun.push_back(c);
  }
  if (begun.size() == 1) return begun.front();
  return std::nullopt;
}

void add_manners(CLI::App& app) {
  app.set_version_flag("--version", version_text(),
                       "Print warlog's version, its JSON schema version and its store format, one a line");
  CLI::App* help = app.add_subcommand("help", "Show a verb's help, as warlog VERB --help does");
  help->add_option("verb", "The verb, and its sub-verb if it has them (warlog help dispute add)");
  help->footer("warlog help alone shows warlog --help.\nExit 0, or 2 when no verb has that name.");
  set_failure_message(app);
}

std::optional<int> answer_before_parse(const CLI::App& app, int argc, const char* const* argv) {
  const CLI::App* level = &app;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.starts_with('-')) {
      if (is_flag_of(*level, arg)) continue;
      // Where only verbs may follow, CLI11 would say a verb is missing.
      if (arg.size() > 1 && takes_only_verbs(*level)) {
        fmt::print(stderr, "{}", unknown_option(*level, arg));
        return kExitError;
      }
      return std::nullopt;  // CLI11 says what is wrong with it
    }
    if (level == &app && arg == "help") return run_help(app, argc, argv, i + 1);
    const CLI::App* verb = find_verb(*level, arg);
    if (verb == nullptr) {
      const std::string path = path_of(level);
      return unknown_verb(*level, arg, path.empty() ? "" : path + ": ");
    }
    if (!takes_only_verbs(*verb)) return std::nullopt;
    level = verb;
  }
  return std::nullopt;
}

}  // namespace warlog::cli
