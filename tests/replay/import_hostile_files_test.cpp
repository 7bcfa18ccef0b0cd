// Import of a game whose tags name hostile files ("Trust the store" ›
// Hostile inputs that stall or leak): a directory as a deck read as an empty
// deck, [Army1 "/dev/zero"] ran out of memory, [Catalog "/dev/urandom"]
// never ended. Each is now one clear error and nothing is written.

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "temp_dir.hpp"
#include "warlog/core/text_file.hpp"
#include "warlog/replay/replay.hpp"

namespace warlog {
namespace {

using ::testing::HasSubstr;

const std::string kSamples = WARLOG_SAMPLES_DIR;

// The tutorial sample with one tag line replaced, written into `dir`.
std::string game_with(const testing::TempDir& dir, const std::string& tag, const std::string& replacement) {
  std::ifstream in(kSamples + "/tutorial/spine_first_blood.wlog");
  std::ostringstream buf;
  buf << in.rdbuf();
  std::string text = buf.str();
  for (std::size_t at = 0; (at = text.find("\"../", at)) != std::string::npos;) text.replace(at, 4, "\"" + kSamples + "/");
  const std::size_t at = text.find(tag);
  EXPECT_NE(at, std::string::npos) << tag;
  text.replace(at, text.find('\n', at) - at, replacement);
  const auto path = dir.path() / "game.wlog";
  std::ofstream(path) << text;
  return path.string();
}

struct Imported {
  tl::expected<replay::ImportResult, replay::ImportFailure> result;
  std::size_t games = 0;
};

Imported import(const testing::TempDir& dir, const std::string& path) {
  auto archive = replay::Archive::open(dir.store(), replay::Archive::Mode::ReadWrite);
  EXPECT_TRUE(archive) << archive.error().message;
  Imported out{archive->import_file(path, {}), 0};
  out.games = archive->games()->size();
  return out;
}

std::string all_messages(const replay::ImportFailure& f) {
  std::string out = f.error.message;
  for (const auto& e : f.notation_errors) out += "\n" + e.to_string();
  return out;
}

TEST(ImportHostileFiles, ADeckPathThatIsADirectoryIsAnError) {
  testing::TempDir dir;
  std::filesystem::create_directory(dir.path() / "decks");
  const Imported r = import(dir, game_with(dir, "[Army2 ", "[Army2 \"decks\"]"));
  ASSERT_FALSE(r.result);
  EXPECT_THAT(all_messages(r.result.error()),
              HasSubstr("decks is a directory, not a regular file (expected a deck file)"));
  EXPECT_EQ(r.games, 0u);
}

TEST(ImportHostileFiles, DevZeroAsAnArmyIsRefusedUnread) {
  testing::TempDir dir;
  const Imported r = import(dir, game_with(dir, "[Army1 ", "[Army1 \"/dev/zero\"]"));
  ASSERT_FALSE(r.result);
  EXPECT_THAT(all_messages(r.result.error()),
              HasSubstr("/dev/zero is a character device, not a regular file (expected a deck file)"));
  EXPECT_EQ(r.games, 0u);
}

TEST(ImportHostileFiles, DevUrandomAsTheCatalogIsRefusedUnread) {
  testing::TempDir dir;
  const Imported r = import(dir, game_with(dir, "[Catalog ", "[Catalog \"/dev/urandom\"]"));
  ASSERT_FALSE(r.result);
  EXPECT_EQ(r.result.error().error.code, ErrorCode::InvalidArgument);
  EXPECT_EQ(r.result.error().error.message,
            "/dev/urandom is a character device, not a regular file (expected a catalog file)");
  EXPECT_EQ(r.games, 0u);
}

TEST(ImportHostileFiles, AFifoAsTheRulesetIsRefusedWithoutBlocking) {
  testing::TempDir dir;
  ASSERT_EQ(::mkfifo((dir.path() / "rules.toml").c_str(), 0600), 0);
  const Imported r = import(dir, game_with(dir, "[Ruleset ", "[Ruleset \"rules.toml\"]"));
  ASSERT_FALSE(r.result);
  EXPECT_THAT(r.result.error().error.message, HasSubstr("rules.toml is a FIFO, not a regular file"));
}

TEST(ImportHostileFiles, ADeckOverOneMebibyteIsRefusedNamingTheLimit) {
  testing::TempDir dir;
  std::ofstream(dir.path() / "big.deck") << std::string(core::kMaxDeckFileBytes + 1, '#');
  const Imported r = import(dir, game_with(dir, "[Army2 ", "[Army2 \"big.deck\"]"));
  ASSERT_FALSE(r.result);
  EXPECT_THAT(all_messages(r.result.error()), HasSubstr("big.deck is over the 1 MiB limit for a deck file"));
}

}  // namespace
}  // namespace warlog
