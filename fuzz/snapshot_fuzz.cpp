// Target "snapshot": snapshot values through the decoder and on into the
// fold, as seek reads them. The input is the packed message; the target
// appends its BLAKE2b-256, as a store's writer would, because the checksum
// is no defence against whoever writes the store: behind a sound checksum
// the decoder itself must refuse what cannot be a state.
//   - decode_snapshot returns a snapshot or DataLoss/Unsupported;
//   - a decoded state keeps the fold's invariants, round-trips through
//     encode and decode (or re-encodes over kMaxSnapshotBytes, refused by
//     size), and folds on through the next events of a game.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "check.hpp"
#include "harness.hpp"
#include "warlog/core/fold.hpp"
#include "warlog/core/hash.hpp"
#include "warlog/events/snapshot.hpp"

using namespace warlog;

namespace {
bool expected_code(ErrorCode c) { return c == ErrorCode::DataLoss || c == ErrorCode::Unsupported; }
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto& s = fuzz::samples();
  std::string value(reinterpret_cast<const char*>(data), size);
  const core::Digest sum = core::blake2b(value);
  value.append(reinterpret_cast<const char*>(sum.data()), sum.size());

  const auto header = events::decode_snapshot_header(value);
  const auto snap = events::decode_snapshot(value);
  if (!header) FUZZ_CHECK(expected_code(header.error().code), header.error().message.c_str());
  if (!snap) {
    FUZZ_CHECK(expected_code(snap.error().code), snap.error().message.c_str());
    return 0;
  }
  FUZZ_CHECK(header.has_value() && *header == snap->header, "the header alone decodes otherwise");
  const std::string why = core::check_invariants(snap->state);
  FUZZ_CHECK(why.empty(), why.c_str());

  // As for events, null pointers read as "" cost nothing packed but are
  // written out in full: a 1.5 KB value can re-encode to 19.7 MB
  // (fuzz/corpus/snapshot/crash-reencodes-over-the-limit), which decode then
  // refuses by its size and seek never writes.
  const std::string again = events::encode_snapshot(snap->state, snap->header);
  const auto back = events::decode_snapshot(again);
  if (again.size() > events::kMaxSnapshotBytes) {
    FUZZ_CHECK(!back && back.error().message.find("over the limit") != std::string::npos, "an oversized snapshot decodes");
  } else {
    FUZZ_CHECK(back.has_value(), back ? "" : back.error().message.c_str());
    FUZZ_CHECK(back->state == snap->state && back->header == snap->header, "a snapshot changes through encode and decode");
  }

  // Fold on as seek would: the events after the snapshot's seq (or, for a
  // seq past the game, the last few), in every game.
  const core::Context ctx{s.catalog, s.ruleset};
  for (const auto& game : s.games) {
    core::GameState state = snap->state;
    std::vector<core::Finding> findings;
    std::size_t from = snap->header.seq < game.size() ? static_cast<std::size_t>(snap->header.seq) + 1 : 0;
    if (from >= game.size()) from = game.size() > 8 ? game.size() - 8 : 0;
    for (std::size_t i = from; i < game.size() && i < from + 16; ++i) core::apply(ctx, state, game[i], findings);
  }
  return 0;
}
