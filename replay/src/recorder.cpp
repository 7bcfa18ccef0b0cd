// replay::Recorder (recorder.hpp): one line in, its events durable, its
// findings out. The commands and completion are in recorder_view.cpp.

#include "warlog/replay/recorder.hpp"

#include <sys/random.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fmt/format.h>

#include "context.hpp"
#include "recorder_impl.hpp"
#include "sources.hpp"
#include "warlog/core/corrections.hpp"
#include "warlog/core/text_file.hpp"
#include "warlog/events/codec.hpp"
#include "warlog/replay/corrections.hpp"
#include "warlog/store/store.hpp"

namespace warlog::replay {

std::string_view to_string(LineStatus s) noexcept {
  switch (s) {
    case LineStatus::Recorded: return "ok";
    case LineStatus::Refused: return "refused";
    case LineStatus::Conflict: return "conflict";
    case LineStatus::NeedsConfirm: return "needs-confirm";
    case LineStatus::Ended: return "ended";
    case LineStatus::Command: return "command";
    case LineStatus::AlreadyRecorded: return "already-recorded";
  }
  return "?";
}

namespace {

// The committing process's clock, ms since the Unix epoch UTC.
std::int64_t now_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

Expected<std::string> random_uuid() {
  std::string out(16, '\0');
  std::size_t got = 0;
  while (got < out.size()) {
    const ssize_t n = ::getrandom(out.data() + got, out.size() - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return make_error(ErrorCode::IoError, fmt::format("getrandom: {}", std::strerror(errno)));
    got += static_cast<std::size_t>(n);
  }
  return out;
}

// What may still be appended after a GameEnded (issue 16): a judge's backup,
// or a void of the GameEnded itself. Both are corrections; whether one is
// legal there is the fold's to say (LOG.correction, docs/rulings.md R-066),
// so a refused one is recorded with its finding, as any violation is.
bool passes_after_end(const core::Event& ev) { return core::is_correction(ev.payload); }

}  // namespace

void Recorder::Impl::take(const core::Event& ev, std::vector<LocatedFinding>* out) {
  events.push_back(ev);
  if (core::is_correction(ev.payload)) corrected = true;
  if (corrected) {
    std::vector<core::Finding> last;
    refold(&last, core::is_correction(ev.payload));
    if (out != nullptr) locate_findings(last, ev, *out);
    session.observe(ev);
    return;
  }
  std::vector<core::Finding> found;
  core::apply(core::Context{*catalog, *ruleset}, state, ev, found);
  const std::size_t before = findings.size();
  locate_findings(found, ev, findings);
  if (out != nullptr) out->insert(out->end(), findings.begin() + static_cast<std::ptrdiff_t>(before), findings.end());
  session.observe(ev);
  if (std::holds_alternative<core::GameEnded>(ev.payload) && !ended_at) ended_at = ev.seq;
}

void Recorder::Impl::refold(std::vector<core::Finding>* last, bool context) {
  core::CorrectedFold fold(core::Context{*catalog, *ruleset}, events);
  std::vector<core::Finding> step;
  while (!fold.done()) {
    step.clear();
    fold.step(step);
  }
  if (last != nullptr) *last = std::move(step);
  state = fold.state();
  findings.clear();
  locate_all(fold.findings(), events, findings);
  ended_at.reset();
  const auto& marks = fold.marks();
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (marks[i].standing != core::Standing::Effective) continue;
    // The notation's context as the game now stands: a backup returns the
    // turn, phase and acting seat to before its target.
    if (context) session.observe(events[i]);
    if (std::holds_alternative<core::GameEnded>(events[i].payload) && !ended_at) ended_at = events[i].seq;
  }
}

Recorder::Impl::Preview Recorder::Impl::preview(std::span<const core::Event> more) const {
  Preview p;
  const bool correcting = corrected || std::any_of(more.begin(), more.end(), [](const core::Event& ev) {
                            return core::is_correction(ev.payload);
                          });
  std::vector<core::Finding> raw;
  if (!correcting) {
    p.state = state;
    for (const core::Event& ev : more) {
      raw.clear();
      core::apply(core::Context{*catalog, *ruleset}, p.state, ev, raw);
      locate_findings(raw, ev, p.found);
    }
    return p;
  }
  std::vector<core::Event> all = events;
  all.insert(all.end(), more.begin(), more.end());
  core::CorrectedFold fold(core::Context{*catalog, *ruleset}, all);
  while (!fold.done()) {
    const std::size_t i = fold.position();
    raw.clear();
    fold.step(raw);
    if (i >= events.size()) locate_findings(raw, all[i], p.found);
  }
  p.state = fold.state();
  return p;
}

Recorder::Recorder(std::unique_ptr<Impl> impl) noexcept : impl_(std::move(impl)) {}
Recorder::Recorder(Recorder&&) noexcept = default;
Recorder& Recorder::operator=(Recorder&&) noexcept = default;
Recorder::~Recorder() = default;

tl::expected<Recorder, ImportFailure> Recorder::create(Archive& archive, const std::string& header_path,
                                                       const ImportOptions& options) {
  auto fail = [](Error e) { return tl::unexpected(ImportFailure{std::move(e), {}}); };
  auto text = core::read_text_file(header_path, core::kMaxGameFileBytes, "header file");
  if (!text) return fail(text.error());
  auto sources = load_sources(archive.store(), header_path, *text, options);
  if (!sources) return fail(sources.error());
  auto session = core::NotationSession::from_header(*text, header_path, sources->catalog, sources->ruleset->hash,
                                                    sources->load_deck);
  if (!session) {
    return tl::unexpected(ImportFailure{Error{ErrorCode::InvalidArgument, "notation errors"}, std::move(session.error())});
  }
  std::vector<core::Event> setup = session->setup_events();
  auto uuid = random_uuid();
  if (!uuid) return fail(uuid.error());
  std::get<core::GameCreated>(setup.front().payload).game_uuid = std::move(*uuid);
  const std::int64_t at = now_ms();
  for (core::Event& ev : setup) ev.recorded_at_ms = at;
  // Blobs first: a game never names a catalog the store lacks.
  if (auto h = archive.store().put_blob(store::BlobKind::Catalog, sources->catalog_text); !h) return fail(h.error());
  if (auto h = archive.store().put_blob(store::BlobKind::Ruleset, sources->ruleset_text); !h) return fail(h.error());
  auto id = archive.store().import_game(setup, store::Durability::Sync);
  if (!id) return fail(id.error());

  auto impl = std::make_unique<Impl>(Impl{&archive, *id, sources->catalog, sources->ruleset, std::move(*session)});
  const auto& created = std::get<core::GameCreated>(setup.front().payload);
  impl->seats = created.seats;
  std::vector<core::Finding> found;
  for (core::Event& ev : setup) {
    ev.game = *id;
    found.clear();
    core::apply(core::Context{*impl->catalog, *impl->ruleset}, impl->state, ev, found);
    locate_findings(found, ev, impl->findings);
    impl->events.push_back(ev);
  }
  return Recorder(std::move(impl));
}

Expected<Recorder> Recorder::open(Archive& archive, core::GameId game) {
  auto summary = archive.game(game);
  if (!summary) return tl::unexpected(summary.error());
  auto catalog = archive.catalog_by_hash(summary->catalog_hash);
  if (!catalog) return tl::unexpected(Error{catalog.error().code, fmt::format("game {}: {}", game, catalog.error().message)});
  auto ruleset = archive.ruleset_by_hash(summary->ruleset_hash);
  if (!ruleset) return tl::unexpected(Error{ruleset.error().code, fmt::format("game {}: {}", game, ruleset.error().message)});
  auto events = archive.events(game);
  if (!events) return tl::unexpected(events.error());
  auto session = core::NotationSession::resume(std::span(*events).first(1), fmt::format("game {}", game), *catalog);
  if (!session) return tl::unexpected(session.error());
  auto impl = std::make_unique<Impl>(Impl{&archive, game, *catalog, *ruleset, std::move(*session)});
  impl->seats = summary->seats;
  if (core::has_corrections(*events)) {
    // One corrected fold of the whole stream, not one per event.
    impl->events = std::move(*events);
    impl->corrected = true;
    impl->refold(nullptr, true);
    if (!impl->events.empty()) impl->session.observe(impl->events.back());  // the next seq
  } else {
    for (const core::Event& ev : *events) impl->take(ev, nullptr);
  }
  return Recorder(std::move(impl));
}

PreparedLine Recorder::prepare(std::string_view line, Violations violations) {
  Impl& m = *impl_;
  PreparedLine p;
  p.expected_seq = m.session.next_seq();
  LineOutcome& out = p.outcome;
  if (auto shown = m.command(line)) {
    out.status = LineStatus::Command;
    out.message = std::move(*shown);
    return p;
  }

  core::LineResult parsed = m.session.parse(line);
  if (!parsed.ok()) {
    out.status = LineStatus::Refused;
    out.errors = std::move(parsed.errors);
    return p;
  }
  if (parsed.events.empty()) return p;  // a blank line or a comment: nothing to record
  if (m.ended_at) {
    for (const core::Event& ev : parsed.events) {
      if (passes_after_end(ev)) continue;
      out.status = LineStatus::Ended;
      out.message = fmt::format("game {} ended at seq {}: call a judge", m.game, *m.ended_at);
      return p;
    }
  }

  const std::int64_t at = now_ms();
  for (core::Event& ev : parsed.events) {
    ev.game = m.game;
    ev.recorded_at_ms = at;
  }
  // Folded on a copy: the kept state moves only once the commit returned.
  Impl::Preview trial = m.preview(parsed.events);
  std::vector<LocatedFinding> found = std::move(trial.found);
  const bool violates = std::any_of(found.begin(), found.end(), [](const LocatedFinding& f) {
    return f.finding.severity == core::Severity::Violation;
  });
  // A judge's backup says what it crosses before it is recorded.
  for (const core::Event& ev : parsed.events) {
    const auto* backup = std::get_if<core::BackupTo>(&ev.payload);
    if (backup == nullptr) continue;
    auto crossing = backup_crossing(m.events, backup->target);
    if (!crossing) continue;  // a target the fold refuses: its LOG.correction finding says why
    out.crossing.push_back(fmt::format("a backup to seq {} crosses {} event(s) still standing:", crossing->target,
                                       crossing->events));
    for (const Crossed& c : crossing->crossed) {
      out.crossing.push_back(fmt::format("  seq {} {}: {} {}", c.seq,
                                         c.seat < m.seats.size() ? m.seats[c.seat].player : std::string("the table"),
                                         to_string(c.kind), c.what));
    }
    if (crossing->crossed.empty()) out.crossing.push_back("  no card drawn, no shuffle, nothing hidden revealed");
  }
  out.events = std::move(parsed.events);
  out.findings = std::move(found);
  if ((!out.crossing.empty() && violations != Violations::Record) || (violations == Violations::Hold && violates)) {
    out.status = LineStatus::NeedsConfirm;
    return p;
  }
  p.append = true;
  return p;
}

void Recorder::committed(const PreparedLine& p) {
  for (const core::Event& ev : p.outcome.events) impl_->take(ev, nullptr);
}

Expected<LineOutcome> Recorder::conflicted() {
  // Another recorder got there first: learn what it recorded; this line
  // is not recorded (the caller may enter it again, in the new context).
  Impl& m = *impl_;
  auto reader = m.archive->store().reader();
  if (!reader) return tl::unexpected(reader.error());
  std::vector<core::Event> theirs;
  auto n = reader->scan(m.game, m.session.next_seq(), store::kEndSeq, [&theirs](const core::Event& ev) {
    theirs.push_back(ev);
    return true;
  });
  if (!n) return tl::unexpected(n.error());
  LineOutcome out;
  out.status = LineStatus::Conflict;
  for (const core::Event& ev : theirs) m.take(ev, &out.findings);
  out.events = std::move(theirs);
  return out;
}

std::optional<LineOutcome> Recorder::already_recorded(std::string_view line, core::Seq expected) const {
  const Impl& m = *impl_;
  if (expected == 0 || expected >= m.events.size()) return std::nullopt;
  // The notation's context as it stood at `expected`, as open() rebuilds it.
  const std::span<const core::Event> before = std::span(m.events).first(expected);
  auto session = core::NotationSession::resume(before.first(1), fmt::format("game {}", m.game), m.catalog);
  if (!session) return std::nullopt;
  if (core::has_corrections(before)) {
    core::CorrectedFold fold(core::Context{*m.catalog, *m.ruleset}, before);
    std::vector<core::Finding> step;
    while (!fold.done()) {
      step.clear();
      fold.step(step);
    }
    for (std::size_t i = 0; i < before.size(); ++i) {
      if (fold.marks()[i].standing == core::Standing::Effective) session->observe(before[i]);
    }
    session->observe(before.back());  // the next seq
  } else {
    for (const core::Event& ev : before) session->observe(ev);
  }
  core::LineResult parsed = session->parse(line);
  if (!parsed.ok() || parsed.events.empty() || expected + parsed.events.size() > m.events.size()) return std::nullopt;
  LineOutcome out;
  out.status = LineStatus::AlreadyRecorded;
  for (std::size_t i = 0; i < parsed.events.size(); ++i) {
    core::Event retried = parsed.events[i];
    core::Event stored = m.events[expected + i];
    retried.game = stored.game;
    retried.recorded_at_ms = 0;
    stored.recorded_at_ms = 0;
    const core::Seq seq = expected + i;
    if (events::encode_event(retried, seq) != events::encode_event(stored, seq)) return std::nullopt;
    out.events.push_back(m.events[expected + i]);
  }
  const core::Seq end = expected + parsed.events.size();
  for (const LocatedFinding& f : m.findings) {
    if (f.finding.seq >= expected && f.finding.seq < end) out.findings.push_back(f);
  }
  return out;
}

Expected<LineOutcome> Recorder::enter(std::string_view line, Violations violations) {
  PreparedLine p = prepare(line, violations);
  if (!p.append) return std::move(p.outcome);
  auto appended = impl_->archive->store().append(impl_->game, p.expected_seq, p.outcome.events, store::Durability::Sync);
  if (!appended && appended.error().code == ErrorCode::Conflict) return conflicted();
  if (!appended) return tl::unexpected(appended.error());
  committed(p);
  return std::move(p.outcome);
}

core::GameId Recorder::game() const noexcept { return impl_->game; }
core::Seq Recorder::next_seq() const noexcept { return impl_->session.next_seq(); }
const core::GameState& Recorder::state() const noexcept { return impl_->state; }
const std::vector<LocatedFinding>& Recorder::findings() const noexcept { return impl_->findings; }
std::optional<core::Seq> Recorder::ended_at() const noexcept { return impl_->ended_at; }
core::NotationPlace Recorder::place() const noexcept { return impl_->session.place(); }
const std::vector<core::SeatSetup>& Recorder::seats() const noexcept { return impl_->seats; }

std::string Recorder::where() const {
  const core::NotationPlace p = place();
  if (!p.in_turn) return "setup";
  std::string out = fmt::format("turn {} {}", p.turn, core::to_string(p.phase));
  if (p.seat != core::kNoSeat) out += fmt::format(" {}", p.seat + 1);
  return out;
}

}  // namespace warlog::replay
