// A judge's backup signed at the recorder (replay/backup_signature.hpp):
// valid where it was recorded, INVALID once its reason or its place in the
// history changes, and kept by export and re-import (docs/rulings.md R-084).

#include <gtest/gtest.h>

#include "sample_lines.hpp"
#include "temp_dir.hpp"
#include "warlog/replay/backup_signature.hpp"
#include "warlog/replay/export.hpp"
#include "warlog/replay/recorder.hpp"
#include "warlog/store/reader.hpp"
#include "warlog/store/store.hpp"

namespace warlog::replay {
namespace {

TEST(BackupSignature, R084ABackupSignedAtTheRecorderVerifiesAndAnEditDoesNot) {
  testing::TempDir dir;
  auto archive = Archive::open(dir.store(), Archive::Mode::ReadWrite);
  ASSERT_TRUE(archive) << archive.error().message;
  const testing::SampleLines spine = testing::sample_lines(dir.path(), "tutorial/spine_first_blood.wlog");
  auto r = Recorder::create(*archive, spine.header.string());
  ASSERT_TRUE(r) << r.error().error.message;
  for (const std::string& line : spine.body) ASSERT_TRUE(r->enter(line)) << line;
  std::array<std::uint8_t, 32> seed{};
  seed[0] = 7;
  const store::KeyPair judge = store::keypair_from_seed(seed);
  r->sign_backups_with(judge);
  auto backup = r->enter("backup 20 \"appeal\" by \"Judge Ada\"");
  ASSERT_TRUE(backup);
  ASSERT_EQ(backup->status, LineStatus::Recorded);
  const core::Seq at = backup->events.at(0).seq;

  auto checks = check_backup_signatures(*archive, r->game());
  ASSERT_TRUE(checks) << checks.error().message;
  ASSERT_EQ(checks->size(), 1u);
  EXPECT_EQ((*checks)[0].seq, at);
  EXPECT_TRUE((*checks)[0].valid) << (*checks)[0].detail;
  EXPECT_EQ((*checks)[0].key_id, store::key_id_of(judge.public_key));
  EXPECT_EQ((*checks)[0].by, "Judge Ada");

  auto events = archive->events(r->game());
  ASSERT_TRUE(events);
  auto reader = archive->store().reader();
  ASSERT_TRUE(reader);
  auto head = reader->head_at(r->game(), at);
  auto earlier = reader->head_at(r->game(), at - 1);
  ASSERT_TRUE(head && earlier);
  core::Event stored = (*events)[at];
  EXPECT_TRUE(check_backup_signature(stored, *head).valid);
  core::Event reasoned = stored;
  std::get<core::BackupTo>(reasoned.payload).reason = "appeal upheld";
  EXPECT_FALSE(check_backup_signature(reasoned, *head).valid) << "another reason";
  core::Event moved = stored;
  std::get<core::BackupTo>(moved.payload).target = 21;
  EXPECT_FALSE(check_backup_signature(moved, *head).valid) << "another target";
  EXPECT_FALSE(check_backup_signature(stored, *earlier).valid) << "another history before it";
  core::Event cut = stored;
  std::get<core::BackupTo>(cut.payload).signature.resize(10);
  EXPECT_EQ(check_backup_signature(cut, *head).detail.rfind("INVALID", 0), 0u);

  // The notation carries the signature (`signed "HEX"`): a re-import is the same game.
  auto exported = export_notation_checked(*archive, r->game());
  ASSERT_TRUE(exported);
  EXPECT_FALSE(exported->differs) << *exported->differs;
  EXPECT_NE(exported->text.find(" signed \""), std::string::npos);
}

}  // namespace
}  // namespace warlog::replay
