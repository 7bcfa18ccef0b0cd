// The tamper suite, byte by byte and resealed ("Trust the store" › Done
// means): in a copy of the sample store, a byte of a game's canonical
// events or annotations is flipped and the game written back by a
// consistent forger (tamper_reseal.hpp: every tag, S, head, count, index
// key and A(n) recomputed). Then verify must say INVALID (or VANISHED, or
// BROKEN where the flipped bytes no longer decode) for the game a trusted
// key signed, never "trusted", "unknown" or "unsigned"; and for the unsigned
// game "unsigned" (the documented limit: nothing can tell a consistent
// rewrite of a game nobody signed) or BROKEN. 2,000 positions per kind in
// ctest, every byte under `scripts/soak tamper`.

#include <gtest/gtest.h>

#include <chrono>
#include <iostream>
#include <map>
#include <set>

#include <fmt/format.h>

#include "store/tamper_reseal.hpp"

namespace warlog::store::tamper {
namespace {

struct Sweep {
  std::size_t tried = 0, expected = 0;
  std::map<Verdict, std::size_t> verdicts;
};

class TamperResealed : public ::testing::Test {
 protected:
  // Flips `count` positions spread over the game's canonical events (or
  // annotations), resealing each time.
  Sweep sweep(core::GameId game, bool annotations, std::size_t count, const std::set<Verdict>& want) {
    const GameBytes pristine = read_game(copy_.store(), game);
    const auto deletions = deletions_of(copy_.store(), game);
    const auto& parts = annotations ? pristine.annotations : pristine.events;
    std::vector<Record> as_records;
    for (const auto& p : parts) as_records.push_back({{}, p});
    Editor editor(copy_.store());
    Sweep s;
    for (const Position& p : spread(as_records, count, false)) {
      GameBytes g = pristine;
      std::string& bytes = (annotations ? g.annotations : g.events)[p.record];
      bytes[p.byte] = static_cast<char>(bytes[p.byte] ^ p.mask);
      editor.apply(reseal(deletions, game, g));
      const Outcome o = copy_.verify(game);
      ++s.tried;
      ++s.verdicts[o.verdict];
      if (want.contains(o.verdict)) {
        ++s.expected;
      } else {
        ADD_FAILURE() << "game " << game << ", " << (annotations ? "annotation " : "event ") << p.record << " byte "
                      << p.byte << " ^ " << int{p.mask} << ", resealed: " << name_of(o.verdict) << ": " << o.text;
      }
    }
    editor.restore();
    return s;
  }
  void report(const char* what, const Sweep& s, double seconds) {
    std::string v;
    for (const auto& [verdict, n] : s.verdicts) v += fmt::format("{}{} {}", v.empty() ? "" : " ", name_of(verdict), n);
    std::cout << fmt::format("tamper resealed {}: {} positions, {} as expected ({}); {:.1f} s\n", what, s.tried,
                             s.expected, v, seconds);
  }
  void run(const char* what, bool annotations) {
    const auto start = std::chrono::steady_clock::now();
    const std::size_t n = positions_wanted(1000);
    const Sweep a = sweep(sample_store().signed_game, annotations, n, kSigned);
    const Sweep b = sweep(sample_store().disputed_game, annotations, n, kUnsigned);
    Sweep all{a.tried + b.tried, a.expected + b.expected, a.verdicts};
    for (const auto& [v, k] : b.verdicts) all.verdicts[v] += k;
    report(what, all, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    EXPECT_EQ(all.expected, all.tried);
    if (n != 0) {
      EXPECT_GE(all.tried, 2000u);  // every byte (n 0) may be fewer for the annotations
    }
  }

  const std::set<Verdict> kSigned{Verdict::Invalid, Verdict::Vanished, Verdict::Broken, Verdict::BadRuling};
  const std::set<Verdict> kUnsigned{Verdict::Unsigned, Verdict::Broken};
  TamperCopy copy_;
};

TEST_F(TamperResealed, EventBytesAreInvalidWhenSignedAndUnsignedOtherwise) { run("event bytes", false); }

TEST_F(TamperResealed, AnnotationBytesAreInvalidWhenSignedAndUnsignedOtherwise) { run("annotation bytes", true); }

}  // namespace
}  // namespace warlog::store::tamper
