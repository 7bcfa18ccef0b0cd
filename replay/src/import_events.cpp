// Archive::import_events: a game built in memory (a generated game) enters
// the store like an imported file: its catalog and ruleset as blobs first,
// then the events, in one transaction each.

#include <fmt/format.h>

#include "warlog/core/catalog.hpp"
#include "warlog/replay/replay.hpp"
#include "warlog/store/store.hpp"

namespace warlog::replay {

Expected<ImportResult> Archive::import_events(std::span<const core::Event> events, std::string_view catalog_text,
                                              std::string_view ruleset_text, bool bulk) {
  if (events.empty() || !std::holds_alternative<core::GameCreated>(events.front().payload)) {
    return make_error(ErrorCode::InvalidArgument, "a game starts with GameCreated");
  }
  // The game must name the very bytes stored beside it, or it could not be
  // audited under what it was played under.
  const auto& created = std::get<core::GameCreated>(events.front().payload);
  const std::string catalog_hash = core::content_hash(catalog_text);
  const std::string ruleset_hash = core::content_hash(ruleset_text);
  if (created.catalog_hash != catalog_hash || created.ruleset_hash != ruleset_hash) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("the game records catalog {} and ruleset {}, the texts given hash to {} and {}",
                                  created.catalog_hash.substr(0, 12), created.ruleset_hash.substr(0, 12),
                                  catalog_hash.substr(0, 12), ruleset_hash.substr(0, 12)));
  }
  // Blobs first: a game must never reference a catalog the store lacks.
  if (auto h = store_->put_blob(store::BlobKind::Catalog, catalog_text); !h) return tl::unexpected(h.error());
  if (auto h = store_->put_blob(store::BlobKind::Ruleset, ruleset_text); !h) return tl::unexpected(h.error());
  auto id = store_->import_game(events, bulk ? store::Durability::Relaxed : store::Durability::Sync);
  if (!id) return tl::unexpected(id.error());
  return ImportResult{*id, events.size()};
}

}  // namespace warlog::replay
