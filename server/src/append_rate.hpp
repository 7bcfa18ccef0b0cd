#pragma once
// The appends a token may make (docs/server.md › 6): a token bucket per
// token, Limits::appends_per_second refilling up to Limits::append_burst.
// One for the whole server, shared by HTTP and RPC, so a token's rate is
// the same whichever way it records. The event loop's own (not thread-safe).

#include <kj/timer.h>

#include <map>

#include "warlog/core/hash.hpp"
#include "warlog/server/server.hpp"

namespace warlog::server {

class AppendRate {
 public:
  AppendRate(const Limits& limits, const kj::Timer& timer) : limits_(limits), timer_(timer) {}

  // Takes one append from the token's bucket: false when it is empty (429,
  // or the RPC error naming the limit; nothing written).
  [[nodiscard]] bool take(const core::Digest& token);
  // "over 10 appends a second for this token (bursts of 20)".
  [[nodiscard]] std::string refusal() const;

 private:
  struct Bucket {
    double tokens = 0;
    kj::TimePoint last = kj::origin<kj::TimePoint>();
  };
  const Limits& limits_;
  const kj::Timer& timer_;
  std::map<core::Digest, Bucket> buckets_;
};

}  // namespace warlog::server
