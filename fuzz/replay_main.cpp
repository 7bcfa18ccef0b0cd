// The replay driver: one target's LLVMFuzzerTestOneInput run without
// libFuzzer, so that any compiler builds it and ctest runs it in every build
// (gcc cannot link libFuzzer). It is a smoke test, not fuzzing: it feeds
//   1. the committed inputs in fuzz/corpus/TARGET/ (seeds and every input
//      that once broke the target: the regression files),
//   2. the seeds made from the samples (harness.hpp),
//   3. a fixed number of deterministic mutations of those (bit flips, byte
//      edits, inserts, cuts, splices), from a fixed PRNG seed,
// and any files named on the command line (to reproduce a crash).
//
//   fuzz_replay_TARGET [--mutations N] [--seconds S] [FILE...]
// Prints what it ran. A failed property aborts, as under libFuzzer.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "harness.hpp"

namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void run(const std::string& input) {
  (void)LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
}

// xorshift64*: the same sequence on every machine.
struct Rng {
  std::uint64_t s = 0x9E3779B97F4A7C15ull;
  std::uint64_t next() {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return s * 0x2545F4914F6CDD1Dull;
  }
  std::size_t below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(next() % n); }
};

std::string mutate(Rng& rng, const std::vector<std::string>& pool) {
  std::string x = pool[rng.below(pool.size())];
  const int edits = 1 + static_cast<int>(rng.below(4));
  for (int e = 0; e < edits; ++e) {
    const std::size_t at = rng.below(x.size() + 1);
    switch (rng.below(7)) {
      case 0:  // flip a bit
        if (at < x.size()) x[at] = static_cast<char>(x[at] ^ (1 << rng.below(8)));
        break;
      case 1:  // an interesting byte
        if (at < x.size()) {
          static const unsigned char kBytes[] = {0x00, 0xff, 0x7f, 0x80, 0x01, '"', '\n', ','};
          x[at] = static_cast<char>(kBytes[rng.below(sizeof kBytes)]);
        }
        break;
      case 2:  // insert random bytes
        x.insert(at, std::string(1 + rng.below(8), static_cast<char>(rng.next())));
        break;
      case 3:  // cut a range
        x.erase(at, rng.below(16) + 1);
        break;
      case 4:  // duplicate a range
        if (at < x.size()) x.insert(at, x.substr(at, rng.below(64) + 1));
        break;
      case 5: {  // splice with another input
        const std::string& other = pool[rng.below(pool.size())];
        const std::size_t from = rng.below(other.size() + 1);
        x = x.substr(0, at) + other.substr(from);
        break;
      }
      default:  // truncate
        x.resize(at);
    }
  }
  return x;
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t mutations = 2000;
  double seconds = 10;
  std::vector<fs::path> files;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--mutations" && i + 1 < argc) {
      mutations = std::stoul(argv[++i]);
    } else if (a == "--seconds" && i + 1 < argc) {
      seconds = std::stod(argv[++i]);
    } else {
      files.emplace_back(a);
    }
  }
  if (!files.empty()) {
    for (const auto& f : files) {
      std::printf("fuzz_replay %s: %s\n", WARLOG_FUZZ_TARGET, f.c_str());
      run(read_file(f));
    }
    return 0;
  }

  std::vector<std::string> pool;
  std::size_t committed = 0;
  const fs::path dir = fs::path(WARLOG_FUZZ_CORPUS_DIR) / WARLOG_FUZZ_TARGET;
  if (fs::is_directory(dir)) {
    std::vector<fs::path> paths;
    for (const auto& e : fs::directory_iterator(dir)) {
      if (e.is_regular_file()) paths.push_back(e.path());
    }
    std::sort(paths.begin(), paths.end());
    for (const auto& p : paths) {
      pool.push_back(read_file(p));
      run(pool.back());
      ++committed;
    }
  }
  const auto seeds = warlog::fuzz::seeds(WARLOG_FUZZ_TARGET);
  for (const auto& s : seeds) {
    run(s);
    pool.push_back(s);
  }
  if (pool.empty()) {
    std::fprintf(stderr, "fuzz_replay %s: no inputs\n", WARLOG_FUZZ_TARGET);
    return 1;
  }
  Rng rng;
  const auto start = std::chrono::steady_clock::now();
  std::size_t done = 0;
  for (; done < mutations; ++done) {
    if (done % 64 == 0 && std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > seconds) {
      break;
    }
    run(mutate(rng, pool));
  }
  std::printf("fuzz_replay %s: %zu committed inputs, %zu seeds, %zu of %zu mutations, no failure\n",
              WARLOG_FUZZ_TARGET, committed, seeds.size(), done, mutations);
  return 0;
}
