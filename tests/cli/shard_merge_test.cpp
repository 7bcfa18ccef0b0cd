// audit and rule-diff --shard K/N, joined by warlog merge: the merged report
// is the single run's byte for byte in every format, on the samples and on a
// generated store, for N = 1, 2, 3 and 7; merge refuses parts that would
// not make that report (a shard missing, twice, of another run, cut short).

#include <gtest/gtest.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "cli_run.hpp"
#include "store/store_fixtures.hpp"
#include "temp_dir.hpp"

namespace warlog {
namespace {

using testing::run_warlog;
const std::string kSamples = WARLOG_SAMPLES_DIR;
const std::vector<std::string> kAuditFormats{"text", "json", "jsonl", "junit"};
const std::vector<std::string> kDiffFormats{"text", "json", "jsonl", "csv", "html", "junit"};

void write(const std::filesystem::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
}

// Runs `verb_args --shard k/N` for every k into files of `dir`; returns
// their paths as merge takes them (the shards given out of order).
std::string shard_parts(const testing::TempDir& dir, const std::string& verb_args, unsigned n) {
  std::string paths;
  for (unsigned k = n; k-- > 0;) {
    const auto part = dir.path() / ("part-" + std::to_string(k) + "-of-" + std::to_string(n));
    const auto r = run_warlog(fmt::format("{} --shard {}/{}", verb_args, k, n));
    EXPECT_EQ(r.code, 0) << verb_args << " --shard " << k << "/" << n << ": " << r.err;
    write(part, r.out);
    paths += " '" + part.string() + "'";
  }
  return paths;
}

// Every format of the verb, merged from N shards, against the single run.
void expect_merges_to_single_run(const testing::TempDir& dir, const std::string& verb_args,
                                 const std::vector<std::string>& formats, std::initializer_list<unsigned> ns) {
  for (unsigned n : ns) {
    const std::string parts = shard_parts(dir, verb_args, n);
    for (const auto& format : formats) {
      const auto single = run_warlog(verb_args + " --format " + format);
      const auto merged = run_warlog("merge" + parts + " --format " + format);
      EXPECT_EQ(merged.code, single.code) << verb_args << ", N = " << n << ", " << format << ": " << merged.err;
      EXPECT_EQ(merged.out, single.out) << verb_args << ", N = " << n << ", " << format;
      EXPECT_FALSE(single.out.empty()) << format;
    }
  }
}

class ShardMerge : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new testing::TempDir;
    store_ = "--store " + dir_->store();
    const auto r = run_warlog("import " + store_ + " " + kSamples + "/games/*.wlog " + kSamples + "/tutorial/*.wlog");
    ASSERT_EQ(r.code, 0) << r.err;
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static inline testing::TempDir* dir_ = nullptr;
  static inline std::string store_;
};

TEST_F(ShardMerge, AuditOfTheSamplesInEveryFormatIsTheSingleRun) {
  expect_merges_to_single_run(*dir_, "audit " + store_, kAuditFormats, {1, 2, 3, 7});
}

TEST_F(ShardMerge, AuditFiltersAreKeptInTheParts) {
  expect_merges_to_single_run(*dir_, "audit " + store_ + " --quiet --severity warning", kAuditFormats, {3});
  expect_merges_to_single_run(*dir_, "audit " + store_ + " --summary --rule WAR-C.lost", kAuditFormats, {2});
}

TEST_F(ShardMerge, RuleDiffOfBothSampleChangesInEveryFormatIsTheSingleRun) {
  expect_merges_to_single_run(*dir_, "rule-diff " + store_ + " --candidate " + kSamples + "/rulesets/empty_deck_penalty.toml",
                              kDiffFormats, {1, 2, 3, 7});
  expect_merges_to_single_run(*dir_,
                              "rule-diff " + store_ + " --candidate-catalog " + kSamples +
                                  "/catalogs/errata_burrower_vigor.csv --only outcome",
                              kDiffFormats, {2, 3});
}

// The shard of a game is BLAKE2b-256 of its id's 8 big-endian bytes, the
// first 8 bytes read big-endian, mod N (docs/scaling.md): in Python
// int.from_bytes(hashlib.blake2b(id.to_bytes(8, 'big'), digest_size=32).digest()[:8], 'big') % N
// gives shard 4 of 7 to game 1 alone among games 1 to 14, and games 1, 5,
// 6, 8, 13, 14 to shard 0 of 3.
TEST_F(ShardMerge, AGameIsInTheShardItsIdHashesTo) {
  auto games_of = [&](const std::string& shard) {
    const auto r = run_warlog("audit " + store_ + " --shard " + shard);
    EXPECT_EQ(r.code, 0) << r.err;
    std::vector<std::uint64_t> ids;
    std::istringstream in(r.out);
    for (std::string line; std::getline(in, line);) {
      const auto j = nlohmann::json::parse(line);
      if (j["type"] == "game") ids.push_back(j["game"].get<std::uint64_t>());
    }
    return ids;
  };
  EXPECT_EQ(games_of("4/7"), (std::vector<std::uint64_t>{1}));
  EXPECT_EQ(games_of("0/3"), (std::vector<std::uint64_t>{1, 5, 6, 8, 13, 14}));
}

TEST_F(ShardMerge, APartHoldsNoTimeHostOrPath) {
  const auto r = run_warlog("audit " + store_ + " --shard 0/2");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.find(dir_->path().string()), std::string::npos) << "the store's path";
  char host[256] = {};
  ASSERT_EQ(::gethostname(host, sizeof host - 1), 0);
  EXPECT_EQ(r.out.find(std::string("\"") + host + "\""), std::string::npos) << "the host name";
  const auto header = nlohmann::json::parse(r.out.substr(0, r.out.find('\n')));
  EXPECT_EQ(header["type"], "part");
  EXPECT_EQ(header["shard"]["index"], 0);
  EXPECT_EQ(header["shard"]["count"], 2);
  for (const char* key : {"time", "host", "store", "elapsed", "seconds"}) EXPECT_FALSE(header.contains(key)) << key;
  EXPECT_EQ(r.out, run_warlog("audit " + store_ + " --shard 0/2 -j 1").out) << "a part is the same on every run";
}

