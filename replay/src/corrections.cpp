#include "warlog/replay/corrections.hpp"

#include <fmt/format.h>

#include "stream.hpp"

namespace warlog::replay {

namespace {

std::string join(const std::vector<core::CardName>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ", ") + s.str();
  return out;
}

}  // namespace

std::vector<StruckEvent> struck_events(std::span<const core::Event> events) {
  std::vector<StruckEvent> out;
  if (!core::has_corrections(events)) return out;
  const std::vector<core::Mark> marks = core::standings(events);
  for (std::size_t p = 0; p < events.size(); ++p) {
    const core::Mark m = marks[p];
    if (m.standing != core::Standing::Voided && m.standing != core::Standing::Superseded) continue;
    StruckEvent s{events[p].seq, std::string(core::payload_name(events[p].payload)), m.standing, m.by, {}, {}, false};
    for (std::size_t c = p + 1; c < events.size(); ++c) {
      if (events[c].seq != m.by) continue;
      if (const auto* v = std::get_if<core::Voided>(&events[c].payload)) {
        s.who = v->by;
        s.reason = v->reason;
      } else if (const auto* b = std::get_if<core::BackupTo>(&events[c].payload)) {
        s.who = b->by;
        s.reason = b->reason;
        s.backup_signed = !b->signature.empty();
      }
      break;
    }
    out.push_back(std::move(s));
  }
  return out;
}

std::string struck_text(const StruckEvent& s) {
  const std::string who = s.who.empty() ? std::string("someone unnamed") : s.who;
  if (s.standing == core::Standing::Voided) return fmt::format("voided at seq {} by {}: {}", s.by, who, s.reason);
  return fmt::format("superseded by the backup at seq {} by {} ({}): {}", s.by, who,
                     s.backup_signed ? "signed" : "unsigned", s.reason);
}

std::string_view to_string(Crossed::Kind k) noexcept {
  switch (k) {
    case Crossed::Kind::Drawn: return "drawn";
    case Crossed::Kind::Shuffled: return "shuffled";
    case Crossed::Kind::Revealed: return "revealed";
  }
  return "?";
}

Expected<BackupCrossing> backup_crossing(std::span<const core::Event> events, core::Seq target) {
  std::size_t from = events.size();
  for (std::size_t p = 0; p < events.size(); ++p) {
    if (events[p].seq == target) from = p;
  }
  if (from == events.size() || std::holds_alternative<core::GameCreated>(events[from].payload)) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("seq {} is no event after GameCreated: a backup to it would be refused", target));
  }
  const std::vector<core::Mark> marks = core::standings(events);
  BackupCrossing out;
  out.target = target;
  using Kind = Crossed::Kind;
  for (std::size_t p = from; p < events.size(); ++p) {
    // What the fold supersedes (core/corrections.cpp): actions and the
    // corrections among them, never what was already struck. Counted the
    // same way, so the crossing and the backup's finding give one number.
    const core::Standing st = marks[p].standing;
    if (st != core::Standing::Effective && st != core::Standing::Correction) continue;
    ++out.events;
    if (st == core::Standing::Correction) continue;  // a void or backup reveals nothing
    const core::Event& ev = events[p];
    auto add = [&](Kind k, std::string what) { out.crossed.push_back({ev.seq, ev.seat, k, std::move(what)}); };
    if (const auto* d = std::get_if<core::CardsDrawn>(&ev.payload)) {
      if (!d->cards.empty()) add(Kind::Drawn, join(d->cards));
    } else if (const auto* r = std::get_if<core::LostTroopRecovered>(&ev.payload)) {
      if (r->mode == core::Recovery::Reshuffle) {
        add(Kind::Shuffled, fmt::format("the Army Deck, with the Lost Troop of {}", core::to_string(r->space)));
      }
    } else if (const auto* c = std::get_if<core::CardPlayed>(&ev.payload)) {
      add(Kind::Revealed, fmt::format("{} played from hand", c->card));
    } else if (const auto* x = std::get_if<core::CardsDiscarded>(&ev.payload)) {
      if (!x->cards.empty()) add(Kind::Revealed, fmt::format("{} discarded from hand", join(x->cards)));
    } else if (const auto* u = std::get_if<core::TroopUnburrowed>(&ev.payload)) {
      add(Kind::Revealed, fmt::format("the Burrowed Troop on {}", core::to_string(u->space)));
    } else if (const auto* h = std::get_if<core::ReturnedFromHomeland>(&ev.payload)) {
      add(Kind::Revealed, fmt::format("{} taken back from the Homeland", h->card));
    }
  }
  return out;
}

namespace detail {

Expected<std::vector<core::Event>> read_stream(const store::Reader& reader, core::GameId game, core::Seq end) {
  std::vector<core::Event> out;
  auto n = reader.scan(game, 0, end, [&out](const core::Event& ev) {
    out.push_back(ev);
    return true;
  });
  if (!n) return tl::unexpected(n.error());
  return out;
}

}  // namespace detail

}  // namespace warlog::replay
