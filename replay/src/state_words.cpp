// Two folds of a game compared field by field and told as a designer reads
// a table: which Troop stands where and with how much Vitality, what each
// seat holds, its Morale, the Territories, where play stands.

#include "state_words.hpp"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>
#include <set>

namespace warlog::replay {

namespace {

using core::GameState;
using core::Space;
using core::Troop;

bool contains(const std::vector<Space>& v, Space s) { return std::find(v.begin(), v.end(), s) != v.end(); }

void add_unique(std::vector<std::string>& v, std::string s) {
  if (std::find(v.begin(), v.end(), s) == v.end()) v.push_back(std::move(s));
}

std::string owner_words(const GameState& s, core::Seat seat) {
  if (seat >= s.seats.size()) return "no seat";
  return fmt::format("Seat {}, {}", seat + 1, s.seats[seat].player);
}

// "the Imperial Grenadier on e2 (Seat 1, Ines)"
std::string troop_words(const GameState& s, const Troop& t, Space sp) {
  return fmt::format("the {} on {} ({})", t.card, core::to_string(sp), owner_words(s, t.owner));
}

// Vitality left, when the catalog knows the card.
std::optional<int> vitality_left(const Troop& t, const core::Catalog& catalog) {
  const core::Card* c = catalog.find(t.card);
  if (c == nullptr) return std::nullopt;
  return c->vitality - t.damage;
}

std::string vitality_words(const Troop& t, const core::Catalog& catalog) {
  const auto v = vitality_left(t, catalog);
  return v ? fmt::format("{} Vitality", *v) : fmt::format("{} damage taken", t.damage);
}

struct FlagWords {
  core::TroopFlag flag;
  const char* on;   // said when the candidate has the flag and the base has not
  const char* off;  // the other way round
  bool visible;     // a player sees it on the table (else bookkeeping)
};
constexpr FlagWords kFlagWords[] = {
    {core::kTroopLost, "is Lost instead of in good order", "is in good order instead of Lost", true},
    {core::kTroopBurrowed, "is Burrowed instead of above ground", "is above ground instead of Burrowed", true},
    {core::kTroopUnprovisioned, "is unprovisioned (Morale 0) instead of provisioned",
     "is provisioned instead of unprovisioned (Morale 0)", true},
    {core::kTroopShotteUsed, "has fired its Shotte, which under the base it has not",
     "has not fired its Shotte, which under the base it has", true},
    {core::kTroopMovedThisPhase, "has moved this phase, which under the base it has not",
     "has not moved this phase, which under the base it has", false},
    {core::kTroopFoughtThisCharge, "has fought this Charge, which under the base it has not",
     "has not fought this Charge, which under the base it has", false},
    {core::kTroopAbilityUsed, "has used its ability, which under the base it has not",
     "has not used its ability, which under the base it has", false},
    {core::kTroopTurncoat, "stands as a Turncoat instead of its owner's own card",
     "stands as its owner's own card instead of a Turncoat", true},
};

class Teller {
 public:
  Teller(const GameState& b, const GameState& c, const core::Context& bx, const core::Context& cx)
      : b_(b), c_(c), bc_(bx.catalog), cc_(cx.catalog), br_(bx.rules), cr_(cx.rules) {}

  StateDifferences tell() {
    frame();
    battlefield();
    for (core::Seat i = 0; i < core::kSeatCount; ++i) seat(i);
    territories();
    warfare();
    ending();
    return std::move(out_);
  }

 private:
  void say(std::string s) { out_.sentences.push_back(std::move(s)); }
  void note(std::string s) { out_.bookkeeping.push_back(std::move(s)); }
  void space(Space sp) { add_unique(out_.spaces, core::to_string(sp)); }
  void card(const std::string& name) { add_unique(out_.cards, name); }
  void player(core::Seat seat) {
    if (seat < c_.seats.size()) add_unique(out_.players, c_.seats[seat].player);
  }
  std::string who(core::Seat seat) const { return seat_words(c_, seat); }

  void frame() {
    if (c_.turn != b_.turn || c_.phase != b_.phase) {
      say(fmt::format("play stands at turn {}, {} instead of turn {}, {}", c_.turn, phase_words(c_.phase), b_.turn,
                      phase_words(b_.phase)));
    }
    if (c_.leader != b_.leader) {
      say(fmt::format("{} Leads in Morale instead of {}", who(c_.leader), who(b_.leader)));
      player(c_.leader);
      player(b_.leader);
    }
    if (c_.active != b_.active) note(fmt::format("it is {}'s part instead of {}'s", who(c_.active), who(b_.active)));
    if (c_.part != b_.part) note(fmt::format("the turn is at part {} instead of {}", c_.part, b_.part));
  }

