// What a recorder shows without recording anything: the commands (board,
// hand N, state, findings, help) and completion that knows the game.

#include <algorithm>
#include <cctype>
#include <fmt/format.h>
#include <set>

#include "recorder_impl.hpp"
#include "warlog/core/state.hpp"
#include "warlog/replay/report.hpp"

namespace warlog::replay {

namespace {

constexpr std::string_view kVerbs[] = {
    "draw",   "forage", "return",  "stock",   "play",    "move",     "shift",   "ability",
    "burrow", "unburrow", "fire",  "charge",  "decline", "favor",    "combat",  "lost",
    "defeated", "recover", "pay",  "discard", "control", "fled",     "Morale",  "end",
    "Turn",   "Muster", "Warfare", "Attrition"};
constexpr std::string_view kCommands[] = {"board", "hand", "state", "findings", "help"};

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::vector<std::string> words(std::string_view line) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    const std::size_t start = i;
    while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i > start) out.emplace_back(line.substr(start, i - start));
  }
  return out;
}

std::string troop_flags(const core::Troop& t) {
  std::string out;
  if (t.has(core::kTroopLost)) out += " lost";
  if (t.has(core::kTroopBurrowed)) out += " burrowed";
  if (t.has(core::kTroopUnprovisioned)) out += " unprovisioned";
  return out;
}

std::string pile(const core::CardPile& p) {
  std::string out;
  for (const auto& [card, n] : p) {
    if (n <= 0) continue;
    if (!out.empty()) out += ", ";
    out += n == 1 ? card.str() : fmt::format("{} {}", n, card);
  }
  return out.empty() ? "-" : out;
}

int count(const core::CardPile& p) {
  int n = 0;
  for (const auto& [card, k] : p) n += k;
  return n;
}

std::string held(const std::vector<core::HeldCard>& cards) {
  std::string out;
  for (const auto& h : cards) out += (out.empty() ? "" : ", ") + h.card;
  return out.empty() ? "-" : out;
}

constexpr std::string_view kHelp =
    "Type one action or marker per line, in the notation (docs/notation.md):\n"
    "  Turn 3 | Morale 1 | Muster 1 | Warfare 2 | Attrition 1\n"
    "  draw \"Card\", \"Card\" | forage \"Card\" | play \"Card\" b1 | move b1 b2 | fire a1 c2 2\n"
    "  charge | decline | combat b2 -> c2 3; c2 -> b2 2 | pay b1, \"Gambit\" unpaid c1 | end 1 supremacy\n"
    "  2: draw \"Card\"   (a seat prefix: another seat acts)\n"
    "Each line is recorded once its commit is on disk (\"seq N recorded\"), then its findings.\n"
    "Commands that record nothing: board, hand 1, hand 2, state, findings, help. Tab completes.";

}  // namespace

std::optional<std::string> Recorder::Impl::command(std::string_view line) const {
  const std::vector<std::string> w = words(line);
  if (w.empty()) return std::nullopt;
  const std::string verb = lower(w.front());
  if (std::find(std::begin(kCommands), std::end(kCommands), verb) == std::end(kCommands)) return std::nullopt;
  if (verb == "help") return std::string(kHelp);
  if (verb == "state") return core::to_text(state);
  if (verb == "findings") {
    if (findings.empty()) return std::string("no findings so far");
    std::string out;
    for (const auto& f : findings) out += finding_text(f, seats);
    out.pop_back();
    return out;
  }
  if (verb == "hand") {
    if (w.size() != 2 || (w[1] != "1" && w[1] != "2")) return std::string("hand takes a seat: hand 1 or hand 2");
    const std::size_t s = w[1] == "1" ? 0 : 1;
    const core::SeatState& seat = state.seats[s];
    return fmt::format(
        "seat {} {} ({}): hand {}: {}\n  Army Deck {} card(s), discard {}, Homeland: {}, Gambits in play: {}", s + 1,
        seat.player, core::to_string(seat.allegiance), count(seat.hand), pile(seat.hand), count(seat.deck),
        count(seat.discard), held(seat.homeland), held(seat.gambits_in_play));
  }
  // board
  std::string out = fmt::format("battlefield {}x{}", static_cast<int>(state.cols), static_cast<int>(state.rows));
  bool any = false;
  for (std::size_t i = 0; i < state.grid.size(); ++i) {
    const auto& t = state.grid[i];
    if (!t) continue;
    any = true;
    const std::string who = t->owner < seats.size() ? seats[t->owner].player : "?";
    out += fmt::format("\n  {:<4}{:<24}{} ({})  damage {}{}", core::to_string(state.space_of(i)), t->card, who,
                       t->owner + 1, t->damage, troop_flags(*t));
  }
  if (!any) out += "\n  no cards on the battlefield";
  for (const auto& t : state.territories) {
    // Control is derived from the Troops beside it, never stored (rules › The Battlefield, R-017).
    const core::Seat by = core::territory_controller(state, t, *catalog, *ruleset);
    out += fmt::format("\n  Territory {} at {}: {} beneath, {}", t.card, core::to_string(t.space), t.beneath,
                       by == core::kNoSeat ? std::string("uncontrolled") : fmt::format("Controlled by seat {}", by + 1));
  }
  return out;
}

