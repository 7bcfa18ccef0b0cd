// The CLI's manners (cli/manners.cpp): --version, `warlog help VERB`, a
// mistyped verb or option answered with a suggestion, every error one line
// that starts "warlog:", and every verb's --help stating its exit codes.

#include <gtest/gtest.h>

#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli_run.hpp"
#include "warlog/store/keys.hpp"

namespace warlog {
namespace {

using testing::count_lines;
using testing::run_warlog;

// Every line of err starts "warlog:", and there is exactly one.
void expect_one_error_line(const testing::CliResult& r, const std::string& args) {
  EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
  EXPECT_EQ(count_lines(r.err), 1u) << args << "\n" << r.err;
  std::istringstream lines(r.err);
  for (std::string line; std::getline(lines, line);) {
    EXPECT_TRUE(line.starts_with("warlog: ")) << args << ": " << line;
  }
}

// The verbs a help text lists under "Subcommands:", in order.
std::vector<std::string> verbs_listed(const std::string& help) {
  std::vector<std::string> verbs;
  const auto at = help.find("Subcommands:\n");
  if (at == std::string::npos) return verbs;
  std::istringstream lines(help.substr(at + 13));
  for (std::string line; std::getline(lines, line) && line.starts_with("  ");) {
    std::istringstream words(line);
    std::string verb;
    words >> verb;
    verbs.push_back(verb);
  }
  return verbs;
}

TEST(CliManners, VersionPrintsVersionJsonSchemaAndStoreFormatOneALine) {
  const auto r = run_warlog("--version");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_TRUE(std::regex_match(r.out, std::regex("warlog [0-9]+\\.[0-9]+\\.[0-9]+\n"
                                                 "json-schema 3\n"
                                                 "store-format " +
                                                 std::to_string(store::kFormatVersion) + "\n")))
      << r.out;
  EXPECT_NE(run_warlog("--help").out.find("--version"), std::string::npos);
}

TEST(CliManners, HelpVerbPrintsWhatVerbDashDashHelpPrints) {
  for (const std::string verb : {"audit", "rule-diff", "import", "dispute", "dispute add"}) {
    const auto help = run_warlog("help " + verb);
    const auto dash = run_warlog(verb + " --help");
    EXPECT_EQ(help.code, 0) << verb << help.err;
    EXPECT_EQ(help.err, "") << verb;
    EXPECT_EQ(help.out, dash.out) << verb;
    EXPECT_NE(help.out.find("Usage: warlog " + verb), std::string::npos) << help.out;
  }
}

TEST(CliManners, HelpAlonePrintsTheTopLevelHelp) {
  const auto help = run_warlog("help");
  EXPECT_EQ(help.code, 0) << help.err;
  EXPECT_EQ(help.out, run_warlog("--help").out);
  EXPECT_NE(help.out.find("Subcommands:"), std::string::npos) << help.out;
}

TEST(CliManners, HelpOfANonexistentVerbIsAUsageError) {
  const auto r = run_warlog("help nosuchverb");
  expect_one_error_line(r, "help nosuchverb");
  EXPECT_EQ(r.out, "") << "no help printed for a verb that does not exist";
  EXPECT_NE(r.err.find("'nosuchverb'"), std::string::npos) << r.err;
  expect_one_error_line(run_warlog("help dispute nosuch"), "help dispute nosuch");
}

// Was: CLI11 took the unknown word for an extra argument, honoured --help
// and printed the top-level help with exit 0.
TEST(CliManners, UnknownVerbIsAnErrorEvenWithHelpAfterIt) {
  for (const std::string args : {"nosuchverb --help", "nosuchverb", "--help nosuchverb", "dispute nosuch --help"}) {
    const auto r = run_warlog(args);
    expect_one_error_line(r, args);
    EXPECT_EQ(r.out, "") << args << ": help printed for an unknown verb";
    EXPECT_NE(r.err.find("unknown verb 'nosuch"), std::string::npos) << r.err;
  }
}

TEST(CliManners, MistypedVerbSuggestsARealVerb) {
  // No verb is near 'frobnicate': the line lists the real ones. ('recrod',
  // the word this test used, is a slip of `record` since that verb exists.)
  for (const std::string args : {"frobnicate", "frobnicate --help"}) {
    const auto r = run_warlog(args);
    expect_one_error_line(r, args);
    EXPECT_NE(r.err.find("unknown verb 'frobnicate'"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("import, audit"), std::string::npos) << r.err;
  }
  EXPECT_EQ(run_warlog("recrod --help").err, "warlog: unknown verb 'recrod': did you mean 'record'?\n");
  EXPECT_EQ(run_warlog("audti --help").err, "warlog: unknown verb 'audti': did you mean 'audit'?\n");
  EXPECT_EQ(run_warlog("verfiy").err, "warlog: unknown verb 'verfiy': did you mean 'verify'?\n");
  EXPECT_EQ(run_warlog("rule-dif").err, "warlog: unknown verb 'rule-dif': did you mean 'rule-diff'?\n");
  EXPECT_EQ(run_warlog("gen").err, "warlog: unknown verb 'gen': did you mean 'generate'?\n");
  EXPECT_EQ(run_warlog("dispute ad").err, "warlog: dispute: unknown verb 'ad': did you mean 'add'?\n");
  EXPECT_EQ(run_warlog("help audti").err, "warlog: help: unknown verb 'audti': did you mean 'audit'?\n");
}

TEST(CliManners, MisspeltOptionSuggestsTheVerbsOwnOption) {
  const auto r = run_warlog("audit --fromat json");
  expect_one_error_line(r, "audit --fromat json");
  EXPECT_EQ(r.err, "warlog: audit: unknown option '--fromat': did you mean '--format'?\n");
  EXPECT_EQ(run_warlog("verify --gmae 1").err, "warlog: verify: unknown option '--gmae': did you mean '--game'?\n");
  EXPECT_EQ(run_warlog("dispute list --fromat=json").err,
            "warlog: dispute list: unknown option '--fromat': did you mean '--format'?\n");
  // Nothing near: where to look instead of a guess.
  EXPECT_EQ(run_warlog("audit --frobnicate").err,
            "warlog: audit: unknown option '--frobnicate' (warlog help audit lists the options)\n");
}

TEST(CliManners, EveryErrorLineStartsWithWarlog) {
  for (const std::string args : {"", "--bogus", "audit --no-such-flag", "audit --format xml", "audit --game x",
                                 "export", "rules --format", "snapshot --every 0", "dispute", "dispute add",
                                 "list extra words", "help --bogus", "generate --turns 0"}) {
    const auto r = run_warlog(args);
    expect_one_error_line(r, args);
    EXPECT_EQ(r.out, "") << args;
  }
}

// Each verb's footer says what its exit codes mean: "Exit 0 ..., 2 ...", and
// the verbs that exit 1 say when.
TEST(CliManners, EveryVerbsHelpStatesItsExitCodes) {
  const std::regex codes("Exit 0[^.]*\\b2\\b");
  const std::regex one("\\b1 when");
  std::vector<std::string> verbs = verbs_listed(run_warlog("--help").out);
  ASSERT_GE(verbs.size(), 14u) << "the top-level help lists the verbs under Subcommands:";
  for (std::size_t i = 0; i < verbs.size(); ++i) {
    const auto help = run_warlog("help " + verbs[i]);
    ASSERT_EQ(help.code, 0) << verbs[i] << help.err;
    EXPECT_TRUE(std::regex_search(help.out, codes)) << "warlog " << verbs[i] << " --help names no exit codes:\n"
                                                    << help.out;
    for (const auto& sub : verbs_listed(help.out)) verbs.push_back(verbs[i] + " " + sub);
  }
  for (const std::string verb : {"audit", "verify", "rule-diff", "generate", "dispute export-test"}) {
    EXPECT_TRUE(std::regex_search(run_warlog("help " + verb).out, one)) << verb << " exits 1: its help says when";
  }
}

}  // namespace
}  // namespace warlog
