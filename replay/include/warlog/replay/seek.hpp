#pragma once
// Seek: the state at any event of a stored game without refolding it from
// the start. Snapshots of folded state, laid every N events, live in the
// reading user's own cache (store/snapshot_cache.hpp; Archive::snapshot_cache),
// never in the store; a seek loads the nearest valid one at or before the
// event and folds forward from it.
//
// A snapshot is a cache and is never trusted. It is found only under the key
// of everything it was folded from: the game's identity, its seq, the chain
// value through that seq as the store gives it now (Reader::chain_through),
// the ruleset and catalog content hashes and this engine version; its MAC
// under the user's local key must hold (nobody without the key can write one
// a seek uses: not a store from elsewhere, not a writer of the store); and
// its bytes must decode with a header that names the same. Anything else is
// discarded: the seek falls back to an earlier snapshot or to the start, and,
// folding under the game's recorded ruleset and catalog, writes the
// snapshot back correct (the cache is the user's, so read-only stores too).
// A cache that cannot be opened or written leaves seeks exact, only slower.
//
// A seek under an override ruleset or catalog uses a snapshot only if one
// made under it exists (`warlog snapshot` makes none), and never writes.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

#include "warlog/core/error.hpp"
#include "warlog/core/hash.hpp"
#include "warlog/replay/replay.hpp"

namespace warlog::replay {

// Snapshots every this many events unless told otherwise. A seek decodes
// one snapshot (~9 us) and folds at most N - 1 events past it (~0.5 us each,
// decode included), so N bounds the worst case. Measured in a 1,000,000-event
// game (2 cores shared with other builds, RelWithDebInfo), p99 of random
// seeks over five runs: 0.19-0.30 ms at N = 250, 0.33-0.54 ms at 500,
// 0.53-0.99 ms at 1000, 1.7 ms at 2000; a full refold 314 ms at the median.
// A snapshot is ~1.5 KB, so N = 500 costs 2.9 MiB per million events (under
// 2% of the events' own size) and keeps the 1 ms p99 target with a margin
// that N = 1000 does not have on a busy machine. docs/architecture.md › Seek.
inline constexpr core::Seq kDefaultSnapshotEvery = 500;

struct SeekOptions {
  AuditOptions overrides;  // fold under these instead of the recorded ruleset / catalog
  // Under the recorded ruleset and catalog: write back the stale snapshots a
  // seek discarded, and lay one every `every` events along a fold longer
  // than `every` (a game never snapshotted, or after an engine upgrade).
  bool repair = true;
  core::Seq every = kDefaultSnapshotEvery;
};

// A moment of a game, with what the viewer needs to show what changed.
struct SeekResult {
  Moment moment;           // the state after `moment.seq`, that event, its findings
  core::GameState before;  // the state before that event
  // Where the fold started: the snapshot's seq, or nullopt for the start.
  std::optional<core::Seq> snapshot_seq;
  core::Seq folded = 0;        // events applied, the one at moment.seq included
  std::size_t discarded = 0;   // snapshots passed over: a failed MAC, or bytes that disagree with their key
  std::size_t written = 0;     // snapshots written back by repair
  std::optional<Error> cache_error;  // the seek stands; the cache could not be opened, read or written
};

// Seeks in one game under one ruleset and catalog. A value over shared,
// immutable parts: cheap to copy; the Archive must outlive it. Each seek is
// one read transaction, so it sees events appended since the last.
class Seeker {
 public:
  // Errors: NotFound for an unknown game; DataLoss when the recorded catalog
  // or ruleset is missing from the store.
  [[nodiscard]] static Expected<Seeker> open(const Archive& archive, core::GameId game, SeekOptions options = {});

  // The moment at `seq`, clamped to the last event. Errors: NotFound (game
  // gone, or no events), DataLoss for an event that is missing or does not
  // decode (run verify).
  [[nodiscard]] Expected<SeekResult> seek(core::Seq seq) const;

  [[nodiscard]] core::GameId game() const noexcept { return game_; }
  [[nodiscard]] const core::Catalog& catalog() const noexcept { return *catalog_; }
  [[nodiscard]] const core::Ruleset& ruleset() const noexcept { return *ruleset_; }
  // Folding under the game's recorded ruleset and catalog (snapshots may be written).
  [[nodiscard]] bool recorded() const noexcept { return recorded_; }

