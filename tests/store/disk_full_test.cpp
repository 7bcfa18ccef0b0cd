// A full disk ("Trust the store", item 4). LMDB writes a commit's pages with
// pwrite; when the file system fills in the middle of one, the write comes
// back short and LMDB reports EIO, which read "Input/output error", as if
// the disk were failing. The store now says the disk is full, and what was
// committed before stays whole. The file system is a 2 MiB tmpfs mounted
// for the test (it needs CAP_SYS_ADMIN: skipped where mounting is refused).

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/mount.h>

#include <cerrno>
#include <cstring>

#include "store/store_fixtures.hpp"

namespace warlog::store {
namespace {

using test::make_game;
using test::TempDir;
using ::testing::HasSubstr;
using ::testing::Not;
namespace fs = std::filesystem;

class DiskFull : public ::testing::Test {
 protected:
  void SetUp() override {
    mnt_ = dir_.path() / "small";
    fs::create_directory(mnt_);
    if (::mount("tmpfs", mnt_.c_str(), "tmpfs", 0, "size=2m") != 0) {
      GTEST_SKIP() << "cannot mount a tmpfs here (" << std::strerror(errno) << ")";
    }
    mounted_ = true;
  }
  void TearDown() override {
    if (mounted_) ::umount2(mnt_.c_str(), MNT_DETACH);
  }
  fs::path store_dir() const { return mnt_ / "store"; }

  TempDir dir_;
  fs::path mnt_;
  bool mounted_ = false;
};

TEST_F(DiskFull, AnImportThatFillsTheDiskSaysSoAndTheStoreKeepsWhatWasCommitted) {
  std::size_t imported = 0;
  std::optional<Error> failure;
  {
    auto store = test::open_store(store_dir());
    // About 170 KB a game: the disk fills within a dozen.
    for (int i = 0; i < 100 && !failure; ++i) {
      auto id = store.import_game(make_game("Game " + std::to_string(i), 2000));
      if (id) {
        ++imported;
      } else {
        failure = id.error();
      }
    }
  }
  ASSERT_TRUE(failure) << "100 games fitted in 2 MiB";
  EXPECT_GT(imported, 0u);
  EXPECT_EQ(failure->code, ErrorCode::ResourceExhausted) << failure->message;
  EXPECT_THAT(failure->message, HasSubstr("the disk is full"));
  EXPECT_THAT(failure->message, Not(HasSubstr("Input/output error")));
  EXPECT_EQ(failure->message.find('\n'), std::string::npos);

  // Everything acknowledged before the full disk reads back and verifies.
  auto store = test::open_store(store_dir(), Options{.read_only = true});
  auto r = store.reader();
  ASSERT_TRUE(r) << r.error().message;
  const auto ids = r->game_ids().value();
  EXPECT_EQ(ids.size(), imported);
  for (const auto id : ids) {
    const auto report = r->verify(id);
    ASSERT_TRUE(report);
    EXPECT_TRUE(report->ok()) << report->broken->to_string();
  }
}

}  // namespace
}  // namespace warlog::store
