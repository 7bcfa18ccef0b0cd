#include "event_file.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "tags.hpp"
#include "warlog/core/hash.hpp"
#include "warlog/core/notation.hpp"
#include "warlog/core/notation_session.hpp"
#include "warlog/core/text.hpp"
#include "warlog/core/text_file.hpp"
#include "warlog/store/keys.hpp"
#include "warlog/store/reader.hpp"
#include "warlog/store/store.hpp"

namespace fs = std::filesystem;

namespace warlog::tournament::detail {

namespace {

std::string where(const std::string& file, std::uint32_t line, std::uint32_t col) {
  return fmt::format("{}:{}:{}", file, line, col);
}

std::string found_of(const TagLine& t, std::size_t i) {
  if (i >= t.args.size()) return "']'";
  return (t.args[i].quoted ? "\"" : "'") + core::clip_for_message(t.args[i].text) + (t.args[i].quoted ? "\"" : "'");
}

// "5x3" -> {5, 3}; the notation's limits (1-26 columns, 1-99 rows).
std::optional<std::pair<int, int>> board_of(std::string_view s) {
  const std::size_t x = s.find_first_of("xX");
  if (x == std::string_view::npos || x == 0 || x + 1 == s.size() || s.size() > 6) return std::nullopt;
  int v[2] = {0, 0};
  for (int k = 0; k < 2; ++k) {
    for (char c : k == 0 ? s.substr(0, x) : s.substr(x + 1)) {
      if (c < '0' || c > '9') return std::nullopt;
      v[k] = v[k] * 10 + (c - '0');
    }
  }
  if (v[0] < 1 || v[0] > 26 || v[1] < 1 || v[1] > 99) return std::nullopt;
  return std::pair{v[0], v[1]};
}

struct Reader {
  const std::string& file;
  ParsedFile& out;

  void error(const TagLine& t, std::size_t arg, std::string_view expected) {
    const std::uint32_t col = arg < t.args.size() ? t.args[arg].col : t.col;
    out.errors.push_back(at(file, t.line, col, expected, found_of(t, arg)));
  }
  // Exactly one quoted argument.
  std::optional<std::string> one_text(const TagLine& t, std::string_view what) {
    if (t.args.size() != 1 || !t.args[0].quoted) {
      error(t, t.args.empty() || !t.args[0].quoted ? 0 : 1, fmt::format("{} in double quotes", what));
      return std::nullopt;
    }
    return t.args[0].text;
  }

  EventDraft& event(const TagLine& t) {
    if (!out.event) {
      out.event.emplace();
      out.event->file = file;
      out.event->line = t.line;
    }
    return *out.event;
  }

  void deck_entry(const TagLine& t, DeckDraft& d, bool orders) {
    auto& list = orders ? d.deck.orders : d.deck.army;
    auto& at_list = orders ? d.orders_where : d.army_where;
    const std::string here = where(file, t.line, t.col);
    if (t.args.size() == 2 && !t.args[0].quoted && t.args[1].quoted) {
      int n = 0;
      bool ok = !t.args[0].text.empty() && t.args[0].text.size() <= 3;
      for (char c : t.args[0].text) ok = ok && c >= '0' && c <= '9';
      if (ok) n = std::stoi(t.args[0].text);
      if (!ok || n < 1) {
        error(t, 0, "a card count from 1");
        return;
      }
      list.push_back(core::CardCount{t.args[1].text, n});
      at_list.push_back(where(file, t.line, t.args[1].col));
      return;
    }
    if (t.args.size() == 1 && t.args[0].quoted) {
      const fs::path deck_path = fs::path(file).parent_path() / t.args[0].text;
      auto text = core::read_text_file(deck_path.string(), core::kMaxDeckFileBytes, "deck file");
      if (!text) {
        out.errors.push_back(fmt::format("{}: expected a readable deck file, found {} ({})", where(file, t.line, t.args[0].col),
                                         quote(t.args[0].text), text.error().message));
        return;
      }
      auto cards = core::parse_deck(*text);
      if (!cards) {
        out.errors.push_back(fmt::format("{}:{} (deck named at {})", deck_path.string(), cards.error().message,
                                         where(file, t.line, t.args[0].col)));
        return;
      }
      for (auto& cc : *cards) {
        list.push_back(std::move(cc));
        at_list.push_back(fmt::format("{} (in {})", where(file, t.line, t.args[0].col), t.args[0].text));
      }
      return;
    }
    error(t, 0, fmt::format("a deck file in double quotes, or a count and a quoted card name, as in [{} 3 \"Ironclaw "
                            "Lancer\"]",
                            t.name));
  }

