#pragma once
// Reading a store that may be damaged at the page level without risking the
// caller's process. LMDB keeps no page checksums, its assertion callback
// cannot recover, and a check before use cannot guard a map that faults
// later: a damaged page can end a reader by SIGSEGV, SIGBUS or SIGABRT. So
// run_isolated does a verb's reading in a forked child that opens the store
// itself and streams each game's output records back over a pipe; the
// caller's process never opens (never maps) the store.
//
// Per-game granularity: a child that dies is replaced by one that goes on
// after the game it died in, so every other game is still reported. The
// dead game becomes a LostGame, named with the page it died near when that
// can be found (the fault address inside the map, else a guarded page walk
// of data.mdb in another child: store/page_walk.hpp).
//
// The caller must be single-threaded when it calls run_isolated (fork).
// WARLOG_NO_ISOLATION=1 runs the jobs in this process instead: only for
// measuring what the isolation costs (docs/reliability.md).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "warlog/core/error.hpp"
#include "warlog/core/event.hpp"
#include "warlog/replay/replay.hpp"
#include "warlog/store/page_walk.hpp"

namespace warlog::replay {

// One output record of a job: a tag the caller chooses, and bytes.
struct Record {
  std::uint32_t tag = 0;
  std::string bytes;
};

// Where a job puts its records for the game it runs. Records go to the
// caller when the job returns, all at once; flush() sends what was put so
// far at once (a long export streams; a child that then dies leaves what
// was flushed delivered).
class Outbox {
 public:
  using Emit = std::function<void(std::vector<Record>&&)>;
  explicit Outbox(Emit emit) : emit_(std::move(emit)) {}
  void put(std::uint32_t tag, std::string bytes) { records_.push_back({tag, std::move(bytes)}); }
  void flush();
  [[nodiscard]] std::vector<Record> take() { return std::move(records_); }

 private:
  Emit emit_;
  std::vector<Record> records_;
};

struct IsolatedJob {
  std::string store;  // the store directory
  Archive::Mode mode = Archive::Mode::ReadOnly;
  unsigned jobs = 1;  // threads in the child (0: one per core)
  // In the child, once: the games to run, read from the opened store.
  std::function<Expected<std::vector<core::GameId>>(const Archive&)> select;
  // In the child, once per game, on any of `jobs` threads. An exception is
  // a bug: it reaches the caller as a std::runtime_error from run_isolated.
  std::function<void(const Archive&, core::GameId, Outbox&)> run;
  // In the child after its last game (a writer's sync); optional.
  std::function<Expected<void>(const Archive&)> finish;
};

// A game whose reader died.
struct LostGame {
  core::GameId game = 0;  // 0: it died opening the store or choosing the games
  int signal = 0;         // 0: it exited (exit_code) without finishing
  int exit_code = 0;
  std::optional<std::uint64_t> page;  // the damaged page, when found
  std::string process = "reader";     // who died: "reader", or "writer" (run_isolated_work)
  // "store S: the data file is corrupt near page N: restore it from a copy
  // (game G was being read; the reader died of SIGSEGV)". `doing` replaces
  // "game G was being read" for a job that is not per game ("copying the store").
  [[nodiscard]] std::string message(std::string_view store, std::string_view doing = {}) const;
};

// What the caller gets, on its own thread, in the order select gave the games.
struct IsolatedSink {
  // A game's records (several calls for a game whose job flushed).
  std::function<void(core::GameId, std::vector<Record>&&)> records;
  std::function<void(const LostGame&)> lost;
  std::function<void(std::size_t done, std::size_t total)> progress;  // optional
};

struct IsolatedRun {
  std::vector<core::GameId> games;  // what select chose
  std::size_t lost = 0;             // how many of them were lost
  std::size_t children = 0;         // processes started (1 for a sound store)
};

// Errors: what opening the store, select or finish returned; DataLoss with
// LostGame::message when the child died before it had chosen the games.
[[nodiscard]] Expected<IsolatedRun> run_isolated(const IsolatedJob& job, const IsolatedSink& sink);

// A verb's whole store work in one forked child, for the verbs that write
// (sign, dispute, import, migrate, record, serve's event verbs): `work`
// opens the store itself, there, and returns the verb's exit code. Its
// stdout and stdin are the caller's own; its stderr is relayed line by
// line, except the line LMDB prints before it aborts. A child killed by a
// signal never committed what it was writing: LMDB's transaction is all or
// nothing, so the store is as it was (or as its last commit left it). The
// caller must not have the store open (LMDB: one environment per process)
// and must be single-threaded (fork).
//
// Signals meant for warlog reach the work: while it runs the caller
// ignores SIGINT and SIGQUIT (the terminal sends them to both processes)
// and passes SIGTERM and SIGHUP on; the work dies with the caller
// (PR_SET_PDEATHSIG), so a SIGKILL of warlog stops it too.
struct WorkOutcome {
  int exit_code = 0;
  // Set when the work died of a fault signal (SIGSEGV, SIGBUS, SIGABRT,
  // SIGFPE, SIGILL), with the page the guarded walk names.
  std::optional<LostGame> death;
  // Set when it died of another signal (SIGINT, SIGTERM, ...): the caller
  // should end by it too (raise it), as a shell expects.
  int passed_signal = 0;
};
[[nodiscard]] WorkOutcome run_isolated_work(const std::string& store, const std::string& process,
                                            const std::function<int()>& work);

// store::find_damaged_page in a child of its own (the walk bounds what it
// reads; a bug in it must not end the caller either); nullopt when every
// reachable page checks or the walk could not run. For a long-lived
// verb's check before it opens the store (warlog serve).
[[nodiscard]] std::optional<store::DamagedPage> find_damaged_page_isolated(const std::string& store);

// Whether stderr reaches a terminal: isatty(2), or, in run_isolated_work's
// child (whose stderr is the relay's pipe), whether the caller's does. For
// progress lines.
[[nodiscard]] bool stderr_is_terminal() noexcept;

// True when WARLOG_NO_ISOLATION=1 (the baseline measurement only).
[[nodiscard]] bool isolation_disabled() noexcept;

}  // namespace warlog::replay
