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
#include "warlog/replay/backup_signature.hpp"
#include "warlog/events/codec.hpp"
#include "warlog/replay/corrections.hpp"
#include "warlog/store/reader.hpp"
#include "warlog/store/store.hpp"

namespace warlog::replay {

std::string_view to_string(LineStatus s) noexcept {
  switch (s) {
    case LineStatus::Recorded: return "ok";
    case LineStatus::Nothing: return "nothing";
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


// What may still be appended after a GameEnded (issue 16): a judge's backup,
// or a void of the GameEnded itself. Both are corrections; whether one is
// legal there is the fold's to say (LOG.correction, docs/rulings.md R-066),
// so a refused one is recorded with its finding, as any violation is.
bool passes_after_end(const core::Event& ev) { return core::is_correction(ev.payload); }

// The first line of what a backup crosses. It counts every event the
// backup supersedes (its LOG.backup finding's number, R-082) and says how
// many of them it lists: only those that drew, shuffled or showed a hidden
// card, which a judge must weigh; the others (moves, markers, corrections)
// hide nothing (the trial read "supersedes 4 events" over 2 lines).
std::string crossing_head(const BackupCrossing& c) {
  std::vector<core::Seq> crossing_events;
  for (const Crossed& x : c.crossed) {
    if (crossing_events.empty() || crossing_events.back() != x.seq) crossing_events.push_back(x.seq);
  }
  const std::size_t n = crossing_events.size();
  const std::string head =
      fmt::format("a backup to seq {} supersedes {} event{}", c.target, c.events, c.events == 1 ? "" : "s");
  if (n == 0) {
    return head + (c.events == 1 ? "; it crosses no" : "; none of them crosses") +
           " hidden information (no card drawn, no shuffle, no hidden card revealed)";
  }
  constexpr std::string_view kWhat = "hidden information (cards drawn, shuffles, hidden cards revealed)";
  if (n == c.events) {
    return fmt::format("{}; {} {}:", head, n == 1 ? std::string("it crosses") : fmt::format("all {} cross", n), kWhat);
  }
  return fmt::format("{}; {} of them cross{} {}, the other {} reveal{} nothing:", head, n, n == 1 ? "es" : "", kWhat,
                     c.events - n, c.events - n == 1 ? "s" : "");
}

}  // namespace

Expected<std::string> random_game_uuid() {
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
  p.whole = true;
  for (std::size_t i = events.size(); i < all.size(); ++i) {
    if (fold.marks()[i].standing == core::Standing::Refused) p.refused.push_back(all[i].seq);
  }
  locate_all(fold.findings(), all, p.all);
  const auto& marks = fold.marks();
  for (std::size_t i = 0; i < all.size() && !p.ended_at; ++i) {
    if (marks[i].standing == core::Standing::Effective && std::holds_alternative<core::GameEnded>(all[i].payload)) {
      p.ended_at = all[i].seq;
    }
  }
  return p;
}

void Recorder::Impl::commit(std::span<const core::Event> more, Preview&& p) {
  events.insert(events.end(), more.begin(), more.end());
  state = std::move(p.state);
  if (p.whole) {
    corrected = true;
    findings = std::move(p.all);
    ended_at = p.ended_at;
  } else {
    findings.insert(findings.end(), p.found.begin(), p.found.end());
    for (const core::Event& ev : more) {
      if (std::holds_alternative<core::GameEnded>(ev.payload) && !ended_at) ended_at = ev.seq;
    }
  }
  // The notation's context moves with them; a correction moves it as the
  // game now stands (NotationSession::observe).
  for (const core::Event& ev : more) session.observe(ev);
}

void Recorder::Impl::take(std::span<const core::Event> more, std::vector<LocatedFinding>* out) {
  Preview p = preview(more);
  if (out != nullptr) out->insert(out->end(), p.found.begin(), p.found.end());
  commit(more, std::move(p));
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
  auto sources = load_sources(archive, header_path, *text, options);
  if (!sources) {
    // Every error of the header at once, not the missing [Catalog] alone:
    // its tags are checked against no catalog, so card names cannot be and
    // their errors are left out (they would all be "no such card").
    const std::shared_ptr<const core::Catalog> none = std::make_shared<const core::Catalog>();
    auto checked = core::NotationSession::from_header(*text, header_path, none, std::string{}, core::DeckLoader{});
    std::vector<core::NotationError> errors;
    if (!checked) {
      for (core::NotationError& e : checked.error()) {
        if (e.expected == "a card of the catalog" || e.expected.starts_with("an inline deck entry")) continue;
        errors.push_back(std::move(e));
      }
    }
    return tl::unexpected(ImportFailure{sources.error(), std::move(errors)});
  }
  auto session = core::NotationSession::from_header(*text, header_path, sources->catalog, sources->ruleset->hash,
                                                    sources->load_deck);
  if (!session) {
    return tl::unexpected(ImportFailure{Error{ErrorCode::InvalidArgument, "notation errors"}, std::move(session.error())});
  }
  std::vector<core::Event> setup = session->setup_events();
  auto uuid = random_game_uuid();
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
  // One fold of the whole stream (a corrected one when it holds a
  // correction), not one per event; the notation's context follows it.
  impl->take(*events, nullptr);
  return Recorder(std::move(impl));
}

PreparedLine Recorder::prepare(std::string_view line, Violations violations) {
  Impl& m = *impl_;
  PreparedLine p;
  auto refused_by_store = [&p](Error e) {
    p.store_error = std::move(e);
    return std::move(p);
  };
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
  if (parsed.events.empty()) {  // a blank line or a comment: nothing to record
    out.status = LineStatus::Nothing;
    return p;
  }
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
    out.crossing.push_back(crossing_head(*crossing));
    for (const Crossed& c : crossing->crossed) {
      out.crossing.push_back(fmt::format("  seq {} {}: {} {}", c.seq,
                                         c.seat < m.seats.size() ? m.seats[c.seat].player : std::string("the table"),
                                         to_string(c.kind), c.what));
    }
  }
  out.events = std::move(parsed.events);
  out.findings = std::move(found);
  if ((!out.crossing.empty() && violations != Violations::Record) || (violations == Violations::Hold && violates)) {
    out.status = LineStatus::NeedsConfirm;
    return p;
  }
  // A judge's backup is signed over the history it backs up, as it will be stored.
  if (m.backup_key) {
    for (core::Event& ev : out.events) {
      if (!std::holds_alternative<core::BackupTo>(ev.payload)) continue;
      auto reader = m.archive->store().reader();
      if (!reader) return refused_by_store(reader.error());
      auto head = reader->head_at(m.game, ev.seq);
      if (!head) return refused_by_store(head.error());
      sign_backup(ev, *head, *m.backup_key);
    }
  }
  out.no_effect = trial.refused;
  trial.found = out.findings;
  p.fold = std::make_shared<PreparedFold>(PreparedFold{std::move(trial)});
  p.append = true;
  return p;
}

void Recorder::committed(const PreparedLine& p) {
  Impl& m = *impl_;
  // The preview is what was committed: keep it rather than fold again,
  // unless something was taken since it was made.
  if (p.fold && p.expected_seq == m.session.next_seq() && p.expected_seq == m.events.size()) {
    m.commit(p.outcome.events, std::move(p.fold->preview));
    return;
  }
  m.take(p.outcome.events, nullptr);
}

Expected<std::vector<core::Event>> Recorder::Impl::take_stored(const store::Reader& reader,
                                                                std::vector<LocatedFinding>* out) {
  std::vector<core::Event> theirs;
  auto n = reader.scan(game, session.next_seq(), store::kEndSeq, [&theirs](const core::Event& ev) {
    theirs.push_back(ev);
    return true;
  });
  if (!n) return tl::unexpected(n.error());
  take(theirs, out);
  return theirs;
}

Expected<LineOutcome> Recorder::conflicted() {
  // Another recorder got there first: learn what it recorded; this line
  // is not recorded (the caller may enter it again, in the new context).
  Impl& m = *impl_;
  auto reader = m.archive->store().reader();
  if (!reader) return tl::unexpected(reader.error());
  LineOutcome out;
  out.status = LineStatus::Conflict;
  auto theirs = m.take_stored(*reader, &out.findings);
  if (!theirs) return tl::unexpected(theirs.error());
  out.events = std::move(*theirs);
  return out;
}

Expected<Followed> Recorder::follow() {
  Impl& m = *impl_;
  auto reader = m.archive->store().reader();
  if (!reader) return tl::unexpected(reader.error());
  // The record's event count first: no stream is read while nothing is new.
  auto record = reader->record(m.game);
  if (!record) return tl::unexpected(record.error());
  Followed out;
  if (record->event_count <= m.session.next_seq()) return out;
  auto theirs = m.take_stored(*reader, &out.findings);
  if (!theirs) return tl::unexpected(theirs.error());
  out.events = std::move(*theirs);
  return out;
}

std::optional<LineOutcome> Recorder::already_recorded(std::string_view line, core::Seq expected) const {
  const Impl& m = *impl_;
  if (expected == 0 || expected >= m.events.size()) return std::nullopt;
  // The notation's context as it stood at `expected`, as open() rebuilds it
  // (NotationSession::observe moves it past corrections as the game stood).
  const std::span<const core::Event> before = std::span(m.events).first(expected);
  auto session = core::NotationSession::resume(before.first(1), fmt::format("game {}", m.game), m.catalog);
  if (!session) return std::nullopt;
  for (const core::Event& ev : before) session->observe(ev);
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
    // A signed backup carries its signature only as stored: compare the rest.
    if (auto* b = std::get_if<core::BackupTo>(&stored.payload)) {
      if (auto* rb = std::get_if<core::BackupTo>(&retried.payload)) rb->signature = b->signature;
    }
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
  if (p.store_error) return tl::unexpected(std::move(*p.store_error));
  if (!p.append) return std::move(p.outcome);
  auto appended = impl_->archive->store().append(impl_->game, p.expected_seq, p.outcome.events, store::Durability::Sync);
  if (!appended && appended.error().code == ErrorCode::Conflict) return conflicted();
  if (!appended) return tl::unexpected(appended.error());
  committed(p);
  return std::move(p.outcome);
}

void Recorder::sign_backups_with(const store::KeyPair& key) { impl_->backup_key = key; }

core::GameId Recorder::game() const noexcept { return impl_->game; }
core::Seq Recorder::next_seq() const noexcept { return impl_->session.next_seq(); }
const core::GameState& Recorder::state() const noexcept { return impl_->state; }
const std::vector<LocatedFinding>& Recorder::findings() const noexcept { return impl_->findings; }
std::optional<core::Seq> Recorder::ended_at() const noexcept { return impl_->ended_at; }
core::NotationPlace Recorder::place() const noexcept { return impl_->session.place(); }
const std::vector<core::SeatSetup>& Recorder::seats() const noexcept { return impl_->seats; }
const core::Catalog& Recorder::catalog() const noexcept { return *impl_->catalog; }
const core::Ruleset& Recorder::ruleset() const noexcept { return *impl_->ruleset; }

std::string Recorder::where() const {
  // After `end` only a judge's backup or a void of the GameEnded records
  // the prompt says so before a line is refused for it.
  if (const auto end = ended_at()) return fmt::format("ended at seq {}", *end);
  const core::NotationPlace p = place();
  if (!p.in_turn) return "setup";
  std::string out = fmt::format("turn {} {}", p.turn, core::to_string(p.phase));
  if (p.seat != core::kNoSeat) out += fmt::format(" {}", p.seat + 1);
  return out;
}

}  // namespace warlog::replay
