#include "warlog/replay/report.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "warlog/core/close_log.hpp"
#include "warlog/replay/rests_on.hpp"
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

std::string concerning(const core::Finding& f) {
  return f.concerns != f.seq ? fmt::format(", concerning seq {}", f.concerns) : std::string();
}

std::string finding_text(const LocatedFinding& f, const std::vector<core::SeatSetup>& seats) {
  const std::string who = f.seat < seats.size() ? seats[f.seat].player : std::string("-");
  return fmt::format("  seq {:>4}  turn {:>2} {:<9} {:<10} {} {} ({}){}\n            {}\n            [{}]\n",
                     f.finding.seq, f.turn, core::to_string(f.phase), who, f.finding.rule_id,
                     core::to_string(f.finding.severity), core::to_string(f.finding.basis), concerning(f.finding),
                     f.finding.message, f.citation);
}

std::string audit_text(const GameAudit& audit) {
  std::string out = fmt::format("game {}  \"{}\"  {}  {}  {} events\n", audit.game.id, audit.game.title,
                                audit.game.date, seats_line(audit.game), audit.game.events);
  const RestsOn* rests = audit.rests_on ? &*audit.rests_on : nullptr;
  // The result as the fold derives it, in JSON's "result" words.
  out += fmt::format("  result: {}{}\n", outcome_words(outcome_of(audit.final_state), audit.game),
                     rests != nullptr && !rests->result.empty() ? " rests on " + violations_text(rests->result) : "");
  for (std::size_t i = 0; i < audit.findings.size(); ++i) {
    out += finding_text(audit.findings[i], audit.game.seats);
    if (rests != nullptr && i < rests->findings.size() && !rests->findings[i].empty()) {
      out += fmt::format("            rests on {}\n", violations_text(rests->findings[i]));
    }
  }
  if (const std::string open = core::log_end_place(audit.final_state); !open.empty()) {
    // Said even when clean: a live game's log, or one cut short.
    out += fmt::format("  log ends open: the log ends without an end line in {}; that part is closed there\n", open);
  }
  if (audit.findings.empty()) out += "  clean: no findings\n";
  if (!audit.struck.empty()) {
    // Struck through: in the log, skipped by the fold (docs/warlog-rules.md › Corrections).
    out += fmt::format("  struck events ({}: in the log, not in the game):\n", audit.struck.size());
    for (const StruckEvent& x : audit.struck) {
      out += fmt::format("  seq {:>4}  ~~{}~~  {}\n", x.seq, x.event, struck_text(x));
    }
  }
  return out;
}

