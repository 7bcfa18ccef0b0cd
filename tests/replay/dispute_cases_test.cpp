// Every resolved dispute exported with `warlog dispute export-test` into
// tests/disputes/ runs here as one test: the case's game (events up to the
// disputed one) is imported into a fresh store under the catalog and ruleset
// it recorded, audited, and the ruling's expectation checked at the seq.
// Format: replay/include/warlog/replay/dispute_case.hpp. A new case is picked
// up when this test binary is rebuilt (gtest discovery lists the files).

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "temp_dir.hpp"
#include "warlog/replay/dispute_case.hpp"

namespace warlog {
namespace {

namespace fs = std::filesystem;

const fs::path kCasesDir = fs::path(WARLOG_SOURCE_DIR) / "tests" / "disputes";

std::vector<fs::path> cases() {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(kCasesDir, ec)) {
    if (e.path().extension() == ".expect") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

class DisputeCase : public ::testing::TestWithParam<fs::path> {};

TEST_P(DisputeCase, TheAuditAgreesWithTheRuling) {
  auto spec = replay::read_case(GetParam());
  ASSERT_TRUE(spec) << spec.error().message;
  testing::TempDir dir;
  auto outcome = replay::run_case(*spec, dir.store());
  ASSERT_TRUE(outcome) << GetParam().filename().string() << ": " << outcome.error().message;
  EXPECT_TRUE(outcome->passed) << GetParam().filename().string() << " (dispute " << spec->dispute << "): expected "
                               << (spec->expectation.present ? "" : "no ") << spec->expectation.rule_id
                               << " at seq " << spec->seq << "; " << outcome->detail;
}

INSTANTIATE_TEST_SUITE_P(Resolved, DisputeCase, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<fs::path>& info) {
                           std::string name = info.param.stem().string();
                           std::replace_if(name.begin(), name.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
                           return name;
                         });

// The checked-in cases must not silently vanish (a moved directory would
// otherwise leave zero parameterised tests and a green suite).
TEST(DisputeCases, AtLeastTheSpineCaseIsPresent) {
  EXPECT_TRUE(fs::exists(kCasesDir / "spine_first_blood_seq27.expect")) << kCasesDir;
}

}  // namespace
}  // namespace warlog
