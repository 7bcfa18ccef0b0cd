// The owner lock seen from the command line (docs/server.md › 1): while a
// server owns the store, every local writing verb is one line on stderr and
// exit 2, and writes nothing; the reading verbs work as before. The test
// process holds the lock as `warlog serve` does (store::OwnerLock::own).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <fmt/format.h>

#include "cli_run.hpp"
#include "temp_dir.hpp"
#include "warlog/store/owner_lock.hpp"

namespace warlog::testing {
namespace {

using ::testing::HasSubstr;

const std::string kSamples = WARLOG_SAMPLES_DIR;
const std::string kSpine = kSamples + "/tutorial/spine_first_blood.wlog";

TEST(OwnerLockCli, EveryLocalWriterIsRefusedWhileServedAndEveryReaderWorks) {
  TempDir dir;
  const std::string s = "--store '" + dir.store() + "'";
  ASSERT_EQ(run_warlog("import " + s + " '" + kSpine + "'").code, 0);
  const CliResult before = run_warlog("export 1 " + s + " --format json");
  ASSERT_EQ(before.code, 0) << before.err;

  auto served = store::OwnerLock::own(dir.store());
  ASSERT_TRUE(served) << served.error().message;
  const std::string refusal =
      fmt::format("warlog: warlog serve (pid {}) owns this store: record through it (its page and API), or stop it first\n", ::getpid());

  const std::string other = retitled_sample(dir.path(), "Second table").string();
  for (const std::string& writer : {
           "import " + s + " '" + other + "'",
           "record '" + dir.store() + "' --game 1 </dev/null",
           "dispute add " + s + " --game 1 --seq 3 --claim 'three cards' --by Ines",
           "generate " + s + " --games 1 --seed 3 --catalog '" + kSamples + "/catalogs/sample_cards.csv' --ruleset '" +
               kSamples + "/rulesets/standard.toml' --decks '" + kSamples + "/decks'",
       }) {
    const CliResult r = run_warlog(writer);
    EXPECT_EQ(r.code, 2) << writer;
    EXPECT_EQ(r.err, refusal) << writer;
  }
  for (const std::string& reader : {"list " + s, "verify " + s, "audit " + s + " --quiet", "export 1 " + s}) {
    const CliResult r = run_warlog(reader);
    EXPECT_NE(r.code, 2) << reader << ": " << r.err;
    // export says who attests the game on stderr, its stdout being the game (R-084).
    EXPECT_EQ(r.err, reader.starts_with("export") ? "game 1: trust: unsigned: consistent, nobody attests it\n" : "")
        << reader;
  }
  // Nothing was written: the one game, as it was.
  const CliResult list = run_warlog("list " + s);
  EXPECT_EQ(count_lines(list.out), 2u) << list.out;  // the header line and the one game
  EXPECT_EQ(run_warlog("export 1 " + s + " --format json").out, before.out);

  served = store::OwnerLock{};  // the server stops: writers are welcome again
  const CliResult after = run_warlog("import " + s + " '" + other + "'");
  EXPECT_EQ(after.code, 0) << after.err;
}

}  // namespace
}  // namespace warlog::testing
