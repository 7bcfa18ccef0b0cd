#pragma once
// What a .wlog file is parsed against: the catalog and ruleset its
// [Catalog]/[Ruleset] tags name (files relative to it, or content hashes of
// blobs in the store), and its deck files. Shared by import and by
// Recorder::create, so a header recorded live resolves exactly as the same
// header imported.

#include <memory>
#include <string>
#include <string_view>

#include "warlog/core/catalog.hpp"
#include "warlog/core/notation.hpp"
#include "warlog/core/ruleset.hpp"
#include "warlog/replay/replay.hpp"

namespace warlog::replay {

struct GameSources {
  std::shared_ptr<const core::Catalog> catalog;
  std::shared_ptr<const core::Ruleset> ruleset;
  std::string catalog_text;  // the bytes, to store as blobs
  std::string ruleset_text;
  core::DeckLoader load_deck;  // deck files relative to the game file
};

// `text` is the game file's content, `path` where it was read. Errors: as
// Archive::import_file for a missing, unreadable or unparsable catalog or
// ruleset (NotFound, InvalidArgument).
// The catalog and ruleset are parsed through the archive's cache
// (Archive::catalog_from): once per run, however many files name them.
[[nodiscard]] Expected<GameSources> load_sources(const Archive& archive, const std::string& path,
                                                 std::string_view text, const ImportOptions& options);

}  // namespace warlog::replay
