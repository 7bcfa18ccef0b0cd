// Standard tools read the store: mdb_stat, mdb_dump, and python3-lmdb (the
// Debian module for /usr/bin/python3) listing one game's keys in order.

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <fstream>
#include <sstream>

#include "store/store_fixtures.hpp"

namespace warlog::store {
namespace {

using test::make_game;
using test::open_store;
using test::TempDir;

bool have(const char* binary) { return std::filesystem::exists(binary); }

int run(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string quoted(const std::filesystem::path& p) { return "'" + p.string() + "'"; }

TEST(StoreTools, MdbStatAndMdbDumpReadTheStore) {
  if (!have("/usr/bin/mdb_stat") || !have("/usr/bin/mdb_dump")) GTEST_SKIP() << "lmdb-utils absent";
  TempDir dir;
  auto store = open_store(dir.store());  // left open: tools read beside a live store
  ASSERT_TRUE(store.import_game(make_game("Tools", 150)));  // blocks at seq 0, 1, 65, 129
  const auto out = dir.path() / "out.txt";
  EXPECT_EQ(run("/usr/bin/mdb_stat -a " + quoted(dir.store()) + " > " + quoted(out)), 0);
  std::stringstream stat;
  stat << std::ifstream(out).rdbuf();
  EXPECT_NE(stat.str().find("Status of events"), std::string::npos) << stat.str();
  EXPECT_NE(stat.str().find("Entries: 4\n"), std::string::npos) << stat.str();

  EXPECT_EQ(run("/usr/bin/mdb_dump -s events " + quoted(dir.store()) + " > " + quoted(out)), 0);
  std::stringstream dump;
  dump << std::ifstream(out).rdbuf();
  // The first key, game 1 seq 0, in mdb_dump's hex.
  EXPECT_NE(dump.str().find(" 00000000000000010000000000000000\n"), std::string::npos);
  for (const char* db : {"games", "identity", "blobs", "snapshots", "annotations", "meta"}) {
    EXPECT_EQ(
        run(std::string("/usr/bin/mdb_dump -s ") + db + " " + quoted(dir.store()) + " > /dev/null"),
        0)
        << db;
  }
}

// The layout can be followed by hand (keys.hpp, block.hpp): a block's key is
// its first seq, its u16 LE at offset 2 its event count.
TEST(StoreTools, PythonLmdbListsAGamesBlocksInSequenceOrder) {
  if (!have("/usr/bin/python3") || run("/usr/bin/python3 -c 'import lmdb' 2>/dev/null") != 0) {
    GTEST_SKIP() << "/usr/bin/python3 has no lmdb module";
  }
  TempDir dir;
  constexpr std::size_t kEvents = 600;  // past 256: a little-endian key would sort 256 before 1
  {
    auto store = open_store(dir.store());
    ASSERT_TRUE(store.import_game(make_game("Before", 3)));
    ASSERT_TRUE(store.import_game(make_game("Python", kEvents - 1)));
    ASSERT_TRUE(store.import_game(make_game("After", 3)));
  }
  const auto script = dir.path() / "keys.py";
  const auto out = dir.path() / "keys.txt";
  std::ofstream(script) << R"(import struct, sys
import lmdb
env = lmdb.open(sys.argv[1], readonly=True, max_dbs=16)
events = env.open_db(b"events", create=False)
game = int(sys.argv[2])
prefix = struct.pack(">Q", game)
with env.begin(db=events) as txn, open(sys.argv[3], "w") as out:
    cur = txn.cursor()
    if cur.set_range(prefix):
        for key in list(cur.iternext(values=False)):
            if key[:8] != prefix:
                break
            first = struct.unpack(">Q", key[8:16])[0]
            n = struct.unpack("<H", txn.get(key)[2:4])[0]
            for seq in range(first, first + n):
                out.write("%d\n" % seq)
)";
  ASSERT_EQ(
      run("/usr/bin/python3 " + quoted(script) + " " + quoted(dir.store()) + " 2 " + quoted(out)),
      0);
  std::ifstream in(out);
  std::vector<core::Seq> seqs;
  for (core::Seq s; in >> s;) seqs.push_back(s);
  ASSERT_EQ(seqs.size(), kEvents);
  for (std::size_t i = 0; i < seqs.size(); ++i) ASSERT_EQ(seqs[i], i);
}

}  // namespace
}  // namespace warlog::store
