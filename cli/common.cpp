#include "common.hpp"

#include <fmt/format.h>

#include <charconv>

#include "shard.hpp"

namespace warlog::cli {

void error_line(const Error& e) { fmt::print(stderr, "warlog: {}\n", e.message); }

Expected<replay::Archive> open_archive(const Options& o, replay::Archive::Mode mode) {
  return replay::Archive::open(o.store.empty() ? replay::default_store_path() : o.store, mode);
}

Expected<std::vector<core::GameId>> selected_games(const replay::Archive& a, const Options& o, bool orphans) {
  std::vector<core::GameId> ids;
  if (!o.games.empty()) {
    ids.assign(o.games.begin(), o.games.end());
  } else {
    // Ids from keys: a game whose record or first block is corrupt is still selected.
    auto all = a.game_ids(orphans);
    if (!all) return tl::unexpected(all.error());
    ids = std::move(*all);
  }
  // A shard is only a game filter: --shard K/N keeps the ids shard_of gives K.
  if (o.shard_count > 0) {
    std::erase_if(ids, [&](core::GameId id) { return shard_of(id, o.shard_count) != o.shard_index; });
  }
  return ids;
}

Expected<void> parse_shard(Options& o) {
  if (o.shard.empty()) return {};
  const auto slash = o.shard.find('/');
  std::uint64_t k = 0, n = 0;
  const char* s = o.shard.data();
  const auto ok = [](std::from_chars_result r, const char* end) { return r.ec == std::errc{} && r.ptr == end; };
  if (slash == std::string::npos || !ok(std::from_chars(s, s + slash, k), s + slash) ||
      !ok(std::from_chars(s + slash + 1, s + o.shard.size(), n), s + o.shard.size()) || n == 0 || k >= n) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("--shard takes K/N with 0 <= K < N, e.g. 0/4; found '{}'", o.shard));
  }
  o.shard_index = k;
  o.shard_count = n;
  return {};
}

Expected<Selection> open_selection(const Options& opts, replay::Archive::Mode mode, bool orphans) {
  Options o = opts;
  if (auto s = parse_shard(o); !s) return tl::unexpected(s.error());
  auto archive = open_archive(o, mode);
  if (!archive) return tl::unexpected(archive.error());
  auto ids = selected_games(*archive, o, orphans);
  if (!ids) return tl::unexpected(ids.error());
  return Selection{std::move(*archive), std::move(*ids)};
}

Expected<replay::AuditOptions> load_overrides(const std::string& ruleset_path, const std::string& catalog_path) {
  replay::AuditOptions ao;
  if (!ruleset_path.empty()) {
    auto r = core::load_ruleset(ruleset_path);
    if (!r) return tl::unexpected(r.error());
    ao.ruleset = std::move(*r);
  }
  if (!catalog_path.empty()) {
    auto c = core::load_catalog(catalog_path);
    if (!c) return tl::unexpected(c.error());
    ao.catalog = std::move(*c);
  }
  return ao;
}


}  // namespace warlog::cli
