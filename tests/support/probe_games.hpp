#pragma once
// The games of a judge's probe trial (tests/data/probes, issue 15), folded
// whole as the audit folds them: the stream, then the end of the log
// (core::close_log, rulings R-095).

#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "game_builder.hpp"
#include "game_corpus.hpp"
#include "warlog/core/close_log.hpp"

namespace warlog::testing {

struct Probe {
  Folded f;
  std::string open;  // what close_log says of the log's end
  std::vector<core::Event> events;
  core::Seq last = 0;

  // The seq of the first event holding payload P, or ~0.
  template <class P>
  [[nodiscard]] core::Seq first_seq() const {
    for (const core::Event& ev : events) {
      if (std::holds_alternative<P>(ev.payload)) return ev.seq;
    }
    return ~core::Seq{0};
  }
};

// `close`: end the log as the audit does; without it, the fold alone (what a
// live recorder answers line by line).
inline Probe audit_probe(const std::string& name, bool close = true, const core::Ruleset* rules = nullptr) {
  const auto g = load_sample_game(std::filesystem::path(WARLOG_SOURCE_DIR) / "tests" / "data" / "probes" /
                                  (name + ".wlog"));
  const core::Context ctx{g.catalog, rules != nullptr ? *rules : g.ruleset};
  Probe p;
  p.f.state = core::fold(ctx, g.events, p.f.findings);
  if (close) p.open = core::close_log(ctx, p.f.state, p.f.findings);
  p.events = g.events;
  p.last = g.events.empty() ? 0 : g.events.back().seq;
  EXPECT_EQ(core::check_invariants(p.f.state), "");
  return p;
}

}  // namespace warlog::testing
