#pragma once
// Runs the warlog executable as a user would, with stdout and stderr kept
// apart (a verb's report vs its one-line errors).

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "temp_dir.hpp"

namespace warlog::testing {

struct CliResult {
  int code = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// args are passed to the shell as written: quote paths with spaces.
inline CliResult run_warlog(const std::string& args, const std::string& env = "") {
  TempDir io;
  const auto out = io.path() / "out";
  const auto err = io.path() / "err";
  const std::string cmd =
      env + " " + std::string(WARLOG_CLI_PATH) + " " + args + " >'" + out.string() + "' 2>'" + err.string() + "'";
  const int status = std::system(cmd.c_str());
  CliResult r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

// Runs any command line (not warlog), with stdout and stderr kept apart.
inline CliResult run_warlog_command(const std::string& command) {
  TempDir io;
  const auto out = io.path() / "out";
  const auto err = io.path() / "err";
  const std::string cmd = command + " >'" + out.string() + "' 2>'" + err.string() + "'";
  const int status = std::system(cmd.c_str());
  CliResult r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

// The spine sample under another title (a second game, not a re-import),
// with its tag paths made absolute so it can live anywhere.
inline std::filesystem::path retitled_sample(const std::filesystem::path& dir, const std::string& title) {
  const std::string samples = WARLOG_SAMPLES_DIR;
  std::string text = slurp(samples + "/tutorial/spine_first_blood.wlog");
  const std::string old_title = "[Title \"First blood at the Old Mill\"]";
  text.replace(text.find(old_title), old_title.size(), "[Title \"" + title + "\"]");
  for (const std::string tag : {"\"../decks/", "\"../rulesets/", "\"../catalogs/"}) {
    for (auto p = text.find(tag); p != std::string::npos; p = text.find(tag, p + 1)) {
      text.replace(p + 1, 3, samples + "/");
    }
  }
  const std::filesystem::path file = dir / (title + ".wlog");
  std::ofstream(file) << text;
  return file;
}

inline std::size_t count_lines(const std::string& s) {
  std::size_t n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

}  // namespace warlog::testing