Completion Recorder::complete(std::string_view line) const {
  const Impl& m = *impl_;
  // The token being typed: from its opening quote, else from the last space.
  std::size_t start = 0;
  bool in_quote = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (in_quote) {
      if (c == '\\') ++i;
      else if (c == '"') in_quote = false;
      continue;
    }
    if (c == '"') {
      in_quote = true;
      start = i;
    } else if (std::isspace(static_cast<unsigned char>(c)) || c == ',' || c == ';' || c == '>') {
      start = i + 1;
    }
  }
  const std::string typed = lower(line.substr(start));
  std::vector<std::string> before = words(line.substr(0, start));
  // Punctuation between arguments is no argument.
  std::erase_if(before, [](const std::string& w) { return w == "->" || w == "," || w == ";"; });

  core::Seat acting = m.session.place().seat;
  if (!before.empty() && before.front().size() == 2 && before.front()[1] == ':') {
    acting = before.front()[0] == '1' ? 0 : before.front()[0] == '2' ? 1 : core::kNoSeat;
    before.erase(before.begin());
  }
  std::set<std::string> pool;
  auto cards_of = [&](const core::CardPile& p) {
    for (const auto& [card, n] : p) {
      if (n > 0) pool.insert("\"" + card + "\"");
    }
  };
  auto seats_acting = [&]() -> std::vector<std::size_t> {
    if (acting == core::kNoSeat) return {0, 1};
    return {acting};
  };
  auto spaces = [&](int owner_filter) {  // -1 every Troop, -2 empty spaces, else that seat's
    for (std::size_t i = 0; i < m.state.grid.size(); ++i) {
      const auto& t = m.state.grid[i];
      const bool keep = owner_filter == -2 ? !t : t && (owner_filter == -1 || t->owner == owner_filter);
      if (keep) pool.insert(core::to_string(m.state.space_of(i)));
    }
  };
  auto catalog = [&] {
    for (const auto& c : m.catalog->cards()) pool.insert("\"" + c.name + "\"");
  };

  if (before.empty()) {
    for (auto v : kVerbs) pool.emplace(v);
    for (auto c : kCommands) pool.emplace(c);
  } else {
    const std::string verb = lower(before.front());
    const std::size_t arg = before.size() - 1;  // arguments complete before this one
    const int own = acting == core::kNoSeat ? -1 : acting;
    const int other = acting == core::kNoSeat ? -1 : 1 - acting;
    if (verb == "play" || verb == "forage" || verb == "stock" || verb == "discard") {
      if (verb == "play" && arg >= 1) {
        spaces(-2);
      } else {
        for (std::size_t s : seats_acting()) cards_of(m.state.seats[s].hand);
      }
    } else if (verb == "draw") {
      for (std::size_t s : seats_acting()) cards_of(m.state.seats[s].deck);
      if (pool.empty()) catalog();
    } else if (verb == "return") {
      for (std::size_t s : seats_acting()) {
        for (const auto& h : m.state.seats[s].homeland) pool.insert("\"" + h.card + "\"");
      }
    } else if (verb == "move") {
      spaces(arg == 0 ? own : -2);
    } else if (verb == "fire") {
      if (arg < 2) spaces(arg == 0 ? own : other);
    } else if (verb == "control") {
      for (const auto& t : m.state.territories) pool.insert(core::to_string(t.space));
    } else if (verb == "hand") {
      pool = {"1", "2"};
    } else if (verb == "combat" || verb == "burrow" || verb == "unburrow" || verb == "lost" || verb == "defeated" ||
               verb == "fled" || verb == "recover" || verb == "ability" || verb == "charge" || verb == "shift" ||
               verb == "pay") {
      spaces(-1);
      if (verb == "pay") {
        for (std::size_t s : seats_acting()) {
          for (const auto& g : m.state.seats[s].gambits_in_play) pool.insert("\"" + g.card + "\"");
        }
      }
    }
    if (pool.empty() && !typed.empty() && typed.front() == '"') catalog();
  }
  Completion out;
  out.start = start;
  for (const std::string& c : pool) {
    if (lower(c).starts_with(typed)) out.candidates.push_back(c);
  }
  return out;
}

