// find_damaged_page (store/page_walk.hpp): a guarded walk of data.mdb that
// names a page damaged at the page level, without mapping the file.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <cstring>
#include <random>

#include "store_fixtures.hpp"
#include "warlog/store/page_walk.hpp"

namespace warlog::store {
namespace {

namespace fs = std::filesystem;
using test::TempDir;

// A store of 12 games of 300 events each, closed: about a hundred pages
// of branches, leaves and overflow values.
class PageWalk : public ::testing::Test {
 protected:
  void SetUp() override {
    auto s = test::open_store(dir_.path());
    for (int g = 0; g < 12; ++g) ASSERT_TRUE(s.import_game(test::make_game("walk " + std::to_string(g), 300)));
  }
  fs::path data() const { return dir_.path() / "data.mdb"; }
  std::size_t pages() const { return fs::file_size(data()) / 4096; }
  void overwrite(std::size_t page, std::size_t at, const std::string& bytes) const {
    std::fstream f(data(), std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(page * 4096 + at));
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  std::string read(std::size_t page) const {
    std::ifstream f(data(), std::ios::binary);
    std::string bytes(4096, '\0');
    f.seekg(static_cast<std::streamoff>(page * 4096));
    f.read(bytes.data(), 4096);
    return bytes;
  }
  TempDir dir_;
};

TEST_F(PageWalk, ASoundStoreHasNoDamagedPage) {
  auto found = find_damaged_page(dir_.path());
  ASSERT_TRUE(found) << found.error().message;
  EXPECT_FALSE(*found) << (*found)->page << ": " << (*found)->what;
}

TEST_F(PageWalk, AZeroedOrRandomisedPageIsNamedWhenTheTreesReachIt) {
  // Each page of the file in turn (the meta pages excepted): zeroed, then
  // filled with random bytes. A page the trees reach is named, and never
  // another one; a page they do not reach (free, or an old copy) is not.
  std::mt19937_64 rng(7);
  std::size_t named = 0;
  const std::size_t n = pages();
  for (std::size_t p = 2; p < n; ++p) {
    const std::string original = read(p);
    std::string random(4096, '\0');
    for (auto& c : random) c = static_cast<char>(rng());
    std::optional<std::uint64_t> first;
    for (const std::string& damage : {std::string(4096, '\0'), random}) {
      overwrite(p, 0, damage);
      auto found = find_damaged_page(dir_.path());
      ASSERT_TRUE(found) << "page " << p << ": " << found.error().message;
      if (*found) {
        EXPECT_EQ((*found)->page, p) << "page " << p << " damaged, page " << (*found)->page << " named: " << (*found)->what;
        ++named;
      }
      overwrite(p, 0, original);
    }
  }
  // Most pages are in use. Format 2 rewrites a game's open block on each
  // append, so a few freed pages lie among them: more than 45% of the
  // damaged pages (each damaged twice) must be named, where an undamaged
  // walk names none.
  EXPECT_GT(named * 100, 2 * (n - 2) * 45) << named << " of " << 2 * (n - 2) << " damaged pages named";
}

TEST_F(PageWalk, AHeaderNamingAnotherPageIsNamedWithWhatIsWrong) {
  // The root of the main database: the newer meta page's main record, root field.
  std::uint64_t txn[2] = {0, 0};
  const std::string metas[2] = {read(0), read(1)};
  for (int m = 0; m < 2; ++m) std::memcpy(&txn[m], metas[m].data() + 16 + 128, sizeof txn[m]);
  std::uint64_t root = 0;
  std::memcpy(&root, metas[txn[1] > txn[0] ? 1 : 0].data() + 16 + 72 + 40, sizeof root);
  std::string other(8, '\0');
  other[0] = 3;
  overwrite(root, 0, other);
  auto found = find_damaged_page(dir_.path());
  ASSERT_TRUE(found && *found);
  EXPECT_EQ((*found)->page, root);
  EXPECT_EQ((*found)->what, "its header names page 3");
}

TEST_F(PageWalk, AFileWithoutAMetaPageIsDataLoss) {
  overwrite(0, 0, std::string(4096, '\0'));
  overwrite(1, 0, std::string(4096, '\0'));
  auto found = find_damaged_page(dir_.path());
  ASSERT_FALSE(found);
  EXPECT_EQ(found.error().code, ErrorCode::DataLoss);
}

}  // namespace
}  // namespace warlog::store

namespace warlog::store {
namespace {

// A fault address turns into a page only if the extent is where the kernel
// mapped data.mdb (LMDB's own me_mapaddr is null unless MDB_FIXEDMAP: the
// first version named "page 0" for every raise()).
TEST(MapExtent, IsAPageAlignedMappingAsLargeAsDataMdb) {
  test::TempDir dir;
  auto s = test::open_store(dir.path());
  ASSERT_TRUE(s.import_game(test::make_game("extent", 50)));
  const auto m = s.map_extent();
  ASSERT_NE(m.base, nullptr);
  EXPECT_EQ(m.page_size, 4096u);
  EXPECT_GE(m.bytes, std::filesystem::file_size(dir.path() / "data.mdb"));
  // Format 2 hands out no pointer into the map (blocks are read into
  // word-aligned buffers), so what the extent serves, naming the page a
  // reader faulted on, is tested where readers fault: Isolation.* and
  // PageSuite.*. Here: the extent is the file's, page-aligned.
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(m.base) % m.page_size, 0u);
  EXPECT_EQ(m.bytes % m.page_size, 0u);
}

}  // namespace
}  // namespace warlog::store
