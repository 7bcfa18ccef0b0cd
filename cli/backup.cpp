// warlog backup DIR: a consistent compacted copy of the store, taken while
// it is in use, verified, then renamed into place. Nothing half-written is
// ever left at DIR: the copy is made in a directory next to it and only a
// verified copy is renamed there.
//
// A previous backup (and only that) is replaced. A backup is a directory
// holding data.mdb, the BACKUP file this verb writes (first line "warlog
// backup 1") and at most a lock.mdb left by a reader: anything else at DIR
// is refused, so a typo cannot replace a live store or someone's files.

#include <CLI/CLI.hpp>
#include <fcntl.h>
#include <fmt/format.h>
#include <stdio.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "common.hpp"
#include "verbs.hpp"
#include "warlog/replay/isolate.hpp"
#include "warlog/store/owner_lock.hpp"
#include "warlog/store/store.hpp"

namespace warlog::cli {

namespace fs = std::filesystem;

namespace {

constexpr const char* kMarker = "BACKUP";
constexpr const char* kMarkerFirstLine = "warlog backup 1";

bool is_previous_backup(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return false;
  bool marker = false, data = false;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const auto name = entry.path().filename().string();
    if (name == kMarker) {
      std::ifstream in(entry.path());
      std::string first;
      std::getline(in, first);
      marker = first == kMarkerFirstLine;
    } else if (name == "data.mdb") {
      data = true;
    } else if (name != "lock.mdb" && name != store::kOwnerLockFile) {  // LMDB's and serve's locks
      return false;
    }
  }
  return !ec && marker && data;
}

Expected<void> fsync_path(const fs::path& p, int flags) {
  const int fd = ::open(p.c_str(), flags | O_CLOEXEC);
  if (fd < 0 || ::fsync(fd) != 0) {
    const int err = errno;
    if (fd >= 0) ::close(fd);
    return make_error(ErrorCode::IoError, fmt::format("cannot flush {}: {}", p.string(), std::strerror(err)));
  }
  ::close(fd);
  return {};
}

// Removes the partial copy unless released: every failure leaves nothing.
struct PartialCopy {
  fs::path dir;
  ~PartialCopy() {
    std::error_code ec;
    if (!dir.empty()) fs::remove_all(dir, ec);
  }
};

std::string size_text(std::uintmax_t bytes) {
  if (bytes < 10 * 1024 * 1024) return fmt::format("{:.1f} KiB", static_cast<double>(bytes) / 1024);
  return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / (1024 * 1024));
}

constexpr std::uint32_t kFailure = 0, kEvents = 1;  // a job's records

// Runs one isolated job over `store`; the first failure becomes `failure`,
// the kEvents records are summed into `events`. Returns how many games
// select chose.
std::size_t run_quiet(replay::IsolatedJob job, const char* doing, std::optional<std::string>& failure,
                      std::uint64_t* events = nullptr) {
  replay::IsolatedSink sink;
  sink.records = [&](core::GameId, std::vector<replay::Record>&& records) {
    for (auto& r : records) {
      if (r.tag == kEvents) {
        if (events) *events += std::stoull(r.bytes);
      } else if (!failure) {
        failure = std::move(r.bytes);
      }
    }
  };
  sink.lost = [&](const replay::LostGame& lost) {
    if (!failure) failure = lost.message(job.store, doing ? std::string_view(doing) : std::string_view());
  };
  auto run = replay::run_isolated(job, sink);
  if (!run) {
    if (!failure) failure = run.error().message;
    return 0;
  }
  return run->games.size();
}

}  // namespace

CLI::App* add_backup(CLI::App& app, Options& o, BackupArgs& b) {
  CLI::App* sub = app.add_subcommand("backup", "Copy the store, while it is in use, to DIR; verify the copy first");
  sub->add_option("--store", o.store, "Store directory (default: $WARLOG_STORE, else .warlog/store)");
  sub->add_option("dir", b.dir, "Where the backup goes (a new directory, or a previous backup to replace)")
      ->required();
  sub->footer(
      "A consistent, compacted copy (one read transaction: writers go on meanwhile) is written to a\n"
      "directory next to DIR, every game's hash chain in it is verified, and only then is it renamed to\n"
      "DIR. A game the copy does not verify (a broken chain, events or annotations with no game record)\n"
      "is refused by name: the copy is removed and DIR left as it was.\n"
      "DIR must not exist, or be a previous backup (it holds the BACKUP file this verb writes, a\n"
      "data.mdb and nothing else but a lock.mdb); anything else is refused. On failure nothing is left.\n"
      "Full blocks of 64 events that an older warlog stored raw are zstd-compressed in the copy, which is\n"
      "then compacted again; no hash changes (the chain is over the events, not how they are stored).\n"
      "The backup is a store: warlog verify --store DIR reads it.\n"
      "Exit 0 on success, 2 on error.");
  return sub;
}

