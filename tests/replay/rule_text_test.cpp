// A rule's own words (replay/rule_text.hpp): the section each rule cites,
// read from the rules documents through the compiled-in index; a document
// that is not the one indexed, a missing document and a missing folder are
// refused with where and why. The documents' text is read from
// ../shared/rules here and compared line for line; none of it is committed.

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "temp_dir.hpp"
#include "warlog/core/finding.hpp"
#include "warlog/core/rules_index.hpp"
#include "warlog/replay/rule_text.hpp"

namespace warlog {
namespace {

namespace fs = std::filesystem;

const fs::path kSource = WARLOG_SOURCE_DIR;
const fs::path kRulesDir = WARLOG_RULES_DIR;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Lines [first, last] of a file, 1-based, each newline-ended.
std::string lines(const fs::path& p, core::LineRange r) {
  std::ifstream in(p, std::ios::binary);
  std::string out, line;
  for (int n = 1; n <= r.last && std::getline(in, line); ++n) {
    if (n >= r.first) out += line + "\n";
  }
  return out;
}

const core::Rule& rule(std::string_view id) {
  const core::Rule* r = core::find_rule(id);
  if (r == nullptr) throw std::runtime_error("no rule " + std::string(id));
  return *r;
}

class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;
  ~ScopedEnv() {
    if (old_) ::setenv(name_, old_->c_str(), 1);
    else ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

TEST(RuleText, EveryCitedSectionIsTheDocumentsOwnLines) {
  const core::RulesIndex& index = core::builtin_rules_index();
  const Expected<fs::path> folder = kRulesDir;
  int shown = 0;
  for (const core::Rule& r : core::all_rules()) {
    const core::RulesHeading* h = index.find(r.citation);
    if (h == nullptr) continue;  // an unpublished page: RuleText.AnUnpublishedPageSaysSoAndNamesItsRuling
    const auto section = replay::rule_section(r, folder);
    ASSERT_TRUE(section) << r.id << ": " << section.error().message;
    const core::RulesDocument& doc = index.document_of(*h);
    const fs::path file = doc.source == core::DocumentSource::Rules ? kRulesDir / doc.file : kSource / doc.file;
    EXPECT_EQ(section->text, lines(file, index.section(*h))) << r.id;
    EXPECT_NE(section->text.find(std::string(h->title())), std::string::npos)
        << r.id << ": the section should open with its heading '" << h->title() << "'";
    EXPECT_EQ(section->document, doc.file);
    ++shown;
  }
  EXPECT_GT(shown, 40) << "nearly every rule cites a published heading";
}

TEST(RuleText, WarlogsOwnRulesNeedNoFolder) {
  const core::Rule* warlog_rule = nullptr;
  for (const core::Rule& r : core::all_rules()) {
    if (r.basis == core::Basis::Warlog) warlog_rule = &r;
  }
  ASSERT_NE(warlog_rule, nullptr);
  const Expected<fs::path> no_folder = make_error(ErrorCode::NotFound, "no rules documents found");
  const auto section = replay::rule_section(*warlog_rule, no_folder);
  ASSERT_TRUE(section) << section.error().message;
  EXPECT_EQ(section->document, "docs/warlog-rules.md");
  EXPECT_EQ(section->text, lines(kSource / "docs" / "warlog-rules.md", section->lines));
}

TEST(RuleText, ADocumentThatIsNotTheOneIndexedIsRefusedNotShown) {
  testing::TempDir dir;
  const fs::path copy = dir.path() / "rules";
  fs::copy(kRulesDir, copy);
  const core::RulesHeading* h = core::builtin_rules_index().find(rule("MUS-a.draw").citation);
  ASSERT_NE(h, nullptr);
  const std::string file = core::builtin_rules_index().document_of(*h).file;
  std::string text = slurp(copy / file);
  text.insert(0, "An inserted line shifts every section below it.\n");
  std::ofstream(copy / file, std::ios::binary | std::ios::trunc) << text;

  const auto section = replay::rule_section(rule("MUS-a.draw"), Expected<fs::path>(copy));
  ASSERT_FALSE(section);
  EXPECT_EQ(section.error().code, ErrorCode::DataLoss);
  EXPECT_NE(section.error().message.find(file), std::string::npos) << section.error().message;
  EXPECT_NE(section.error().message.find("not the document"), std::string::npos) << section.error().message;
}

TEST(RuleText, AFolderWithoutTheDocumentSaysWhichFileItLacks) {
  testing::TempDir dir;
  const auto section = replay::rule_section(rule("MUS-a.draw"), Expected<fs::path>(dir.path()));
  ASSERT_FALSE(section);
  EXPECT_EQ(section.error().code, ErrorCode::NotFound);
  EXPECT_NE(section.error().message.find(dir.path().string()), std::string::npos) << section.error().message;
}

TEST(RuleText, AnUnpublishedPageSaysSoAndNamesItsRuling) {
  const core::Rule* unpublished = nullptr;
  for (const core::Rule& r : core::all_rules()) {
    if (core::builtin_rules_index().find(r.citation) == nullptr) unpublished = &r;
  }
  ASSERT_NE(unpublished, nullptr) << "the registry has rules on pages not yet published (MOR.leader)";
  const auto section = replay::rule_section(*unpublished, Expected<fs::path>(kRulesDir));
  ASSERT_FALSE(section);
  EXPECT_EQ(section.error().code, ErrorCode::NotFound);
  EXPECT_NE(section.error().message.find("no heading of the published rules"), std::string::npos);
}

TEST(RulesFolder, AGivenFolderIsTheOnlyOneLookedAt) {
  const auto found = replay::find_rules_folder(fs::path("/nonexistent/rules"));
  ASSERT_FALSE(found);
  EXPECT_EQ(found.error().code, ErrorCode::NotFound);
  EXPECT_NE(found.error().message.find("/nonexistent/rules"), std::string::npos);
  const auto given = replay::find_rules_folder(kRulesDir);
  ASSERT_TRUE(given);
  EXPECT_EQ(*given, kRulesDir);
}

TEST(RulesFolder, TheEnvironmentComesBeforeTheConfiguredFolder) {
  testing::TempDir dir;
  {
    ScopedEnv env("WARLOG_RULES", dir.path().string());
    const auto found = replay::find_rules_folder(std::nullopt);
    ASSERT_TRUE(found);
    EXPECT_EQ(*found, dir.path());
  }
  ScopedEnv env("WARLOG_RULES", "/nonexistent/rules");
  const auto found = replay::find_rules_folder(std::nullopt);
  if (!fs::is_directory(std::string(core::configured_rules_dir()))) {
    ASSERT_FALSE(found);
    EXPECT_NE(found.error().message.find("/nonexistent/rules (WARLOG_RULES)"), std::string::npos);
    EXPECT_NE(found.error().message.find("configured at build time"), std::string::npos);
  } else {
    ASSERT_TRUE(found) << found.error().message;
    EXPECT_EQ(fs::path(*found), fs::path(std::string(core::configured_rules_dir())));
  }
}

}  // namespace
}  // namespace warlog
