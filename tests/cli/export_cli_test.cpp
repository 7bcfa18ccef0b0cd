// warlog export --format json|capnp|capnp-binary: standard tools read what
// warlog writes (issue 4, "standard tools read it").

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "cli/cli_run.hpp"
#include "warlog/core/hash.hpp"

namespace warlog {
namespace {

using ::testing::HasSubstr;
using testing::run_warlog;

const std::string kSample = std::string(WARLOG_SAMPLES_DIR) + "/tutorial/spine_first_blood.wlog";
const std::string kSchema = std::string(WARLOG_SOURCE_DIR) + "/events/schema/warlog.capnp";
constexpr std::size_t kEvents = 38;

bool have_capnp() { return std::system("capnp --version > /dev/null 2>&1") == 0; }

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

class ExportCli : public ::testing::Test {
 protected:
  void SetUp() override {
    store_ = "--store " + dir_.store();
    ASSERT_EQ(run_warlog("import " + store_ + " " + kSample).code, 0);
  }
  // Exports to a file (binary output through the shell) and returns its path.
  std::string export_to(const std::string& format) {
    const std::string file = (dir_.path() / ("out." + format)).string();
    const auto r = run_warlog("export " + store_ + " 1 --format " + format);
    EXPECT_EQ(r.code, 0) << r.err;
    std::ofstream(file, std::ios::binary) << r.out;
    return file;
  }
  // capnp convert FROM:text over file; "" when the tool fails.
  std::string convert(const std::string& from, const std::string& file) {
    const std::string text = (dir_.path() / "text.txt").string();
    const std::string cmd = "capnp convert " + from + ":text " + kSchema + " Event < " + file + " > " + text;
    if (std::system(cmd.c_str()) != 0) return {};
    return testing::slurp(text);
  }
  testing::TempDir dir_;
  std::string store_;
};

TEST_F(ExportCli, JsonLinesHoldsOneEventPerLine) {
  const auto r = run_warlog("export " + store_ + " 1 --format json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(testing::count_lines(r.out), kEvents);
  std::istringstream in(r.out);
  std::size_t seq = 0;
  for (std::string line; std::getline(in, line); ++seq) {
    const auto j = nlohmann::json::parse(line);
    EXPECT_EQ(j["seq"], seq);
    EXPECT_EQ(j["game"], 1);
  }
  EXPECT_THAT(r.out, HasSubstr(R"("payload":{"cards":["Paw Slinger","Paw Militia","Barricade Levy"]})"));
}

TEST_F(ExportCli, PackedCapnpDecodesWithTheStockTool) {
  if (!have_capnp()) GTEST_SKIP() << "capnp tool absent";
  const std::string text = convert("packed", export_to("capnp"));
  ASSERT_FALSE(text.empty()) << "capnp convert packed:text failed";
  EXPECT_EQ(count(text, "( header = ("), kEvents) << text.substr(0, 2000);
  EXPECT_THAT(text, HasSubstr("title = \"First blood at the Old Mill\""));
  EXPECT_THAT(text, HasSubstr("cards = [\"Paw Slinger\", \"Paw Militia\", \"Barricade Levy\"]"));
}

TEST_F(ExportCli, UnpackedCapnpDecodesWithBinaryToText) {
  if (!have_capnp()) GTEST_SKIP() << "capnp tool absent";
  const std::string text = convert("binary", export_to("capnp-binary"));
  ASSERT_FALSE(text.empty()) << "capnp convert binary:text failed";
  EXPECT_EQ(count(text, "( header = ("), kEvents);
  // Same messages either way.
  EXPECT_EQ(text, convert("packed", export_to("capnp")));
}

TEST_F(ExportCli, TheDefaultIsStillNotationAndBadFormatsAreUsageErrors) {
  const auto plain = run_warlog("export " + store_ + " 1");
  EXPECT_EQ(plain.out, run_warlog("export " + store_ + " 1 --format notation").out);
  EXPECT_THAT(plain.out, HasSubstr("[Title \"First blood at the Old Mill\"]"));
  EXPECT_EQ(run_warlog("export " + store_ + " 1 --format yaml").code, 2);
  auto missing = run_warlog("export " + store_ + " 3 --format json");
  EXPECT_EQ(missing.code, 2);
  EXPECT_THAT(missing.err, HasSubstr("game 3 does not exist"));
}

}  // namespace
}  // namespace warlog
