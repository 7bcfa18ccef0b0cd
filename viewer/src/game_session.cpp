#include "game_session.hpp"

#include <algorithm>

namespace warlog::viewer {

Expected<SessionData> load_session(const replay::Archive& archive, core::GameId id) {
  SessionData data;
  auto game = archive.game(id);
  if (!game) return tl::unexpected(game.error());
  auto events = archive.events(id);
  if (!events) return tl::unexpected(events.error());
  auto catalog = archive.catalog_of(id);
  if (!catalog) return tl::unexpected(catalog.error());
  auto ruleset = archive.ruleset_of(id);
  if (!ruleset) return tl::unexpected(ruleset.error());
  auto audit = archive.audit(id);
  if (!audit) return tl::unexpected(audit.error());
  data.game = std::move(*game);
  data.events = std::move(*events);
  data.catalog = std::move(*catalog);
  data.ruleset = std::move(*ruleset);
  data.findings = std::move(audit->findings);
  return data;
}

GameSession::GameSession(SessionData data, QObject* parent) : QObject(parent), data_(std::move(data)) {
  for (std::size_t i = 0; i < data_.events.size(); ++i) {
    if (std::holds_alternative<core::PhaseStarted>(data_.events[i].payload)) phase_starts_.push_back(i);
  }
  if (!empty()) moment_ = seek(data_.events.front().seq);
}

core::Seq GameSession::first_seq() const noexcept { return empty() ? 0 : data_.events.front().seq; }
core::Seq GameSession::last_seq() const noexcept { return empty() ? 0 : data_.events.back().seq; }

std::vector<replay::LocatedFinding> GameSession::findings_here() const {
  std::vector<replay::LocatedFinding> out;
  for (const core::Finding& f : moment_.findings) {
    replay::LocatedFinding located;
    located.finding = f;
    located.turn = moment_.event.turn;
    located.phase = moment_.event.phase;
    located.seat = moment_.event.seat;
    if (const core::Rule* rule = core::find_rule(f.rule_id)) located.citation = rule->citation;
    out.push_back(std::move(located));
  }
  return out;
}

std::size_t GameSession::position_of(core::Seq seq) const noexcept {
  const auto& ev = data_.events;
  if (ev.empty()) return 0;
  // Seqs ascend; the first event after `seq`, then one back.
  auto it = std::upper_bound(ev.begin(), ev.end(), seq, [](core::Seq s, const core::Event& e) { return s < e.seq; });
  if (it == ev.begin()) return 0;
  return static_cast<std::size_t>(std::distance(ev.begin(), it)) - 1;
}

void GameSession::go_to(core::Seq seq) { move_to_position(position_of(seq)); }

void GameSession::step(int delta) {
  if (empty()) return;
  const auto last = static_cast<std::ptrdiff_t>(data_.events.size()) - 1;
  const auto target = std::clamp(static_cast<std::ptrdiff_t>(position_) + delta, std::ptrdiff_t{0}, last);
  move_to_position(static_cast<std::size_t>(target));
}

void GameSession::first() { move_to_position(0); }

void GameSession::last() {
  if (!empty()) move_to_position(data_.events.size() - 1);
}

void GameSession::next_phase() {
  auto it = std::upper_bound(phase_starts_.begin(), phase_starts_.end(), position_);
  if (it != phase_starts_.end()) move_to_position(*it);
}

void GameSession::previous_phase() {
  auto it = std::lower_bound(phase_starts_.begin(), phase_starts_.end(), position_);
  if (it != phase_starts_.begin()) move_to_position(*std::prev(it));
}

void GameSession::move_to_position(std::size_t position) {
  if (empty() || position >= data_.events.size() || position == position_) return;
  // Stepping forward by one, the moment we leave is the state before: free.
  replay::Moment next = seek(data_.events[position].seq);
  before_ = position == position_ + 1 ? std::move(moment_.state) : state_before(position);
  position_ = position;
  moment_ = std::move(next);
  emit moved(moment_.seq);
}

core::GameState GameSession::state_before(std::size_t position) const {
  if (position == 0) return {};
  return seek(data_.events[position - 1].seq).state;
}

replay::Moment GameSession::seek(core::Seq seq) const {
  const core::Context ctx{data_.catalog, data_.ruleset};
  return replay::moment_at(ctx, data_.events, seq);
}

}  // namespace warlog::viewer
