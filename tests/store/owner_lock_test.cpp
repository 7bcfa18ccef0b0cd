// The owner lock (store/owner_lock.hpp, docs/server.md › 1): a served store
// refuses every local writer and no reader; a store open for writing cannot
// be served. flock locks of two descriptions conflict within one process too,
// so one test process plays both sides.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <fmt/format.h>

#include "store/store_fixtures.hpp"
#include "warlog/store/owner_lock.hpp"
#include "warlog/store/store.hpp"

namespace warlog::store {
namespace {

using test::make_game;
using test::open_store;
using test::TempDir;
using ::testing::HasSubstr;

TEST(OwnerLock, AServedStoreRefusesAWriterNamingTheServersPid) {
  TempDir dir;
  {
    auto store = open_store(dir.store());
    ASSERT_TRUE(store.import_game(make_game("Mill Road", 3)));
  }
  auto served = OwnerLock::own(dir.store());
  ASSERT_TRUE(served) << served.error().message;

  auto writer = Store::open(dir.store());
  ASSERT_FALSE(writer);
  EXPECT_EQ(writer.error().code, ErrorCode::Conflict);
  EXPECT_EQ(writer.error().message,
            fmt::format("warlog serve (pid {}) owns this store: record through it (its page and API), or stop it first", ::getpid()));

  Options ro;
  ro.read_only = true;
  auto reader = Store::open(dir.store(), ro);
  ASSERT_TRUE(reader) << reader.error().message;
  auto r = reader->reader();
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->game(1));
}

TEST(OwnerLock, AStoreOpenForWritingCannotBeServedAndTwoServersCannotOwnOne) {
  TempDir dir;
  {
    auto writer = open_store(dir.store());
    auto second = OwnerLock::own(dir.store());
    ASSERT_FALSE(second);
    EXPECT_EQ(second.error().code, ErrorCode::Conflict);
    EXPECT_THAT(second.error().message, HasSubstr("a local writer"));
  }
  Options serve;
  serve.serve_owner = true;
  auto owner = Store::open(dir.store(), serve);
  ASSERT_TRUE(owner) << owner.error().message;
  auto other = OwnerLock::own(dir.store());
  ASSERT_FALSE(other);
  EXPECT_EQ(other.error().message, fmt::format("warlog serve (pid {}) already owns this store", ::getpid()));
}

TEST(OwnerLock, TheLockDiesWithItsHolder) {
  TempDir dir;
  { auto created = open_store(dir.store()); }
  {
    auto served = OwnerLock::own(dir.store());
    ASSERT_TRUE(served);
  }
  auto writer = Store::open(dir.store());
  EXPECT_TRUE(writer) << writer.error().message;
}

}  // namespace
}  // namespace warlog::store
