// `warlog rules --show ID`: a rule's section of the rules documents, in their
// own words, read from the folder found at run time (never copied into
// warlog), and one-line refusals when there is none to read.

#include <gtest/gtest.h>

#include <string>

#include "cli_run.hpp"

namespace warlog {
namespace {

const std::string kRules = WARLOG_RULES_DIR;

TEST(RulesShow, PrintsTheCitedSectionFromTheRulesFolder) {
  const auto r = testing::run_warlog("rules MUS-a.draw --show --rules '" + kRules + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("Muster Phase › Steps › a. Draw cards"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(", lines "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  | a. Draw cards."), std::string::npos) << "the heading's own line, quoted\n" << r.out;
  EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST(RulesShow, TheEnvironmentNamesTheFolderToo) {
  const auto r = testing::run_warlog("rules MUS-a.draw --show", "WARLOG_RULES='" + kRules + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("  | a. Draw cards."), std::string::npos) << r.out;
}

TEST(RulesShow, NoFolderIsOneLineAndExit2) {
  const auto r = testing::run_warlog("rules MUS-a.draw --show --rules /nonexistent/rules");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "warlog: no rules folder at /nonexistent/rules: --rules names a folder holding the rules "
                   "documents (see ../shared/rules/README.md)\n");
}

TEST(RulesShow, AnUnpublishedPageSaysSoInJsonAndExits2) {
  const auto r = testing::run_warlog("rules MOR.leader MUS-a.draw --show --format json --rules '" + kRules + "'");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("\"section_error\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"first_line\""), std::string::npos) << "MUS-a.draw's section is still shown\n" << r.out;
}

}  // namespace
}  // namespace warlog
