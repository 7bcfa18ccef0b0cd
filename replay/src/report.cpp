#include "warlog/replay/report.hpp"

#include <cctype>
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

std::string finding_text(const LocatedFinding& f, const std::vector<core::SeatSetup>& seats) {
  const std::string who = f.seat < seats.size() ? seats[f.seat].player : std::string("-");
  return fmt::format("  seq {:>4}  turn {:>2} {:<9} {:<10} {} {} ({})\n            {}\n            [{}]\n",
                     f.finding.seq, f.turn, core::to_string(f.phase), who, f.finding.rule_id,
                     core::to_string(f.finding.severity), core::to_string(f.finding.basis), f.finding.message,
                     f.citation);
}

std::string audit_text(const GameAudit& audit) {
  std::string out = fmt::format("game {}  \"{}\"  {}  {}  {} events\n", audit.game.id, audit.game.title,
                                audit.game.date, seats_line(audit.game), audit.game.events);
  for (const auto& f : audit.findings) out += finding_text(f, audit.game.seats);
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

core::Seat finding_seat(const LocatedFinding& f, const GameSummary& g) {
  const std::string& m = f.finding.message;
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  std::size_t best = std::string::npos;
  core::Seat seat = f.seat;
  for (std::size_t i = 0; i < g.seats.size(); ++i) {
    const std::string& name = g.seats[i].player;
    if (name.empty()) continue;
    for (auto at = m.find(name); at != std::string::npos && at < best; at = m.find(name, at + 1)) {
      const bool starts = at == 0 || !word(m[at - 1]);
      const bool ends = at + name.size() >= m.size() || !word(m[at + name.size()]);
      if (starts && ends) {
        best = at;
        seat = static_cast<core::Seat>(i);
        break;
      }
    }
  }
  return seat;
}

nlohmann::json finding_json(const LocatedFinding& f, const GameSummary& g) {
  nlohmann::json j = finding_json(f);
  const core::Seat seat = finding_seat(f, g);
  j["seat"] = seat == core::kNoSeat ? 0 : seat + 1;
  j["player"] = seat < g.seats.size() ? nlohmann::json(g.seats[seat].player) : nlohmann::json(nullptr);
  j["event_seat"] = f.seat == core::kNoSeat ? 0 : f.seat + 1;
  return j;
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
  for (const auto& f : audit.findings) g["findings"].push_back(finding_json(f, audit.game));
  return g;
}

}  // namespace warlog::replay
