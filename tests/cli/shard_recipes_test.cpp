// The recipes of docs/scaling.md on existing engines: GNU parallel on this
// machine (4 shards, no ssh) gives the single run's report and resumes
// from its job log; scripts/shard-job takes its shard from a Slurm array
// task or a Kubernetes Indexed Job; the job files parse.

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "cli_run.hpp"
#include "temp_dir.hpp"

namespace warlog {
namespace {

using testing::run_warlog;
using testing::run_warlog_command;
using testing::slurp;
const std::string kSource = WARLOG_SOURCE_DIR;
const std::string kSamples = WARLOG_SAMPLES_DIR;

// The directory of the warlog under test first on PATH, as the recipes
// expect it installed.
std::string with_warlog() {
  return "PATH='" + std::filesystem::path(WARLOG_CLI_PATH).parent_path().string() + "':\"$PATH\" ";
}

std::size_t lines(const std::string& text) { return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')); }

class ShardRecipes : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new testing::TempDir;
    store_ = dir_->store();
    const auto r = run_warlog("import --store " + store_ + " " + kSamples + "/games/*.wlog " + kSamples + "/tutorial/*.wlog");
    ASSERT_EQ(r.code, 0) << r.err;
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static inline testing::TempDir* dir_ = nullptr;
  static inline std::string store_;
};

TEST_F(ShardRecipes, GnuParallelOnThisMachineGivesTheSingleRunAndResumes) {
  testing::TempDir out;
  const std::string parts = (out.path() / "parts").string();
  const std::string recipe = with_warlog() + kSource + "/scripts/cluster/shard-parallel 4 '" + store_ + "' '" + parts +
                             "' rule-diff --candidate " + kSamples + "/rulesets/empty_deck_penalty.toml";
  const auto run = run_warlog_command(recipe);
  ASSERT_EQ(run.code, 0) << run.err;
  const std::string joblog = slurp(parts + "/joblog");
  EXPECT_EQ(lines(joblog), 5u) << "a header and 4 jobs:\n" << joblog;
  for (const char* format : {"text", "json", "html"}) {
    const auto merged = run_warlog("merge " + parts + "/part-*-of-4.jsonl --format " + format);
    const auto single = run_warlog("rule-diff --store " + store_ + " --candidate " + kSamples +
                                   "/rulesets/empty_deck_penalty.toml --format " + format);
    EXPECT_EQ(merged.code, single.code) << format << ": " << merged.err;
    EXPECT_EQ(merged.out, single.out) << format;
  }

  // A shard that did not finish (its part gone) is the only one run again.
  std::filesystem::remove(parts + "/part-2-of-4.jsonl");
  {  // parallel --resume skips what the job log has: drop job 3's line (shard 2)
    std::istringstream in(joblog);
    std::string kept;
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("3\t", 0) != 0) kept += line + "\n";
    }
    std::ofstream(parts + "/joblog", std::ios::binary) << kept;
  }
  const std::string part0 = slurp(parts + "/part-0-of-4.jsonl");
  const auto again = run_warlog_command(recipe);
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_EQ(lines(slurp(parts + "/joblog")), 5u) << slurp(parts + "/joblog");
  EXPECT_NE(again.err.find("wrote " + parts + "/part-2-of-4.jsonl"), std::string::npos) << again.err;
  EXPECT_EQ(again.err.find("part-0-of-4"), std::string::npos) << "shard 0 finished: not run again\n" << again.err;
  EXPECT_EQ(slurp(parts + "/part-0-of-4.jsonl"), part0);
  EXPECT_EQ(run_warlog("merge " + parts + "/part-*-of-4.jsonl").code, 1);
}

