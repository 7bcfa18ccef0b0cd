// Canonical notation: the header with inline decks (so an export stands
// alone), then one line per event. It mirrors the parser's context rules
// (notation_body.cpp) so that parse(export(events)) gives the events back.

#include <fmt/format.h>

#include "notation_lex.hpp"
#include "notation_parser.hpp"
#include "warlog/core/corrections.hpp"
#include "warlog/core/notation.hpp"

namespace warlog::core {

namespace {

using notation::quote;

std::string sp(Space s) { return to_string(s); }

std::string seat_ref(Seat s) { return s == kNoSeat ? "-" : std::to_string(s + 1); }

std::string card_list(const std::vector<CardName>& cards) {
  std::string out;
  for (const CardName& c : cards) {
    if (!out.empty()) out += ", ";
    out += quote(c);
  }
  return out;
}

std::string strike_list(const std::vector<Strike>& strikes) {
  std::string out;
  for (const Strike& s : strikes) {
    if (!out.empty()) out += ", ";
    out += fmt::format("{} {}", sp(s.target), s.damage);
  }
  return out;
}

std::string paid_list(const std::vector<PaidItem>& items) {
  std::string out;
  for (const PaidItem& i : items) {
    if (!out.empty()) out += ", ";
    if (i.space.valid()) out += sp(i.space);
    if (i.space.valid() && !i.card.empty()) out += ' ';
    if (!i.card.empty() || !i.space.valid()) out += quote(i.card);
  }
  return out;
}

std::string hex_of(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (const unsigned char ch : bytes) {
    hex.push_back(kHex[ch >> 4]);
    hex.push_back(kHex[ch & 0xF]);
  }
  return hex;
}

std::string with(std::string_view verb, const std::string& args) {
  return args.empty() ? std::string(verb) : fmt::format("{} {}", verb, args);
}

// The line for one action (no seat prefix, no indentation).
struct ActionText {
  std::string operator()(const CardsDrawn& p) const { return with("draw", card_list(p.cards)); }
  std::string operator()(const Foraged& p) const { return "forage " + quote(p.card); }
  std::string operator()(const ReturnedFromHomeland& p) const { return "return " + quote(p.card); }
  std::string operator()(const GambitStocked& p) const { return "stock " + quote(p.card); }
  std::string operator()(const CardPlayed& p) const {
    return p.space.valid() ? fmt::format("play {} {}", quote(p.card), sp(p.space)) : "play " + quote(p.card);
  }
  std::string operator()(const TroopMoved& p) const { return fmt::format("move {} {}", sp(p.from), sp(p.to)); }
  std::string operator()(const TroopsShifted& p) const {
    std::string args;
    for (const TroopMoved& m : p.moves) {
      if (!args.empty()) args += ", ";
      args += fmt::format("{}>{}", sp(m.from), sp(m.to));
    }
    return with("shift", args);
  }
  std::string operator()(const AbilityUsed& p) const {
    return fmt::format("ability {} {}", p.space.valid() ? sp(p.space) : "-", quote(p.ability));
  }
  std::string operator()(const TroopBurrowed& p) const { return "burrow " + sp(p.space); }
  std::string operator()(const TroopUnburrowed& p) const { return "unburrow " + sp(p.space); }
  std::string operator()(const ShotteFired& p) const {
    return fmt::format("fire {} {} {}", sp(p.shooter), sp(p.target), p.damage);
  }
  std::string operator()(const ChargeDeclared& p) const {
    std::string out = "charge";
    if (p.mode == ChargeMode::Burrow) out += " burrow";
    if (p.mode == ChargeMode::Card) out += " card";
    if (p.from.valid()) out += " " + sp(p.from);
    return out;
  }
  std::string operator()(const ChargeDeclined&) const { return "decline"; }
  std::string operator()(const LocalFavorUsed& p) const { return "favor " + quote(p.option); }
  std::string operator()(const CombatResolved& p) const {
    std::string out = "combat " + sp(p.troop);
    if (!p.strikes.empty()) out += " -> " + strike_list(p.strikes);
    for (const DefenderSplit& d : p.defenders) {
      out += "; " + sp(d.defender);
      if (!d.strikes.empty()) out += " -> " + strike_list(d.strikes);
    }
    return out;
  }
  std::string operator()(const TroopLost& p) const { return "lost " + sp(p.space); }
  std::string operator()(const TroopDefeated& p) const {
    return "defeated " + sp(p.space) + (p.beneath.valid() ? " beneath " + sp(p.beneath) : std::string());
  }
  std::string operator()(const LostTroopRecovered& p) const {
    std::string out = fmt::format("recover {} {}", sp(p.space), p.mode == Recovery::Pay ? "pay" : "reshuffle");
    if (p.to.valid()) out += " " + sp(p.to);
    return out;
  }
  std::string operator()(const ProvisionsPaid& p) const {
    std::string out = with("pay", paid_list(p.paid));
    if (!p.unpaid.empty()) out += " unpaid " + paid_list(p.unpaid);
    return out;
  }
  std::string operator()(const CardsDiscarded& p) const { return with("discard", card_list(p.cards)); }
  std::string operator()(const TerritoryControlTaken& p) const { return "control " + sp(p.territory); }
  std::string operator()(const TroopFled& p) const { return "fled " + sp(p.space); }
  std::string operator()(const MoraleChecked& p) const { return "Morale " + seat_ref(p.leader); }
  std::string operator()(const GameEnded& p) const {
    const std::string_view kind = to_string(p.victory);
    return fmt::format("end {} {}", seat_ref(p.winner), kind == "?" ? "unfinished" : kind);
  }
  std::string operator()(const Voided& p) const {
    std::string out = fmt::format("void {} {}", p.target, quote(p.reason));
    if (!p.by.empty()) out += " by " + quote(p.by);
    return out;
  }
  std::string operator()(const BackupTo& p) const {
    std::string out = fmt::format("backup {} {}", p.target, quote(p.reason));
    if (!p.by.empty()) out += " by " + quote(p.by);
    if (!p.signature.empty()) out += " signed " + quote(hex_of(p.signature));
    return out;
  }
  // Frame and setup payloads are printed by export_notation itself.
  std::string operator()(const GameCreated&) const { return {}; }
  std::string operator()(const ArmyRegistered&) const { return {}; }
  std::string operator()(const TurnStarted&) const { return {}; }
  std::string operator()(const PhaseStarted&) const { return {}; }
};

void print_header(std::string& out, const GameCreated& g) {
  out += fmt::format("[Title {}]\n", quote(g.title));
  out += fmt::format("[Date {}]\n", quote(g.date));
  // A game created live is known by its uuid (issue 14): dropping it would
  // make the re-import another game.
  if (!g.game_uuid.empty()) out += fmt::format("[GameUuid \"{}\"]\n", hex_of(g.game_uuid));
  if (!g.event.empty()) out += fmt::format("[Event {}]\n", quote(g.event));
  if (g.round != 0) out += fmt::format("[Round {}]\n", g.round);
  if (g.table != 0) out += fmt::format("[Table {}]\n", g.table);
  if (!g.ruleset_hash.empty()) out += fmt::format("[Ruleset {}]\n", quote(g.ruleset_hash));
  if (!g.catalog_hash.empty()) out += fmt::format("[Catalog {}]\n", quote(g.catalog_hash));
  out += fmt::format("[Board \"{}x{}\"]\n", static_cast<int>(g.cols), static_cast<int>(g.rows));
  for (std::size_t i = 0; i < g.seats.size(); ++i) {
    if (i >= kSeatCount) {
      out += fmt::format("# not expressible: seat {} ({})\n", i + 1, g.seats[i].player);
      continue;
    }
    out += fmt::format("[Seat{} {} {}]\n", i + 1, quote(g.seats[i].player), quote(to_string(g.seats[i].allegiance)));
  }
  for (const PlacedTerritory& t : g.territories) {
    out += fmt::format("[Territory {} {}]\n", quote(t.card), sp(t.space));
  }
}

void print_army(std::string& out, const ArmyRegistered& a) {
  if (a.seat >= kSeatCount) {
    out += fmt::format("# not expressible: an army for seat {}\n", a.seat + 1);
    return;
  }
  for (const CardCount& c : a.army) out += fmt::format("[Army{} {} {}]\n", a.seat + 1, c.count, quote(c.card));
  for (const CardCount& c : a.orders) out += fmt::format("[Orders{} {} {}]\n", a.seat + 1, c.count, quote(c.card));
}

}  // namespace

std::string export_notation(const std::vector<Event>& events) {
  std::string out;
  std::size_t i = 0;
  if (!events.empty() && std::holds_alternative<GameCreated>(events[0].payload)) {
    print_header(out, std::get<GameCreated>(events[0].payload));
    i = 1;
  } else {
    out += "# not expressible: the stream does not start with GameCreated\n";
  }
  while (i < events.size() && std::holds_alternative<ArmyRegistered>(events[i].payload)) {
    print_army(out, std::get<ArmyRegistered>(events[i].payload));
    ++i;
  }

  // The header's events are committed together (warlog record, one time
  // for all): [Recorded] gives it. Times that differ cannot be said by one
  // tag: say so rather than drop them silently.
  if (i > 0 && events[0].recorded_at_ms != 0) {
    out += fmt::format("[Recorded \"{}\"]\n", notation::format_stamp(events[0].recorded_at_ms, {}).substr(1));
  }
  for (std::size_t h = 1; h < i; ++h) {
    if (events[h].recorded_at_ms != events[0].recorded_at_ms) {
      out += fmt::format("# not expressible: the header's events were recorded at different times ({} for seq {})\n",
                         events[h].recorded_at_ms == 0 ? std::string("none")
                                                       : notation::format_stamp(events[h].recorded_at_ms, {}),
                         h);
      break;
    }
  }

  // A struck line says so in a comment: the parser skips it, so the round
  // trip stays exact, and a reader of the export sees what the fold skips.
  const std::vector<Mark> marks = has_corrections(events) ? standings(events) : std::vector<Mark>{};
  auto struck = [&](std::size_t at) -> std::string {
    if (at >= marks.size()) return {};
    switch (marks[at].standing) {
      case Standing::Voided: return fmt::format("  # voided at seq {}", marks[at].by);
      case Standing::Superseded: return fmt::format("  # superseded by the backup at seq {}", marks[at].by);
      case Standing::Refused: return "  # refused: takes no effect (see audit)";
      case Standing::Effective:
      case Standing::Correction: return {};
    }
    return {};
  };

  // A recorded time goes before the line's verb (docs/notation.md › Times).
  const std::string& date =
      !events.empty() && std::holds_alternative<GameCreated>(events[0].payload) ? std::get<GameCreated>(events[0].payload).date
                                                                               : std::string();
  auto stamp = [&](const Event& ev) -> std::string {
    return ev.recorded_at_ms == 0 ? std::string() : notation::format_stamp(ev.recorded_at_ms, date) + " ";
  };

  // The parser's context (notation_body.cpp), followed step by step.
  std::uint16_t turn = 0;
  Phase phase = Phase::Setup;
  Seat seat = kNoSeat;
  std::size_t corrections = 0;
  for (; i < events.size(); ++i) {
    const Event& ev = events[i];
    const Payload& p = ev.payload;
    if (std::holds_alternative<TurnStarted>(p)) {
      out += fmt::format("\n{}Turn {}{}\n", stamp(ev), ev.turn, struck(i));
      turn = ev.turn;
      phase = Phase::Muster;
      seat = kNoSeat;
      continue;
    }
    if (std::holds_alternative<PhaseStarted>(p)) {
      if (ev.phase != Phase::Muster && ev.phase != Phase::Warfare && ev.phase != Phase::Attrition) {
        out += fmt::format("# not expressible: PhaseStarted ({})\n", to_string(ev.phase));
        continue;
      }
      std::string name(to_string(ev.phase));
      name[0] = static_cast<char>(name[0] - 'a' + 'A');
      out += fmt::format("{}{} {}{}\n", stamp(ev), name, seat_ref(ev.seat), struck(i));
      phase = ev.phase;
      seat = ev.seat;
      continue;
    }
    if (std::holds_alternative<GameCreated>(p) || std::holds_alternative<ArmyRegistered>(p)) {
      out += fmt::format("# not expressible: {} at seq {} (setup after the header)\n", payload_name(p), ev.seq);
      continue;
    }
    if (ev.turn != turn || ev.phase != phase) {
      // Only a stream not made by the parser gets here; say what is lost.
      out += fmt::format("# note: the next event was recorded as turn {}, {}\n", ev.turn, to_string(ev.phase));
    }
    const bool table_wide = std::holds_alternative<MoraleChecked>(p) || std::holds_alternative<GameEnded>(p) ||
                            std::holds_alternative<Voided>(p) || std::holds_alternative<BackupTo>(p);
    const Seat default_seat = table_wide ? kNoSeat : seat;
    const bool needs_prefix = ev.seat != default_seat || (!table_wide && seat == kNoSeat);
    const std::string prefix = needs_prefix ? seat_ref(ev.seat) + ": " : "";
    out += table_wide ? "" : "  ";
    out += stamp(ev) + prefix + std::visit(ActionText{}, p) + struck(i) + "\n";
    // The parser moves its context at a correction (notation_body.cpp): so
    // does its mirror, or the next line would be read in another place.
    if (is_correction(p) && ++corrections <= kMaxCorrections) {
      const notation::BodyContext ctx = notation::context_after(std::span(events).first(i + 1));
      turn = ctx.turn;
      phase = ctx.phase;
      seat = ctx.seat;
    }
  }
  return out;
}

}  // namespace warlog::core
