// Archive::import_events: a game built in memory (a generated game) enters
// the store like an imported file: its catalog and ruleset as blobs first,
// then the events, in one transaction each. import_events_batch writes many
// such games in one transaction.

#include <fmt/format.h>

#include "warlog/core/catalog.hpp"
#include "warlog/replay/replay.hpp"
#include "warlog/store/store.hpp"

namespace warlog::replay {

namespace {

// The game must name the very bytes stored beside it, or it could not be
// audited under what it was played under.
Expected<void> check_recorded_hashes(std::span<const core::Event> events, const std::string& catalog_hash,
                                     const std::string& ruleset_hash) {
  if (events.empty() || !std::holds_alternative<core::GameCreated>(events.front().payload)) {
    return make_error(ErrorCode::InvalidArgument, "a game starts with GameCreated");
  }
  const auto& created = std::get<core::GameCreated>(events.front().payload);
  if (created.catalog_hash != catalog_hash || created.ruleset_hash != ruleset_hash) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("the game records catalog {} and ruleset {}, the texts given hash to {} and {}",
                                  created.catalog_hash.substr(0, 12), created.ruleset_hash.substr(0, 12),
                                  catalog_hash.substr(0, 12), ruleset_hash.substr(0, 12)));
  }
  return {};
}

// Blobs first: a game must never reference a catalog the store lacks.
Expected<void> put_blobs(store::Store& st, std::string_view catalog_text, std::string_view ruleset_text) {
  if (auto h = st.put_blob(store::BlobKind::Catalog, catalog_text); !h) return tl::unexpected(h.error());
  if (auto h = st.put_blob(store::BlobKind::Ruleset, ruleset_text); !h) return tl::unexpected(h.error());
  return {};
}

store::Durability durability(bool bulk) { return bulk ? store::Durability::Relaxed : store::Durability::Sync; }

}  // namespace

Expected<ImportResult> Archive::import_events(std::span<const core::Event> events, std::string_view catalog_text,
                                              std::string_view ruleset_text, bool bulk) {
  if (auto ok = check_recorded_hashes(events, core::content_hash(catalog_text), core::content_hash(ruleset_text));
      !ok) {
    return tl::unexpected(ok.error());
  }
  if (auto ok = put_blobs(*store_, catalog_text, ruleset_text); !ok) return tl::unexpected(ok.error());
  auto id = store_->import_game(events, durability(bulk));
  if (!id) return tl::unexpected(id.error());
  return ImportResult{*id, events.size()};
}

Expected<std::vector<Expected<ImportResult>>> Archive::import_events_batch(
    std::span<const std::vector<core::Event>> games, std::string_view catalog_text, std::string_view ruleset_text,
    bool bulk) {
  const std::string catalog_hash = core::content_hash(catalog_text);
  const std::string ruleset_hash = core::content_hash(ruleset_text);
  std::vector<Expected<ImportResult>> out(games.size(), ImportResult{});
  std::vector<std::span<const core::Event>> accepted;
  std::vector<std::size_t> slot;  // accepted[k] is games[slot[k]]
  for (std::size_t i = 0; i < games.size(); ++i) {
    if (auto ok = check_recorded_hashes(games[i], catalog_hash, ruleset_hash); !ok) {
      out[i] = tl::unexpected(ok.error());
      continue;
    }
    accepted.emplace_back(games[i]);
    slot.push_back(i);
  }
  if (accepted.empty()) return out;
  if (auto ok = put_blobs(*store_, catalog_text, ruleset_text); !ok) return tl::unexpected(ok.error());
  auto ids = store_->import_games(accepted, durability(bulk));
  if (!ids) return tl::unexpected(ids.error());
  for (std::size_t k = 0; k < accepted.size(); ++k) {
    const auto& id = (*ids)[k];
    if (id) {
      out[slot[k]] = ImportResult{id->id, accepted[k].size(), id->already_stored};
    } else {
      out[slot[k]] = tl::unexpected(id.error());
    }
  }
  return out;
}

}  // namespace warlog::replay
