// Survey: one fold for findings, the phase outline and per-turn figures.

#include "warlog/replay/survey.hpp"

#include <algorithm>

#include "context.hpp"
#include "stream.hpp"
#include "warlog/core/corrections.hpp"
#include "warlog/core/fold_log.hpp"
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

// What fold_on changes, kept to put the survey back after an error. The
// findings and spans only grow (a refresh must not copy a list of hundreds
// of thousands), so their sizes and the open span are enough.
struct Undo {
  explicit Undo(const GameSurvey& s)
      : game(s.game),
        findings(s.findings.size()),
        spans(s.spans.size()),
        turns(s.turns.size()),
        events(s.events),
        state(s.state),
        times(s.times.mark()) {
    if (!s.spans.empty()) open_span = s.spans.back();
    if (!s.turns.empty()) open_turn = s.turns.back();
  }
  void restore(GameSurvey& s) {
    s.game = std::move(game);
    s.findings.truncate(findings);
    s.spans.resize(spans);
    if (spans > 0) s.spans.back() = open_span;
    s.turns.resize(turns);
    if (turns > 0) s.turns.back() = open_turn;
    s.events = events;
    s.state = std::move(state);
    s.times.restore(times);
  }
  GameSummary game;
  std::size_t findings, spans, turns;
  core::Seq events;
  core::GameState state;
  PhaseSpan open_span;
  TurnFigures open_turn;
  TimeLog::Mark times;
};

// Ends the log where the survey ends, as the audit does: the
// findings of its end at its last event, kept apart (`closing`) so that
// extending the survey drops them first. The survey's state stays open.
void close_survey(const core::Context& ctx, GameSurvey& survey) {
  std::vector<core::Finding> found;
  survey.closed = core::LogFold(ctx, survey.state).finish(found);
  const core::Phase phase = survey.spans.empty() ? core::Phase::Setup : survey.spans.back().phase;
  const std::uint16_t turn = survey.spans.empty() ? 0 : survey.spans.back().turn;
  for (const core::Finding& f : found) survey.findings.push_back(f, turn, phase, f.seat);
  survey.closing = found.size();
}

// Folds events from survey.events on, in one read transaction.
Expected<core::Seq> fold_on(const Archive& archive, GameSurvey& survey) {
  auto reader = archive.store().reader();
  if (!reader) return tl::unexpected(reader.error());
  auto meta = reader->game(survey.game.id);
  if (!meta) return tl::unexpected(meta.error());
  if (meta->event_count <= survey.events) return core::Seq{0};

  const core::Context ctx{*survey.catalog, *survey.ruleset};
  // The end found before is no end now: the log goes on.
  survey.findings.truncate(survey.findings.size() - survey.closing);
  survey.closing = 0;
  Undo undo(survey);  // all or nothing: the survey stays whole on an error
  const core::Seq before = survey.events;
  survey.game = summary_of(*meta);
  std::vector<core::Finding> found;
  std::uint16_t turn = survey.spans.empty() ? 0 : survey.spans.back().turn;
  bool corrected = false;
  auto n = reader->scan(survey.game.id, survey.events, meta->event_count, [&](const core::Event& ev) {
    if (core::is_correction(ev.payload)) {
      corrected = true;  // surveyed again below, whole
      return false;
    }
    if (ev.turn != turn && survey.events > 0) record_turn(survey, turn, survey.events - 1);
    turn = ev.turn;
    found.clear();
    core::apply(ctx, survey.state, ev, found);
    survey.times.see(ev, found);  // its LOG.time note, as the audit gives it
    for (const core::Finding& f : found) {
      survey.findings.push_back(f, ev.turn, ev.phase, f.seat != core::kNoSeat ? f.seat : ev.seat);
    }
    extend_spans(survey.spans, ev);
    survey.events = ev.seq + 1;
    return true;
  });
  if (!n) {
    undo.restore(survey);
    close_survey(ctx, survey);
    return tl::unexpected(n.error());
  }
  if (corrected) {
    // A correction may revise the findings of events before it (struck
    // ones become notes, a void refolds what followed its target): the
    // survey is taken again from the start, through corrections.hpp. The
    // findings list is rebuilt, not only grown.
    auto events = detail::read_stream(*reader, survey.game.id, meta->event_count);
    if (!events) {
      undo.restore(survey);
      close_survey(ctx, survey);
      return tl::unexpected(events.error());
    }
    survey.findings.truncate(0);
    survey.spans.clear();
    survey.turns.clear();
    turn = 0;
    core::CorrectedFold f(ctx, *events);
    while (!f.done()) {
      const core::Event& ev = (*events)[f.position()];
      if (ev.turn != turn && f.position() > 0) record_turn(survey, turn, (*events)[f.position() - 1].seq);
      turn = ev.turn;
      found.clear();
      f.step(found);
      survey.state = f.state();
      extend_spans(survey.spans, ev);
      survey.events = ev.seq + 1;
    }
    // The recorded times over the whole stream, as the audit reads them
    // after a correction: their notes among the findings, in seq order.
    survey.times = TimeLog{};
    std::vector<core::Finding> all = f.findings();
    for (const core::Event& ev : *events) survey.times.see(ev, all);
    std::stable_sort(all.begin(), all.end(), [](const core::Finding& a, const core::Finding& b) { return a.seq < b.seq; });
    for (const core::Finding& x : all) {
      const core::Event* ev = x.seq < events->size() ? &(*events)[x.seq] : nullptr;
      survey.findings.push_back(x, ev ? ev->turn : 0, ev ? ev->phase : core::Phase::Setup,
                                ev ? ev->seat : core::kNoSeat);
    }
    survey.struck = struck_events(*events);
    if (survey.events > 0) record_turn(survey, turn, survey.events - 1);
    close_survey(ctx, survey);
    return survey.events - before;
  }
  if (survey.events > 0) record_turn(survey, turn, survey.events - 1);
  close_survey(ctx, survey);
  return survey.events - before;
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