nlohmann::json finding_json(const LocatedFinding& f) {
  return {{"seq", f.finding.seq},
          {"concerns", f.finding.concerns},
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
  nlohmann::json g{{"game", audit.game.id},
                   {"title", audit.game.title},
                   {"date", audit.game.date},
                   {"events", audit.game.events},
                   {"players", players_json(audit.game)},
                   {"result", outcome_json(outcome_of(audit.final_state), audit.game)},
                   {"ruleset", audit.ruleset_hash},
                   {"catalog", audit.catalog_hash},
                   {"digest", audit.digest()},
                   {"violations", audit.violations()},
                   {"findings", nlohmann::json::array()}};
  // Only for a log without GameEnded: where it ends.
  if (const std::string open = core::log_end_place(audit.final_state); !open.empty()) g["log_ends_open"] = open;
  const RestsOn* rests = audit.rests_on ? &*audit.rests_on : nullptr;
  for (std::size_t i = 0; i < audit.findings.size(); ++i) {
    nlohmann::json f = finding_json(audit.findings[i], audit.game);
    if (rests != nullptr) f["rests_on"] = i < rests->findings.size() ? rests->findings[i] : std::vector<core::Seq>{};
    g["findings"].push_back(std::move(f));
  }
  if (rests != nullptr) {
    g["rests_on"] = {{"result", rests->result},
                     {"tried", rests->tried},
                     {"folds", rests->folds},
                     {"events_applied", rests->events_applied}};
  }
  if (!audit.struck.empty()) {
    nlohmann::json struck = nlohmann::json::array();
    for (const StruckEvent& x : audit.struck) {
      nlohmann::json one{{"seq", x.seq},       {"event", x.event}, {"standing", core::to_string(x.standing)},
                         {"by_seq", x.by},     {"by", x.who},      {"reason", x.reason},
                         {"text", struck_text(x)}};
      if (x.standing == core::Standing::Superseded) one["signed"] = x.backup_signed;
      struck.push_back(std::move(one));
    }
    g["struck"] = std::move(struck);
  }
  return g;
}

namespace {

std::string clock_of(std::int64_t ms) {
  const std::int64_t in_day = ((ms % 86'400'000) + 86'400'000) % 86'400'000;
  return fmt::format("{:02}:{:02}:{:02}", in_day / 3'600'000, in_day / 60'000 % 60, in_day / 1000 % 60);
}

std::string span_of(std::int64_t ms) {
  const std::int64_t s = ms / 1000;
  if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
  return fmt::format("{}:{:02}", s / 60, s % 60);
}

struct TurnTime {
  std::uint16_t turn = 0;
  std::int64_t start_ms = 0, end_ms = 0;
};

// A turn runs from its first recorded time to the last end of its parts.
std::vector<TurnTime> turns_of(const std::vector<PartTime>& parts) {
  std::vector<TurnTime> out;
  for (const PartTime& p : parts) {
    if (p.turn == 0 || p.start_ms == 0) continue;
    if (out.empty() || out.back().turn != p.turn) out.push_back({p.turn, p.start_ms, p.end_ms});
    out.back().end_ms = std::max(out.back().end_ms, p.end_ms);
  }
  return out;
}

}  // namespace

std::string times_text(const std::vector<PartTime>& times, const std::vector<core::SeatSetup>& seats) {
  if (times.empty()) return "  times: none recorded\n";
  std::string out = "  times (recorded, UTC; a part runs from its first time to the next part's first):\n";
  const auto turns = turns_of(times);
  std::size_t t = 0;
  for (std::size_t i = 0; i < times.size(); ++i) {
    const PartTime& p = times[i];
    const std::string who = p.seat < seats.size() ? seats[p.seat].player : std::string("-");
    const std::string part = p.turn == 0 ? "setup" : p.seat == core::kNoSeat ? "start" : std::string(core::to_string(p.phase));
    if (p.start_ms == 0) {
      out += fmt::format("    turn {:>2}  {:<9} {:<10} seq {:>4}..{:<4}  no time recorded\n", p.turn, part, who, p.first, p.last);
    } else {
      out += fmt::format("    turn {:>2}  {:<9} {:<10} seq {:>4}..{:<4}  {}  {:>7}\n", p.turn, part, who, p.first, p.last,
                         clock_of(p.start_ms), span_of(p.end_ms - p.start_ms));
    }
    const bool turn_ends = i + 1 == times.size() || times[i + 1].turn != p.turn;
    if (turn_ends && t < turns.size() && turns[t].turn == p.turn) {
      out += fmt::format("    turn {:>2}  total {:>40}\n", p.turn, span_of(turns[t].end_ms - turns[t].start_ms));
      ++t;
    }
  }
  return out;
}

std::string audit_times_text(const GameAudit& audit) { return times_text(audit.times, audit.game.seats); }

nlohmann::json audit_times_json(const GameAudit& audit) {
  nlohmann::json parts = nlohmann::json::array();
  for (const PartTime& p : audit.times) {
    parts.push_back({{"turn", p.turn},
                     {"phase", core::to_string(p.phase)},
                     {"seat", p.seat == core::kNoSeat ? 0 : p.seat + 1},
                     {"first", p.first},
                     {"last", p.last},
                     {"start_ms", p.start_ms},
                     {"end_ms", p.end_ms},
                     {"ms", p.end_ms - p.start_ms}});
  }
  nlohmann::json turns = nlohmann::json::array();
  for (const TurnTime& t : turns_of(audit.times)) {
    turns.push_back({{"turn", t.turn}, {"start_ms", t.start_ms}, {"end_ms", t.end_ms}, {"ms", t.end_ms - t.start_ms}});
  }
  return {{"parts", std::move(parts)}, {"turns", std::move(turns)}};
}

std::string csv_field(std::string_view s) {
  if (s.find_first_of(",\"\n\r") == std::string_view::npos) return std::string(s);
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string xml_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const std::size_t n = s.size();
  for (std::size_t i = 0; i < n;) {
    const unsigned char c = p[i];
    if (c < 0x80) {
      switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&apos;"; break;
        default:
          // XML 1.0 forbids most control characters even escaped.
          out += (c < 0x20 && c != '\n' && c != '\t' && c != '\r') ? '?' : static_cast<char>(c);
      }
      ++i;
      continue;
    }
    // A UTF-8 sequence: kept when well-formed and a character XML allows;
    // anything else (a stray byte, an overlong form, a surrogate, U+FFFE or
    // U+FFFF) is U+FFFD, so the page stays well-formed whatever was typed.
    const std::size_t len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 0;
    char32_t cp = len == 4 ? c & 0x07u : len == 3 ? c & 0x0fu : c & 0x1fu;
    bool ok = len > 0 && i + len <= n && c < 0xf5;
    for (std::size_t k = 1; ok && k < len; ++k) {
      ok = (p[i + k] & 0xc0) == 0x80;
      cp = (cp << 6) | (p[i + k] & 0x3fu);
    }
    const char32_t least = len == 4 ? 0x10000 : len == 3 ? 0x800 : 0x80;
    ok = ok && cp >= least && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) && cp != 0xfffe && cp != 0xffff;
    if (ok) {
      out.append(s.substr(i, len));
      i += len;
    } else {
      out += "\xef\xbf\xbd";  // U+FFFD
      ++i;
    }
  }
  return out;
}

}  // namespace warlog::replay
