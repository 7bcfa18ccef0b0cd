#pragma once
// State shared by a Store and its Readers (private to the store target).
//
// Why the remap lock: mdb_env_set_mapsize unmaps and maps the file again, so
// every page pointer a live transaction or cursor of this process holds may
// dangle. The map therefore only changes while this process has no read
// transaction open (live_readers == 0, checked under remap_mutex, which is
// also held while a read transaction begins) and no write transaction (the
// writer aborts its txn before growing, under write_mutex). A read txn that
// finds the map grown by another process (MDB_MAP_RESIZED) waits for the
// other threads' readers to end, then adopts the size (begin_read).

#include <fmt/format.h>

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <string_view>
#include <thread>
#include <vector>

#include "warlog/core/error.hpp"
#include "warlog/core/event.hpp"
#include "warlog/store/lmdb.hpp"
#include "warlog/store/owner_lock.hpp"

namespace warlog::store::detail {

struct Dbis {
  MDB_dbi games = 0;
  MDB_dbi events = 0;
  MDB_dbi identity = 0;
  MDB_dbi blobs = 0;
  MDB_dbi snapshots = 0;
  MDB_dbi annotations = 0;
  MDB_dbi meta = 0;
};

// Registers an environment as open in this process; unregisters when
// destroyed. Refuses a second registration of the same directory.
class OpenGuard {
 public:
  [[nodiscard]] static Expected<OpenGuard> acquire(const std::filesystem::path& dir);
  OpenGuard() = default;
  OpenGuard(const OpenGuard&) = delete;
  OpenGuard& operator=(const OpenGuard&) = delete;
  OpenGuard(OpenGuard&& o) noexcept;
  OpenGuard& operator=(OpenGuard&& o) noexcept;
  ~OpenGuard();

 private:
  void release() noexcept;

  bool held_ = false;
  std::uint64_t dev_ = 0;
  std::uint64_t ino_ = 0;
};

// The pages of the read-only map (data.mdb) that this process's readers have
// read and not yet given back, counted for the whole store, whatever thread
// or Reader read them: an audit of many short games reads each in its own
// Reader, and a count per scan would never reach the release (reader.cpp).
// The range is of the map as it is now: a remap (which happens only with no
// reader open, shared.hpp) forgets it, since its addresses may no longer be
// the map's.
class MappedPages {
 public:
  // Gives the pages read back every this many events read.
  static constexpr std::uint64_t kReleaseEvery = 16384;
  // A seek to a game's first key (selecting the games, finding orphans)
  // counts as this many events, a 16th of a release: the fault it takes maps
  // up to 64 KiB of cached pages around its page in (the kernel's
  // fault-around), so 16 seeks map up to 1 MiB before the pages go back.
  // One seek a game over 100,000 games mapped the whole 710 MB file in.
  static constexpr std::uint64_t kSeekEvents = kReleaseEvery / 16;

  // `events` read in `lo..hi` (addresses in the map) since the last call.
  // Gives the whole range read since the map was mapped back (madvise
  // MADV_DONTNEED) each time the count reaches kReleaseEvery; returns
  // whether it did. Called inside a live read transaction, so the map
  // cannot change meanwhile.
  bool read(std::uintptr_t lo, std::uintptr_t hi, std::uint64_t events) noexcept;
  // The map changed (under remap_mutex): the range held is not of this map.
  void forget() noexcept;

 private:
  std::mutex mutex_;
  std::uintptr_t lo_ = UINTPTR_MAX;
  std::uintptr_t hi_ = 0;
  std::uint64_t events_ = 0;
};

struct Shared {
  OpenGuard guard;  // declared first: released after the env is closed
  OwnerLock owner;  // the owner lock (owner_lock.hpp); not held when read-only
  lmdb::Env env;
  Dbis dbi;
  std::filesystem::path path;
  bool read_only = false;
  std::size_t max_map_size = 0;