  void battlefield() {
    if (c_.grid.size() != b_.grid.size()) {
      say("the battlefield has another size");
      return;
    }
    for (std::size_t i = 0; i < c_.grid.size(); ++i) {
      const auto& tb = b_.grid[i];
      const auto& tc = c_.grid[i];
      if (tb == tc) continue;
      const Space sp = c_.space_of(i);
      space(sp);
      if (tb && !tc) {
        card(tb->card);
        player(tb->owner);
        const char* how = contains(c_.this_turn.defeated, sp) ? "is defeated"
                          : contains(c_.this_turn.fled, sp)   ? "flees"
                                                              : "is gone";
        say(fmt::format("{} {} instead of standing with {}", troop_words(b_, *tb, sp), how,
                        vitality_words(*tb, bc_)));
      } else if (!tb && tc) {
        card(tc->card);
        player(tc->owner);
        const char* instead = contains(b_.this_turn.defeated, sp) ? "being defeated"
                              : contains(b_.this_turn.fled, sp)   ? "fleeing"
                                                                  : "an empty space";
        const bool survives = contains(b_.this_turn.defeated, sp) || contains(b_.this_turn.fled, sp);
        say(fmt::format("{} {} with {} instead of {}", troop_words(c_, *tc, sp), survives ? "survives" : "stands",
                        vitality_words(*tc, cc_), instead));
      } else if (tb->card != tc->card || tb->owner != tc->owner) {
        card(tb->card);
        card(tc->card);
        player(tb->owner);
        player(tc->owner);
        say(fmt::format("{} holds the {} ({}) instead of the {} ({})", core::to_string(sp), tc->card,
                        owner_words(c_, tc->owner), tb->card, owner_words(b_, tb->owner)));
      } else {
        troop(*tb, *tc, sp);
      }
    }
  }

  void troop(const Troop& tb, const Troop& tc, Space sp) {
    card(tc.card);
    player(tc.owner);
    const std::string subject = troop_words(c_, tc, sp);
    const auto vb = vitality_left(tb, bc_), vc = vitality_left(tc, cc_);
    if (vb != vc || (!vb && tb.damage != tc.damage)) {
      say(vb && vc ? fmt::format("{} has {} Vitality left instead of {}", subject, *vc, *vb)
                   : fmt::format("{} has taken {} damage instead of {}", subject, tc.damage, tb.damage));
    }
    for (const FlagWords& f : kFlagWords) {
      if (tb.has(f.flag) == tc.has(f.flag)) continue;
      std::string s = fmt::format("{} {}", subject, tc.has(f.flag) ? f.on : f.off);
      f.visible ? say(std::move(s)) : note(std::move(s));
    }
    if (tb.entered_turn != tc.entered_turn) {
      note(fmt::format("{} entered play on turn {} instead of {}", subject, tc.entered_turn, tb.entered_turn));
    }
    if (tb.lost_turn != tc.lost_turn) {
      note(fmt::format("{} became Lost on turn {} instead of {}", subject, tc.lost_turn, tb.lost_turn));
    }
    if (tb.unburrowed_turn != tc.unburrowed_turn) {
      note(fmt::format("{} last un-Burrowed on turn {} instead of {}", subject, tc.unburrowed_turn,
                       tb.unburrowed_turn));
    }
  }

  // Copies of a card: a card's name has no plural ("2 copies of Weald Burrower").
  static std::string count_words(int n, const std::string& card) {
    if (n == 0) return fmt::format("no {}", card);
    return n == 1 ? fmt::format("1 copy of {}", card) : fmt::format("{} copies of {}", n, card);
  }

  void pile(core::Seat seat, const char* what, const core::CardPile& pb, const core::CardPile& pc) {
    if (pb == pc) return;
    std::set<std::string, std::less<>> names;
    for (const auto& [name, n] : pb) names.insert(name);
    for (const auto& [name, n] : pc) names.insert(name);
    std::string parts;
    for (const std::string& name : names) {
      const auto ib = pb.find(name), ic = pc.find(name);
      const int nb = ib == pb.end() ? 0 : ib->second, nc = ic == pc.end() ? 0 : ic->second;
      if (nb == nc) continue;
      card(name);
      parts += fmt::format("{}{} instead of {}", parts.empty() ? "" : ", ", count_words(nc, name),
                           nb == 0 ? std::string("none") : std::to_string(nb));
    }
    player(seat);
    say(fmt::format("{}'s {} holds {}", who(seat), what, parts));
  }

