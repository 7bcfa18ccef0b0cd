#include "warlog/replay/event_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <variant>

namespace warlog::replay {

namespace {

template <class... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};
template <class... Fs>
Overloaded(Fs...) -> Overloaded<Fs...>;

std::string sp(core::Space s) { return core::to_string(s); }

template <class Text>  // std::string or core::CardName
std::string join(const std::vector<Text>& items) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += ", ";
    out += std::string_view(item);
  }
  return out;
}

std::string join_counts(const std::vector<core::CardCount>& cards) {
  int total = 0;
  for (const auto& c : cards) total += c.count;
  return fmt::format("{} cards", total);
}

std::string strikes_text(const std::vector<core::Strike>& strikes) {
  std::string out;
  for (const auto& s : strikes) {
    if (!out.empty()) out += ", ";
    out += fmt::format("{} to {}", s.damage, sp(s.target));
  }
  return out;
}

std::string paid_text(const std::vector<core::PaidItem>& items) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += ", ";
    out += item.space.valid() ? sp(item.space) : item.card.str();
  }
  return out.empty() ? "none" : out;
}

std::string_view victory_text(core::Victory v) {
  switch (v) {
    case core::Victory::Supremacy: return "Supremacy";
    case core::Victory::Attrition: return "Attrition";
    case core::Victory::Concession: return "Concession";
    case core::Victory::Unfinished: return "unfinished";
  }
  return "?";
}

std::string_view charge_mode_text(core::ChargeMode m) {
  switch (m) {
    case core::ChargeMode::Normal: return "";
    case core::ChargeMode::Burrow: return "by un-Burrowing ";
    case core::ChargeMode::Card: return "by a card";
  }
  return "";
}

}  // namespace

std::string phase_title(core::Phase p) {
  std::string s(core::to_string(p));
  if (!s.empty()) s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
  return s;
}

std::string seat_name(std::span<const core::SeatSetup> seats, core::Seat seat) {
  if (seat == core::kNoSeat) return "table";
  if (seat < seats.size() && !seats[seat].player.empty()) return seats[seat].player;
  return fmt::format("seat {}", seat + 1);
}

std::string players_text(std::span<const core::SeatSetup> seats) {
  std::string out;
  for (const auto& s : seats) {
    if (!out.empty()) out += " vs ";
    out += fmt::format("{} ({})", s.player, core::to_string(s.allegiance));
  }
  return out;
}

std::string payload_detail(const core::Payload& p, std::span<const core::SeatSetup> seats, core::Seat actor) {
  return std::visit(
      Overloaded{
          [](const core::GameCreated& g) { return fmt::format("\"{}\" on {}x{}", g.title, int{g.cols}, int{g.rows}); },
          [&](const core::ArmyRegistered& a) {
            std::string out = join_counts(a.army);
            if (!a.orders.empty()) out += ", Orders Deck " + join_counts(a.orders);
            return a.seat == actor ? out : fmt::format("{}: {}", seat_name(seats, a.seat), out);
          },
          [](const core::TurnStarted&) { return std::string(); },
          [&](const core::MoraleChecked& m) { return fmt::format("{} leads", seat_name(seats, m.leader)); },
          [](const core::PhaseStarted&) { return std::string(); },
          [&](const core::GameEnded& g) {
            if (g.winner == core::kNoSeat) return fmt::format("{}", victory_text(g.victory));
            return fmt::format("{} wins by {}", seat_name(seats, g.winner), victory_text(g.victory));
          },
          [](const core::CardsDrawn& d) { return join(d.cards); },
          [](const core::Foraged& f) { return f.card.str(); },
          [](const core::ReturnedFromHomeland& r) { return r.card.str(); },
          [](const core::GambitStocked& g) { return g.card.str(); },
          [](const core::CardPlayed& c) {
            return c.space.valid() ? fmt::format("{} → {}", c.card, sp(c.space)) : c.card.str();
          },
          [](const core::TroopMoved& m) { return fmt::format("{} → {}", sp(m.from), sp(m.to)); },
          [](const core::TroopsShifted& s) {
            std::vector<std::string> moves;
            for (const auto& m : s.moves) moves.push_back(fmt::format("{} → {}", sp(m.from), sp(m.to)));
            return join(moves);
          },
          [](const core::AbilityUsed& a) { return fmt::format("{}: {}", sp(a.space), a.ability); },
          [](const core::TroopBurrowed& b) { return sp(b.space); },
          [](const core::TroopUnburrowed& u) { return sp(u.space); },
          [](const core::ShotteFired& s) {
            return fmt::format("{} → {} for {}", sp(s.shooter), sp(s.target), s.damage);
          },
          [](const core::ChargeDeclared& c) {
            if (c.mode == core::ChargeMode::Burrow) return fmt::format("{}{}", charge_mode_text(c.mode), sp(c.from));
            return std::string(charge_mode_text(c.mode));
          },
          [](const core::ChargeDeclined&) { return std::string(); },
          [](const core::LocalFavorUsed& l) { return l.option; },
          [](const core::CombatResolved& c) {
            std::string out = fmt::format("{}: {}", sp(c.troop), strikes_text(c.strikes));
            for (const auto& d : c.defenders) out += fmt::format("; {}: {}", sp(d.defender), strikes_text(d.strikes));
            return out;
          },
          [](const core::TroopLost& l) { return sp(l.space); },
          [](const core::TroopDefeated& d) {
            return d.beneath.valid() ? fmt::format("{} beneath {}", sp(d.space), sp(d.beneath)) : sp(d.space);
          },
          [](const core::LostTroopRecovered& r) {
            if (r.mode == core::Recovery::Reshuffle) return fmt::format("{} reshuffled", sp(r.space));
            return fmt::format("{} → {}", sp(r.space), sp(r.to));
          },
          [](const core::ProvisionsPaid& p) {
            if (p.unpaid.empty()) return fmt::format("paid {}", paid_text(p.paid));
            return fmt::format("paid {}; unpaid {}", paid_text(p.paid), paid_text(p.unpaid));
          },
          [](const core::CardsDiscarded& d) { return join(d.cards); },
          [](const core::TerritoryControlTaken& t) { return sp(t.territory); },
          [](const core::TroopFled& f) { return sp(f.space); },
          [](const core::Voided& v) {
            return fmt::format("seq {}{}: {}", v.target, v.by.empty() ? "" : " by " + v.by, v.reason);
          },
          [](const core::BackupTo& b) {
            return fmt::format("to before seq {} by {} ({}): {}", b.target, b.by.empty() ? "?" : b.by,
                               b.signature.empty() ? "unsigned" : "signed", b.reason);
          },
      },
      p);
}