TEST_F(ShardRecipes, ShardJobTakesItsShardFromSlurmOrKubernetes) {
  testing::TempDir out;
  const std::string job = with_warlog() + kSource + "/scripts/shard-job '" + store_ + "' '" + out.path().string() + "' ";
  const auto slurm = run_warlog_command("SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_COUNT=3 " + job + "audit --quiet");
  ASSERT_EQ(slurm.code, 0) << slurm.err;
  EXPECT_EQ(slurp(out.path() / "part-1-of-3.jsonl"), run_warlog("audit --store " + store_ + " --quiet --shard 1/3").out);
  const auto k8s = run_warlog_command("JOB_COMPLETION_INDEX=2 WARLOG_SHARD_COUNT=3 " + job + "audit --quiet");
  ASSERT_EQ(k8s.code, 0) << k8s.err;
  EXPECT_EQ(slurp(out.path() / "part-2-of-3.jsonl"), run_warlog("audit --store " + store_ + " --quiet --shard 2/3").out);
  EXPECT_NE(k8s.err.find("backup: 14 games verified"), std::string::npos) << "the store is staged first\n" << k8s.err;
  const auto kept = run_warlog_command("JOB_COMPLETION_INDEX=2 WARLOG_SHARD_COUNT=3 " + job + "audit --quiet");
  EXPECT_EQ(kept.code, 0);
  EXPECT_NE(kept.err.find("already whole"), std::string::npos) << kept.err;

  const auto no_index = run_warlog_command("env -u SLURM_ARRAY_TASK_ID -u JOB_COMPLETION_INDEX WARLOG_SHARD_COUNT=3 " +
                                           job + "audit");
  EXPECT_EQ(no_index.code, 2);
  EXPECT_NE(no_index.err.find("no shard index"), std::string::npos) << no_index.err;
  const auto format = run_warlog_command("WARLOG_SHARD_INDEX=0 WARLOG_SHARD_COUNT=3 " + job + "audit --format json");
  EXPECT_EQ(format.code, 2);
  EXPECT_NE(format.err.find("--format is set by shard-job"), std::string::npos) << format.err;
  const auto beyond = run_warlog_command("WARLOG_SHARD_INDEX=3 WARLOG_SHARD_COUNT=3 " + job + "audit");
  EXPECT_EQ(beyond.code, 2) << beyond.err;
}

// The Slurm batch file runs shard-job as a task of an array would; the
// Kubernetes Job is an Indexed Job whose count matches its completions.
TEST_F(ShardRecipes, TheSlurmAndKubernetesJobFilesRunAndParse) {
  testing::TempDir out;
  const auto sbatch = run_warlog_command(with_warlog() + "SLURM_ARRAY_TASK_ID=0 SLURM_ARRAY_TASK_COUNT=2 " +
                                         "SLURM_CPUS_PER_TASK=1 WARLOG_SHARD_JOB=" + kSource + "/scripts/shard-job " +
                                         kSource + "/scripts/cluster/slurm-shards.sbatch '" + store_ + "' '" +
                                         out.path().string() + "' audit");
  ASSERT_EQ(sbatch.code, 0) << sbatch.err;
  EXPECT_EQ(slurp(out.path() / "part-0-of-2.jsonl"), run_warlog("audit --store " + store_ + " --shard 0/2").out);
  const std::string batch = slurp(kSource + "/scripts/cluster/slurm-shards.sbatch");
  EXPECT_NE(batch.find("\n#SBATCH --array=0-"), std::string::npos);

  const std::string check =
      "import sys, yaml\n"
      "job = yaml.safe_load(open(sys.argv[1]))\n"
      "spec = job['spec']\n"
      "assert job['kind'] == 'Job' and spec['completionMode'] == 'Indexed', 'an Indexed Job'\n"
      "c = spec['template']['spec']['containers'][0]\n"
      "env = {e['name']: e['value'] for e in c['env']}\n"
      "assert int(env['WARLOG_SHARD_COUNT']) == spec['completions'], 'WARLOG_SHARD_COUNT is completions'\n"
      "assert c['command'][0] == 'warlog-shard-job', c['command']\n"
      "mounts = {m['mountPath'] for m in c['volumeMounts']}\n"
      "assert env['WARLOG_STAGE_DIR'] in mounts, 'the stage is a volume of its own'\n"
      "stage = [v for v in spec['template']['spec']['volumes'] if 'emptyDir' in v]\n"
      "assert stage, 'the store is staged on the pod disk'\n"
      "print('ok')\n";
  std::ofstream(out.path() / "check.py") << check;
  const auto yaml = run_warlog_command(std::string(WARLOG_PYTHON3) + " " + (out.path() / "check.py").string() + " " +
                                       kSource + "/scripts/cluster/k8s-indexed-job.yaml");
  EXPECT_EQ(yaml.code, 0) << yaml.err;
  EXPECT_EQ(yaml.out, "ok\n");
}

}  // namespace
}  // namespace warlog
