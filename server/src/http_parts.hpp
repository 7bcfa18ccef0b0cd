#pragma once
// What the HTTP side's two files share (http.cpp: routes, tokens, limits,
// the recorder's API and follow streams; judges.cpp: the judges' overview,
// calls, disputes and rulings).

#include <kj/string.h>

#include <charconv>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "http.hpp"

namespace warlog::server {

inline const kj::StringPtr kCsp = "default-src 'self'";

inline std::optional<std::uint64_t> parse_u64(std::string_view s) {
  std::uint64_t v = 0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || r.ec != std::errc{} || r.ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

// "/api/games/7/events?from=3" -> path parts {"api","games","7","events"}, query {from: 3}.
struct Target {
  std::vector<std::string> parts;
  std::map<std::string, std::string> query;
  std::string path;
};

// What every API request knows once its token is checked.
struct Http::Request {
  kj::HttpMethod method;
  Target target;
  TokenEntry who;
  core::GameId game = 0;  // /api/games/N/...
};

}  // namespace warlog::server
