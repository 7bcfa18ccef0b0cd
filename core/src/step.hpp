#pragma once
// The fold's working context for one event: the state, the event, and the
// findings it reports. Every rule check is a short early return on a Step.

#include <string>
#include <string_view>
#include <vector>

#include "warlog/core/fold.hpp"

namespace warlog::core::detail {

// The most findings one event records; the rest are counted and summed up
// in one more finding (apply). A legal event has a handful; a hostile one
// (a GameCreated with 16,000 Territories off the grid, 105 bytes packed) had
// one per element, and the catalog hint of each unknown card cost an edit
// distance against every card: seconds per event (fuzz target "event",
// fuzz/corpus/event/timeout-16000-territories).
inline constexpr std::size_t kMaxFindingsPerEvent = 64;

struct Step {
  const Context& ctx;
  GameState& s;
  const Event& ev;
  std::vector<Finding>& out;
  std::size_t first = 0;                  // out's size before this event
  mutable std::size_t dropped = 0;        // findings past kMaxFindingsPerEvent
  mutable std::string_view dropped_rule;  // the rule of the first one dropped

  // Records a finding of `rule` (an id from rule_ids.hpp) at this event, or
  // counts it once the event has kMaxFindingsPerEvent.
  void report(std::string_view rule, std::string message) const;
  // The same for a breach by `seat` that concerns event `concerns` and
  // became certain at this event (a phase part closing).
  void report_for(Seat seat, Seq concerns, std::string_view rule, std::string message) const;
  // True once this event has recorded kMaxFindingsPerEvent findings.
  [[nodiscard]] bool full() const noexcept { return out.size() - first >= kMaxFindingsPerEvent; }

  // The acting seat's state, or nullptr (and a LOG.actor finding) when the
  // event's seat is not a seat of this game.
  [[nodiscard]] SeatState* actor() const;

  // The catalog card, or nullptr (and a LOG.unknown-card finding).
  [[nodiscard]] const Card* card(CardName name) const;

  // True when `sp` is on the grid; else a LOG.space finding naming `what`.
  [[nodiscard]] bool on_grid(Space sp, std::string_view what) const;

  // The card at `sp`, or nullptr (and a LOG.space or LOG.no-troop finding).
  [[nodiscard]] Troop* troop_at(Space sp) const;

  // Removes one `card` from `pile`; false (and a LOG.zone finding naming
  // `zone`) when it is not there.
  bool take(CardPile& pile, CardName card, std::string_view zone) const;

  // True when the event happens in `phase`; else a LOG.phase finding.
  [[nodiscard]] bool in_phase(Phase phase, std::string_view action) const;

  // True when the event's seat is the seat whose part of the phase it is.
  [[nodiscard]] bool by_active(std::string_view action) const;

  [[nodiscard]] const std::string& player(Seat seat) const;
};

void add(CardPile& pile, CardName card, int n = 1);

// Handlers, one per payload; defined beside the rules they enforce.
void on(const Step&, const GameCreated&);
void on(const Step&, const ArmyRegistered&);
void on(const Step&, const TurnStarted&);
void on(const Step&, const MoraleChecked&);
void on(const Step&, const PhaseStarted&);
void on(const Step&, const GameEnded&);
void on(const Step&, const CardsDrawn&);
void on(const Step&, const Foraged&);
void on(const Step&, const ReturnedFromHomeland&);
void on(const Step&, const GambitStocked&);
void on(const Step&, const CardPlayed&);
void on(const Step&, const TroopMoved&);
void on(const Step&, const TroopsShifted&);
void on(const Step&, const AbilityUsed&);
void on(const Step&, const TroopBurrowed&);
void on(const Step&, const TroopUnburrowed&);
void on(const Step&, const ShotteFired&);
void on(const Step&, const ChargeDeclared&);
void on(const Step&, const ChargeDeclined&);
void on(const Step&, const LocalFavorUsed&);
void on(const Step&, const CombatResolved&);
void on(const Step&, const TroopLost&);
void on(const Step&, const TroopDefeated&);
void on(const Step&, const LostTroopRecovered&);
void on(const Step&, const ProvisionsPaid&);
void on(const Step&, const CardsDiscarded&);
void on(const Step&, const TerritoryControlTaken&);
void on(const Step&, const TroopFled&);

// Moves the card on `from` to `to` for the event's seat, reporting every
// Movement rule it breaks. A Troop moves once per phase: a second move is a
// finding of `once_rule`, the rule of the phase's own moves (Muster step c,
// the post-combat move, Attrition step 1).
void move_troop(const Step& st, Space from, Space to, std::string_view once_rule);

// True (and a MUS-movement.territory finding about `what`) when a Territory
// lies on `to` and the ruleset keeps cards off it (rulings R-042): the card
// then stays where it was, as for a space a card holds.
bool onto_territory(const Step& st, Space to, std::string_view what);

// Movement outside the Muster Phase (rules/warfare.cpp, rules/attrition.cpp).
void post_combat_move(const Step& st, const TroopMoved& m);
void attrition_move(const Step& st, const TroopMoved& m);
void off_battlefield_ability(const Step& st, const AbilityUsed& a);
// True when a card's text or a Local Favor option speaks of drawing.
bool says_draw(std::string_view text);

// Deck Construction checks (rules/deck.cpp).
void check_army(const Step& st, Seat seat, const ArmyRegistered& a);
void check_renowned(const Step& st, const Card& card);

// Removes the card on `sp` from the battlefield as destroyed: beneath an
// adjacent Territory (Attrition › 4), else to its owner's discard pile; owes
// wages when it entered or un-Burrowed this turn (Troop Wages Rule).
void defeat(const Step& st, Space sp);
// The same for a Troop that flees (Shocked, WIP empty deck): it leaves the
// battlefield without counting toward a Territory (rulings R-016).
void flee(const Step& st, Space sp);

// Warfare › C.: every eligible combat of the Charge has been fought, checked
// once, at the first post-combat move or when the Warfare part closes.
void check_every_combat(const Step& st);

// Attrition › 2 and › 4 (rules/attrition.cpp).
void check_supremacy(const Step& st);
// Reports the Troops destroyed beside several Territories this turn whose
// Territory the log never named (LOG.beneath, R-071); at TurnStarted and
// GameEnded, before the Threshold is counted.
void settle_placements(const Step& st);
void end_of_turn(const Step& st);
// Under final_control_any_moment (rulings R-074's option): a due Territory
// Controlled after any event of the final turn is answered there and then.
// Called by apply() after every event; does nothing under the default.
void answer_by_control(const Step& st);

// Checks that close a seat's part of a phase (e.g. it drew exactly 2).
// Called before a PhaseStarted, TurnStarted or GameEnded changes the part.
void close_part(const Step&);

}  // namespace warlog::core::detail
