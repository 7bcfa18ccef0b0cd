// Archive::audit and the walked-blocks records (docs/architecture.md ›
// Store format 2 › 5): the first audit writes the record of the blocks it
// walked whole into the user's cache, the next reads it and says the same,
// and a game resealed non-canonically since is still refused.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "store/tamper_store.hpp"
#include "warlog/replay/replay.hpp"
#include "warlog/store/snapshot_cache.hpp"

namespace warlog::store::tamper {
namespace {

using ::testing::HasSubstr;

TEST(WalkedAudit, TheFirstAuditRecordsItsBlocksTheNextSaysTheSameAndAForgeryMadeSinceIsStillCaught) {
  TamperCopy copy;
  const core::GameId game = sample_store().disputed_game;
  const std::filesystem::path cache_dir = copy.dir.path() / "cache";
  const std::filesystem::path key_file = copy.dir.path() / "config" / "local.key";
  auto audit = [&] {
    auto archive = replay::Archive::open(copy.store().string(), replay::Archive::Mode::ReadOnly);
    EXPECT_TRUE(archive) << archive.error().message;
    archive->use_snapshot_cache(cache_dir.string(), key_file.string());
    return archive->audit(game);  // the archive's end writes the records it holds
  };
  auto first = audit();
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_EQ(first->digest(), sample_store().audit_digest.at(game));
  core::Digest identity{};
  std::vector<core::Digest> blocks;
  {
    auto store = Store::open(copy.store(), Options{.read_only = true});
    ASSERT_TRUE(store);
    auto reader = store->reader();
    identity = reader->game(game)->identity;
    blocks = reader->verify(game)->blocks;
  }
  ASSERT_GT(blocks.size(), 2u);
  {
    auto cache = SnapshotCache::open(CacheLocation{cache_dir, key_file});
    ASSERT_TRUE(cache);
    EXPECT_EQ((*cache)->walked(identity)->blocks, blocks) << "the audit recorded every block it walked";
  }
  auto again = audit();
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ(again->digest(), first->digest());

  // A trailing word on event 70: it still decodes, it is not canonical,
  // and every tag, S, the head and the index are redone.
  test::forge_event(copy.store(), game, 70, [](std::string& bytes) { bytes.append(8, '\0'); },
                    test::Forge::Consistent);
  auto forged = audit();
  ASSERT_FALSE(forged) << "a non-canonical event audited under the record of the bytes before it";
  EXPECT_EQ(forged.error().code, ErrorCode::DataLoss);
  EXPECT_THAT(forged.error().message, HasSubstr("not one canonical message"));
}

}  // namespace
}  // namespace warlog::store::tamper
