// server::Writer (writer.hpp).

#include "writer.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <set>
#include <variant>
#include <vector>

#include "warlog/replay/line_json.hpp"
#include "warlog/replay/signatures.hpp"
#include "warlog/store/store.hpp"

namespace warlog::server {

using replay::LineOutcome;
using replay::LineStatus;
using replay::Recorder;

Answer error_answer(unsigned status, std::string_view message) {
  return Answer{status, nlohmann::json{{"error", message}}.dump(), 0, false, std::nullopt};
}

namespace {

Answer outcome_answer(const Recorder& r, const LineOutcome& o, bool wrote, bool spoken) {
  const unsigned status = o.status == LineStatus::Conflict ? 409 : 200;
  Answer a{status, replay::line_outcome_json(r, o).dump(), r.game(), wrote, std::nullopt};
  if (spoken) a.spoken = Answer::Spoken{o.status, r.next_seq(), r.where(), replay::answer_text(r, o)};
  return a;
}

// What another recorder stored from `from` on: a conflict's events and findings.
Expected<LineOutcome> stored_since(replay::Archive& archive, const Recorder& r, core::Seq from) {
  auto reader = archive.store().reader();
  if (!reader) return tl::unexpected(reader.error());
  LineOutcome out;
  out.status = LineStatus::Conflict;
  auto n = reader->scan(r.game(), from, store::kEndSeq, [&out](const core::Event& ev) {
    out.events.push_back(ev);
    return true;
  });
  if (!n) return tl::unexpected(n.error());
  for (const replay::LocatedFinding& f : r.findings()) {
    if (f.finding.seq >= from) out.findings.push_back(f);
  }
  return out;
}

template <class Payload>
bool holds(const LineOutcome& o) {
  for (const core::Event& ev : o.events) {
    if (std::holds_alternative<Payload>(ev.payload)) return true;
  }
  return false;
}

}  // namespace

Writer::Writer(replay::Archive& archive, std::optional<Signing> signing)
    : archive_(archive), signing_(std::move(signing)), thread_([this] { loop(); }) {}

Writer::~Writer() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void Writer::submit(LineRequest request, Done done) {
  {
    std::lock_guard lock(mutex_);
    if (!stopping_) {
      queue_.push_back(Job{std::move(request), {}, std::move(done)});
      wake_.notify_one();
      return;
    }
  }
  done(error_answer(503, "the server is stopping; nothing recorded"));
}

void Writer::run(Task task, Done done) {
  {
    std::lock_guard lock(mutex_);
    if (!stopping_) {
      queue_.push_back(Job{{}, std::move(task), std::move(done)});
      wake_.notify_one();
      return;
    }
  }
  done(error_answer(503, "the server is stopping"));
}

WriterStats Writer::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

Expected<Recorder*> Writer::recorder(core::GameId game) {
  if (auto it = recorders_.find(game); it != recorders_.end()) return &it->second;
  auto opened = Recorder::open(archive_, game);
  if (!opened) return tl::unexpected(opened.error());
  if (signing_) opened->sign_backups_with(signing_->key);
  return &recorders_.emplace(game, std::move(*opened)).first->second;
}

void Writer::sign_heads(core::GameId game, std::string_view why) {
  if (!signing_) return;
  using namespace std::chrono;
  const auto start = steady_clock::now();
  const std::int64_t at = duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
  auto record = replay::sign_game(archive_, game, signing_->key, signing_->signer, at);
  const double ms = duration<double, std::milli>(steady_clock::now() - start).count();
  if (!record) {
    if (signing_->log) signing_->log(fmt::format("game {} NOT SIGNED ({}): {}", game, why, record.error().message));
    return;
  }
  {
    std::lock_guard lock(mutex_);
    ++stats_.annotations;
  }
  const auto& s = std::get<core::GameSigned>(record->value);
  if (signing_->log) {
    signing_->log(fmt::format("game {} signed ({}) by {} (key {}) over {} events and {} annotation{}, in {:.1f} ms",
                              game, why, s.signer, store::key_id_hex(s.key_id), s.event_count, s.annotation_count,
                              s.annotation_count == 1 ? "" : "s", ms));
  }
}

Expected<replay::DisputeId> Writer::add_dispute(const replay::NewDispute& dispute, bool* already) {
  bool again = false;
  auto added = replay::add_dispute(archive_, dispute, &again);
  if (already != nullptr) *already = again;
  if (added && !again) {
    std::lock_guard lock(mutex_);
    ++stats_.annotations;
  }
  return added;
}

Expected<replay::Dispute> Writer::resolve(const replay::DisputeId& id, const replay::NewRuling& ruling, bool* already_out) {
  bool already = false;
  auto ruled = replay::resolve_dispute(archive_, id, ruling, &already);
  if (already_out != nullptr) *already_out = already;
  if (ruled && !already) {
    {
      std::lock_guard lock(mutex_);
      ++stats_.annotations;
    }
    sign_heads(id.game, "ruling");
  }
  return ruled;
}

void Writer::loop() {
  for (;;) {
    std::deque<Job> jobs;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (stopping_) {
        jobs.swap(queue_);
        lock.unlock();
        for (Job& j : jobs) j.done(error_answer(503, "the server is stopping; nothing recorded"));
        return;
      }
      jobs.swap(queue_);
    }
    commit(jobs);
    if (!jobs.empty()) {  // a game's second line waits for its first: back to the front of the queue
      std::lock_guard lock(mutex_);
      for (auto it = jobs.rbegin(); it != jobs.rend(); ++it) queue_.push_front(std::move(*it));
    }
  }
}

