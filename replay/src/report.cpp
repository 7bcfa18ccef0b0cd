#include "warlog/replay/report.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

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

nlohmann::json audit_json(const GameAudit& audit) {
  nlohmann::json g{{"game", audit.game.id},
                   {"title", audit.game.title},
                   {"date", audit.game.date},
                   {"events", audit.game.events},
                   {"ruleset", audit.ruleset_hash},
                   {"catalog", audit.catalog_hash},
                   {"digest", audit.digest()},
                   {"violations", audit.violations()},
                   {"findings", nlohmann::json::array()}};
  for (const auto& f : audit.findings) g["findings"].push_back(finding_json(f));
  return g;
}

}  // namespace warlog::replay