  static std::string names_of(const std::vector<core::HeldCard>& v) {
    std::vector<std::string> names;
    for (const auto& h : v) names.push_back(h.card);
    std::sort(names.begin(), names.end());
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
    return out.empty() ? "nothing" : out;
  }

  void held(core::Seat seat, const char* what, const std::vector<core::HeldCard>& hb,
            const std::vector<core::HeldCard>& hc) {
    const std::string nb = names_of(hb), nc = names_of(hc);
    if (nb == nc) {
      if (hb != hc) note(fmt::format("{}'s {} holds the same cards, arrived on other turns", who(seat), what));
      return;
    }
    for (const auto& h : hb) card(h.card);
    for (const auto& h : hc) card(h.card);
    player(seat);
    say(fmt::format("{}'s {} holds {} instead of {}", who(seat), what, nc, nb));
  }

  void flag(core::Seat seat, bool b, bool c, const char* done, bool visible = true) {
    if (b == c) return;
    player(seat);
    std::string s = c ? fmt::format("{} has {} this turn, which under the base it has not", who(seat), done)
                      : fmt::format("{} has not {} this turn, which under the base it has", who(seat), done);
    visible ? say(std::move(s)) : note(std::move(s));
  }

  void count(core::Seat seat, int b, int c, const char* format_text) {
    if (b == c) return;
    player(seat);
    say(fmt::format(fmt::runtime(format_text), who(seat), c, b));
  }

  void seat(core::Seat i) {
    const core::SeatState& sb = b_.seats[i];
    const core::SeatState& sc = c_.seats[i];
    const int mb = core::morale_total(b_, i, bc_), mc = core::morale_total(c_, i, cc_);
    count(i, mb, mc, "{}'s Morale is {} instead of {}");
    if (sb == sc) return;
    if (sb.registered != sc.registered) flag(i, sb.registered, sc.registered, "registered its army");
    pile(i, "Army Deck", sb.deck, sc.deck);
    pile(i, "Orders Deck", sb.orders, sc.orders);
    pile(i, "hand", sb.hand, sc.hand);
    pile(i, "discard pile", sb.discard, sc.discard);
    pile(i, "set of cards returned from the Homeland this turn", sb.this_turn.not_playable,
         sc.this_turn.not_playable);
    pile(i, "Turncoat offer", sb.this_turn.turncoat_offer, sc.this_turn.turncoat_offer);
    held(i, "Homeland", sb.homeland, sc.homeland);
    held(i, "Gambits in play", sb.gambits_in_play, sc.gambits_in_play);
    count(i, sb.this_turn.drawn, sc.this_turn.drawn, "{} has drawn {} cards this turn instead of {}");
    flag(i, sb.this_turn.foraged, sc.this_turn.foraged, "foraged");
    flag(i, sb.this_turn.returned, sc.this_turn.returned, "returned a card from the Homeland");
    flag(i, sb.this_turn.gambit_stocked, sc.this_turn.gambit_stocked, "stocked a Gambit");
    flag(i, sb.this_turn.mustered, sc.this_turn.mustered, "taken its Muster Phase");
    flag(i, sb.this_turn.provisions_paid, sc.this_turn.provisions_paid, "paid its Provisions");
    flag(i, sb.this_part.acted, sc.this_part.acted, "acted in this part", false);
    count(i, sb.local_favor_until_turn, sc.local_favor_until_turn,
          "{}'s Local Favor lasts to turn {} instead of {} (0: none)");
    count(i, sb.cards_owed_discard, sc.cards_owed_discard, "{} owes {} discards instead of {}");
    count(i, sb.this_turn.recovery_spent, sc.this_turn.recovery_spent,
          "{} has spent {} Provisions recovering Lost Troops this turn instead of {}");
    count(i, sb.this_part.fled, sc.this_part.fled, "{} has had {} Troops flee this part instead of {}");
    count(i, sb.this_turn.turncoat_draws, sc.this_turn.turncoat_draws, "{} may draw {} more cards under Turncoat instead of {}");
    if (sb.rabble_side != sc.rabble_side) {
      player(i);
      say(fmt::format("{}'s token is on its {} side instead of its {} side", who(i), sc.rabble_side ? "Rabble" : "Rebel",
                      sb.rabble_side ? "Rabble" : "Rebel"));
    }
    if (sb.this_turn.wages_due != sc.this_turn.wages_due) {
      auto wages = [](const std::vector<core::WageDue>& v) {
        std::string out;
        for (const auto& w : v) out += fmt::format("{}the {} from {}", out.empty() ? "" : ", ", w.card, core::to_string(w.space));
        return out.empty() ? std::string("nothing") : out;
      };
      player(i);
      say(fmt::format("{} owes Troop Wages for {} instead of {}", who(i), wages(sc.this_turn.wages_due), wages(sb.this_turn.wages_due)));
    }
  }