std::string event_label(const core::Event& ev, std::span<const core::SeatSetup> seats) {
  std::string out = fmt::format("seq {}  ", ev.seq);
  if (ev.seat != core::kNoSeat) out += seat_name(seats, ev.seat) + ": ";
  out += core::payload_name(ev.payload);
  if (std::holds_alternative<core::PhaseStarted>(ev.payload)) out += " " + phase_title(ev.phase);
  const std::string detail = payload_detail(ev.payload, seats, ev.seat);
  if (!detail.empty()) out += " " + detail;
  return out;
}

void add_event_spaces(std::vector<core::Space>& out, const core::Payload& p) {
  auto add = [&out](core::Space s) {
    if (s.valid() && std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  };
  auto strikes = [&add](const std::vector<core::Strike>& v) {
    for (const core::Strike& s : v) add(s.target);
  };
  auto paid = [&add](const std::vector<core::PaidItem>& v) {
    for (const core::PaidItem& i : v) add(i.space);
  };
  std::visit(Overloaded{
                 [&](const core::CardPlayed& e) { add(e.space); },
                 [&](const core::AbilityUsed& e) { add(e.space); },
                 [&](const core::TroopBurrowed& e) { add(e.space); },
                 [&](const core::TroopUnburrowed& e) { add(e.space); },
                 [&](const core::TroopLost& e) { add(e.space); },
                 [&](const core::TroopFled& e) { add(e.space); },
                 [&](const core::TerritoryControlTaken& e) { add(e.territory); },
                 [&](const core::ChargeDeclared& e) { add(e.from); },
                 [&](const core::TroopMoved& e) {
                   add(e.from);
                   add(e.to);
                 },
                 [&](const core::TroopsShifted& e) {
                   for (const core::TroopMoved& m : e.moves) add_event_spaces(out, m);
                 },
                 [&](const core::ShotteFired& e) {
                   add(e.shooter);
                   add(e.target);
                 },
                 [&](const core::CombatResolved& e) {
                   add(e.troop);
                   strikes(e.strikes);
                   for (const core::DefenderSplit& d : e.defenders) {
                     add(d.defender);
                     strikes(d.strikes);
                   }
                 },
                 [&](const core::TroopDefeated& e) {
                   add(e.space);
                   add(e.beneath);
                 },
                 [&](const core::LostTroopRecovered& e) {
                   add(e.space);
                   add(e.to);
                 },
                 [&](const core::ProvisionsPaid& e) {
                   paid(e.paid);
                   paid(e.unpaid);
                 },
                 [](const auto&) {},  // names no space
             },
             p);
}

std::vector<core::Space> event_spaces(const core::Payload& p) {
  std::vector<core::Space> out;
  add_event_spaces(out, p);
  return out;
}

}  // namespace warlog::replay
