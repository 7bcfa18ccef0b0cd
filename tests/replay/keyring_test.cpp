// The keyring: trusted keys and remembered signed states survive a save and
// a load; a keyring others may write, or one inside the store, is refused.

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>

#include "temp_dir.hpp"
#include "warlog/replay/keyring.hpp"
#include "warlog/store/signature.hpp"

namespace warlog::replay {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

core::PublicKey public_key() { return store::generate_keypair().value().public_key; }

TEST(Keyring, AnAbsentFileIsAnEmptyKeyringAndSavingMakesItPrivate) {
  testing::TempDir dir;
  const fs::path path = dir.path() / "config" / "warlog" / "keyring";
  auto k = Keyring::load(path);
  ASSERT_TRUE(k) << k.error().message;
  EXPECT_TRUE(k->keys().empty());
  const auto pub = public_key();
  ASSERT_TRUE(k->add("Head Judge", pub));
  SignedState s;
  s.identity[0] = 1;
  s.event_count = 58;
  s.event_head[1] = 2;
  s.annotation_count = 3;
  s.annotation_head[2] = 4;
  s.key_id = store::key_id_of(pub);
  s.signed_at_ms = 1'774'000'000'000;
  EXPECT_TRUE(k->remember(s));
  EXPECT_FALSE(k->remember(s)) << "remembered once";
  ASSERT_TRUE(k->save());
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);

  auto back = Keyring::load(path);
  ASSERT_TRUE(back) << back.error().message;
  ASSERT_EQ(back->keys().size(), 1u);
  EXPECT_EQ(back->keys()[0], (TrustedKey{"Head Judge", pub, store::key_id_of(pub)}));
  ASSERT_EQ(back->seen().size(), 1u);
  EXPECT_EQ(back->seen()[0], s);
  EXPECT_NE(back->find(store::key_id_of(pub)), nullptr);
}

TEST(Keyring, NamesAndKeysAreTrustedOnceAndRemovedByEither) {
  testing::TempDir dir;
  auto k = Keyring::load(dir.path() / "keyring").value();
  const auto a = public_key();
  const auto b = public_key();
  ASSERT_TRUE(k.add("Head Judge", a));
  EXPECT_EQ(k.add("Head Judge", b).error().code, ErrorCode::Conflict);
  EXPECT_EQ(k.add("Deputy", a).error().code, ErrorCode::Conflict);
  EXPECT_EQ(k.add("two\nlines", b).error().code, ErrorCode::InvalidArgument);
  ASSERT_TRUE(k.add("Deputy", b));
  EXPECT_EQ(k.remove(store::key_id_hex(store::key_id_of(b))).value().name, "Deputy");
  EXPECT_EQ(k.remove("Head Judge").value().public_key, a);
  EXPECT_EQ(k.remove("Head Judge").error().code, ErrorCode::NotFound);
}

TEST(Keyring, OneOthersMayWriteOrWithAForgedKeyIdIsRefused) {
  testing::TempDir dir;
  const fs::path path = dir.path() / "keyring";
  auto k = Keyring::load(path).value();
  ASSERT_TRUE(k.add("Head Judge", public_key()));
  ASSERT_TRUE(k.save());
  ::chmod(path.c_str(), 0666);
  auto open = Keyring::load(path);
  ASSERT_FALSE(open);
  EXPECT_THAT(open.error().message, HasSubstr("chmod 600"));
  ::chmod(path.c_str(), 0600);
  // The key id beside a key is checked: an edited key line is DataLoss.
  {
    std::ofstream(path) << "key 0000000000000000 " << store::public_key_hex(public_key()) << " Head Judge\n";
  }
  ::chmod(path.c_str(), 0600);
  auto forged = Keyring::load(path);
  ASSERT_FALSE(forged);
  EXPECT_EQ(forged.error().code, ErrorCode::DataLoss);
  EXPECT_THAT(forged.error().message, HasSubstr(":1: the key id is not the key's"));
}

TEST(KeyringPath, AFlagWinsAndAPathInsideTheStoreIsRefused) {
  EXPECT_EQ(keyring_path("/x/keyring").value(), fs::path("/x/keyring"));
  testing::TempDir dir;
  const fs::path store = dir.path() / "store";
  fs::create_directories(store);
  EXPECT_FALSE(check_keyring_outside(store / "keyring", store));
  EXPECT_FALSE(check_keyring_outside(store / "sub" / ".." / "keyring", store));
  EXPECT_FALSE(check_keyring_outside(store, store));
  EXPECT_TRUE(check_keyring_outside(dir.path() / "keyring", store));
  EXPECT_TRUE(check_keyring_outside(dir.path() / "store-keyring", store)) << "a sibling with a common prefix";
}

}  // namespace
}  // namespace warlog::replay