// Runs the tasks, then one line per game in one transaction; leaves in
// `jobs` the lines that must wait for the next.
void Writer::commit(std::deque<Job>& jobs) {
  struct Pending {
    Job job;
    Recorder* recorder = nullptr;
    replay::PreparedLine prepared;
  };
  std::vector<Pending> pending;
  std::deque<Job> later;
  std::set<core::GameId> games;
  for (Job& job : jobs) {
    if (job.task) {
      job.done(job.task(*this));
      continue;
    }
    if (!games.insert(job.request.game).second) {
      later.push_back(std::move(job));
      continue;
    }
    const LineRequest& q = job.request;
    auto rec = recorder(q.game);
    if (!rec) {
      job.done(error_answer(rec.error().code == ErrorCode::NotFound ? 404 : 500, rec.error().message));
      continue;
    }
    Recorder& r = **rec;
    if (q.expected_seq > r.next_seq()) {
      job.done(error_answer(409, fmt::format("expected seq {} is past game {}'s {} events; nothing recorded",
                                             q.expected_seq, q.game, r.next_seq())));
      continue;
    }
    if (q.expected_seq < r.next_seq()) {
      // A retry whose first attempt committed, or another recorder's events.
      if (auto again = r.already_recorded(q.line, q.expected_seq)) {
        job.done(outcome_answer(r, *again, false, q.spoken));
        continue;
      }
      auto theirs = stored_since(archive_, r, q.expected_seq);
      job.done(theirs ? outcome_answer(r, *theirs, false, q.spoken) : error_answer(500, theirs.error().message));
      continue;
    }
    replay::PreparedLine p = r.prepare(q.line);
    if (p.store_error) {
      job.done(error_answer(500, fmt::format("{}; nothing recorded", p.store_error->message)));
      continue;
    }
    if (holds<core::BackupTo>(p.outcome) && q.role != Role::Judge) {
      job.done(error_answer(403, "a backup is a judge's to record with a judge's token (docs/server.md › A head judge's guide; R-086); nothing recorded"));
      continue;
    }
    if (!p.append) {
      job.done(outcome_answer(r, p.outcome, false, q.spoken));
      continue;
    }
    pending.push_back(Pending{std::move(job), &r, std::move(p)});
  }
  jobs.swap(later);
  if (pending.empty()) return;

  std::vector<store::AppendRequest> batch;
  batch.reserve(pending.size());
  for (const Pending& p : pending) {
    batch.push_back({p.recorder->game(), p.prepared.expected_seq, p.prepared.outcome.events});
  }
  auto results = archive_.store().append_batch(batch, store::Durability::Sync);
  {
    // Counted before any line is answered: a client that reads the stats
    // after its answer sees its commit (a test saw 0 commits, 1 run in ~20).
    std::uint64_t appended = 0;
    if (results) {
      for (const auto& r : *results) appended += r ? 1 : 0;
    }
    std::lock_guard lock(mutex_);
    stats_.commits += results ? 1 : 0;
    stats_.lines += appended;
  }
  for (std::size_t i = 0; i < pending.size(); ++i) {
    Pending& p = pending[i];
    if (!results) {
      p.job.done(error_answer(503, fmt::format("{}; nothing recorded", results.error().message)));
      continue;
    }
    const auto& r = (*results)[i];
    if (r) {
      p.recorder->committed(p.prepared);
      p.job.done(outcome_answer(*p.recorder, p.prepared.outcome, true, p.job.request.spoken));
    } else if (r.error().code == ErrorCode::Conflict) {
      auto theirs = p.recorder->conflicted();
      p.job.done(theirs ? outcome_answer(*p.recorder, *theirs, false, p.job.request.spoken) : error_answer(500, theirs.error().message));
    } else {
      p.job.done(error_answer(r.error().code == ErrorCode::InvalidArgument ? 400 : 500, r.error().message));
    }
  }
  // Signed once every line of the transaction is answered: a signature
  // (verify walks the game, then one more commit) delays only the lines
  // queued meanwhile.
  if (!signing_ || !results) return;
  for (std::size_t i = 0; i < pending.size(); ++i) {
    if (!(*results)[i]) continue;
    const LineOutcome& o = pending[i].prepared.outcome;
    if (holds<core::GameEnded>(o)) {
      sign_heads(pending[i].recorder->game(), "ended");
    } else if (holds<core::BackupTo>(o)) {
      sign_heads(pending[i].recorder->game(), "backup");
    }
  }
}

}  // namespace warlog::server
