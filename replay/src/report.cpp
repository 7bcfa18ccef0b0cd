#include "warlog/replay/report.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "warlog/replay/rule_diff.hpp"

namespace warlog::replay {

std::string seats_line(const GameSummary& g) {
  std::string out;
  for (std::size_t i = 0; i < g.seats.size(); ++i) {
    if (i) out += " vs ";
    out += fmt::format("{} ({})", g.seats[i].player, core::to_string(g.seats[i].allegiance));
  }
  return out;
}

std::string audit_text(const GameAudit& audit) {
  std::string out = fmt::format("game {}  \"{}\"  {}  {}  {} events\n", audit.game.id, audit.game.title,
                                audit.game.date, seats_line(audit.game), audit.game.events);
  for (const auto& f : audit.findings) {
    const std::string who =
        f.seat < audit.game.seats.size() ? audit.game.seats[f.seat].player : std::string("-");
    out += fmt::format("  seq {:>4}  turn {:>2} {:<9} {:<10} {} {} ({})\n", f.finding.seq, f.turn,
                       core::to_string(f.phase), who, f.finding.rule_id, core::to_string(f.finding.severity),
                       core::to_string(f.finding.basis));
    out += fmt::format("            {}\n            [{}]\n", f.finding.message, f.citation);
  }
  if (audit.findings.empty()) out += "  clean: no findings\n";
  return out;
}

nlohmann::json finding_json(const LocatedFinding& f) {
  return {{"seq", f.finding.seq},
          {"turn", f.turn},
          {"phase", core::to_string(f.phase)},
          {"seat", f.seat == core::kNoSeat ? 0 : f.seat + 1},
          {"rule", f.finding.rule_id},
          {"citation", f.citation},
          {"severity", core::to_string(f.finding.severity)},
          {"basis", core::to_string(f.finding.basis)},
          {"message", f.finding.message}};
}

nlohmann::json players_json(const GameSummary& g) {
  nlohmann::json players = nlohmann::json::array();
  for (std::size_t i = 0; i < g.seats.size(); ++i) {
    players.push_back(
        {{"seat", i + 1}, {"player", g.seats[i].player}, {"allegiance", core::to_string(g.seats[i].allegiance)}});
  }
  return players;
}

nlohmann::json audit_json(const GameAudit& audit) {
  const core::GameState& s = audit.final_state;
  nlohmann::json g{{"game", audit.game.id},
                   {"title", audit.game.title},
                   {"date", audit.game.date},
                   {"events", audit.game.events},
                   {"players", players_json(audit.game)},
                   {"result", outcome_json(Outcome{s.winner, s.victory, s.turn}, audit.game)},
                   {"ruleset", audit.ruleset_hash},
                   {"catalog", audit.catalog_hash},
                   {"digest", audit.digest()},
                   {"violations", audit.violations()},
                   {"findings", nlohmann::json::array()}};
  for (const auto& f : audit.findings) g["findings"].push_back(finding_json(f));
  return g;
}

}  // namespace warlog::replay
