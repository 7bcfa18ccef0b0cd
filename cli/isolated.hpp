#pragma once
// The reading verbs' one way to the store: replay::run_isolated (a forked
// reader per run, restarted after a game that kills it), with the records
// every verb shares: what to print on stdout and stderr, and the exit code a
// game asks for. A verb gives its selection and its per-game job; this
// prints in game order, turns a lost game into its one line and exit 2.

#include <functional>
#include <string>

#include "verbs.hpp"
#include "warlog/replay/isolate.hpp"

namespace warlog::cli {

enum RecordTag : std::uint32_t {
  kStdout = 1,    // bytes for stdout, printed as they come
  kStderr = 2,    // a whole line for stderr
  kExitCode = 3,  // one byte: the exit code this game asks for (the run takes the largest)
  kPiece = 4,     // verb-specific: a report piece (JSON text, a JUnit case)
  kTally = 5,     // verb-specific: numbers for the summary
};

// Put into a job's outbox (in the child).
void put_stdout(replay::Outbox& box, std::string text);
void put_error(replay::Outbox& box, const Error& e);  // "warlog: MESSAGE" on stderr, exit 2
void put_exit(replay::Outbox& box, int code);

struct VerbJob {
  replay::Archive::Mode mode = replay::Archive::Mode::ReadOnly;
  unsigned jobs = 1;
  // Defaults to the --game ids, else every game, with --shard applied.
  std::function<Expected<std::vector<core::GameId>>(const replay::Archive&)> select;
  // With the default select: also the ids with events or annotations but no
  // game record (a deleted record), so they are reported, never left out.
  bool orphans = false;
  std::function<void(const replay::Archive&, core::GameId, replay::Outbox&)> run;
  std::function<Expected<void>(const replay::Archive&)> finish;
  // Records of other tags (kPiece, kTally), in game order; optional.
  std::function<void(core::GameId, const replay::Record&)> on_record;
  // After a lost game's line is printed; optional.
  std::function<void(const replay::LostGame&)> on_lost;
  const char* progress = nullptr;  // "audited": a progress line on a terminal
};

struct VerbOutcome {
  int code = kExitClean;  // the largest asked for; kExitError when a game was lost
  std::size_t games = 0;  // how many select chose
  std::size_t lost = 0;
};

// Runs the job over the store of `o`. Errors (the store's, select's,
// finish's, a malformed --shard): printed as one line, and returned so the
// verb exits 2 without its summary.
[[nodiscard]] Expected<VerbOutcome> run_verb_job(const Options& o, VerbJob job);

}  // namespace warlog::cli
