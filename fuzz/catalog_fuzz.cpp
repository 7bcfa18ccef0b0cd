// Target "catalog": a card catalog CSV through the reader, as import reads
// the one a game's [Catalog] tag names, then the sample games folded under
// it (a designer's spreadsheet may hold any number in any column).
//   - parse_catalog_csv returns a catalog or InvalidArgument;
//   - every card it returns is found by its name;
//   - the fold takes any catalog.

#include <cstdint>
#include <string_view>
#include <vector>

#include "check.hpp"
#include "harness.hpp"
#include "warlog/core/catalog.hpp"
#include "warlog/core/fold.hpp"

using namespace warlog;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto& s = fuzz::samples();
  const std::string_view csv(reinterpret_cast<const char*>(data), size);
  const auto catalog = core::parse_catalog_csv(csv);
  if (!catalog) {
    FUZZ_CHECK(catalog.error().code == ErrorCode::InvalidArgument, catalog.error().message.c_str());
    return 0;
  }
  for (const auto& card : catalog->cards()) {
    FUZZ_CHECK(catalog->find(card.name) == &card, "a catalog card is not found by its name");
  }
  (void)catalog->closest("Ironclaw Lancer");
  const core::Context ctx{*catalog, s.ruleset};
  for (std::size_t g = 0; g < 2 && g < s.games.size(); ++g) {
    std::vector<core::Finding> findings;
    (void)core::fold(ctx, s.games[g], findings);
  }
  return 0;
}
