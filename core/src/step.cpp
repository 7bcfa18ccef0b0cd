#include "step.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>

#include <fmt/format.h>

#include "rules/rule_ids.hpp"

namespace warlog::core::detail {

void Step::report(std::string_view rule, std::string message) const {
  report_for(ev.seat < kSeatCount ? ev.seat : kNoSeat, ev.seq, rule, std::move(message));
}

void Step::report_for(Seat seat, Seq concerns, std::string_view rule, std::string message) const {
  if (full()) {
    if (dropped++ == 0) dropped_rule = rule;
    return;
  }
  const Rule* r = find_rule(rule);
  // An unregistered id is a bug in warlog, caught by the registry test.
  out.push_back(Finding{ev.seq, r ? r->id : rule, r ? r->severity : Severity::Violation,
                        r ? r->basis : Basis::Written, std::move(message), seat < kSeatCount ? seat : kNoSeat,
                        concerns});
}

SeatState* Step::actor() const {
  if (ev.seat >= kSeatCount) {
    report(rule_id::kLogActor, fmt::format("{} names no seat of this game", payload_name(ev.payload)));
    return nullptr;
  }
  return &s.seats[ev.seat];
}

const Card* Step::card(CardName name) const {
  const Card* c = ctx.catalog.find(name);
  if (c == nullptr && full()) {
    report(rule_id::kLogUnknownCard, "");  // counted only: no hint computed
  } else if (c == nullptr) {
    report(rule_id::kLogUnknownCard,
           fmt::format("'{}' is not in the card catalog (closest: '{}')", name, ctx.catalog.closest(name)));
  }
  return c;
}

bool Step::on_grid(Space sp, std::string_view what) const {
  if (s.on_grid(sp)) return true;
  report(rule_id::kLogSpace, fmt::format("{} {} is off the {}x{} battlefield", what, to_string(sp),
                                         static_cast<int>(s.cols), static_cast<int>(s.rows)));
  return false;
}

Troop* Step::troop_at(Space sp) const {
  if (!on_grid(sp, "space")) return nullptr;
  auto& slot = s.at(sp);
  if (!slot) {
    report(rule_id::kLogNoTroop, fmt::format("no card stands on {}", to_string(sp)));
    return nullptr;
  }
  return &*slot;
}

bool Step::take(CardPile& pile, CardName card, std::string_view zone) const {
  const auto it = pile.find(card);
  if (it == pile.end() || it->second <= 0) {
    report(rule_id::kLogZone, fmt::format("'{}' is not in {}'s {}", card, player(ev.seat), zone));
    return false;
  }
  if (--it->second == 0) pile.erase(it);
  return true;
}

bool Step::in_phase(Phase phase, std::string_view action) const {
  if (s.phase == phase) return true;
  report(rule_id::kLogPhase,
         fmt::format("{} belongs to the {} phase, but the game is in the {} phase", action, to_string(phase),
                     to_string(s.phase)));
  return false;
}

bool Step::by_active(std::string_view action) const {
  if (ev.seat == s.active) return true;
  report(rule_id::kLogActor, fmt::format("{} by {} during {}'s {} phase", action, player(ev.seat),
                                         player(s.active), to_string(s.phase)));
  return false;
}

const std::string& Step::player(Seat seat) const {
  static const std::string kNobody = "nobody";
  return seat < kSeatCount ? s.seats[seat].player : kNobody;
}

void add(CardPile& pile, CardName card, int n) {
  if (n <= 0) return;
  const auto it = pile.find(card);
  if (it == pile.end()) {
    pile.emplace(card, n);
  } else {
    // Saturating: a hostile count never wraps a pile (deck.cpp's check of
    // an army adds its counts as the event gives them; the state's piles
    // stay far below, since ArmyRegistered registers at most 10,000 cards).
    it->second = static_cast<int>(std::min<std::int64_t>(std::numeric_limits<int>::max(),
                                                         static_cast<std::int64_t>(it->second) + n));
  }
}

}  // namespace warlog::core::detail
