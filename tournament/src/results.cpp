// serve results: a round's results, read from its games (the fold through
// corrections, the disputes beside them, the signatures against a keyring).

#include <algorithm>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "warlog/replay/disputes.hpp"
#include "warlog/replay/report.hpp"
#include "warlog/tournament/round.hpp"

namespace warlog::tournament {

namespace {

bool won(const replay::Outcome& o) {
  return o.victory && o.winner != core::kNoSeat && *o.victory != core::Victory::Unfinished;
}

// "won", "ended" (with no winner), "playing" (no end yet).
std::string_view result_word(const replay::Outcome& o) {
  if (won(o)) return "won";
  return o.victory ? "ended" : "playing";
}

std::string victory_word(const replay::Outcome& o) {
  if (!o.victory) return {};
  switch (*o.victory) {
    case core::Victory::Supremacy: return "supremacy";
    case core::Victory::Attrition: return "attrition";
    case core::Victory::Concession: return "concession";
    case core::Victory::Unfinished: return "unfinished";
  }
  return {};
}

std::string winner_name(const TableResult& r) {
  if (!won(r.outcome) || r.outcome.winner >= r.game.seats.size()) return {};
  return r.game.seats[r.outcome.winner].player;
}

std::string player(const TableResult& r, std::size_t seat) {
  return seat < r.game.seats.size() ? r.game.seats[seat].player : std::string();
}


}  // namespace

std::string_view trust_word(replay::GameTrust::Verdict v) noexcept {
  using V = replay::GameTrust::Verdict;
  switch (v) {
    case V::Trusted: return "trusted";
    case V::Unknown: return "unknown key";
    case V::Stale: return "stale";
    case V::Invalid: return "INVALID";
    case V::Unsigned: return "unsigned";
  }
  return "unsigned";
}

OpenMatters open_matters(const std::vector<replay::LocatedFinding>& findings,
                         const std::vector<replay::Dispute>& disputes) {
  OpenMatters out;
  // A violation a judge has ruled on (a dispute at its event, resolved) is
  // no longer open (rulings R-092).
  std::set<core::Seq> ruled;
  for (const replay::Dispute& d : disputes) {
    if (d.status() == core::DisputeStatus::Open) {
      ++out.disputes;
    } else {
      ruled.insert(d.id.seq);
    }
  }
  for (const replay::LocatedFinding& f : findings) {
    if (f.finding.severity != core::Severity::Violation) continue;
    if (ruled.count(f.finding.seq) != 0 || ruled.count(f.finding.concerns) != 0) continue;
    out.violations.push_back(&f);
  }
  return out;
}

Expected<std::vector<TableResult>> round_results(const replay::Archive& archive, const std::string& event,
                                                 std::uint16_t round, const replay::Keyring& keyring) {
  auto games = event_games(archive, event);
  if (!games) return tl::unexpected(games.error());
  std::vector<TableResult> out;
  for (const EventGame& g : *games) {
    if (g.round != round) continue;
    auto audit = archive.audit(g.game);
    if (!audit) return make_error(audit.error().code, fmt::format("game {}: {}", g.game, audit.error().message));
    auto disputes = replay::list_disputes(archive, g.game);
    if (!disputes) return tl::unexpected(disputes.error());
    auto trust = replay::assess_game(archive, g.game, keyring);
    if (!trust) return tl::unexpected(trust.error());

    TableResult r;
    r.table = g.table;
    r.game = audit->game;
    r.outcome = replay::outcome_of(audit->final_state);
    const OpenMatters open = open_matters(audit->findings, *disputes);
    r.open_violations = open.violations.size();
    r.open_disputes = open.disputes;
    r.trust = trust->verdict;
    r.trust_line = trust->line;
    out.push_back(std::move(r));
  }
  if (out.empty()) {
    return make_error(ErrorCode::NotFound, fmt::format("round {} of {} has no game (open it with warlog serve round "
                                                       "open)",
                                                       round, event));
  }
  std::stable_sort(out.begin(), out.end(), [](const TableResult& a, const TableResult& b) { return a.table < b.table; });
  return out;
}

std::string results_csv(const std::vector<TableResult>& results) {
  std::string out = "table,game,player_1,player_2,result,winner,victory,turn,open_violations,open_disputes,signed\n";
  for (const TableResult& r : results) {
    out += fmt::format("{},{},{},{},{},{},{},{},{},{},{}\n", r.table, r.game.id, replay::csv_field(player(r, 0)),
                       replay::csv_field(player(r, 1)), result_word(r.outcome), replay::csv_field(winner_name(r)), victory_word(r.outcome),
                       r.outcome.turn, r.open_violations, r.open_disputes, trust_word(r.trust));
  }
  return out;
}

nlohmann::json results_json(const std::string& event, std::uint16_t round, const std::vector<TableResult>& results) {
  nlohmann::json tables = nlohmann::json::array();
  for (const TableResult& r : results) {
    tables.push_back({{"table", r.table},
                      {"game", r.game.id},
                      {"title", r.game.title},
                      {"players", replay::players_json(r.game)},
                      {"result", result_word(r.outcome)},
                      {"outcome", replay::outcome_json(r.outcome, r.game)},
                      {"open_violations", r.open_violations},
                      {"open_disputes", r.open_disputes},
                      {"signed", r.trust == replay::GameTrust::Verdict::Trusted},
                      {"trust", trust_word(r.trust)},
                      {"trust_line", r.trust_line}});
  }
  return {{"event", event}, {"round", round}, {"tables", tables}};
}

}  // namespace warlog::tournament
