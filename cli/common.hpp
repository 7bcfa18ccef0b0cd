#pragma once
// Helpers every verb shares: the store, the game selection, overrides, errors.

#include <optional>
#include <string>
#include <vector>

#include "verbs.hpp"
#include "warlog/replay/replay.hpp"

namespace warlog::cli {

// One line on stderr: "warlog: MESSAGE".
void error_line(const Error& e);

// The store the verb works on: --store, else $WARLOG_STORE, else the default.
[[nodiscard]] Expected<replay::Archive> open_archive(const Options& o, replay::Archive::Mode mode);

// The games a verb works on: --game ids, else every game in the store, in id order.
[[nodiscard]] Expected<std::vector<core::GameId>> selected_games(const replay::Archive& a, const Options& o,
                                                              bool orphans = false);

// Parses --shard K/N into o.shard_index and o.shard_count (empty: no
// shard). Errors: InvalidArgument.
[[nodiscard]] Expected<void> parse_shard(Options& o);

// The store and the games a verb works on, with --shard K/N applied
// (a shard is only a game filter). Errors: the store's, or InvalidArgument
// for a malformed --shard.
struct Selection {
  replay::Archive archive;
  std::vector<core::GameId> ids;
};
// orphans: also the ids of events with no game record (verify).
[[nodiscard]] Expected<Selection> open_selection(const Options& o, replay::Archive::Mode mode, bool orphans = false);

// "migrated from format-1 head H (N events), signed there by key K (name)"
// for a game `warlog migrate` converted, nullopt for another (cli/migrate.cpp).
[[nodiscard]] Expected<std::optional<std::string>> migrated_line(const replay::Archive& archive, core::GameId game);

// --ruleset / --catalog files as audit overrides (empty flags: none).
[[nodiscard]] Expected<replay::AuditOptions> load_overrides(const std::string& ruleset_path,
                                                            const std::string& catalog_path);

}  // namespace warlog::cli
