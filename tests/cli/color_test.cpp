// Colour in audit's text and in record's answers: severities and citations
// styled with --color always, never with --color never, off when piped or
// when NO_COLOR is set (at a terminal, given by script(1)), and the same
// bytes otherwise.

#include <gtest/gtest.h>

#include <fstream>
#include <regex>

#include "cli_run.hpp"
#include "sample_lines.hpp"
#include "temp_dir.hpp"

namespace warlog {
namespace {

using testing::run_warlog;
using testing::run_warlog_command;
const std::string kSamples = WARLOG_SAMPLES_DIR;
const std::string kRedViolation = "\x1b[1m\x1b[91mviolation\x1b[0m";
const std::string kBlueCitation = "\x1b[34m[Warfare Phase \xe2\x80\xba Combat Rulings]\x1b[0m";

std::string without_escapes(const std::string& s) { return std::regex_replace(s, std::regex("\x1b\\[[0-9;]*m"), ""); }

class Color : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new testing::TempDir;
    store_ = "--store " + dir_->store();
    ASSERT_EQ(run_warlog("import " + store_ + " " + kSamples + "/games/cut_off.wlog").code, 0);  // game 1: WAR-C.lost
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  // At a terminal: script(1) gives the command a pseudo-terminal.
  static std::string at_terminal(const std::string& env, const std::string& args) {
    return run_warlog_command(env + " script -qec \"" + std::string(WARLOG_CLI_PATH) + " " + args + "\" /dev/null").out;
  }
  static inline testing::TempDir* dir_ = nullptr;
  static inline std::string store_;
};

TEST_F(Color, AlwaysStylesSeveritiesAndCitationsAndNothingElse) {
  const auto plain = run_warlog("audit " + store_ + " --color never");
  const auto painted = run_warlog("audit " + store_ + " --color always");
  EXPECT_EQ(painted.code, plain.code);
  EXPECT_NE(painted.out.find("WAR-C.lost " + kRedViolation + " (written)\n"), std::string::npos) << painted.out;
  EXPECT_NE(painted.out.find("            " + kBlueCitation + "\n"), std::string::npos) << painted.out;
  EXPECT_EQ(without_escapes(painted.out), plain.out);
  EXPECT_EQ(plain.out.find('\x1b'), std::string::npos);
  const auto json = run_warlog("audit " + store_ + " --color always --format json");
  EXPECT_EQ(json.out.find('\x1b'), std::string::npos) << "only text is coloured";
}

TEST_F(Color, AutoIsOffWhenPipedAndWhenNoColorIsSet) {
  EXPECT_EQ(run_warlog("audit " + store_).out.find('\x1b'), std::string::npos) << "piped";
  EXPECT_NE(at_terminal("env -u NO_COLOR", "audit " + store_).find(kRedViolation), std::string::npos)
      << "at a terminal";
  const std::string no_color = at_terminal("NO_COLOR=1", "audit " + store_);
  EXPECT_EQ(no_color.find(kRedViolation), std::string::npos) << no_color;
  EXPECT_NE(no_color.find("WAR-C.lost violation (written)"), std::string::npos) << no_color;
  EXPECT_NE(at_terminal("NO_COLOR=", "audit " + store_).find(kRedViolation), std::string::npos)
      << "an empty NO_COLOR is unset (no-color.org)";
  EXPECT_NE(run_warlog("audit " + store_ + " --color always", "NO_COLOR=1").out.find(kRedViolation), std::string::npos)
      << "--color always is asked for outright";
  EXPECT_EQ(run_warlog("audit " + store_ + " --color sometimes").code, 2);
}

TEST_F(Color, MergeColoursAsTheSingleRunDoes) {
  testing::TempDir parts;
  const std::string p0 = (parts.path() / "p0").string(), p1 = (parts.path() / "p1").string();
  std::ofstream(p0, std::ios::binary) << run_warlog("audit " + store_ + " --shard 0/2").out;
  std::ofstream(p1, std::ios::binary) << run_warlog("audit " + store_ + " --shard 1/2").out;
  ASSERT_EQ(run_warlog("merge " + p0 + " " + p1 + " --color never").out, run_warlog("audit " + store_).out);
  EXPECT_EQ(run_warlog("merge " + p0 + " " + p1 + " --color always").out,
            run_warlog("audit " + store_ + " --color always").out);
}

// record prints each line's findings as audit does (finding_text), so it
// colours them as audit does. cut_off.wlog recorded line by line from a
// file (stdin piped, so no line editor); its stdout a pipe or a terminal.
class RecordColor : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto lines = testing::sample_lines(dir_.path(), "games/cut_off.wlog");
    header_ = lines.header.string();
    body_ = (dir_.path() / "body.txt").string();
    std::ofstream out(body_, std::ios::binary);
    for (const auto& l : lines.body) out << l << "\n";
  }
  // A new store each time: the same game again would be a second game.
  std::string args(const std::string& more = "") {
    return "record --store " + (dir_.path() / ("s" + std::to_string(++stores_))).string() + " --header '" + header_ +
           "'" + more + " < '" + body_ + "'";
  }
  std::string at_terminal(const std::string& env, const std::string& more = "") {
    return run_warlog_command(env + " script -qec \"" + std::string(WARLOG_CLI_PATH) + " " + args(more) +
                              "\" /dev/null")
        .out;
  }
  testing::TempDir dir_;
  std::string header_, body_;
  int stores_ = 0;
};

TEST_F(RecordColor, AlwaysStylesTheFindingsOfItsAnswersAndNothingElse) {
  const auto plain = run_warlog(args(" --color never"));
  const auto painted = run_warlog(args(" --color always"));
  ASSERT_EQ(plain.code, 0) << plain.err;
  EXPECT_EQ(painted.code, plain.code);
  EXPECT_NE(painted.out.find("WAR-C.lost " + kRedViolation + " (written)\n"), std::string::npos) << painted.out;
  EXPECT_NE(painted.out.find("            " + kBlueCitation + "\n"), std::string::npos) << painted.out;
  EXPECT_EQ(without_escapes(painted.out), plain.out);
  EXPECT_EQ(plain.out.find('\x1b'), std::string::npos);
  EXPECT_EQ(run_warlog(args(" --color always --format jsonl")).out.find('\x1b'), std::string::npos)
      << "only text is coloured";
  EXPECT_EQ(run_warlog(args(" --color sometimes")).code, 2);
}

TEST_F(RecordColor, AutoIsOffWhenPipedAndWhenNoColorIsSet) {
  EXPECT_EQ(run_warlog(args()).out.find('\x1b'), std::string::npos) << "piped";
  EXPECT_NE(at_terminal("env -u NO_COLOR").find(kRedViolation), std::string::npos) << "at a terminal";
  const std::string no_color = at_terminal("NO_COLOR=1");
  EXPECT_EQ(no_color.find(kRedViolation), std::string::npos) << no_color;
  EXPECT_NE(no_color.find("WAR-C.lost violation (written)"), std::string::npos) << no_color;
  EXPECT_NE(run_warlog(args(" --color always"), "NO_COLOR=1").out.find(kRedViolation), std::string::npos)
      << "--color always is asked for outright";
}

}  // namespace
}  // namespace warlog
