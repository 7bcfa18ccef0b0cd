#include "game_session.hpp"

#include <algorithm>

#include "warlog/core/fold_log.hpp"
#include "warlog/replay/rests_on.hpp"

namespace warlog::viewer {

Expected<std::unique_ptr<GameSession>> GameSession::open(std::shared_ptr<const replay::Archive> archive,
                                                         core::GameId id, const replay::AuditOptions& overrides) {
  if (!archive) return make_error(ErrorCode::InvalidArgument, "no store open");
  auto survey = replay::survey_game(*archive, id, overrides);
  if (!survey) return tl::unexpected(survey.error());
  replay::SeekOptions options;
  options.overrides = overrides;
  options.repair = false;  // the viewer reads; `warlog snapshot` writes
  auto seeker = replay::Seeker::open(*archive, id, std::move(options));
  if (!seeker) return tl::unexpected(seeker.error());
  std::unique_ptr<GameSession> session(new GameSession(std::move(archive), std::move(*survey), std::move(*seeker)));
  session->compute_rests_on();
  if (!session->empty()) {
    auto here = session->seeker_.seek(0);
    if (!here) return tl::unexpected(here.error());
    session->here_ = std::move(*here);
  }
  return session;
}

GameSession::GameSession(std::shared_ptr<const replay::Archive> archive, replay::GameSurvey survey,
                         replay::Seeker seeker)
    : archive_(std::move(archive)),
      seeker_(std::move(seeker)),
      survey_(std::make_shared<replay::GameSurvey>(std::move(survey))) {}

GameSession::~GameSession() = default;

void GameSession::compute_rests_on() {
  rests_on_.reset();
  const replay::FindingList& list = survey_->findings;
  if (survey_->events > kRestsOnMaxEvents) return;
  if (list.violations() == 0) {  // nothing to rest on: no fold
    auto none = std::make_shared<replay::RestsOn>();
    none->findings.resize(list.size());
    rests_on_ = std::move(none);
    return;
  }
  auto events = replay::read_events(*archive_, survey_->game.id, 0, survey_->events);
  if (!events) return;  // the survey read them a moment ago; a failure here shows no rests_on
  std::vector<replay::LocatedFinding> located;
  located.reserve(list.size());
  for (std::size_t i = 0; i < list.size(); ++i) located.push_back(list.located(i));
  const core::Context ctx{*survey_->catalog, *survey_->ruleset};
  // Against the state as the audit ends it: a log that ends open is closed
  // so a result derived at its end is weighed as the audit weighs
  // it. The survey kept that state when it closed the log: no second fold.
  rests_on_ = std::make_shared<const replay::RestsOn>(replay::rests_on(ctx, *events, located, survey_->closed));
}

Expected<std::vector<core::Event>> GameSession::events(core::Seq from, core::Seq to) const {
  return replay::read_events(*archive_, survey_->game.id, from, std::min(to, survey_->events));
}

std::vector<replay::LocatedFinding> GameSession::findings_here() const {
  std::vector<replay::LocatedFinding> out;
  if (empty()) return out;
  const replay::Moment& m = here_.moment;
  for (const core::Finding& f : m.findings) {
    replay::LocatedFinding located;
    located.finding = f;
    located.turn = m.event.turn;
    located.phase = m.event.phase;
    located.seat = m.event.seat;
    if (const core::Rule* rule = core::find_rule(f.rule_id)) located.citation = rule->citation;
    out.push_back(std::move(located));
  }
  return out;
}

std::size_t GameSession::span_of(core::Seq seq) const noexcept {
  const auto& spans = survey_->spans;
  auto it = std::upper_bound(spans.begin(), spans.end(), seq,
                             [](core::Seq s, const replay::PhaseSpan& p) { return s < p.first; });
  if (it == spans.begin()) return 0;
  return static_cast<std::size_t>(std::distance(spans.begin(), it)) - 1;
}

void GameSession::go_to(core::Seq seq) {
  if (empty()) return;
  seq = std::min(seq, last_seq());
  if (seq == here_.moment.seq) return;
  auto next = seeker_.seek(seq);
  if (!next) {
    emit failed(QString::fromStdString(next.error().message));
    return;
  }
  here_ = std::move(*next);
  emit moved(here_.moment.seq);
}

void GameSession::step(int delta) {
  if (empty()) return;
  const auto target = std::clamp(static_cast<long long>(seq()) + delta, 0LL, static_cast<long long>(last_seq()));
  go_to(static_cast<core::Seq>(target));
}

void GameSession::first() { go_to(first_seq()); }
void GameSession::last() { go_to(last_seq()); }

void GameSession::next_phase() {
  const std::size_t s = span_of(seq());
  if (s + 1 < survey_->spans.size()) go_to(survey_->spans[s + 1].first);
}

void GameSession::previous_phase() {
  if (empty()) return;
  const std::size_t s = span_of(seq());
  if (survey_->spans[s].first < seq()) {
    go_to(survey_->spans[s].first);
  } else if (s > 0) {
    go_to(survey_->spans[s - 1].first);
  }
}

void GameSession::next_turn() {
  if (empty()) return;
  const auto& spans = survey_->spans;
  const std::uint16_t turn = spans[span_of(seq())].turn;
  for (std::size_t s = span_of(seq()) + 1; s < spans.size(); ++s) {
    if (spans[s].turn != turn) {
      go_to(spans[s].first);
      return;
    }
  }
}

void GameSession::previous_turn() {
  if (empty()) return;
  const auto& spans = survey_->spans;
  // The first span of the turn holding `s`.
  auto turn_start = [&](std::size_t s) {
    while (s > 0 && spans[s - 1].turn == spans[s].turn) --s;
    return s;
  };
  const std::size_t start = turn_start(span_of(seq()));
  if (spans[start].first < seq()) {
    go_to(spans[start].first);
  } else if (start > 0) {
    go_to(spans[turn_start(start - 1)].first);
  }
}

Expected<core::Seq> GameSession::refresh() {
  const core::Seq old_count = survey_->events;
  // In place: the findings list grows at its end, where models sharing it
  // do not look until grew() tells them its new size.
  auto added = replay::extend_survey(*archive_, *survey_);
  if (!added) {
    emit failed(QString::fromStdString(added.error().message));
    return added;
  }
  if (*added == 0) return added;
  compute_rests_on();
  if (old_count == 0) {
    // The first events of a game created empty: stand at the first.
    if (auto here = seeker_.seek(0); here) here_ = std::move(*here);
  }
  emit grew(old_count, survey_->events);
  if (old_count == 0) emit moved(here_.moment.seq);
  return added;
}

}  // namespace warlog::viewer