namespace {

// --- The answer text (answer_text) -------------------------------------

std::string seqs_text(const std::vector<core::Event>& events) {
  if (events.size() == 1) return fmt::format("seq {}", events.front().seq);
  return fmt::format("seqs {}..{}", events.front().seq, events.back().seq);
}

std::string findings_text(const Recorder& r, const std::vector<replay::LocatedFinding>& findings) {
  std::string out;
  for (const auto& f : findings) out += replay::finding_text(f, r.seats());
  return out;
}

// A finding of a line not recorded: the place it would be, without the seq
// it was never given ("  not recorded  turn  3 muster ...").
std::string held_findings_text(const Recorder& r, const std::vector<replay::LocatedFinding>& findings) {
  std::string out;
  for (const auto& f : findings) {
    std::string text = replay::finding_text(f, r.seats());
    const auto turn = text.find("  turn ");
    if (turn != std::string::npos) text.replace(0, turn, "  not recorded");
    out += text;
  }
  return out;
}

// Events stored by another recorder, one indented line each.
std::string events_text(const std::vector<core::Event>& events) {
  std::string out;
  for (const auto& ev : events) {
    // A turn's opening and the game's end belong to no seat: "seat 0" read
    // as a seat to a scorekeeper's trial.
    const std::string seat = ev.seat == core::kNoSeat ? std::string() : fmt::format(", seat {}", ev.seat + 1);
    out += fmt::format("  seq {} {} (turn {} {}{})\n", ev.seq, core::payload_name(ev.payload), ev.turn,
                       core::to_string(ev.phase), seat);
  }
  return out;
}

// What a backup crosses, one indented line each.
std::string crossing_text(const LineOutcome& o) {
  std::string out;
  for (const std::string& l : o.crossing) out += "  " + l + "\n";
  return out;
}

}  // namespace

std::string held_text(const Recorder& r, const LineOutcome& o) {
  return crossing_text(o) + held_findings_text(r, o.findings);
}

std::string confirmed_text(const Recorder& r, const LineOutcome& held, const LineOutcome& o) {
  const std::string whole = answer_text(r, o);
  if (o.status != LineStatus::Recorded || o.crossing != held.crossing ||
      findings_text(r, o.findings) != findings_text(r, held.findings)) {
    return whole;
  }
  // Shown once, above the question: not again under "recorded" (the trial's
  // --strict printed a held line's finding block twice).
  std::vector<std::string> shown;
  if (!o.crossing.empty()) shown.emplace_back("what it crosses");
  if (!o.findings.empty()) {
    shown.push_back(fmt::format("its {} finding{}", o.findings.size(), o.findings.size() == 1 ? "" : "s"));
  }
  std::string first = whole.substr(0, whole.find('\n'));
  if (shown.empty()) return first + "\n";
  const std::string what = shown.size() == 2 ? shown[0] + " and " + shown[1] : shown[0];
  return fmt::format("{} ({} {} shown above)\n", first, what,
                     shown.size() == 2 || o.findings.size() > 1 ? "are" : "is");
}

std::string followed_text(const Recorder& r, const Followed& f) {
  if (f.events.empty()) return {};
  return fmt::format("another recorder recorded {}:\n", seqs_text(f.events)) + events_text(f.events) +
         findings_text(r, f.findings);
}

std::string answer_text(const Recorder& r, const LineOutcome& o) {
  switch (o.status) {
    case LineStatus::Nothing: return "nothing to record (a blank line or a comment)\n";
    case LineStatus::Recorded:
      if (!o.no_effect.empty()) {
        // Recorded as typed, but the game does not take it: say so
        // first, not "recorded" alone.
        return fmt::format("{} recorded, with no effect: the game refuses this correction (LOG.correction says "
                           "why); the game stands as it was\n",
                           seqs_text(o.events)) +
               crossing_text(o) + findings_text(r, o.findings);
      }
      return fmt::format("{} recorded\n", seqs_text(o.events)) + crossing_text(o) + findings_text(r, o.findings);
    case LineStatus::Refused: {
      std::string out;
      for (const auto& e : o.errors) {
        out += fmt::format("refused at column {}: expected {}, found {}{}; nothing recorded\n", e.col, e.expected,
                           e.found, e.hint.empty() ? "" : fmt::format(" ({})", e.hint));
      }
      return out;
    }
    case LineStatus::Conflict: {
      return fmt::format("conflict: another recorder recorded {} first; nothing recorded, enter the line "
                         "again if it still stands\n",
                         o.events.empty() ? std::string("nothing") : seqs_text(o.events)) +
             events_text(o.events) + findings_text(r, o.findings);
    }
    case LineStatus::NeedsConfirm:
      if (!o.crossing.empty()) return "needs-confirm: a judge's backup; nothing recorded\n" + held_text(r, o);
      return "needs-confirm: this line breaks a rule; nothing recorded\n" + held_text(r, o);
    case LineStatus::Ended: return fmt::format("ended: {}; nothing recorded\n", o.message);
    case LineStatus::Command: return o.message + "\n";
    case LineStatus::AlreadyRecorded:
      return fmt::format("{} already recorded (a retry); nothing written\n", seqs_text(o.events)) +
             findings_text(r, o.findings);
  }
  return {};
}


}  // namespace warlog::replay
