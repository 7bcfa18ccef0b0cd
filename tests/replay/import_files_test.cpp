// Archive::import_files: many .wlog files in one store transaction, each all
// or nothing.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "temp_dir.hpp"
#include "warlog/core/catalog.hpp"
#include "warlog/replay/replay.hpp"
#include "warlog/store/store.hpp"

namespace warlog {
namespace {

using ::testing::HasSubstr;

const std::string kSamples = WARLOG_SAMPLES_DIR;
const std::string kSample = kSamples + "/tutorial/spine_first_blood.wlog";

// The sample with another title (another game) and its relative paths made
// absolute, written beside the store; `extra` is appended to the file.
std::string variant(const testing::TempDir& dir, const std::string& title, const std::string& extra = "") {
  std::ifstream in(kSample);
  std::ostringstream buf;
  buf << in.rdbuf();
  std::string text = buf.str();
  for (std::size_t at = 0; (at = text.find("\"../", at)) != std::string::npos;) text.replace(at, 4, "\"" + kSamples + "/");
  const std::string tag = "[Title \"First blood at the Old Mill\"]";
  text.replace(text.find(tag), tag.size(), "[Title \"" + title + "\"]");
  const auto path = dir.path() / (title + ".wlog");
  std::ofstream(path) << text << extra;
  return path.string();
}

TEST(ImportFiles, ImportsEachGoodFileAndRefusesEachBadOneAlone) {
  testing::TempDir dir;
  auto archive = replay::Archive::open(dir.store(), replay::Archive::Mode::ReadWrite);
  ASSERT_TRUE(archive) << archive.error().message;
  ASSERT_TRUE(archive->import_file(kSample, {}));
  const std::vector<std::string> paths = {
      variant(dir, "North"),
      kSample,                                          // already game 1
      (dir.path() / "missing.wlog").string(),           // no such file
      variant(dir, "Broken", "T9 Alice plays Nothing\n"),  // notation errors
      variant(dir, "South"),
  };
  auto results = archive->import_files(paths, {});
  ASSERT_EQ(results.size(), paths.size());
  ASSERT_TRUE(results[0]) << results[0].error().error.message;
  EXPECT_EQ(results[0]->id, 2u);
  ASSERT_TRUE(results[1]) << results[1].error().error.message;
  EXPECT_EQ(results[1]->id, 1u);
  EXPECT_TRUE(results[1]->already_imported) << "the identical file is found, nothing written";
  ASSERT_FALSE(results[2]);
  EXPECT_EQ(results[2].error().error.code, ErrorCode::NotFound);
  ASSERT_FALSE(results[3]);
  EXPECT_FALSE(results[3].error().notation_errors.empty());
  ASSERT_TRUE(results[4]) << results[4].error().error.message;
  EXPECT_EQ(results[4]->id, 3u);

  auto games = archive->games();
  ASSERT_TRUE(games);
  ASSERT_EQ(games->size(), 3u);
  EXPECT_EQ((*games)[1].title, "North");
  EXPECT_EQ((*games)[2].title, "South");
  // The same stream as the single import gave, but for the title: the
  // same findings at the same events.
  auto one = archive->audit(1);
  auto two = archive->audit(2);
  ASSERT_TRUE(one && two);
  EXPECT_EQ(one->game.events, two->game.events);
  ASSERT_EQ(one->findings.size(), two->findings.size());
  for (std::size_t i = 0; i < one->findings.size(); ++i) {
    EXPECT_EQ(one->findings[i].finding.seq, two->findings[i].finding.seq);
    EXPECT_EQ(one->findings[i].finding.rule_id, two->findings[i].finding.rule_id);
  }
  EXPECT_TRUE(archive->verify(2)->ok);
}

TEST(ImportFiles, AStoreErrorRefusesEveryParsedFile) {
  testing::TempDir dir;
  auto archive = replay::Archive::open(dir.store(), replay::Archive::Mode::ReadOnly);
  ASSERT_FALSE(archive) << "no store yet";
  {
    auto rw = replay::Archive::open(dir.store(), replay::Archive::Mode::ReadWrite);
    ASSERT_TRUE(rw);
  }
  archive = replay::Archive::open(dir.store(), replay::Archive::Mode::ReadOnly);
  ASSERT_TRUE(archive) << archive.error().message;
  const std::vector<std::string> paths = {variant(dir, "East"), variant(dir, "West")};
  auto results = archive->import_files(paths, {});
  for (const auto& r : results) {
    ASSERT_FALSE(r);
    EXPECT_THAT(r.error().error.message, HasSubstr("read-only"));
  }
  EXPECT_TRUE(archive->games()->empty());
}

// Issue 20: each catalog and ruleset is parsed once per run, keyed by its
// content hash: files naming the same one share one parse, and an audit in
// the same run finds that parse under the blob's hash.
TEST(ImportFiles, TheCatalogAndRulesetAreParsedOncePerRunByContentHash) {
  testing::TempDir dir;
  auto archive = replay::Archive::open(dir.store(), replay::Archive::Mode::ReadWrite);
  ASSERT_TRUE(archive) << archive.error().message;
  const std::vector<std::string> paths = {variant(dir, "North"), variant(dir, "South"), variant(dir, "East")};
  for (const auto& r : archive->import_files(paths, {})) ASSERT_TRUE(r) << r.error().error.message;
  const auto game = archive->game(1);
  ASSERT_TRUE(game);
  auto by_hash = archive->catalog_by_hash(game->catalog_hash);
  ASSERT_TRUE(by_hash) << by_hash.error().message;
  std::ifstream in(kSamples + "/catalogs/sample_cards.csv");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  ASSERT_EQ(core::content_hash(bytes.str()), game->catalog_hash) << "the sample names another catalog";
  auto again = archive->catalog_from(bytes.str());
  ASSERT_TRUE(again);
  EXPECT_EQ(again->get(), by_hash->get()) << "parsed a second time";
  std::ifstream rin(kSamples + "/rulesets/standard.toml");
  std::ostringstream rbytes;
  rbytes << rin.rdbuf();
  ASSERT_EQ(core::content_hash(rbytes.str()), game->ruleset_hash) << "the sample names another ruleset";
  EXPECT_EQ(archive->ruleset_from(rbytes.str())->get(), archive->ruleset_by_hash(game->ruleset_hash)->get());
  // Other bytes are another catalog, parsed on their own.
  auto other = archive->catalog_from(bytes.str() + "\n");
  ASSERT_TRUE(other) << other.error().message;
  EXPECT_NE(other->get(), by_hash->get());
}

}  // namespace
}  // namespace warlog
