// warlog backup DIR: a consistent compacted copy of a store in use, verified
// before it is renamed into place; nothing half-written ever left at DIR.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <map>
#include <set>
#include <thread>

#include "cli/cli_run.hpp"
#include "cli/cli_run.hpp"
#include "store/store_fixtures.hpp"
#include "warlog/replay/replay.hpp"

namespace warlog {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

const std::string kSamples = WARLOG_SAMPLES_DIR;

std::size_t ok_lines(const std::string& verify_out) {
  std::size_t n = 0;
  for (auto at = verify_out.find(": ok, chain intact"); at != std::string::npos;
       at = verify_out.find(": ok, chain intact", at + 1)) {
    ++n;
  }
  return n;
}

// Nothing but `keep` in dir: no partial copy left behind.
void expect_only(const fs::path& dir, const std::set<std::string>& keep) {
  for (const auto& e : fs::directory_iterator(dir)) {
    const auto name = e.path().filename().string();
    EXPECT_TRUE(keep.count(name) || name.ends_with(".wlog")) << "left behind: " << name;
  }
}

TEST(BackupCli, ABackupOfAStoreInUseIsAConsistentCopyThatVerifies) {
  testing::TempDir dir;
  auto archive = replay::Archive::open(dir.store(), replay::Archive::Mode::ReadWrite);
  ASSERT_TRUE(archive) << archive.error().message;
  std::atomic<std::size_t> imported = 0;
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(archive->import_file(testing::retitled_sample(dir.path(), "before " + std::to_string(i)), {}));
    ++imported;
  }
  // A writer commits a game at a time in this process while the backups,
  // other processes, copy the store.
  std::atomic<bool> stop = false;
  std::jthread writer([&] {
    for (int i = 0; i < 200 && !stop; ++i) {
      if (archive->import_file(testing::retitled_sample(dir.path(), "live " + std::to_string(i)), {})) ++imported;
    }
  });
  const std::string backup = (dir.path() / "backup").string();
  for (int round = 0; round < 3; ++round) {
    const std::size_t before = imported;
    const auto r = testing::run_warlog("backup --store " + dir.store() + " " + backup);
    const std::size_t after = imported;
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_THAT(r.out, HasSubstr("games verified"));
    // The copy is one moment of the store: every game whole and chained.
    const auto v = testing::run_warlog("verify --store " + backup);
    EXPECT_EQ(v.code, 0) << v.out << v.err;
    EXPECT_GE(ok_lines(v.out), before) << "round " << round;
    EXPECT_LE(ok_lines(v.out), after) << "round " << round;
    EXPECT_THAT(testing::slurp(fs::path(backup) / "BACKUP"), HasSubstr("warlog backup 1\n"));
  }
  stop = true;
  writer.join();
  EXPECT_GT(imported.load(), 3u) << "the writer never committed during the backups";
  expect_only(dir.path(), {"store", "backup"});
}

TEST(BackupCli, ACopyThatFailsVerificationIsNotRenamedIntoPlace) {
  testing::TempDir dir;
  ASSERT_EQ(testing::run_warlog("import --store " + dir.store() + " " + kSamples + "/games/cut_off.wlog").code, 0);
  ASSERT_EQ(testing::run_warlog("import --store " + dir.store() + " " + kSamples + "/games/green_powder.wlog").code, 0);
  // Game 2's event 5 altered in place: the copy carries the broken chain.
  store::test::edit_raw(dir.store(), store::kDbEvents, [](MDB_txn* txn, MDB_dbi dbi) {
    std::string bytes = store::test::raw_event(txn, dbi, 2, 5);
    bytes.back() = static_cast<char>(bytes.back() ^ 0x01);
    store::test::put_raw(txn, dbi, store::view(store::event_key(2, 5)), bytes);
  });
  const std::string backup = (dir.path() / "backup").string();
  const auto r = testing::run_warlog("backup --store " + dir.store() + " " + backup);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_EQ(testing::count_lines(r.err), 1u) << r.err;
  EXPECT_THAT(r.err, HasSubstr("warlog: backup: the copy does not verify: game 2 is BROKEN at seq"));
  EXPECT_THAT(r.err, HasSubstr("nothing written at " + backup));
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(fs::exists(backup));
  expect_only(dir.path(), {"store"});
}

