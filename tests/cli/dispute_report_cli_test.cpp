// Issue 18: `warlog dispute report` as the head judge uses it: a file to
// file or send, HTML (XHTML xmllint accepts) or Markdown, exit 1 when
// verify finds the game broken (the report says so), 2 on error.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "cli/cli_run.hpp"
#include "store/store_fixtures.hpp"

namespace warlog {
namespace {

using ::testing::HasSubstr;
using testing::run_warlog;

const std::string kSample = std::string(WARLOG_SAMPLES_DIR) + "/tutorial/spine_first_blood.wlog";

class DisputeReportCli : public ::testing::Test {
 protected:
  void SetUp() override {
    store_ = " --store " + dir_.store();
    ASSERT_EQ(run_warlog("import" + store_ + " " + kSample).code, 0);
    auto add = run_warlog("dispute add --game 1 --seq 27 --claim 'Bruno drew three cards' --by Alice --cite MUS-a.draw" +
                          store_);
    ASSERT_EQ(add.code, 0) << add.err;
    auto resolve = run_warlog("dispute resolve 1:27:0 --ruling 'Upheld: two cards' --by 'Judge Carla' --expect MUS-a.draw" +
                              store_);
    ASSERT_EQ(resolve.code, 0) << resolve.err;
  }
  static std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  testing::TempDir dir_;
  std::string store_;
};

TEST_F(DisputeReportCli, WritesAnXhtmlFileAndSaysWhatItWrote) {
  const std::string out = (dir_.path() / "report.html").string();
  auto r = run_warlog("dispute report 1:27:0 --out " + out + store_);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("wrote " + out + " (Dispute 1:27:0: First blood at the Old Mill, "));
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(std::system(("/usr/bin/xmllint --noout " + out).c_str()), 0);
  const std::string html = slurp(out);
  EXPECT_THAT(html, HasSubstr("Bruno drew three cards"));
  EXPECT_THAT(html, HasSubstr("Upheld: two cards"));
  EXPECT_THAT(html, HasSubstr("MUS-a.draw"));
  EXPECT_FALSE(std::filesystem::exists(out + ".partial"));
}

TEST_F(DisputeReportCli, MarkdownGoesToStandardOutput) {
  auto r = run_warlog("dispute report 1:27:0 --format md" + store_);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(r.out.starts_with("# Dispute 1:27:0: First blood at the Old Mill\n")) << r.out.substr(0, 200);
  EXPECT_THAT(r.out, HasSubstr("```text\n"));
}

// Found by a judge's trial: --out x.md wrote XHTML into it.
TEST_F(DisputeReportCli, TheOutNameChoosesTheFormatUnlessFormatIsGiven) {
  const std::string md = (dir_.path() / "report.md").string();
  ASSERT_EQ(run_warlog("dispute report 1:27:0 --out " + md + store_).code, 0);
  EXPECT_TRUE(slurp(md).starts_with("# Dispute 1:27:0"));
  auto mismatch = run_warlog("dispute report 1:27:0 --format html --out " + md + store_);
  EXPECT_EQ(mismatch.code, 2);
  EXPECT_THAT(mismatch.err, HasSubstr("give --format md"));
  auto pdf = run_warlog("dispute report 1:27:0 --out " + (dir_.path() / "r.pdf").string() + store_);
  EXPECT_EQ(pdf.code, 2);
  EXPECT_THAT(pdf.err, HasSubstr("the PDF comes from the viewer"));
}

TEST_F(DisputeReportCli, AnUnknownDisputeOrFormatIsAnError) {
  auto unknown = run_warlog("dispute report 1:27:5" + store_);
  EXPECT_EQ(unknown.code, 2);
  EXPECT_THAT(unknown.err, HasSubstr("no dispute 1:27:5"));
  EXPECT_EQ(run_warlog("dispute report 1:27:0 --format pdf" + store_).code, 2);
}

// The events still read, but the identity index no longer points at the
// game: verify finds it broken, and the report says so and exits 1.
TEST_F(DisputeReportCli, AGameVerifyFindsBrokenIsSaidBrokenAndExitsOne) {
  store::test::edit_raw(dir_.store(), "identity", [](MDB_txn* txn, MDB_dbi dbi) { ASSERT_EQ(mdb_drop(txn, dbi, 0), 0); });
  auto r = run_warlog("dispute report 1:27:0 --format md" + store_);
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_THAT(r.out, HasSubstr("- Chain: BROKEN at seq 0: no identity-index entry points at this game"));
  EXPECT_THAT(r.err, HasSubstr("game 1: verify finds it broken"));
}

}  // namespace
}  // namespace warlog