  void territories() {
    if (c_.territories.size() != b_.territories.size()) {
      say(fmt::format("{} Territories are in play instead of {}", c_.territories.size(), b_.territories.size()));
      return;
    }
    for (std::size_t i = 0; i < c_.territories.size(); ++i) {
      const auto& tb = b_.territories[i];
      const auto& tc = c_.territories[i];
      const std::string subject = fmt::format("the {} on {}", tc.card, core::to_string(tc.space));
      if (tb.beneath != tc.beneath) {
        card(tc.card);
        const auto troops = [](int n) {
          return n == 0 ? std::string("no destroyed Troops")
                        : fmt::format("{} destroyed Troop{}", n, n == 1 ? "" : "s");
        };
        say(fmt::format("{} has {} beneath it instead of {}", subject, troops(tc.beneath),
                        tb.beneath == 0 ? std::string("none") : std::to_string(tb.beneath)));
      }
      // Control is derived, never stored: derived under each side's rules.
      const core::Seat held_b = core::territory_controller(b_, tb, bc_, br_);
      const core::Seat held_c = core::territory_controller(c_, tc, cc_, cr_);
      if (held_b != held_c) {
        card(tc.card);
        player(held_c);
        player(held_b);
        auto by = [this](core::Seat s) {
          return s == core::kNoSeat ? std::string("uncontrolled") : fmt::format("Controlled by {}", who(s));
        };
        say(fmt::format("{} is {} instead of {}", subject, by(held_c), by(held_b)));
      }
      // Due in the final turn until Control answers it.
      if (tb.final_due != tc.final_due) {
        card(tc.card);
        say(tc.final_due ? fmt::format("{} is still due in the final turn instead of answered by Control", subject)
                         : fmt::format("{} is answered by Control in the final turn instead of still due", subject));
      }
    }
  }

  void warfare() {
    if (c_.this_turn.charge_declared != b_.this_turn.charge_declared || c_.this_turn.charger != b_.this_turn.charger) {
      auto by = [this](const GameState& s) {
        return s.this_turn.charge_declared ? fmt::format("{} has declared the Charge", seat_words(s, s.this_turn.charger))
                                 : std::string("no Charge is declared");
      };
      say(fmt::format("{} (under the base: {})", by(c_), by(b_)));
    }
    if (c_.this_turn.charge_declined != b_.this_turn.charge_declined) {
      say(c_.this_turn.charge_declined ? "the Charge is declined, which under the base it is not"
                             : "the Charge is not declined, which under the base it is");
    }
    if (c_.this_turn.shotte_seats.size() != b_.this_turn.shotte_seats.size()) {
      say(fmt::format("{} Shotte volleys have been fired this Subphase instead of {}", c_.this_turn.shotte_seats.size(),
                      b_.this_turn.shotte_seats.size()));
    }
    if (c_.this_turn.shotte_alternation_broken != b_.this_turn.shotte_alternation_broken) {
      say(c_.this_turn.shotte_alternation_broken
              ? "a player has fired Shotte twice running while the other could fire, which under the base none has"
              : "no player has fired Shotte twice running, which under the base one has");
    }
    if (c_.this_charge.last_combat_morale != b_.this_charge.last_combat_morale) {
      note(fmt::format("the last combat was fought at Morale {} instead of {}", c_.this_charge.last_combat_morale,
                       b_.this_charge.last_combat_morale));
    }
    if (c_.this_charge.vacated.size() != b_.this_charge.vacated.size()) {
      note(fmt::format("{} spaces have been emptied by a defeat this Charge instead of {}",
                       c_.this_charge.vacated.size(), b_.this_charge.vacated.size()));
    }
    if (c_.this_charge.defenders_struck.size() != b_.this_charge.defenders_struck.size()) {
      note(fmt::format("{} defenders have struck back this Charge instead of {}", c_.this_charge.defenders_struck.size(),
                       b_.this_charge.defenders_struck.size()));
    }
    if (c_.this_turn.defeated != b_.this_turn.defeated) {
      note(fmt::format("{} Troops have been defeated this turn instead of {}", c_.this_turn.defeated.size(),
                       b_.this_turn.defeated.size()));
    }
    if (c_.this_turn.fled != b_.this_turn.fled) {
      note(fmt::format("{} Troops have fled this turn instead of {}", c_.this_turn.fled.size(), b_.this_turn.fled.size()));
    }
  }