TEST(BackupCli, ReplacesAPreviousBackupAndRefusesAnyOtherDirectory) {
  testing::TempDir dir;
  ASSERT_EQ(testing::run_warlog("import --store " + dir.store() + " " + kSamples + "/games/cut_off.wlog").code, 0);
  const fs::path backup = dir.path() / "backup";
  ASSERT_EQ(testing::run_warlog("backup --store " + dir.store() + " " + backup.string()).code, 0);
  ASSERT_EQ(testing::run_warlog("import --store " + dir.store() + " " + kSamples + "/games/green_powder.wlog").code, 0);
  const auto again = testing::run_warlog("backup --store " + dir.store() + " " + backup.string());
  EXPECT_EQ(again.code, 0) << again.err;
  EXPECT_THAT(again.out, HasSubstr("backup: 2 games verified"));
  EXPECT_THAT(testing::slurp(backup / "BACKUP"), HasSubstr("games: 2\n"));

  // A directory with anything else in it is not a backup; neither is the store.
  const fs::path mine = dir.path() / "mine";
  fs::create_directory(mine);
  std::ofstream(mine / "notes.txt") << "keep me";
  const auto refused = testing::run_warlog("backup --store " + dir.store() + " " + mine.string());
  EXPECT_EQ(refused.code, 2);
  EXPECT_EQ(testing::count_lines(refused.err), 1u) << refused.err;
  EXPECT_THAT(refused.err, HasSubstr("exists and is not a previous warlog backup"));
  EXPECT_EQ(testing::slurp(mine / "notes.txt"), "keep me");
  const auto itself = testing::run_warlog("backup --store " + dir.store() + " " + dir.store());
  EXPECT_EQ(itself.code, 2);
  EXPECT_THAT(itself.err, HasSubstr("is the store itself"));
  expect_only(dir.path(), {"store", "backup", "mine"});
}

TEST(BackupCli, HelpSaysWhatItChecksAndWhatItReplaces) {
  const auto r = testing::run_warlog("backup --help");
  EXPECT_EQ(r.code, 0);
  EXPECT_THAT(r.out, HasSubstr("Usage: warlog backup [OPTIONS] dir"));
  EXPECT_THAT(r.out, HasSubstr("every game's hash chain in it is verified"));
  EXPECT_THAT(r.out, HasSubstr("a previous backup"));
  EXPECT_THAT(r.out, HasSubstr("Exit 0 on success, 2 on error."));
  EXPECT_THAT(testing::run_warlog("--help").out, HasSubstr("backup"));
}

// The chain is over canonical bytes, never the stored form: a game signed
// in a store whose sealed blocks are raw (as a build before zstd wrote
// them) is backed up with those blocks compressed, and both the store and
// the backup say "valid, signed by trusted".
TEST(BackupCli, ASignedGameStaysValidThroughARecompressingBackup) {
  testing::TempDir dir;
  const std::string keyring = (dir.path() / "config" / "keyring").string();
  const std::string key = (dir.path() / "judge.key").string();
  ASSERT_EQ(testing::run_warlog("import --store " + dir.store() + " " + kSamples + "/games/the_long_hedgerow.wlog").code, 0);
  ASSERT_EQ(testing::run_warlog("keygen --out " + key).code, 0);
  ASSERT_EQ(testing::run_warlog("trust add 'Head Judge' " + key + " --keyring " + keyring + " --store " + dir.store()).code, 0);
  const auto signed_ok = testing::run_warlog("sign --store " + dir.store() + " --game 1 --key " + key + " --signer 'Head Judge'");
  ASSERT_EQ(signed_ok.code, 0) << signed_ok.err;
  const std::string valid = "valid, signed by trusted 'Head Judge'";
  auto codecs = [](const fs::path& store) {
    std::map<std::uint8_t, std::size_t> out;
    store::test::edit_raw(store, store::kDbEvents, [&](MDB_txn* txn, MDB_dbi dbi) {
      auto cursor = store::lmdb::Cursor::open(txn, dbi);
      for (auto e = cursor->get(MDB_FIRST); e && *e; e = cursor->get(MDB_NEXT)) ++out[static_cast<std::uint8_t>(cursor->value()[1])];
    });
    return out;
  };
  ASSERT_GE(codecs(dir.store())[1], 6u) << "the game's blocks are not compressed";
  // Every block stored raw, tags and S kept.
  store::test::edit_raw(dir.store(), store::kDbEvents, [&](MDB_txn* txn, MDB_dbi dbi) {
    std::vector<std::pair<std::string, std::string>> raw;
    auto cursor = store::lmdb::Cursor::open(txn, dbi);
    for (auto e = cursor->get(MDB_FIRST); e && *e; e = cursor->get(MDB_NEXT)) {
      auto b = store::test::TestBlock::parse(cursor->value());
      b.codec = 0;
      raw.emplace_back(std::string(cursor->key()), b.value());
    }
    for (const auto& [k, v] : raw) store::test::put_raw(txn, dbi, k, v);
  });
  ASSERT_EQ(codecs(dir.store())[1], 0u);
  const auto before = testing::run_warlog("verify --store " + dir.store() + " --keyring " + keyring);
  EXPECT_EQ(before.code, 0) << before.out << before.err;
  EXPECT_THAT(before.out, HasSubstr(valid));

  const std::string backup = (dir.path() / "backup").string();
  const auto b = testing::run_warlog("backup --store " + dir.store() + " " + backup);
  ASSERT_EQ(b.code, 0) << b.err;
  const auto in_backup = codecs(backup);
  EXPECT_GE(in_backup.at(1), 6u) << "the backup's sealed blocks are not compressed";
  const auto after = testing::run_warlog("verify --store " + backup + " --keyring " + keyring);
  EXPECT_EQ(after.code, 0) << after.out << after.err;
  EXPECT_THAT(after.out, HasSubstr(valid));
  EXPECT_LT(fs::file_size(fs::path(backup) / "data.mdb"), fs::file_size(fs::path(dir.store()) / "data.mdb"));
}

}  // namespace
}  // namespace warlog
