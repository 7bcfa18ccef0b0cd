// Target "event": stored event bytes through the codec and the fold, as
// audit and seek read them from a store someone else wrote.
//   - decode_event and decode_header return a value or DataLoss/Unsupported;
//   - whatever decodes re-encodes to bytes that decode to the same event, or
//     that are over kMaxEventBytes (null pointers read as "" or default
//     spaces cost nothing packed but are written out in full, so a 105-byte
//     value can re-encode to 176 KB: fuzz/corpus/event/crash-reencodes-over-
//     the-limit; append refuses such a re-encoding with its size error);
//   - the decoded event is applied to states from several points of the
//     sample and generated games (the fold must take any event: unknown
//     cards, spaces off the grid, out-of-order seqs are findings).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "check.hpp"
#include "harness.hpp"
#include "warlog/core/fold.hpp"
#include "warlog/events/codec.hpp"

namespace {

using namespace warlog;

// Every game's state at its start, after its first few events, at its middle
// and at its end.
std::vector<core::GameState> start_states() {
  const auto& s = fuzz::samples();
  const core::Context ctx{s.catalog, s.ruleset};
  std::vector<core::GameState> out;
  for (const auto& game : s.games) {
    core::GameState state;
    std::vector<core::Finding> findings;
    out.push_back(state);
    for (std::size_t i = 0; i < game.size(); ++i) {
      core::apply(ctx, state, game[i], findings);
      if (i == 2 || i == game.size() / 2 || i + 1 == game.size()) out.push_back(state);
    }
  }
  return out;
}

bool expected_code(ErrorCode c) { return c == ErrorCode::DataLoss || c == ErrorCode::Unsupported; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::vector<core::GameState> states = start_states();
  const auto& s = fuzz::samples();
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);

  const auto header = events::decode_header(bytes);
  const auto ev = events::decode_event(bytes);
  if (!header) FUZZ_CHECK(expected_code(header.error().code), header.error().message.c_str());
  if (!ev) {
    FUZZ_CHECK(expected_code(ev.error().code), ev.error().message.c_str());
    return 0;
  }
  // The header is part of the event: whatever decodes as an event decodes as a header.
  FUZZ_CHECK(header.has_value(), "an event decodes but its header does not");

  const std::string again = events::encode_event(*ev);
  const auto back = events::decode_event(again);
  if (again.size() > events::kMaxEventBytes) {
    FUZZ_CHECK(!back && back.error().message.find("too large") != std::string::npos, "an oversized event decodes");
  } else {
    FUZZ_CHECK(back.has_value(), back ? "" : back.error().message.c_str());
    FUZZ_CHECK(*back == *ev, "a decoded event changes through encode and decode");
  }

  const core::Context ctx{s.catalog, s.ruleset};
  std::vector<core::Finding> findings;
  for (const auto& start : states) {
    core::GameState state = start;
    core::apply(ctx, state, *ev, findings);
  }
  return 0;
}
