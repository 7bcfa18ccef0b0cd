// Files a header tag names ("Trust the store" › Hostile inputs that stall or
// leak): [Army1 "/dev/zero"] ran out of memory, [Catalog "/dev/urandom"]
// never ended, a directory read as an empty deck, and a file that is not a
// deck was echoed into the errors line by line. Now: regular files only,
// each kind under its limit, and at most one clipped line quoted.

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "temp_dir.hpp"
#include "warlog/core/catalog.hpp"
#include "warlog/core/notation.hpp"
#include "warlog/core/ruleset.hpp"
#include "warlog/core/text_file.hpp"

namespace warlog::core {
namespace {

Card lancer() {
  Card c;
  c.name = "Ironclaw Lancer";
  return c;
}

namespace fs = std::filesystem;

void write(const fs::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary);
  out << bytes;
}

bool contains(const std::string& s, std::string_view part) { return s.find(part) != std::string::npos; }

TEST(HostileFiles, ADeckPathThatIsADirectoryIsAnError) {
  testing::TempDir dir;
  fs::create_directory(dir.path() / "decks");
  const auto r = read_text_file((dir.path() / "decks").string(), kMaxDeckFileBytes, "deck file");
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, ErrorCode::InvalidArgument);
  EXPECT_TRUE(contains(r.error().message, "decks is a directory, not a regular file (expected a deck file)"))
      << r.error().message;
}

TEST(HostileFiles, DevZeroAsADeckIsRefusedUnread) {
  const auto r = read_text_file("/dev/zero", kMaxDeckFileBytes, "deck file");
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, ErrorCode::InvalidArgument);
  EXPECT_EQ(r.error().message, "/dev/zero is a character device, not a regular file (expected a deck file)");
}

TEST(HostileFiles, DevUrandomAsACatalogIsRefusedUnread) {
  const auto c = load_catalog("/dev/urandom");
  ASSERT_FALSE(c.has_value());
  EXPECT_EQ(c.error().message, "/dev/urandom is a character device, not a regular file (expected a catalog file)");
}

// Opening a FIFO for reading blocks until a writer comes: this test would
// hang if the reader opened it.
TEST(HostileFiles, AFifoAsARulesetIsRefusedWithoutBlocking) {
  testing::TempDir dir;
  const fs::path fifo = dir.path() / "rules.toml";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto r = load_ruleset(fifo.string());
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, ErrorCode::InvalidArgument);
  EXPECT_TRUE(contains(r.error().message, "rules.toml is a FIFO, not a regular file")) << r.error().message;
}

TEST(HostileFiles, ADeckFileOverOneMebibyteIsRefusedNamingTheFileAndTheLimit) {
  testing::TempDir dir;
  const fs::path deck = dir.path() / "huge.deck";
  write(deck, std::string(kMaxDeckFileBytes + 1, '#'));
  const auto r = read_text_file(deck.string(), kMaxDeckFileBytes, "deck file");
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, ErrorCode::InvalidArgument);
  EXPECT_EQ(r.error().message, deck.string() + " is over the 1 MiB limit for a deck file");

  write(deck, std::string(kMaxDeckFileBytes, '#'));  // exactly the limit
  const auto ok = read_text_file(deck.string(), kMaxDeckFileBytes, "deck file");
  ASSERT_TRUE(ok.has_value()) << ok.error().message;
  EXPECT_EQ(ok->size(), kMaxDeckFileBytes);
}

TEST(HostileFiles, ACatalogOverSixteenMebibytesIsRefused) {
  testing::TempDir dir;
  const fs::path csv = dir.path() / "cards.csv";
  write(csv, "name\n" + std::string(kMaxCatalogFileBytes, 'x') + "\n");
  const auto c = load_catalog(csv.string());
  ASSERT_FALSE(c.has_value());
  EXPECT_EQ(c.error().message, csv.string() + " is over the 16 MiB limit for a catalog file");
}

// /proc files say they are 0 bytes long: the read goes by what it gets.
TEST(HostileFiles, AFileThatReportsNoSizeIsStillRead) {
  const auto r = read_text_file("/proc/self/status", kMaxDeckFileBytes, "deck file");
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_TRUE(contains(*r, "Name:"));
}

TEST(HostileFiles, AMissingFileIsNotFound) {
  const auto r = read_text_file("/nonexistent/x.deck", kMaxDeckFileBytes, "deck file");
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, ErrorCode::NotFound);
}

// [Army1 "/etc/passwd"]: one error for the whole file, quoting at most 80
// characters of its first bad line, never a later line.
TEST(HostileFiles, AFileThatIsNotADeckIsNotEchoedIntoTheErrors) {
  std::string passwd;
  passwd += "root:x:0:0:" + std::string(200, 'r') + ":/root:/bin/bash\n";
  for (int i = 0; i < 50; ++i) passwd += "user" + std::to_string(i) + ":x:1000:1000::/home:/bin/sh\n";
  passwd += "3 secret-on-a-later-line\n";
  const DeckLoader loader = [&](const std::string&) -> Expected<std::string> { return passwd; };
  static const Catalog catalog(std::vector<Card>{lancer()});
  const ParseResult r = parse_notation(
      "[Board \"5x4\"]\n[Seat1 \"A\" \"claw\"]\n[Seat2 \"B\" \"paw\"]\n[Army1 \"/etc/passwd\"]\n", "game.wlog",
      catalog, "feed", loader);
  ASSERT_EQ(r.errors.size(), 1u);
  const std::string message = r.errors[0].to_string();
  EXPECT_EQ(r.errors[0].file, "/etc/passwd");
  EXPECT_EQ(r.errors[0].line, 1u);
  EXPECT_EQ(r.errors[0].found, "'" + ("root:x:0:0:" + std::string(69, 'r')) + "...'");
  EXPECT_FALSE(contains(message, "user1")) << message;
  EXPECT_FALSE(contains(message, "secret")) << message;
  EXPECT_TRUE(contains(message, "deck named at game.wlog:4:8; 51 more errors in this deck file")) << message;
}

}  // namespace
}  // namespace warlog::core