  std::mutex write_mutex;  // one write transaction at a time in this process
  std::mutex remap_mutex;  // guards live_readers, readers_of, map_size and set_mapsize
  std::condition_variable readers_gone;  // notified when live_readers drops to 0
  std::size_t live_readers = 0;
  std::map<std::thread::id, std::size_t> readers_of;  // live readers, by the thread that began them
  std::size_t map_size = 0;
  mutable MappedPages pages;  // read by every Reader of this store (reader.cpp)
};

// Begins a read txn (lock holds remap_mutex). On MDB_MAP_RESIZED (another
// process grew the map past this one's) adopts the recorded size and tries
// again, as often as the other process keeps growing it: at once when no
// reader of this process is open; else after waiting for the other
// threads' readers to end (they are short-lived). ResourceExhausted when
// this thread holds a reader itself (it could not end while this waits), or
// when the others outlive the wait.
[[nodiscard]] Expected<lmdb::Txn> begin_read(Shared& s, std::unique_lock<std::mutex>& lock);

// A value or key of a read-only txn (it points into the map) read outside a
// walk of blocks: it counts as `events` towards the next release of mapped
// pages, and its pages are among those released (MappedPages).
void note_read(const Shared& s, std::string_view bytes, std::uint64_t events) noexcept;

// "store PATH: DOING: LMDB message" with the ErrorCode that fits rc.
[[nodiscard]] Error lmdb_error(const Shared& s, std::string_view doing, int rc);

[[nodiscard]] inline tl::unexpected<Error> fail(const Shared& s, std::string_view doing, int rc) {
  return tl::unexpected<Error>(lmdb_error(s, doing, rc));
}

// The game ids under which `dbi` (keyed game u64 BE ‖ ...) holds values,
// ascending: one cursor seek per game, never a walk of every value
// (verify.cpp). `what` names the database in an error.
[[nodiscard]] Expected<std::vector<core::GameId>> ids_in(const Shared& s, MDB_txn* txn, MDB_dbi dbi,
                                                         std::string_view what);

// Why game `id` has no record, for a lookup that found none: DataLoss
// "game N: events with no game record ..." (or annotations, or both) when
// something is stored under it, so a deleted record hides nothing; else
// NotFound "game N does not exist" (verify.cpp). Errors: LMDB's.
[[nodiscard]] Expected<Error> missing_record(const Shared& s, MDB_txn* txn, core::GameId id);

// What one walk has read, handed to the store's count (MappedPages) at its
// end and every MappedPages::kReleaseEvery events within it, so that the pages of the
// memory-mapped data file leave this process's resident set as scans go:
// a million-event game would otherwise leave ~130 MB of the file mapped in
// (RSS) though the scan holds one event at a time, and an audit of 100,000
// short games the whole file (~710 MB), one short scan at a time.
// The pages stay in the kernel's page cache and a later read faults them
// back in with the same bytes (MappedPages::read).
class PagesBehind {
 public:
  explicit PagesBehind(MappedPages& store) : store_(store) {}
  PagesBehind(const PagesBehind&) = delete;
  PagesBehind& operator=(const PagesBehind&) = delete;
  ~PagesBehind() { hand_over(); }

  void read(std::string_view bytes, core::Seq events) noexcept {
    if (bytes.empty()) return;
    const auto at = reinterpret_cast<std::uintptr_t>(bytes.data());
    lo_ = std::min(lo_, at);
    hi_ = std::max(hi_, at + bytes.size());
    count_ += events;
    if (count_ >= MappedPages::kReleaseEvery) hand_over();
  }

 private:
  void hand_over() noexcept {
    if (lo_ >= hi_) return;
    (void)store_.read(lo_, hi_, count_);
    lo_ = UINTPTR_MAX;
    hi_ = 0;
    count_ = 0;
  }

  MappedPages& store_;
  std::uintptr_t lo_ = UINTPTR_MAX;
  std::uintptr_t hi_ = 0;
  core::Seq count_ = 0;
};

}  // namespace warlog::store::detail
