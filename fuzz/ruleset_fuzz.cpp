// Target "ruleset": a ruleset TOML through the reader, as import reads the
// one a game's [Ruleset] tag names, then the sample games folded under it.
//   - parse_ruleset_toml returns a ruleset or InvalidArgument;
//   - the fold takes any ruleset the reader accepts.

#include <cstdint>
#include <string_view>
#include <vector>

#include "check.hpp"
#include "harness.hpp"
#include "warlog/core/fold.hpp"
#include "warlog/core/ruleset.hpp"

using namespace warlog;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto& s = fuzz::samples();
  const std::string_view toml(reinterpret_cast<const char*>(data), size);
  const auto ruleset = core::parse_ruleset_toml(toml);
  if (!ruleset) {
    FUZZ_CHECK(ruleset.error().code == ErrorCode::InvalidArgument, ruleset.error().message.c_str());
    return 0;
  }
  const core::Context ctx{s.catalog, *ruleset};
  for (std::size_t g = 0; g < 2 && g < s.games.size(); ++g) {
    std::vector<core::Finding> findings;
    (void)core::fold(ctx, s.games[g], findings);
  }
  return 0;
}