  void ending() {
    if (c_.final_turn != b_.final_turn) {
      auto turn = [](std::uint16_t t) { return t == 0 ? std::string("none") : fmt::format("turn {}", t); };
      say(fmt::format("the final turn is {} instead of {}", turn(c_.final_turn), turn(b_.final_turn)));
    }
    if (c_.winner != b_.winner || c_.victory != b_.victory) {
      auto result = [](const GameState& s) {
        if (!s.victory || s.winner == core::kNoSeat) return std::string("no victory");
        const std::string w = seat_words(s, s.winner);
        switch (*s.victory) {
          case core::Victory::Supremacy: return fmt::format("a Supremacy Victory for {}", w);
          case core::Victory::Attrition: return fmt::format("an Attrition Victory for {}", w);
          case core::Victory::Concession: return fmt::format("a win by Concession for {}", w);
          case core::Victory::Unfinished: break;
        }
        return std::string("no victory");
      };
      say(fmt::format("the result is {} instead of {}", result(c_), result(b_)));
    }
    if (c_.this_turn.win_checked != b_.this_turn.win_checked) {
      note(c_.this_turn.win_checked ? "the win has been checked this turn, which under the base it has not"
                                    : "the win has not been checked this turn, which under the base it has");
    }
    if (c_.winner == b_.winner && c_.victory == b_.victory) {
      if (c_.decided_turn != b_.decided_turn && c_.decided_at && b_.decided_at) {
        note(fmt::format("the game was decided in turn {} instead of {}", c_.decided_turn, b_.decided_turn));
      } else if (c_.decided_at != b_.decided_at) {
        note("the game was decided at another event");
      }
    }
  }

  const GameState& b_;
  const GameState& c_;
  const core::Catalog& bc_;
  const core::Catalog& cc_;
  const core::Ruleset& br_;
  const core::Ruleset& cr_;
  StateDifferences out_;
};

bool word_at(std::string_view text, std::size_t at, std::size_t len) {
  auto alnum = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) != 0; };
  return (at == 0 || !alnum(text[at - 1])) && (at + len >= text.size() || !alnum(text[at + len]));
}

bool names_word(std::string_view text, std::string_view word) {
  if (word.empty()) return false;
  for (auto at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
    if (word_at(text, at, word.size())) return true;
  }
  return false;
}

}  // namespace

std::vector<std::string> StateDifferences::told() const {
  if (!sentences.empty()) return sentences;
  if (!bookkeeping.empty()) return bookkeeping;
  return {"the two states differ in nothing warlog can name"};
}

StateDifferences state_differences(const core::GameState& base, const core::GameState& cand,
                                   const core::Context& base_ctx, const core::Context& cand_ctx) {
  return Teller(base, cand, base_ctx, cand_ctx).tell();
}

bool names_a_subject(const StateDifferences& d, std::string_view message) {
  for (const auto& s : d.spaces) {
    if (names_word(message, s)) return true;
  }
  for (const auto& c : d.cards) {
    if (message.find("'" + c + "'") != std::string_view::npos) return true;
  }
  for (const auto& p : d.players) {
    if (names_word(message, p)) return true;
  }
  return false;
}

std::string seat_words(const core::GameState& s, core::Seat seat) {
  if (seat >= s.seats.size()) return "no seat";
  return fmt::format("Seat {} ({})", seat + 1, s.seats[seat].player);
}

std::string phase_words(core::Phase p) {
  switch (p) {
    case core::Phase::Setup: return "Setup";
    case core::Phase::Muster: return "Muster Phase";
    case core::Phase::Warfare: return "Warfare Phase";
    case core::Phase::Attrition: return "Attrition Phase";
    case core::Phase::End: return "the end";
  }
  return "?";
}

std::string event_words(std::string_view name) {
  std::string out;
  for (char ch : name) {
    if (std::isupper(static_cast<unsigned char>(ch)) && !out.empty()) out += ' ';
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  }
  return out;
}

}  // namespace warlog::replay
