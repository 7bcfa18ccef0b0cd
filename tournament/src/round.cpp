#include "warlog/tournament/round.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>

#include <fmt/format.h>

#include "warlog/core/notation_session.hpp"
#include "warlog/replay/recorder.hpp"
#include "warlog/store/keys.hpp"
#include "warlog/store/reader.hpp"
#include "warlog/store/store.hpp"

namespace warlog::tournament {

Expected<std::vector<EventGame>> event_games(const replay::Archive& archive, const std::string& event) {
  auto ids = archive.game_ids();
  if (!ids) return tl::unexpected(ids.error());
  auto reader = archive.store().reader();
  if (!reader) return tl::unexpected(reader.error());
  std::vector<EventGame> out;
  for (core::GameId id : *ids) {
    std::optional<core::GameCreated> created;
    auto n = reader->scan(id, 0, 1, [&](const core::Event& ev) {
      if (const auto* g = std::get_if<core::GameCreated>(&ev.payload)) created = *g;
      return false;
    });
    if (!n) return make_error(n.error().code, fmt::format("game {}: {}", id, n.error().message));
    if (!created || created->event.empty()) continue;
    if (!event.empty() && created->event != event) continue;
    out.push_back(EventGame{id, created->event, created->round, created->table});
  }
  return out;
}

namespace {


Expected<std::string> blob_text(const replay::Archive& archive, store::BlobKind kind, const std::string& hex) {
  auto digest = core::digest_from_hex(hex);
  if (!digest) return make_error(ErrorCode::DataLoss, fmt::format("'{}' is not a content hash", hex));
  auto reader = archive.store().reader();
  if (!reader) return tl::unexpected(reader.error());
  return reader->get_blob(kind, *digest);
}

std::string ranges(const std::vector<core::GameId>& ids) {
  std::string out;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    std::size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
    out += (out.empty() ? "" : ", ") + (j == i ? fmt::format("{}", ids[i]) : fmt::format("{}-{}", ids[i], ids[j]));
    i = j;
  }
  return out;
}

}  // namespace

tl::expected<OpenedRound, RoundRefusal> open_round(replay::Archive& archive, std::uint16_t round,
                                                   std::string_view pairings_csv, const std::string& pairings_file,
                                                   std::int64_t now_ms) {
  auto refuse = [](Error e, std::vector<std::string> details = {}) {
    return tl::unexpected(RoundRefusal{std::move(e), std::move(details)});
  };
  if (round == 0) return refuse(Error{ErrorCode::InvalidArgument, "a round is numbered from 1"});
  auto loaded = load_registry(archive);
  if (!loaded) return refuse(loaded.error());
  if (!*loaded) {
    return refuse(Error{ErrorCode::NotFound, "no event is registered in this store: register its decklists first "
                                             "(warlog serve decks STORE DIR)"});
  }
  const Registry& reg = **loaded;

  // The round must not be open: refused before anything is read further.
  auto games = event_games(archive, reg.event.name);
  if (!games) return refuse(games.error());
  std::vector<core::GameId> open;
  for (const EventGame& g : *games) {
    if (g.round == round) open.push_back(g.game);
  }
  if (!open.empty()) {
    return refuse(Error{ErrorCode::Conflict,
                        fmt::format("round {} of {} is open already: game{} {}", round, reg.event.name,
                                    open.size() == 1 ? "" : "s", ranges(open))});
  }

  PairingsResult pairings = parse_pairings(pairings_csv, pairings_file);
  if (!pairings.ok()) {
    return refuse(Error{ErrorCode::InvalidArgument, fmt::format("{}: pairings refused", pairings_file)},
                  std::move(pairings.errors));
  }
  auto catalog = archive.catalog_by_hash(reg.event.catalog_hash);
  if (!catalog) return refuse(catalog.error());
  auto ruleset = archive.ruleset_by_hash(reg.event.ruleset_hash);
  if (!ruleset) return refuse(ruleset.error());

  OpenedRound out;
  out.event = reg.event.name;
  out.round = round;
  std::vector<std::string> details;
  std::vector<std::vector<core::Event>> setups;
  for (const Pairing& p : pairings.pairings) {
    if (p.bye()) {
      out.byes.push_back(p);
      continue;
    }
    const Decklist* a = reg.find(p.player1);
    const Decklist* b = reg.find(p.player2);
    for (auto [deck, name] : {std::pair{a, &p.player1}, std::pair{b, &p.player2}}) {
      if (deck == nullptr) {
        details.push_back(fmt::format("{}:{}: expected a registered decklist for '{}' (table {}), found none", pairings_file,
                                      p.line, *name, p.table));
        continue;
      }
      // The registry is a file beside the store, not under its chain: its
      // decks are audited again as they go into a game (rulings R-094).
      for (const DeckFault& f : audit_decklist(reg.event, **catalog, **ruleset, *deck)) {
        details.push_back(fmt::format("{}:{}: {}'s registered decklist breaks {} ({}): {}", pairings_file, p.line,
                                      deck->player, f.citation, f.rule_id, f.message));
      }
    }
    if (a == nullptr || b == nullptr) continue;
    const std::string header = game_header(reg.event, round, p.table, *a, *b);
    auto session = core::NotationSession::from_header(header, fmt::format("{}:{}", pairings_file, p.line), *catalog,
                                                      reg.event.ruleset_hash, nullptr);
    if (!session) {
      for (const auto& e : session.error()) details.push_back(e.to_string());
      continue;
    }
    std::vector<core::Event> setup = session->setup_events();
    auto uuid = replay::random_game_uuid();
    if (!uuid) return refuse(uuid.error());
    std::get<core::GameCreated>(setup.front().payload).game_uuid = std::move(*uuid);
    for (core::Event& ev : setup) ev.recorded_at_ms = now_ms;
    setups.push_back(std::move(setup));
    out.games.push_back(TableGame{p.table, 0, a->player, b->player});
  }
  if (!details.empty()) {
    return refuse(Error{ErrorCode::InvalidArgument, fmt::format("{}: round {} not opened", pairings_file, round)},
                  std::move(details));
  }
  if (setups.empty()) return refuse(Error{ErrorCode::InvalidArgument, fmt::format("{}: only byes", pairings_file)});

  auto catalog_text = blob_text(archive, store::BlobKind::Catalog, reg.event.catalog_hash);
  if (!catalog_text) return refuse(catalog_text.error());
  auto ruleset_text = blob_text(archive, store::BlobKind::Ruleset, reg.event.ruleset_hash);
  if (!ruleset_text) return refuse(ruleset_text.error());
  // One transaction for the round, committed durably (bulk = false).
  auto imported = archive.import_events_batch(setups, *catalog_text, *ruleset_text, false);
  if (!imported) return refuse(imported.error());
  for (std::size_t i = 0; i < imported->size(); ++i) {
    const auto& r = (*imported)[i];
    // A fresh gameUuid makes every setup new: a refusal here is a bug or the store's.
    if (!r) return refuse(Error{r.error().code, fmt::format("table {}: {}", out.games[i].table, r.error().message)});
    out.games[i].game = r->id;
  }
  std::sort(out.games.begin(), out.games.end(), [](const TableGame& x, const TableGame& y) { return x.table < y.table; });
  return out;
}

}  // namespace warlog::tournament