 private:
  Seeker() = default;
  const Archive* archive_ = nullptr;
  core::GameId game_ = 0;
  std::shared_ptr<const core::Catalog> catalog_;
  std::shared_ptr<const core::Ruleset> ruleset_;
  std::shared_ptr<store::SnapshotCache> cache_;  // null: none could be opened (cache_error_ says why)
  std::optional<Error> cache_error_;
  core::Digest identity_{};
  std::optional<core::Digest> ruleset_digest_;  // none: no content hash, no snapshots
  std::optional<core::Digest> catalog_digest_;
  bool recorded_ = false;
  bool repair_ = true;
  core::Seq every_ = kDefaultSnapshotEvery;
};

// One seek without keeping a Seeker.
[[nodiscard]] Expected<SeekResult> seek(const Archive& archive, core::GameId game, core::Seq seq,
                                        const SeekOptions& options = {});

// --- Building snapshots ---------------------------------------------------------

struct SnapshotBuild {
  core::GameId game = 0;
  core::Seq events = 0;         // events folded
  std::size_t snapshots = 0;    // snapshots written
  std::size_t bytes = 0;        // their total size
  std::size_t largest = 0;      // the largest one
  std::size_t too_large = 0;    // states over events::kMaxSnapshotBytes, not written
  bool cancelled = false;       // the progress callback said stop
};

// Called now and then with (events folded, events in the game); return
// false to stop the build (what was written stays: every snapshot is whole).
using BuildProgress = std::function<bool(core::Seq done, core::Seq total)>;

// Folds the game once under its recorded ruleset and catalog and caches a
// snapshot after every `every`-th event (seq every-1, 2*every-1, ...),
// replacing the game's snapshots under that ruleset and catalog and any
// made by another engine version. Memory stays bounded: snapshots are
// written in batches. Safe to call from a worker thread while other threads
// seek (the viewer does). Errors: InvalidArgument for every == 0; NotFound;
// DataLoss as seek; the cache's errors (it cannot be opened or written).
[[nodiscard]] Expected<SnapshotBuild> build_snapshots(const Archive& archive, core::GameId game,
                                                      core::Seq every = kDefaultSnapshotEvery,
                                                      const BuildProgress& progress = {});

// Whether the game, under its recorded ruleset and catalog, lacks the
// snapshot a build every `every` events lays last (a game opened for the
// first time here, events appended since, another engine version): the
// viewer then builds them in the background. False for a game of `every`
// events or fewer. Errors: NotFound; the cache's.
[[nodiscard]] Expected<bool> needs_snapshots(const Archive& archive, core::GameId game,
                                             core::Seq every = kDefaultSnapshotEvery);

// Removes every cached snapshot of the game (every ruleset, catalog and
// engine version); returns how many.
[[nodiscard]] Expected<std::size_t> drop_snapshots(const Archive& archive, core::GameId game);

// --- Checking snapshots (verify --snapshots) ---------------------------------------

struct SnapshotCheck {
  core::Seq seq = 0;
  enum class Status : std::uint8_t {
    Agrees,     // authentic, current, and equal to the fold at its seq
    Mismatch,   // authentic and current, but not the fold's state: a seek would show it
    Unusable,   // its MAC fails or its bytes do not decode: never used
    Stale,      // folded from events since changed, or by another engine version: never used
    Foreign,    // made under another ruleset or catalog: not checked
  } status = Status::Agrees;
  std::string detail;  // one line for a person
};

struct SnapshotReport {
  core::GameId game = 0;
  std::vector<SnapshotCheck> checks;  // by seq
  std::size_t removed = 0;            // Mismatch and Unusable entries removed (when asked)
  [[nodiscard]] std::size_t count(SnapshotCheck::Status s) const noexcept;
};

// Folds the game once under its recorded ruleset and catalog and compares
// every cached snapshot of it with the fold. With `remove`, deletes the
// Mismatch and Unusable ones (and says how many); Stale and Foreign ones are
// left (a seek never uses them; a build replaces them). Errors: NotFound;
// DataLoss as seek; the cache's.
[[nodiscard]] Expected<SnapshotReport> check_snapshots(const Archive& archive, core::GameId game, bool remove);

}  // namespace warlog::replay
