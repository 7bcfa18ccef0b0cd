// Linked into the libFuzzer binaries only. With WARLOG_FUZZ_WRITE_SEEDS=DIR
// in the environment the binary writes its seed inputs (harness.hpp) to DIR,
// one file each, and exits: scripts/fuzz makes the starting corpus this way,
// with the same build that fuzzes.

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "harness.hpp"

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  const char* out = std::getenv("WARLOG_FUZZ_WRITE_SEEDS");
  if (out == nullptr) return 0;
  const std::filesystem::path dir(out);
  std::filesystem::create_directories(dir);
  const auto seeds = warlog::fuzz::seeds(WARLOG_FUZZ_TARGET);
  for (std::size_t i = 0; i < seeds.size(); ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "seed-%04zu", i);
    std::ofstream(dir / name, std::ios::binary) << seeds[i];
  }
  std::printf("%s: wrote %zu seeds to %s\n", WARLOG_FUZZ_TARGET, seeds.size(), out);
  std::exit(0);
}
