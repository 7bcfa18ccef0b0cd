// Target "notation": a .wlog transcript through the parser, as `warlog
// import` reads one a judge was sent.
//   - parse_notation returns events or errors, each with a line and column;
//   - a transcript that parses folds, exports, and parses back to the same
//     events (the round trip docs/notation.md promises).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "check.hpp"
#include "harness.hpp"
#include "warlog/core/fold.hpp"
#include "warlog/core/notation.hpp"

using namespace warlog;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto& s = fuzz::samples();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const core::ParseResult r = core::parse_notation(text, "fuzz.wlog", s.catalog, s.ruleset.hash, s.load_deck);
  if (!r.ok()) {
    FUZZ_CHECK(r.game.events.empty(), "a transcript with errors yields events");
    for (const auto& e : r.errors) {
      FUZZ_CHECK(e.line >= 1 && e.col >= 1, "a notation error without a position");
      (void)e.to_string();
    }
    return 0;
  }
  const core::Context ctx{s.catalog, s.ruleset};
  std::vector<core::Finding> findings;
  (void)core::fold(ctx, r.game.events, findings);

  const std::string exported = core::export_notation(r.game.events);
  const core::ParseResult again = core::parse_notation(exported, "export.wlog", s.catalog, s.ruleset.hash, s.load_deck);
  if (!again.ok()) std::fprintf(stderr, "%s\n--- exported:\n%s\n", again.errors.front().to_string().c_str(), exported.c_str());
  FUZZ_CHECK(again.ok(), "an exported transcript does not parse");
  FUZZ_CHECK(again.game.events == r.game.events, "export and parse change the events");
  return 0;
}
