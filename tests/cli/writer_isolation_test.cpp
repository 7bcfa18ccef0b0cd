// The verbs that write open the store in a child of warlog (issue 14, "No
// store crashes the tool"): a damaged page that kills the writer is one
// line, exit 2. Each case first finds, with WARLOG_NO_ISOLATION=1, a zeroed
// page that does end the verb by a signal in-process (the attacker's
// trial: `warlog sign` died of SIGABRT), then runs the verb as users do.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <optional>
#include <random>

#include "cli/cli_run.hpp"

namespace warlog {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

const std::string kSamples = WARLOG_SAMPLES_DIR;
constexpr std::size_t kPage = 4096;

class WriterIsolation : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* g : {"cut_off", "green_powder", "the_mill_road"}) {
      ASSERT_EQ(testing::run_warlog("import --store " + pristine_ + " " + kSamples + "/games/" + g + ".wlog").code, 0);
    }
    ASSERT_EQ(testing::run_warlog("keygen --out " + key_).code, 0);
    bytes_ = testing::slurp(fs::path(pristine_) / "data.mdb");
  }

  // The store at store_ with page `page` of the pristine one zeroed, or
  // filled with random bytes (seeded by the page).
  void zero_page(std::size_t page, bool random = false) {
    fs::remove_all(store_);
    fs::create_directories(store_);
    std::string b = bytes_;
    std::mt19937_64 rng(page);
    for (std::size_t i = page * kPage; i < (page + 1) * kPage; ++i) b[i] = random ? static_cast<char>(rng()) : '\0';
    std::ofstream(fs::path(store_) / "data.mdb", std::ios::binary) << b;
  }

  // The first page (from 2: the meta pages are LMDB's to refuse) whose
  // zeroing (or, with `random`, randomising) ends `verb` by a signal when
  // it runs in warlog's own process.
  std::optional<std::size_t> page_that_kills(const std::string& verb, bool random = false) {
    for (std::size_t page = 2; page < bytes_.size() / kPage; ++page) {
      zero_page(page, random);
      if (testing::run_warlog(verb, "WARLOG_NO_ISOLATION=1").code > 2) return page;
    }
    return std::nullopt;
  }

  testing::TempDir dir_;
  std::string pristine_ = (dir_.path() / "pristine").string();
  std::string store_ = (dir_.path() / "store").string();
  std::string key_ = (dir_.path() / "judge.key").string();
  std::string bytes_;
};

TEST_F(WriterIsolation, SignOnAZeroedPageIsOneLineNotSigabrt) {
  const std::string sign = "sign --store " + store_ + " --game 1 --key " + key_ + " --signer Judge";
  const auto page = page_that_kills(sign);
  ASSERT_TRUE(page) << "no zeroed page ended an in-process sign by a signal";
  zero_page(*page);
  const auto r = testing::run_warlog(sign);
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(testing::count_lines(r.err), 1u) << r.err;
  EXPECT_THAT(r.err, HasSubstr("warlog: store " + store_ + ": the data file is corrupt near page " +
                               std::to_string(*page) + ": restore it from a copy (signing game 1; the writer died of "));
}

// No zeroed page of this store kills an in-process dispute add (its reads
// meet the damage as a broken block first); a randomised one does.
TEST_F(WriterIsolation, DisputeAddOnARandomisedPageIsOneLineNotASignal) {
  const std::string add = "dispute add --store " + store_ + " --game 2 --seq 5 --claim 'out of turn' --by Ines";
  const auto page = page_that_kills(add, /*random=*/true);
  ASSERT_TRUE(page) << "no randomised page ended an in-process dispute add by a signal";
  zero_page(*page, /*random=*/true);
  const auto r = testing::run_warlog(add);
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(testing::count_lines(r.err), 1u) << r.err;
  EXPECT_THAT(r.err, HasSubstr("the data file is corrupt near page " + std::to_string(*page) +
                               ": restore it from a copy (adding a dispute to game 2; the writer died of "));
}

// A server would map the store for hours in warlog's own process: the page
// walk before it refuses the store instead, and nothing is served.
TEST_F(WriterIsolation, ServeRefusesAStoreWithAZeroedPageBeforeServing) {
  const auto page = page_that_kills("sign --store " + store_ + " --game 1 --key " + key_ + " --signer Judge");
  ASSERT_TRUE(page);
  zero_page(*page);
  const auto r = testing::run_warlog_command("timeout 60 " + std::string(WARLOG_CLI_PATH) + " serve " + store_ +
                                             " --http 127.0.0.1:0");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(testing::count_lines(r.err), 1u) << r.err;
  EXPECT_THAT(r.err, HasSubstr("the data file is corrupt near page " + std::to_string(*page) +
                               ": restore it from a copy (the page walk before serving found "));
  EXPECT_THAT(r.err, HasSubstr("nothing served"));
}

// What the child printed and its exit code are the verb's own.
TEST_F(WriterIsolation, ASoundStoreSignsThroughTheChildAsBefore) {
  const auto r = testing::run_warlog("sign --store " + pristine_ + " --game 1 --key " + key_ + " --signer Judge");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("game 1 signed by Judge"));
  const auto v = testing::run_warlog("verify --store " + pristine_ + " --game 1");
  EXPECT_EQ(v.code, 0) << v.err;
  const auto again = testing::run_warlog("sign --store " + pristine_ + " --game 9 --key " + key_ + " --signer Judge");
  EXPECT_EQ(again.code, 2);
  EXPECT_EQ(testing::count_lines(again.err), 1u) << again.err;
}

}  // namespace
}  // namespace warlog