  void tag(const TagLine& t) {
    const std::string& n = t.name;
    if (iequals(n, "Player")) {
      if (auto v = one_text(t, "the player's name")) {
        DeckDraft d;
        d.deck.player = *v;
        d.deck.source = fmt::format("{}:{}", file, t.line);
        if (player_key(*v).empty()) error(t, 0, "a player's name");
        out.decks.push_back(std::move(d));
      }
      return;
    }
    const bool deck_tag = iequals(n, "Allegiance") || iequals(n, "Army") || iequals(n, "Orders");
    if (deck_tag && out.decks.empty()) {
      out.errors.push_back(at(file, t.line, t.col, "[Player \"Name\"] before a decklist's tags", "[" + n + "]"));
      return;
    }
    if (iequals(n, "Allegiance")) {
      if (auto v = one_text(t, "the allegiance")) {
        auto a = core::allegiance_from_string(*v);
        if (!a) {
          error(t, 0, "one of \"Claw Empire\", \"Paw Coalition\", \"The Weald\", \"Hirelings\"");
        } else {
          out.decks.back().deck.allegiance = *a;
          allegiance_seen.resize(out.decks.size(), false);
          allegiance_seen.back() = true;
        }
      }
    } else if (iequals(n, "Army") || iequals(n, "Orders")) {
      deck_entry(t, out.decks.back(), iequals(n, "Orders"));
    } else if (iequals(n, "Event")) {
      if (auto v = one_text(t, "the event's name")) event(t).setup.name = *v;
    } else if (iequals(n, "Date")) {
      if (auto v = one_text(t, "the date, as in \"2026-03-14\",")) event(t).setup.date = *v;
    } else if (iequals(n, "Ruleset")) {
      if (auto v = one_text(t, "a ruleset path or hash")) event(t).ruleset_ref = *v;
    } else if (iequals(n, "Catalog")) {
      if (auto v = one_text(t, "a catalog path or hash")) event(t).catalog_ref = *v;
    } else if (iequals(n, "Board")) {
      auto v = one_text(t, "the board size, as in \"5x4\",");
      if (!v) return;
      auto b = board_of(*v);
      if (!b) {
        error(t, 0, "COLSxROWS, 1 to 26 columns by 1 to 99 rows, as in \"5x4\"");
        return;
      }
      event(t).setup.cols = static_cast<std::int8_t>(b->first);
      event(t).setup.rows = static_cast<std::int8_t>(b->second);
      board_seen = true;
    } else if (iequals(n, "Territory")) {
      if (t.args.size() != 2 || !t.args[0].quoted || t.args[1].quoted) {
        error(t, t.args.empty() || !t.args[0].quoted ? 0 : 1, "a quoted Territory card and its space, as in "
                                                              "[Territory \"Old Mill\" a2]");
        return;
      }
      auto sp = core::space_from_string(t.args[1].text);
      if (!sp) {
        error(t, 1, "a space such as c2");
        return;
      }
      event(t).setup.territories.push_back(core::PlacedTerritory{t.args[0].text, *sp});
    } else {
      out.errors.push_back(at(file, t.line, t.col,
                              "a tag: Event, Date, Ruleset, Catalog, Board, Territory (the event); Player, "
                              "Allegiance, Army, Orders (a decklist)",
                              "[" + core::clip_for_message(n) + "]"));
    }
  }

