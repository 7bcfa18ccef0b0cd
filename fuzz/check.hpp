#pragma once
// FUZZ_CHECK(cond, what): a property the target asserts about the library.
// A failure prints the property and aborts, which libFuzzer and the replay
// driver both report as a crash with the input that caused it.

#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(cond, what)                                                              \
  do {                                                                                      \
    if (!(cond)) {                                                                          \
      std::fprintf(stderr, "fuzz: %s:%d: property failed: %s (%s)\n", __FILE__, __LINE__, \
                   #cond, what);                                                            \
      std::abort();                                                                         \
    }                                                                                       \
  } while (0)
