// Survey: one fold for findings, the phase outline and per-turn figures.

#include "warlog/replay/survey.hpp"

#include <algorithm>

#include "context.hpp"
#include "warlog/store/store.hpp"

namespace warlog::replay {

namespace {

TurnFigures figures_of(const core::GameState& s, std::uint16_t turn, core::Seq last, const core::Catalog& catalog,
                       const core::Ruleset& rules) {
  TurnFigures t;
  t.turn = turn;
  t.last = last;
  for (core::Seat seat = 0; seat < core::kSeatCount; ++seat) {
    t.seats[seat] = SeatFigures{core::morale_total(s, seat, catalog), core::provision_supply(s, seat, catalog, rules),
                                core::provision_cost(s, seat, catalog, rules)};
  }
  return t;
}

// Records the figures of the turn that `last` ended (or reached), replacing
// an earlier reading of the same turn.
void record_turn(GameSurvey& s, std::uint16_t turn, core::Seq last) {
  if (turn == 0) return;
  TurnFigures t = figures_of(s.state, turn, last, *s.catalog, *s.ruleset);
  if (!s.turns.empty() && s.turns.back().turn == turn) {
    s.turns.back() = t;
  } else {
    s.turns.push_back(t);
  }
}

void extend_spans(std::vector<PhaseSpan>& spans, const core::Event& ev) {
  const bool phase_started = std::holds_alternative<core::PhaseStarted>(ev.payload);
  if (!spans.empty()) {
    PhaseSpan& open = spans.back();
    if (!phase_started && ev.turn == open.turn && ev.phase == open.phase) {
      open.last = ev.seq;
      return;
    }
  }
  PhaseSpan span;
  span.first = span.last = ev.seq;
  span.turn = ev.turn;
  span.phase = ev.phase;
  if (ev.turn == 0 && ev.phase == core::Phase::Setup) {
    span.kind = SpanKind::Setup;
  } else if (std::holds_alternative<core::TurnStarted>(ev.payload)) {
    span.kind = SpanKind::TurnStart;
  } else {
    span.kind = SpanKind::Phase;
    if (phase_started) span.seat = ev.seat;
  }
  spans.push_back(span);
}

// Folds events from survey.events on, in one read transaction.
Expected<core::Seq> fold_on(const Archive& archive, GameSurvey& survey) {
  auto reader = archive.store().reader();
  if (!reader) return tl::unexpected(reader.error());
  auto meta = reader->game(survey.game.id);
  if (!meta) return tl::unexpected(meta.error());
  if (meta->event_count <= survey.events) return core::Seq{0};

  GameSurvey next = survey;  // all or nothing: the survey stays whole on an error
  next.game = summary_of(*meta);
  const core::Context ctx{*next.catalog, *next.ruleset};
  std::vector<core::Finding> found;
  std::uint16_t turn = next.spans.empty() ? 0 : next.spans.back().turn;
  auto n = reader->scan(next.game.id, next.events, meta->event_count, [&](const core::Event& ev) {
    if (ev.turn != turn && next.events > 0) record_turn(next, turn, next.events - 1);
    turn = ev.turn;
    found.clear();
    core::apply(ctx, next.state, ev, found);
    locate_findings(found, ev, next.findings);
    extend_spans(next.spans, ev);
    next.events = ev.seq + 1;
    return true;
  });
  if (!n) return tl::unexpected(n.error());
  if (next.events > 0) record_turn(next, turn, next.events - 1);
  const core::Seq added = next.events - survey.events;
  survey = std::move(next);
  return added;
}

}  // namespace

Expected<GameSurvey> survey_game(const Archive& archive, core::GameId id, const AuditOptions& options) {
  auto game = archive.game(id);
  if (!game) return tl::unexpected(game.error());
  GameSurvey survey;
  survey.game = *game;
  if (options.catalog) {
    survey.catalog = std::make_shared<const core::Catalog>(*options.catalog);
  } else {
    auto c = archive.catalog_by_hash(game->catalog_hash);
    if (!c) return tl::unexpected(c.error());
    survey.catalog = std::move(*c);
  }
  if (options.ruleset) {
    survey.ruleset = std::make_shared<const core::Ruleset>(*options.ruleset);
  } else {
    auto r = archive.ruleset_by_hash(game->ruleset_hash);
    if (!r) return tl::unexpected(r.error());
    survey.ruleset = std::move(*r);
  }
  auto folded = fold_on(archive, survey);
  if (!folded) return tl::unexpected(folded.error());
  return survey;
}

Expected<core::Seq> extend_survey(const Archive& archive, GameSurvey& survey) { return fold_on(archive, survey); }

Expected<std::vector<core::Event>> read_events(const Archive& archive, core::GameId id, core::Seq from, core::Seq to) {
  auto reader = archive.store().reader();
  if (!reader) return tl::unexpected(reader.error());
  std::vector<core::Event> out;
  if (to > from) out.reserve(static_cast<std::size_t>(std::min<core::Seq>(to - from, 4096)));
  auto n = reader->scan(id, from, to, [&](const core::Event& ev) {
    out.push_back(ev);
    return true;
  });
  if (!n) return tl::unexpected(n.error());
  return out;
}

}  // namespace warlog::replay