  std::vector<bool> allegiance_seen{};
  bool board_seen = false;
};

}  // namespace

ParsedFile parse_event_text(std::string_view text, const std::string& file) {
  ParsedFile out;
  if (auto fault = core::check_text(text)) {
    out.errors.push_back(fmt::format("{}: {} at byte {}", file, fault->reason, fault->offset));
    return out;
  }
  TagFile tags = read_tags(text, file);
  out.errors = std::move(tags.errors);
  Reader r{file, out};
  for (const TagLine& t : tags.tags) r.tag(t);
  r.allegiance_seen.resize(out.decks.size(), false);
  for (std::size_t i = 0; i < out.decks.size(); ++i) {
    if (!r.allegiance_seen[i]) {
      out.errors.push_back(fmt::format("{}: expected [Allegiance \"...\"] in {}'s decklist, found none", out.decks[i].deck.source,
                                       out.decks[i].deck.player));
    }
  }
  if (out.event) {
    const EventDraft& e = *out.event;
    auto missing = [&](std::string_view tag) {
      out.errors.push_back(fmt::format("{}:{}: expected a {} tag in the event's tags, found none", file, e.line, tag));
    };
    if (e.setup.name.empty()) missing("[Event \"Name\"]");
    if (e.ruleset_ref.empty()) missing("[Ruleset \"FILE\"]");
    if (e.catalog_ref.empty()) missing("[Catalog \"FILE\"]");
    if (!r.board_seen) missing("[Board \"5x4\"]");
  }
  return out;
}

namespace {

// A blob named by hash, or a file relative to the event file stored as one.
Expected<std::string> resolve_blob(const replay::Archive& archive, store::BlobKind kind, const std::string& ref,
                                   const std::string& event_file, bool may_store) {
  const bool catalog = kind == store::BlobKind::Catalog;
  const char* tag = catalog ? "Catalog" : "Ruleset";
  if (auto digest = core::digest_from_hex(ref)) {
    auto reader = archive.store().reader();
    if (!reader) return tl::unexpected(reader.error());
    auto bytes = reader->get_blob(kind, *digest);
    if (!bytes) {
      return make_error(bytes.error().code == ErrorCode::NotFound ? ErrorCode::NotFound : bytes.error().code,
                        fmt::format("the [{}] hash {} is not in this store ({})", tag, ref.substr(0, 12),
                                    bytes.error().message));
    }
    return ref;
  }
  const fs::path path = fs::path(event_file).parent_path() / ref;
  auto text = core::read_text_file(path.lexically_normal().string(),
                                   catalog ? core::kMaxCatalogFileBytes : core::kMaxRulesetFileBytes,
                                   catalog ? "catalog file" : "ruleset file");
  if (!text) return tl::unexpected(text.error());
  // Parsed before it is stored: a file that is not a catalog stays out.
  if (catalog) {
    if (auto c = core::parse_catalog_csv(*text); !c) {
      return make_error(c.error().code, path.string() + ":" + c.error().message);
    }
  } else if (auto r = core::parse_ruleset_toml(*text); !r) {
    return make_error(r.error().code, path.string() + ":" + r.error().message);
  }
  if (!may_store) return core::content_hash(*text);
  auto digest = archive.store().put_blob(kind, *text);
  if (!digest) return tl::unexpected(digest.error());
  return core::to_hex(*digest);
}

}  // namespace

Expected<ResolvedEvent> resolve_setup(const replay::Archive& archive, const EventSetup& setup) {
  ResolvedEvent out;
  out.setup = setup;
  auto catalog = archive.catalog_by_hash(setup.catalog_hash);
  if (!catalog) return tl::unexpected(catalog.error());
  auto ruleset = archive.ruleset_by_hash(setup.ruleset_hash);
  if (!ruleset) return tl::unexpected(ruleset.error());
  out.catalog = *catalog;
  out.ruleset = *ruleset;
  return out;
}

Expected<ResolvedEvent> resolve_event(const replay::Archive& archive, const EventDraft& draft, bool may_store) {
  EventSetup setup = draft.setup;
  auto ruleset = resolve_blob(archive, store::BlobKind::Ruleset, draft.ruleset_ref, draft.file, may_store);
  if (!ruleset) return tl::unexpected(ruleset.error());
  auto catalog = resolve_blob(archive, store::BlobKind::Catalog, draft.catalog_ref, draft.file, may_store);
  if (!catalog) return tl::unexpected(catalog.error());
  setup.ruleset_hash = *ruleset;
  setup.catalog_hash = *catalog;
  return resolve_setup(archive, setup);
}

std::vector<std::string> unknown_cards(const DeckDraft& d, const core::Catalog& catalog) {
  std::vector<std::string> out;
  auto check = [&](const std::vector<core::CardCount>& list, const std::vector<std::string>& at_list) {
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (catalog.find(list[i].card) != nullptr) continue;
      const std::string best = catalog.closest(list[i].card);
      out.push_back(fmt::format("{}: expected a card of the event's catalog, found {}{}", at_list[i],
                                quote(core::clip_for_message(list[i].card)),
                                best.empty() ? "" : fmt::format(" (did you mean {}?)", quote(best))));
    }
  };
  check(d.deck.army, d.army_where);
  check(d.deck.orders, d.orders_where);
  return out;
}

std::vector<std::string> setup_errors(const ResolvedEvent& e, const std::string& file) {
  Decklist nobody;
  nobody.player = "-";
  const std::string header = game_header(e.setup, 0, 0, nobody, nobody);
  auto session = core::NotationSession::from_header(header, file, e.catalog, e.setup.ruleset_hash, nullptr);
  std::vector<std::string> out;
  if (!session) {
    for (const core::NotationError& err : session.error()) {
      out.push_back(fmt::format("{}: the event's setup: expected {}, found {}{}", file, err.expected, err.found,
                                err.hint.empty() ? "" : " (" + err.hint + ")"));
    }
  }
  return out;
}

}  // namespace warlog::tournament::detail
