// server::Overview (overview.hpp): the rows of the judges' overview.

#include "overview.hpp"

#include <fmt/format.h>

#include "warlog/replay/disputes.hpp"
#include "warlog/replay/report.hpp"
#include "warlog/replay/rule_diff.hpp"
#include "warlog/store/reader.hpp"
#include "warlog/store/store.hpp"

namespace warlog::server {

using nlohmann::json;

Expected<std::vector<const Overview::Row*>> Overview::rows() {
  auto reader = archive_.store().reader();
  if (!reader) return tl::unexpected(reader.error());
  auto metas = reader->games();
  if (!metas) return tl::unexpected(metas.error());
  // Event, round and table are in GameCreated: read once per new game.
  bool unknown = false;
  for (const store::GameMeta& m : *metas) unknown = unknown || !places_.contains(m.id);
  if (unknown) {
    auto placed = tournament::event_games(archive_, "");
    if (!placed) return tl::unexpected(placed.error());
    for (const store::GameMeta& m : *metas) places_.try_emplace(m.id);
    for (const tournament::EventGame& g : *placed) places_[g.game] = g;
  }
  std::vector<const Row*> out;
  out.reserve(metas->size());
  for (const store::GameMeta& m : *metas) {
    const RowStamp stamp{m.event_count, m.annotation_count};
    auto it = rows_.find(m.id);
    if (it == rows_.end() || it->second.stamp != stamp) {
      it = rows_.insert_or_assign(m.id, compute(m.id, stamp)).first;
    }
    out.push_back(&it->second);
  }
  return out;
}

Overview::Row Overview::compute(core::GameId game, RowStamp stamp) const {
  Row row{game, stamp, std::nullopt, {}};
  if (auto it = places_.find(game); it != places_.end()) row.place = it->second;
  const auto& place = row.place;
  json j{{"game", game},
         {"event", place ? json(place->event) : json(nullptr)},
         {"round", place ? json(place->round) : json(nullptr)},
         {"table", place ? json(place->table) : json(nullptr)},
         {"events", stamp.events}};
  const auto failed = [&](const Error& e) {
    j["error"] = e.message;
    row.json = std::move(j);
    return row;
  };
  auto audit = archive_.audit(game);
  if (!audit) return failed(audit.error());
  auto disputes = replay::list_disputes(archive_, game);
  if (!disputes) return failed(disputes.error());
  const core::GameState& st = audit->final_state;
  const tournament::OpenMatters open = tournament::open_matters(audit->findings, *disputes);
  // The time of the last event: the recorder's stamp (0 for an imported
  // game that recorded none).
  std::int64_t last_ms = 0;
  if (stamp.events > 0) {
    auto reader = archive_.store().reader();
    if (!reader) return failed(reader.error());
    auto n = reader->scan(game, stamp.events - 1, stamp.events, [&last_ms](const core::Event& ev) {
      last_ms = ev.recorded_at_ms;
      return false;
    });
    if (!n) return failed(n.error());
  }
  const replay::Outcome outcome = replay::outcome_of(st);
  j["title"] = audit->game.title;
  j["players"] = replay::players_json(audit->game);
  j["turn"] = st.turn;
  j["phase"] = core::to_string(st.phase);
  j["seat"] = st.active == core::kNoSeat ? 0 : st.active + 1;
  j["last_event_ms"] = last_ms > 0 ? json(last_ms) : json(nullptr);
  j["open_violations"] = open.violations.size();
  j["newest_violation"] = open.violations.empty() ? json(nullptr) : replay::finding_json(*open.violations.back(), audit->game);
  j["open_disputes"] = open.disputes;
  j["outcome"] = outcome.victory ? replay::outcome_json(outcome, audit->game) : json(nullptr);
  row.json = std::move(j);
  return row;
}

}  // namespace warlog::server
