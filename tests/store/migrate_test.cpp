// warlog migrate on the committed format-1 store (tests/data/format1-store/,
// made by the last format-1 build: its README says how): docs/architecture.md
// › "Store format 2" › 7.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "store/store_fixtures.hpp"
#include "warlog/events/annotation_codec.hpp"
#include "warlog/store/signature.hpp"

namespace warlog::store {
namespace {

namespace fs = std::filesystem;
using test::TempDir;
using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using ::testing::Not;

const fs::path kFixture = fs::path(WARLOG_SOURCE_DIR) / "tests/data/format1-store";
constexpr std::int64_t kNow = 1'796'040'000'000;

// A copy of the fixture (opening writes lock.mdb; migrating renames).
fs::path copy_fixture(const TempDir& dir) {
  fs::create_directories(dir.store());
  fs::copy_file(kFixture / "data.mdb", dir.store() / "data.mdb");
  return dir.store();
}

TEST(Migrate, ConvertsTheCommittedFormatOneStore) {
  TempDir dir;
  const fs::path s = copy_fixture(dir);
  auto games = Store::migrate_format1(s, kNow);
  ASSERT_TRUE(games) << games.error().message;
  ASSERT_EQ(games->size(), 3u);
  EXPECT_EQ((*games)[0].events, 249u);
  EXPECT_EQ((*games)[1].events, 210u);
  EXPECT_EQ((*games)[2].events, 280u);
  ASSERT_EQ((*games)[1].signatures.size(), 1u) << "game 2 was signed in format 1";
  EXPECT_EQ((*games)[1].signatures[0].signer, "Test Signer");
  EXPECT_EQ(public_key_hex((*games)[1].signatures[0].public_key).substr(0, 16), "f4ad730f28e329b2");
  EXPECT_TRUE((*games)[0].signatures.empty());
  // Format 1 kept beside it, byte for byte.
  EXPECT_TRUE(fs::exists(fs::path(s.string() + ".format-1") / "data.mdb"));
  EXPECT_FALSE(fs::exists(fs::path(s.string() + ".migrating")));

  auto store = test::open_store(s, Options{.read_only = true});
  auto r = store.reader();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->game_ids().value(), (std::vector<core::GameId>{1, 2, 3}));
  for (core::GameId g : {1, 2, 3}) {
    auto report = r->verify(g);
    ASSERT_TRUE(report);
    EXPECT_TRUE(report->ok()) << report->broken->to_string();
    auto meta = r->game(g);
    ASSERT_TRUE(meta);
    EXPECT_TRUE(meta->migrated());
  }
  EXPECT_EQ(r->game(1)->title, "Cut off at the bridge");
  EXPECT_EQ(r->game(2)->seats[0].player, "Cato");
  // Game 1's dispute and ruling came through, then its migration record.
  auto a1 = r->annotations(1);
  ASSERT_TRUE(a1) << a1.error().message;
  ASSERT_EQ(a1->size(), 3u);
  EXPECT_EQ((*a1)[0].seq, 122u);
  EXPECT_TRUE(std::holds_alternative<core::DisputeRaised>((*a1)[0].value));
  ASSERT_TRUE(std::holds_alternative<core::DisputeRuled>((*a1)[1].value));
  EXPECT_EQ(std::get<core::DisputeRuled>((*a1)[1].value).dispute, (*a1)[0].n);
  ASSERT_TRUE(std::holds_alternative<core::Migrated>((*a1)[2].value));
  const auto& m1 = std::get<core::Migrated>((*a1)[2].value);
  EXPECT_EQ(m1.event_count, 249u);
  EXPECT_EQ(m1.format1_head, (*games)[0].format1_head);
  EXPECT_EQ(m1.migrated_at, kNow);
  // Game 2's format-1 signature is not carried as a signature (it signed
  // format 1's head): the migration record names it.
  auto a2 = r->annotations(2);
  ASSERT_TRUE(a2);
  ASSERT_EQ(a2->size(), 1u);
  const auto& m2 = std::get<core::Migrated>(a2->front().value);
  EXPECT_EQ(a2->front().seq, 209u);
  EXPECT_EQ(m2.signers, std::vector<std::string>{"Test Signer"});
  ASSERT_EQ(m2.signer_keys.size(), 1u);
  EXPECT_EQ(public_key_hex(m2.signer_keys[0]).substr(0, 16), "f4ad730f28e329b2");
  // The catalogs and rulesets came too (verify re-hashed them above).
  auto gone = Store::open(fs::path(s.string() + ".format-1"), Options{.read_only = true});
  ASSERT_FALSE(gone);
  EXPECT_THAT(gone.error().message, HasSubstr("has format 1: run `warlog migrate`"));
}

// A format-1 event altered: format 1's own chain check refuses the game by
// name, and nothing is written or renamed.
TEST(Migrate, RefusesAGameThatFailsFormatOneChecksByName) {
  TempDir dir;
  const fs::path s = copy_fixture(dir);
  test::edit_raw(s, kDbEvents, [](MDB_txn* txn, MDB_dbi dbi) {
    const auto key = event_key(3, 100);
    std::string v(*lmdb::get(txn, dbi, view(key)).value());
    v[v.size() / 2] ^= 0x01;
    test::put_raw(txn, dbi, view(key), v);
  });
  const std::string before = [&] {
    std::ifstream in(s / "data.mdb", std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }();
  auto games = Store::migrate_format1(s, kNow);
  ASSERT_FALSE(games);
  EXPECT_EQ(games.error().code, ErrorCode::DataLoss);
  EXPECT_THAT(games.error().message, ContainsRegex("game 3: seq 10[01]: "));
  EXPECT_THAT(games.error().message, Not(HasSubstr("game 1:")));
  EXPECT_THAT(games.error().message, HasSubstr("nothing was written"));
  EXPECT_FALSE(fs::exists(fs::path(s.string() + ".migrating")));
  EXPECT_FALSE(fs::exists(fs::path(s.string() + ".format-1")));
  std::ifstream in(s / "data.mdb", std::ios::binary);
  EXPECT_TRUE(std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()) == before);
}

// What format 1 signed: (game, count, head), not the signer's name (the flaw
// format 2's signature fixes, section 6). A renamed signer still verifies
// there, and the migration record keeps the name as format 1 stored it.
TEST(Migrate, AFormatOneSignatureNeverCoveredTheSignersName) {
  TempDir dir;
  const fs::path s = copy_fixture(dir);
  test::edit_raw(s, kDbAnnotations, [](MDB_txn* txn, MDB_dbi dbi) {
    auto record = [&] {
      auto cursor = lmdb::Cursor::open(txn, dbi);
      for (auto e = cursor->get(MDB_FIRST); e && *e; e = cursor->get(MDB_NEXT)) {
        if (get_be64(cursor->key().data()) == 2) return std::pair{std::string(cursor->key()), std::string(cursor->value())};
      }
      return std::pair{std::string(), std::string()};
    }();
    ASSERT_FALSE(record.first.empty()) << "game 2's signature";
    auto value = events::decode_annotation_format1(record.second);
    ASSERT_TRUE(value);
    std::get<core::GameSigned>(*value).signer = "Mallory";  // the signature covered the head, not the name
    test::put_raw(txn, dbi, record.first, events::encode_annotation_format1(*value));
  });
  auto games = Store::migrate_format1(s, kNow);
  ASSERT_TRUE(games) << games.error().message;
  EXPECT_EQ((*games)[1].signatures.at(0).signer, "Mallory");
}

// A forged format-1 signature is refused: migrating must not launder it into
// a "signed there" line.
TEST(Migrate, RefusesAForgedFormatOneSignature) {
  TempDir dir;
  const fs::path s = copy_fixture(dir);
  test::edit_raw(s, kDbAnnotations, [](MDB_txn* txn, MDB_dbi dbi) {
    std::pair<std::string, std::string> record;
    {
      auto cursor = lmdb::Cursor::open(txn, dbi);
      for (auto e = cursor->get(MDB_FIRST); e && *e; e = cursor->get(MDB_NEXT)) {
        if (get_be64(cursor->key().data()) == 2) record = {std::string(cursor->key()), std::string(cursor->value())};
      }
    }
    auto value = events::decode_annotation_format1(record.second);
    ASSERT_TRUE(value);
    std::get<core::GameSigned>(*value).signature[0] ^= 1;
    test::put_raw(txn, dbi, record.first, events::encode_annotation_format1(*value));
  });
  auto games = Store::migrate_format1(s, kNow);
  ASSERT_FALSE(games);
  EXPECT_THAT(games.error().message, HasSubstr("game 2: the format-1 signature by Test Signer does not verify"));
  EXPECT_FALSE(fs::exists(fs::path(s.string() + ".format-1")));
}

TEST(Migrate, AFormatTwoStoreHasNothingToMigrate) {
  TempDir dir;
  { auto st = test::open_store(dir.store()); }
  auto games = Store::migrate_format1(dir.store(), kNow);
  ASSERT_FALSE(games);
  EXPECT_EQ(games.error().code, ErrorCode::InvalidArgument);
  EXPECT_THAT(games.error().message, HasSubstr("has format 2, not 1"));
}

}  // namespace
}  // namespace warlog::store