int run_backup(const Options& o, const BackupArgs& b) {
  const std::string store = o.store.empty() ? replay::default_store_path() : o.store;
  auto fail = [](const std::string& message) {
    error_line(Error{ErrorCode::IoError, message});
    return kExitError;
  };
  std::error_code ec;
  const fs::path dir = fs::absolute(b.dir, ec);
  if (ec || dir.filename().empty()) return fail(fmt::format("backup: {} is not a directory name", b.dir));
  if (fs::exists(dir / "data.mdb", ec) && fs::equivalent(dir, store, ec)) {
    return fail(fmt::format("backup: {} is the store itself", b.dir));
  }
  const bool replace = fs::exists(dir, ec);
  if (replace && !is_previous_backup(dir)) {
    return fail(fmt::format("backup: {} exists and is not a previous warlog backup (no {} file from warlog backup, "
                            "or other files in it); not replacing it",
                            b.dir, kMarker));
  }
  PartialCopy partial{dir.parent_path() / fmt::format(".{}.partial-{}", dir.filename().string(), ::getpid())};
  if (!fs::create_directory(partial.dir, ec)) {
    const std::string why = ec ? ec.message() : "it exists";
    partial.dir.clear();
    return fail(fmt::format("backup: cannot create {}: {}", (dir.parent_path() / "...").string(), why));
  }

  // 1. The copy, in a reader of its own: a damaged page ends that process.
  std::optional<std::string> failure;
  replay::IsolatedJob copy;
  copy.store = store;
  copy.select = [](const replay::Archive&) -> Expected<std::vector<core::GameId>> {
    return std::vector<core::GameId>{0};  // one job, not per game
  };
  copy.run = [target = partial.dir](const replay::Archive& archive, core::GameId, replay::Outbox& box) {
    if (auto c = archive.store().copy_compact(target); !c) box.put(kFailure, c.error().message);
  };
  run_quiet(copy, "copying the store", failure);
  if (failure) return fail(fmt::format("backup: {}; nothing written at {}", *failure, b.dir));

  // 2. Every game's chain in the copy, in another.
  replay::IsolatedJob verify;
  verify.store = partial.dir.string();
  verify.jobs = 0;
  // Every id, from the keys, with orphans: events or annotations under an
  // id with no game record (a deleted record) are no verified copy.
  verify.select = [](const replay::Archive& a) { return a.game_ids(/*orphans=*/true); };
  verify.run = [](const replay::Archive& archive, core::GameId id, replay::Outbox& box) {
    auto v = archive.verify(id);
    if (!v) return box.put(kFailure, v.error().message);
    if (v->no_record) return box.put(kFailure, v->detail);  // "game N: events with no game record ..."
    if (!v->ok) {
      return box.put(kFailure,
                     fmt::format("game {} is BROKEN at seq {}: {}", id, v->first_bad_seq.value_or(0), v->detail));
    }
    // Counted for the BACKUP file; a record verify passed but this warlog
    // cannot summarise refuses nothing here.
    if (auto game = archive.game(id)) box.put(kEvents, std::to_string(game->events));
  };
  std::uint64_t events = 0;
  const std::size_t games = run_quiet(verify, "verifying the copy", failure, &events);
  if (failure) return fail(fmt::format("backup: the copy does not verify: {}; nothing written at {}", *failure, b.dir));

  // 3. Mark it, flush it, rename it into place.
  fs::remove(partial.dir / "lock.mdb", ec);
  {
    std::ofstream marker(partial.dir / kMarker);
    marker << kMarkerFirstLine << "\nstore: " << fs::absolute(store, ec).string() << "\ngames: " << games
           << "\nevents: " << events << "\n";
    if (!marker.flush()) return fail(fmt::format("backup: cannot write {}", (partial.dir / kMarker).string()));
  }
  for (const auto& p : {partial.dir / kMarker, partial.dir}) {
    if (auto f = fsync_path(p, p == partial.dir ? O_RDONLY | O_DIRECTORY : O_RDONLY); !f) {
      return fail("backup: " + f.error().message);
    }
  }
  const auto bytes = fs::file_size(partial.dir / "data.mdb", ec);
  // RENAME_EXCHANGE swaps the old backup out in one step (DIR is never
  // missing); RENAME_NOREPLACE refuses a DIR made meanwhile.
  if (::renameat2(AT_FDCWD, partial.dir.c_str(), AT_FDCWD, dir.c_str(), replace ? RENAME_EXCHANGE : RENAME_NOREPLACE) != 0) {
    return fail(fmt::format("backup: cannot rename the copy to {}: {}", b.dir, std::strerror(errno)));
  }
  if (!replace) partial.dir.clear();  // now DIR; on replace, partial.dir holds the old backup, removed
  if (auto f = fsync_path(dir.parent_path(), O_RDONLY | O_DIRECTORY); !f) return fail("backup: " + f.error().message);
  fmt::print("backup: {} game{} verified ({} events), {} written to {}\n", games, games == 1 ? "" : "s", events,
             size_text(bytes), b.dir);
  return kExitClean;
}

}  // namespace warlog::cli
