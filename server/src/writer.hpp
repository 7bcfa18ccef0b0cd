#pragma once
// The writer thread (docs/server.md › 2): owns one replay::Recorder per open
// game and the store's write path. Lines queued while it commits are taken
// together, at most one per game (the next waits for the one before it:
// it is parsed in the context that one leaves), and appended in one write
// transaction (Store::append_batch, Durability::Sync); each is answered only
// after that commit returned.

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "warlog/replay/disputes.hpp"
#include "warlog/replay/recorder.hpp"
#include "warlog/replay/replay.hpp"
#include "warlog/server/tokens.hpp"

namespace warlog::server {

// An answer for the network: an HTTP status and a JSON body.
struct Answer {
  unsigned status = 200;
  std::string body;
  core::GameId game = 0;
  bool wrote = false;  // events were appended: the game's followers are told
  // A line's outcome for a client that prints it as `warlog record` does
  // (RPC: LineRequest::spoken): its status, the recorder's next seq and place
  // after it, and replay::answer_text. Empty for an error answer.
  struct Spoken {
    replay::LineStatus status = replay::LineStatus::Recorded;
    core::Seq next_seq = 0;
    std::string where;
    std::string text;
  };
  std::optional<Spoken> spoken{};
};

[[nodiscard]] Answer error_answer(unsigned status, std::string_view message);

struct LineRequest {
  core::GameId game = 0;
  core::Seq expected_seq = 0;
  std::string line;
  Role role = Role::Table;
  bool spoken = false;  // fill Answer::spoken
};

struct WriterStats {
  std::uint64_t commits = 0;      // write transactions of lines
  std::uint64_t lines = 0;        // lines appended in them
  std::uint64_t annotations = 0;  // signatures and rulings appended (each its own transaction)
};

// The event's key (`warlog serve --sign-as KEYFILE --signer NAME`). With it
// the writer signs a game's heads as `warlog sign` does (replay::sign_game)
// once the line that ends it or backs it up is committed and answered, and
// after a ruling (Writer::resolve); each backup line is signed with it too,
// as `warlog record --sign-as` signs one (Recorder::sign_backups_with).
struct Signing {
  store::KeyPair key;
  std::string signer;
  std::function<void(const std::string&)> log;  // one line per signature, or why one failed
};

class Writer {
 public:
  using Done = std::function<void(Answer)>;
  using Task = std::function<Answer(Writer&)>;

  explicit Writer(replay::Archive& archive, std::optional<Signing> signing = std::nullopt);
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;
  ~Writer();  // answers what is queued with 503, then joins the thread

  // Thread-safe. `done` runs on the writer thread.
  void submit(LineRequest request, Done done);
  // A task run alone on the writer thread, between commits: a read that
  // needs a game's Recorder (a backup's preview).
  void run(Task task, Done done);

  [[nodiscard]] WriterStats stats() const;

  // --- On the writer thread (tasks) -------------------------------------------
  // The game's Recorder, opened on first use. Errors: as Recorder::open.
  [[nodiscard]] Expected<replay::Recorder*> recorder(core::GameId game);
  [[nodiscard]] replay::Archive& archive() noexcept { return archive_; }
  // Signs the game's heads now with the event's key (nothing without one);
  // `why` ("ended", "backup", "ruling") goes in the log line. A failure is
  // logged, never thrown: the line or ruling before it stands.
  void sign_heads(core::GameId game, std::string_view why);
  // A judge's ruling (replay::resolve_dispute), then the game signed;
  // `already` as resolve_dispute's (the same ruling again: nothing written).
  [[nodiscard]] Expected<replay::Dispute> resolve(const replay::DisputeId& id, const replay::NewRuling& ruling,
                                                  bool* already = nullptr);
  // A dispute (replay::add_dispute), counted as a write for --backup-every.
  [[nodiscard]] Expected<replay::DisputeId> add_dispute(const replay::NewDispute& dispute, bool* already = nullptr);

 private:
  struct Job {
    LineRequest request;
    Task task;  // set: a task, request unused
    Done done;
  };
  void loop();
  void commit(std::deque<Job>& jobs);

  replay::Archive& archive_;
  std::optional<Signing> signing_;
  std::map<core::GameId, replay::Recorder> recorders_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Job> queue_;
  bool stopping_ = false;
  WriterStats stats_;
  std::thread thread_;  // last: started once the rest is built
};

}  // namespace warlog::server