TEST_F(ShardMerge, MergeRefusesPartsThatDoNotMakeTheWholeReport) {
  const std::string audit = "audit " + store_;
  const auto p0 = dir_->path() / "r0", p1 = dir_->path() / "r1", other = dir_->path() / "other",
             cut = dir_->path() / "cut", three = dir_->path() / "three";
  write(p0, run_warlog(audit + " --shard 0/2").out);
  write(p1, run_warlog(audit + " --shard 1/2").out);
  write(other, run_warlog(audit + " --shard 1/2 --quiet").out);
  write(three, run_warlog(audit + " --shard 1/3").out);
  const std::string whole = testing::slurp(p1);
  write(cut, whole.substr(0, whole.rfind("{\"game\":")));  // the end line and the last game lost
  auto merge = [&](const std::string& parts) { return run_warlog("merge " + parts); };
  EXPECT_EQ(merge(p0.string() + " " + p1.string()).code, 1) << "the samples have violations";

  const auto missing = merge(p0.string());
  EXPECT_EQ(missing.code, 2);
  EXPECT_EQ(missing.err, "warlog: merge: shard 1/2 is missing (1 of 2 parts given)\n");
  EXPECT_EQ(missing.out, "");
  const auto twice = merge(p0.string() + " " + p0.string());
  EXPECT_EQ(twice.code, 2);
  EXPECT_NE(twice.err.find("shard 0/2 is also"), std::string::npos) << twice.err;
  const auto foreign = merge(p0.string() + " " + other.string());
  EXPECT_EQ(foreign.code, 2);
  EXPECT_NE(foreign.err.find("a part of another run"), std::string::npos) << foreign.err;
  EXPECT_EQ(merge(p0.string() + " " + three.string()).code, 2) << "1/3 with 0/2";
  const auto short_part = merge(p0.string() + " " + cut.string());
  EXPECT_EQ(short_part.code, 2);
  EXPECT_NE(short_part.err.find("cut short"), std::string::npos) << short_part.err;
  // A copy cut mid-line (the trial's truncated part: "not a line" before):
  // cut short, in its file and line.
  const auto truncated = dir_->path() / "truncated";
  const std::size_t second_game = whole.find("\n{\"game\":", whole.find("\n{\"game\":") + 1);
  ASSERT_NE(second_game, std::string::npos);
  write(truncated, whole.substr(0, second_game + 20));
  const auto mid_line = merge(p0.string() + " " + truncated.string());
  EXPECT_EQ(mid_line.code, 2);
  EXPECT_EQ(mid_line.err, "warlog: merge: " + truncated.string() +
                              ":3: the part is cut short in this line (the file stops mid-line: a truncated copy; "
                              "copy it again or run the shard again)\n");
  const auto not_a_part = merge(kSamples + "/games/cut_off.wlog");
  EXPECT_EQ(not_a_part.code, 2);
  EXPECT_NE(not_a_part.err.find("not a partial report"), std::string::npos) << not_a_part.err;
  const auto csv = merge(p0.string() + " " + p1.string() + " --format csv");
  EXPECT_EQ(csv.code, 2) << "audit has no CSV";
  EXPECT_NE(csv.err.find("audit has no format 'csv'"), std::string::npos) << csv.err;
}

