// The notation's body: Turn markers, phase markers, and one action per line.
// Each verb below yields exactly one event; docs/notation.md has the table.

#include <fmt/format.h>

#include "notation_parser.hpp"
#include "warlog/core/corrections.hpp"

namespace warlog::core::notation {

namespace {

constexpr std::string_view kCommaHint = "separate list items with commas";
constexpr long long kMaxDamage = 9999;

using VerbParse = Payload (*)(Parser&, Cursor&);

struct Verb {
  std::string_view name;
  VerbParse parse;
  bool table_wide;   // seat defaults to none, not the phase's seat
  bool before_turn;  // may come before the first Turn marker
};

// One of `words` (case-insensitive); fails with `expected` otherwise.
std::size_t keyword(Parser& p, Cursor& c, std::initializer_list<std::string_view> words, std::string_view expected) {
  std::size_t i = 0;
  for (std::string_view w : words) {
    if (c.at_word(w)) {
      c.next();
      return i;
    }
    ++i;
  }
  p.fail(c.peek(), std::string(expected));
}

std::vector<CardName> card_list(Parser& p, Cursor& c) {
  std::vector<CardName> cards;
  if (c.at(Tok::End)) return cards;
  do {
    cards.push_back(p.card(c));
  } while (c.accept(Tok::Comma));
  p.end_of_line(c, kCommaHint);
  return cards;
}

std::vector<Strike> strikes(Parser& p, Cursor& c) {
  std::vector<Strike> out;
  do {
    Strike s;
    s.target = p.space(c);
    s.damage = static_cast<int>(p.integer(c, "the damage dealt", -kMaxDamage, kMaxDamage));
    out.push_back(s);
  } while (c.accept(Tok::Comma));
  return out;
}

PaidItem paid_item(Parser& p, Cursor& c) {
  PaidItem item;
  if (c.at(Tok::Word)) {
    item.space = p.space(c);
    if (c.at(Tok::String)) item.card = p.card(c);
  } else if (c.at(Tok::String)) {
    item.card = p.card(c);
  } else {
    p.fail(c.peek(), "a Troop's space or a quoted Gambit name");
  }
  return item;
}

std::vector<PaidItem> paid_items(Parser& p, Cursor& c) {
  std::vector<PaidItem> out;
  do {
    out.push_back(paid_item(p, c));
  } while (c.accept(Tok::Comma));
  return out;
}

Payload draw(Parser& p, Cursor& c) { return CardsDrawn{card_list(p, c)}; }
Payload forage(Parser& p, Cursor& c) { return Foraged{p.card(c)}; }
Payload return_(Parser& p, Cursor& c) { return ReturnedFromHomeland{p.card(c)}; }
Payload stock(Parser& p, Cursor& c) { return GambitStocked{p.card(c)}; }
Payload discard(Parser& p, Cursor& c) { return CardsDiscarded{card_list(p, c)}; }

Payload play(Parser& p, Cursor& c) {
  CardPlayed out;
  out.card = p.card(c);
  if (!c.at(Tok::End)) out.space = p.space(c);  // no space: a Gambit held in play
  return out;
}

Payload move(Parser& p, Cursor& c) {
  TroopMoved out;
  out.from = p.space(c);
  out.to = p.space(c);
  return out;
}

Payload shift(Parser& p, Cursor& c) {
  TroopsShifted out;
  if (c.at(Tok::End)) return out;
  do {
    TroopMoved m;
    m.from = p.space(c);
    if (!c.accept(Tok::Greater)) p.fail(c.peek(), "'>' between the two spaces of a shift, as in b1>b2");
    m.to = p.space(c);
    out.moves.push_back(m);
  } while (c.accept(Tok::Comma));
  p.end_of_line(c, kCommaHint);
  return out;
}

// `ability b2 "text"` for a card on the battlefield; `ability - "Card: text"`
// for one off it (a Homeland card, a Gambit in play, the Army Ability).
Payload ability(Parser& p, Cursor& c) {
  AbilityUsed out;
  if (!c.accept(Tok::Dash)) out.space = p.space(c);
  out.ability = p.text(c, "the ability as recorded");
  return out;
}

Payload burrow(Parser& p, Cursor& c) { return TroopBurrowed{p.space(c)}; }
Payload unburrow(Parser& p, Cursor& c) { return TroopUnburrowed{p.space(c)}; }
Payload lost(Parser& p, Cursor& c) { return TroopLost{p.space(c)}; }
// defeated SP [beneath SP]: the Territory the table chose for it.
Payload defeated(Parser& p, Cursor& c) {
  TroopDefeated out{p.space(c), Space{}};
  if (c.at_word("beneath")) {
    c.next();
    out.beneath = p.space(c);
  }
  return out;
}
Payload control(Parser& p, Cursor& c) { return TerritoryControlTaken{p.space(c)}; }
Payload fled(Parser& p, Cursor& c) { return TroopFled{p.space(c)}; }
Payload decline(Parser&, Cursor&) { return ChargeDeclined{}; }
Payload favor(Parser& p, Cursor& c) { return LocalFavorUsed{p.text(c, "the Local Favor option as recorded")}; }

Payload fire(Parser& p, Cursor& c) {
  ShotteFired out;
  out.shooter = p.space(c);
  out.target = p.space(c);
  out.damage = static_cast<int>(p.integer(c, "the damage dealt", -kMaxDamage, kMaxDamage));
  return out;
}

// charge [burrow|card] [SPACE]: a plain `charge` is the leader's Charge.
Payload charge(Parser& p, Cursor& c) {
  ChargeDeclared out;
  if (c.at_word("normal")) {
    c.next();
  } else if (c.at_word("burrow")) {
    c.next();
    out.mode = ChargeMode::Burrow;
  } else if (c.at_word("card")) {
    c.next();
    out.mode = ChargeMode::Card;
  }
  if (c.at(Tok::Word)) {
    if (!space_from_string(c.peek().text)) p.fail(c.peek(), "burrow, card or the charging Troop's space");
    out.from = p.space(c);
  }
  return out;
}

// combat TROOP [-> TARGET DMG, ...] {; DEFENDER [-> TARGET DMG, ...]}
Payload combat(Parser& p, Cursor& c) {
  CombatResolved out;
  out.troop = p.space(c);
  if (c.accept(Tok::Arrow)) out.strikes = strikes(p, c);
  while (c.accept(Tok::Semicolon)) {
    DefenderSplit d;
    d.defender = p.space(c);
    if (c.accept(Tok::Arrow)) d.strikes = strikes(p, c);
    out.defenders.push_back(std::move(d));
  }
  p.end_of_line(c, "a combat reads: combat b2 -> c2 3, b3 1; c2 -> b2 2");
  return out;
}

Payload recover(Parser& p, Cursor& c) {
  LostTroopRecovered out;
  out.space = p.space(c);
  out.mode = keyword(p, c, {"pay", "reshuffle"}, "pay or reshuffle") == 0 ? Recovery::Pay : Recovery::Reshuffle;
  if (!c.at(Tok::End)) out.to = p.space(c);
  return out;
}

// pay [ITEM, ...] [unpaid ITEM, ...]; an ITEM is a space or a quoted Gambit.
Payload pay(Parser& p, Cursor& c) {
  ProvisionsPaid out;
  if (!c.at(Tok::End) && !c.at_word("unpaid")) out.paid = paid_items(p, c);
  if (c.at_word("unpaid")) {
    c.next();
    out.unpaid = paid_items(p, c);
  }
  p.end_of_line(c, kCommaHint);
  return out;
}

Payload morale(Parser& p, Cursor& c) { return MoraleChecked{p.seat(c)}; }

Payload end(Parser& p, Cursor& c) {
  GameEnded out;
  out.winner = p.seat(c);
  constexpr Victory kKinds[] = {Victory::Supremacy, Victory::Attrition, Victory::Concession, Victory::Unfinished};
  out.victory = kKinds[keyword(p, c, {"supremacy", "attrition", "concession", "unfinished"},
                               "supremacy, attrition, concession or unfinished")];
  return out;
}

// Corrections: `void SEQ "reason" [by "WHO"]` and `backup SEQ "reason"
// [by "JUDGE"] [signed "HEX"]`. SEQ is the target's position in the stream
// (the seq `warlog record` acknowledges); the fold checks it (corrections.hpp).
constexpr long long kMaxSeq = 0x7fffffffffffffffLL;

std::string by(Parser& p, Cursor& c) {
  if (!c.at_word("by")) return {};
  c.next();
  return p.text(c, "who made the correction, quoted");
}

Payload void_(Parser& p, Cursor& c) {
  Voided out;
  out.target = static_cast<Seq>(p.integer(c, "the seq of the voided event", 0, kMaxSeq));
  out.reason = p.text(c, "the reason, quoted");
  out.by = by(p, c);
  return out;
}

int hex_digit(char ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  return -1;
}

Payload backup(Parser& p, Cursor& c) {
  BackupTo out;
  out.target = static_cast<Seq>(p.integer(c, "the seq the backup returns to before", 0, kMaxSeq));
  out.reason = p.text(c, "the reason, quoted");
  out.by = by(p, c);
  if (c.at_word("signed")) {
    c.next();
    const Token at = c.peek();
    const std::string hex = p.text(c, "the signature as quoted lowercase hex");
    bool ok = hex.size() % 2 == 0;
    for (std::size_t i = 0; ok && i < hex.size(); i += 2) {
      const int hi = hex_digit(hex[i]);
      const int lo = hex_digit(hex[i + 1]);
      ok = hi >= 0 && lo >= 0;
      if (ok) out.signature.push_back(static_cast<char>(hi << 4 | lo));
    }
    if (!ok) p.fail(at, "the signature as quoted lowercase hex, whole bytes");
  }
  return out;
}

constexpr Verb kVerbs[] = {
    {"draw", draw, false, false},         {"forage", forage, false, false},
    {"return", return_, false, false},    {"stock", stock, false, false},
    {"play", play, false, false},         {"move", move, false, false},
    {"shift", shift, false, false},       {"ability", ability, false, false},
    {"burrow", burrow, false, false},     {"unburrow", unburrow, false, false},
    {"fire", fire, false, false},         {"charge", charge, false, false},
    {"decline", decline, false, false},   {"favor", favor, false, false},
    {"combat", combat, false, false},     {"lost", lost, false, false},
    {"defeated", defeated, false, false}, {"recover", recover, false, false},
    {"pay", pay, false, false},           {"discard", discard, false, false},
    {"control", control, false, false},   {"fled", fled, false, false},
    {"Morale", morale, true, false},      {"end", end, true, true},
    {"void", void_, true, false},         {"backup", backup, true, false},
};

std::optional<Phase> phase_marker(std::string_view word) {
  if (iequals(word, "muster")) return Phase::Muster;
  if (iequals(word, "warfare")) return Phase::Warfare;
  if (iequals(word, "attrition")) return Phase::Attrition;
  return std::nullopt;
}

std::vector<std::string_view> every_word() {
  std::vector<std::string_view> words = {"Turn", "Muster", "Warfare", "Attrition"};
  for (const Verb& v : kVerbs) words.push_back(v.name);
  return words;
}

}  // namespace

BodyContext context_after(std::span<const Event> events) {
  const std::vector<Mark> marks = standings(events);
  BodyContext ctx;
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (i < marks.size() && marks[i].standing != Standing::Effective) continue;
    const Event& ev = events[i];
    if (std::holds_alternative<TurnStarted>(ev.payload)) {
      ctx = BodyContext{true, ev.turn, Phase::Muster, kNoSeat};
    } else if (std::holds_alternative<PhaseStarted>(ev.payload)) {
      ctx.phase = ev.phase;
      ctx.seat = ev.seat;
    }
  }
  return ctx;
}

