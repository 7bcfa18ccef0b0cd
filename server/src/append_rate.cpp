// server::AppendRate (append_rate.hpp).

#include "append_rate.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace warlog::server {

bool AppendRate::take(const core::Digest& token) {
  const kj::TimePoint now = timer_.now();
  auto [it, fresh] = buckets_.try_emplace(token, Bucket{limits_.append_burst, now});
  Bucket& b = it->second;
  if (!fresh) {
    const double seconds = static_cast<double>((now - b.last) / kj::MICROSECONDS) / 1e6;
    b.tokens = std::min(limits_.append_burst, b.tokens + seconds * limits_.appends_per_second);
    b.last = now;
  }
  if (b.tokens < 1) return false;
  b.tokens -= 1;
  return true;
}

std::string AppendRate::refusal() const {
  return fmt::format("over {} appends a second for this token (bursts of {})", limits_.appends_per_second,
                     limits_.append_burst);
}

}  // namespace warlog::server
