#pragma once
// Reading the files of an event: an event file's tags, decklist blocks, and
// the registry (both, with content hashes), into values; resolving the
// event's catalog and ruleset through the store.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "warlog/tournament/decklists.hpp"

namespace warlog::tournament::detail {

// Where each card entry of a decklist was written, for errors.
struct DeckDraft {
  Decklist deck;
  std::vector<std::string> army_where;    // parallel to deck.army: "FILE:LINE:COL"
  std::vector<std::string> orders_where;  // parallel to deck.orders
};

struct EventDraft {
  EventSetup setup;          // ruleset_hash and catalog_hash empty until resolved
  std::string ruleset_ref;   // as written: a path relative to the file, or a hash
  std::string catalog_ref;
  std::string file;          // where it was read
  std::uint32_t line = 0;    // its first tag
};

struct ParsedFile {
  std::optional<EventDraft> event;
  std::vector<DeckDraft> decks;
  std::vector<std::string> errors;  // FILE:LINE:COL each
};

// One file's text. Deck files named by [Army "x.deck"] are read relative
// to `file`'s folder.
[[nodiscard]] ParsedFile parse_event_text(std::string_view text, const std::string& file);

// The event with its catalog and ruleset stored as blobs (when given as
// files) and named by content hash.
struct ResolvedEvent {
  EventSetup setup;
  std::shared_ptr<const core::Catalog> catalog;
  std::shared_ptr<const core::Ruleset> ruleset;
};
[[nodiscard]] Expected<ResolvedEvent> resolve_event(const replay::Archive& archive, const EventDraft& draft,
                                                    bool may_store);
// The same for a setup already naming hashes (the registry's).
[[nodiscard]] Expected<ResolvedEvent> resolve_setup(const replay::Archive& archive, const EventSetup& setup);

// Errors for the cards of `d` the catalog does not hold (with the closest).
[[nodiscard]] std::vector<std::string> unknown_cards(const DeckDraft& d, const core::Catalog& catalog);

// Problems of the event's setup as a game header (a Territory off the board
// or not a Territory card): the notation's own checks. Empty when sound.
[[nodiscard]] std::vector<std::string> setup_errors(const ResolvedEvent& e, const std::string& file);

}  // namespace warlog::tournament::detail