TEST_F(ShardMerge, AFormatWithAShardIsAUsageError) {
  const auto r = run_warlog("audit " + store_ + " --shard 0/2 --format json");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err,
            "warlog: audit: --shard writes a partial report holding every format: give --format to warlog merge "
            "instead\n");
}

// A generated archive (warlog generate) of 60 games, audited and compared
// under the errata catalog.
TEST(ShardMergeGenerated, AGeneratedStoreMergesToTheSingleRunInEveryFormat) {
  testing::TempDir dir;
  const std::string store = "--store " + dir.store();
  // From the test's directory: generate finds the samples of the source tree.
  const auto g = run_warlog("generate " + store + " --games 60 --seed 7");
  ASSERT_EQ(g.code, 0) << g.err;
  expect_merges_to_single_run(dir, "audit " + store + " -j 2", kAuditFormats, {1, 2, 3, 7});
  expect_merges_to_single_run(
      dir, "rule-diff " + store + " -j 2 --candidate-catalog " + kSamples + "/catalogs/errata_burrower_vigor.csv",
      kDiffFormats, {1, 2, 3, 7});
}

// Game 1's event 7 cut short (as AuditRobustness does): the single run and
// the merge both report it once on stderr, exit 2, and print the same report.
TEST(ShardMergeDamaged, AGameThatCannotBeReadIsInTheMergeAsInTheSingleRun) {
  testing::TempDir dir;
  const std::string store = "--store " + dir.store();
  ASSERT_EQ(run_warlog("import " + store + " " + kSamples + "/tutorial/spine_first_blood.wlog").code, 0);
  const auto second = testing::retitled_sample(dir.path(), "Second");
  ASSERT_EQ(run_warlog("import " + store + " '" + second.string() + "'").code, 0);
  store::test::forge_event(dir.store(), 1, 7, [](std::string& bytes) { bytes.resize(bytes.size() / 16 * 8); },
                           store::test::Forge::Consistent);
  const std::string parts = shard_parts(dir, "audit " + store, 2);
  for (const std::string format : {"text", "json", "junit"}) {
    const auto single = run_warlog("audit " + store + " --format " + format);
    const auto merged = run_warlog("merge" + parts + " --format " + format);
    EXPECT_EQ(single.code, 2) << single.err;
    EXPECT_EQ(merged.code, 2) << merged.err;
    EXPECT_EQ(merged.out, single.out) << format;
    EXPECT_EQ(merged.err, single.err) << format << ": the same line about game 1";
    EXPECT_NE(merged.err.find("seq 7"), std::string::npos) << merged.err;
  }
}

}  // namespace
}  // namespace warlog
