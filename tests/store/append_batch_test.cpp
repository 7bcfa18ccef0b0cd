// Store::append_batch (docs/server.md › 2): many appends, one transaction;
// each checked against its own expected seq, a refused one writing nothing
// of itself and not stopping the others.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "store/store_fixtures.hpp"

namespace warlog::store {
namespace {

using test::as_stored;
using test::make_game;
using test::open_store;
using test::read_all;
using test::TempDir;
using ::testing::HasSubstr;

TEST(StoreAppendBatch, EachRequestIsCheckedAgainstItsOwnExpectedSeqAndTheOthersGoOn) {
  TempDir dir;
  auto store = open_store(dir.store());
  // Two games of 70 events (past a block of 64) whose last 6 are appended here.
  const auto a = make_game("Table 1", 69);
  const auto b = make_game("Table 2", 69);
  auto ia = store.import_game(std::span(a).first(64));
  auto ib = store.import_game(std::span(b).first(64));
  ASSERT_TRUE(ia && ib);

  const std::span<const core::Event> a_rest = std::span(a).subspan(64);
  const std::vector<AppendRequest> batch = {
      {*ia, 64, a_rest.first(3)},     // ok: 67
      {*ib, 63, std::span(b).subspan(64)},  // stale: Conflict, nothing of it written
      {*ia, 67, a_rest.subspan(3)},   // after the first in the same batch: 70
      {99, 0, a_rest.first(1)},       // no such game
      {*ib, 64, std::span(a).first(1)},  // a GameCreated: refused before the transaction
  };
  auto r = store.append_batch(batch);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->size(), 5u);
  EXPECT_EQ((*r)[0], core::Seq{67});
  ASSERT_FALSE((*r)[1]);
  EXPECT_EQ((*r)[1].error().code, ErrorCode::Conflict);
  EXPECT_EQ((*r)[2], core::Seq{70});
  ASSERT_FALSE((*r)[3]);
  EXPECT_EQ((*r)[3].error().code, ErrorCode::NotFound);
  ASSERT_FALSE((*r)[4]);
  EXPECT_EQ((*r)[4].error().code, ErrorCode::InvalidArgument);

  EXPECT_EQ(read_all(store, *ia), as_stored(a, *ia));
  EXPECT_EQ(read_all(store, *ib), as_stored(std::vector(b.begin(), b.begin() + 64), *ib));
  auto reader = store.reader();
  ASSERT_TRUE(reader);
  for (core::GameId g : {*ia, *ib}) {
    auto v = reader->verify(g);
    ASSERT_TRUE(v);
    EXPECT_TRUE(v->ok()) << v->broken->to_string();
  }
}

TEST(StoreAppendBatch, AnEmptyBatchCommitsNothingAndSucceeds) {
  TempDir dir;
  auto store = open_store(dir.store());
  auto r = store.append_batch({});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(r->empty());
}

}  // namespace
}  // namespace warlog::store