void Parser::emit(Payload payload, Seat seat, std::uint16_t turn, Phase phase, std::uint32_t line) {
  game.events.push_back(Event{0, game.events.size(), turn, phase, seat, std::move(payload), line_time});
  game.lines.push_back(line);
}

void Parser::body(Cursor& c) {
  const Token first = c.peek();
  if (first.kind == Tok::LBracket) {
    fail(first, "a Turn, a phase marker or an action", "header tags go before the first Turn");
  }
  std::optional<Seat> prefix;
  if ((first.kind == Tok::Int || first.kind == Tok::Dash) && c.peek(1).kind == Tok::Colon) {
    prefix = seat(c);
    c.next();  // ':'
  }
  const Token word = c.peek();
  if (word.kind != Tok::Word) fail(word, prefix ? "a verb" : "a Turn, a phase marker or an action");
  c.next();

  const std::optional<Phase> phase = phase_marker(word.text);
  if (iequals(word.text, "turn") || phase) {
    if (prefix) fail(first, fmt::format("{} without a seat prefix", word.text), "markers name no acting seat");
    if (!phase) {
      const auto n = static_cast<std::uint16_t>(integer(c, "a turn number", 1, 65535));
      end_of_line(c);
      ctx = BodyContext{true, n, Phase::Muster, kNoSeat};
      emit(TurnStarted{}, kNoSeat, n, Phase::Muster, line_no);
      return;
    }
    if (!ctx.in_turn) fail(word, "a Turn marker (Turn 1) before the first phase");
    const Seat s = seat(c);
    end_of_line(c);
    ctx.phase = *phase;
    ctx.seat = s;
    emit(PhaseStarted{}, s, ctx.turn, *phase, line_no);
    return;
  }

  const Verb* verb = nullptr;
  for (const Verb& v : kVerbs) {
    if (iequals(v.name, word.text)) verb = &v;
  }
  if (verb == nullptr) {
    const std::string best = closest_word(word.text, every_word());
    fail(word, "a verb such as draw, play, move, fire, charge, combat or pay",
         best.empty() ? std::string{} : fmt::format("did you mean '{}'?", best));
  }
  if (!ctx.in_turn && !verb->before_turn) fail(word, "a Turn marker (Turn 1) before the first action");
  Seat acting = kNoSeat;
  if (prefix) {
    acting = *prefix;
  } else if (!verb->table_wide) {
    if (ctx.seat == kNoSeat) {
      fail(word, "a phase marker (Muster 1) or a seat prefix (1: ...) before this action",
           "the acting seat is not known yet");
    }
    acting = ctx.seat;
  }
  Payload payload = verb->parse(*this, c);
  end_of_line(c);
  const bool correction = is_correction(payload);
  emit(std::move(payload), acting, ctx.turn, ctx.phase, line_no);
  // As the recorder does: after a backup play goes on from before its
  // target, after a void as if the voided marker had not been typed. Past
  // kMaxCorrections every correction is refused and moves nothing: a file of
  // a million voids costs no million recomputations.
  if (correction && ++corrections <= kMaxCorrections) ctx = context_after(game.events);
}

}  // namespace warlog::core::notation
