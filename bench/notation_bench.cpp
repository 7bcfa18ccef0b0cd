// Notation figures: lexing one long line (linear since the lexer counts
// columns as it goes; it was quadratic, a 1 MB line took 6 s) and parsing a
// file with one such line (refused after reading kMaxNotationLineBytes of
// it). 1, 2 and 4 MiB lines; no data needed.

#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#include "../core/src/notation_lex.hpp"  // the lexer is internal; its benchmark reaches in
#include "bench.hpp"
#include "warlog/core/notation.hpp"

namespace warlog::bench {

namespace {

// A line of `bytes` bytes of tokens: "b2, " over and over.
std::string token_line(std::size_t bytes) {
  std::string line;
  line.reserve(bytes);
  while (line.size() + 4 <= bytes) line += "b2, ";
  return line;
}

// notation/lex_line/N: core::notation::lex of one N-MiB line.
void lex_line(benchmark::State& state, std::size_t mib) {
  const std::string line = token_line(mib << 20);
  std::size_t tokens = 0;
  for (auto _ : state) {
    const auto lexed = core::notation::lex(line);
    tokens = lexed.tokens.size();
    benchmark::DoNotOptimize(tokens);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * line.size()));
  state.counters["tokens"] = static_cast<double>(tokens);
}

// notation/parse_long_line/N: parse_notation of a game whose Title line is
// N MiB: the line is refused with its line:col, the rest parsed.
void parse_long_line(benchmark::State& state, std::size_t mib) {
  const std::string text = "[Board \"5x4\"]\n[Seat1 \"A\" \"claw\"]\n[Seat2 \"B\" \"paw\"]\n[Title \"" +
                           std::string(mib << 20, 't') + "\"]\nTurn 1\n";
  static const core::Catalog catalog;
  std::size_t errors = 0;
  for (auto _ : state) {
    const core::ParseResult r = core::parse_notation(text, "long.wlog", catalog, "", core::DeckLoader{});
    errors = r.errors.size();
    benchmark::DoNotOptimize(errors);
  }
  if (errors != 1) state.SkipWithError("the long line was not refused as one error");
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}

}  // namespace

void register_notation_benchmarks() {
  for (const std::size_t mib : {1, 2, 4}) {
    benchmark::RegisterBenchmark(("notation/lex_line/" + std::to_string(mib) + "MiB").c_str(),
                                 [mib](benchmark::State& s) { lex_line(s, mib); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark(("notation/parse_long_line/" + std::to_string(mib) + "MiB").c_str(),
                                 [mib](benchmark::State& s) { parse_long_line(s, mib); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
}

}  // namespace warlog::bench
