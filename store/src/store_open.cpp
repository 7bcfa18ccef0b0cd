// Opening a store: the directory, the environment, the databases, the format
// check; and the Reader factory (it shares the remap lock with growth).

#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <optional>
#include <set>
#include <utility>

#include "file_pages.hpp"
#include "shared.hpp"
#include "warlog/store/keys.hpp"
#include "warlog/store/store.hpp"
#include "write_txn.hpp"

namespace warlog::store {

namespace fs = std::filesystem;

namespace detail {

namespace {

// Bytes free on the file system holding the store (what root may use: its
// reserve included), or nullopt when statvfs fails.
std::optional<std::uintmax_t> free_bytes(const fs::path& dir) {
  struct statvfs v {};
  if (::statvfs(dir.c_str(), &v) != 0) return std::nullopt;
  return static_cast<std::uintmax_t>(::geteuid() == 0 ? v.f_bfree : v.f_bavail) * v.f_frsize;
}

// LMDB says EIO for a short pwrite ("filesystem full?" in mdb.c), which is
// what a disk that fills in the middle of a commit gives; ENOSPC when it was
// full before. Less than this left after a failed write is a full disk.
constexpr std::uintmax_t kFullBelow = 1 << 20;

}  // namespace

Error lmdb_error(const Shared& s, std::string_view doing, int rc) {
  if (rc == ENOSPC || rc == EIO) {
    const auto left = free_bytes(s.path);
    if (rc == ENOSPC || (left && *left < kFullBelow)) {
      return Error{ErrorCode::ResourceExhausted,
                   fmt::format("store {}: {}: the disk is full ({} KiB free on the file system holding the store); "
                               "the transaction was not committed: free some space and retry",
                               s.path.string(), doing, left ? *left / 1024 : 0)};
    }
  }
  ErrorCode code = ErrorCode::Internal;
  switch (rc) {
    case MDB_MAP_FULL:
    case MDB_READERS_FULL:
    case MDB_TXN_FULL:
    case ENOSPC:
    case ENOMEM:
      code = ErrorCode::ResourceExhausted;
      break;
    case MDB_CORRUPTED:
    case MDB_PAGE_NOTFOUND:
    case MDB_INVALID:
      code = ErrorCode::DataLoss;
      break;
    case MDB_VERSION_MISMATCH:
      code = ErrorCode::Unsupported;
      break;
    default:
      // Positive codes are errno values: the operating system said no.
      code = rc > 0 ? ErrorCode::IoError : ErrorCode::Internal;
  }
  return Error{code, fmt::format("store {}: {}: {}", s.path.string(), doing, lmdb::strerror(rc))};
}

// --- OpenGuard ----------------------------------------------------------------
namespace {
// The directories this process has open, by (device, inode): a guard against
// LMDB's "never open one environment twice in a process", not a cache.
std::mutex g_open_mutex;
std::set<std::pair<std::uint64_t, std::uint64_t>> g_open;
}  // namespace

Expected<OpenGuard> OpenGuard::acquire(const fs::path& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) {
    return make_error(ErrorCode::IoError,
                      fmt::format("cannot stat {}: {}", dir.string(), std::strerror(errno)));
  }
  std::lock_guard lock(g_open_mutex);
  const auto key = std::pair<std::uint64_t, std::uint64_t>{st.st_dev, st.st_ino};
  if (!g_open.insert(key).second) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("store {} is already open in this process; share the Store "
                                  "(LMDB forbids opening an environment twice per process)",
                                  dir.string()));
  }
  OpenGuard g;
  g.held_ = true;
  g.dev_ = key.first;
  g.ino_ = key.second;
  return g;
}

OpenGuard::OpenGuard(OpenGuard&& o) noexcept
    : held_(std::exchange(o.held_, false)), dev_(o.dev_), ino_(o.ino_) {}

OpenGuard& OpenGuard::operator=(OpenGuard&& o) noexcept {
  if (this != &o) {
    release();
    held_ = std::exchange(o.held_, false);
    dev_ = o.dev_;
    ino_ = o.ino_;
  }
  return *this;
}

OpenGuard::~OpenGuard() { release(); }

void OpenGuard::release() noexcept {
  if (!held_) return;
  std::lock_guard lock(g_open_mutex);
  g_open.erase({dev_, ino_});
  held_ = false;
}

}  // namespace detail

namespace {

using detail::Dbis;
using detail::Shared;

constexpr unsigned kMaxDbs = 16;  // 7 today; room for later formats

// Reads and checks meta "format". Unsupported for a newer store.
Expected<void> check_format(const Shared& s, MDB_txn* txn, MDB_dbi meta) {
  auto v = lmdb::get(txn, meta, kFormatKey);
  if (!v) return detail::fail(s, "reading the format version", v.error());
  if (!*v || (*v)->size() != 4) {
    return make_error(
        ErrorCode::DataLoss,
        fmt::format("store {}: the format version in meta is missing or corrupt", s.path.string()));
  }
  std::uint32_t format = 0;
  for (char c : **v) format = format << 8 | static_cast<unsigned char>(c);
  if (format > kFormatVersion) {
    return make_error(ErrorCode::Unsupported,
                      fmt::format("store {} has format {}, newer than this warlog reads ({}); "
                                  "upgrade warlog to open it",
                                  s.path.string(), format, kFormatVersion));
  }
  if (format < kFormatVersion && format > 0) {
    return make_error(ErrorCode::Unsupported,
                      fmt::format("store {} has format {}: run `warlog migrate`", s.path.string(), format));
  }
  if (format == 0) {
    return make_error(ErrorCode::DataLoss,
                      fmt::format("store {}: format version 0 is invalid", s.path.string()));
  }
  return {};
}

// Fails when the environment already holds something other than a warlog store.
Expected<bool> env_is_empty(const Shared& s, MDB_txn* txn) {
  MDB_dbi main = 0;
  if (auto r = lmdb::dbi_open(txn, nullptr, 0, main); !r) {
    return detail::fail(s, "opening the main database", r.error());
  }
  auto st = lmdb::dbi_stat(txn, main);
  if (!st) return detail::fail(s, "reading the main database", st.error());
  return st->ms_entries == 0;
}

Expected<Dbis> open_dbis(const Shared& s, MDB_txn* txn, unsigned flags) {
  Dbis d;
  const std::pair<const char*, MDB_dbi*> all[] = {
      {kDbGames, &d.games}, {kDbEvents, &d.events},       {kDbIdentity, &d.identity},
      {kDbBlobs, &d.blobs}, {kDbSnapshots, &d.snapshots}, {kDbAnnotations, &d.annotations},
      {kDbMeta, &d.meta}};
  for (auto [name, out] : all) {
    auto found = lmdb::dbi_open(txn, name, flags, *out);
    if (!found) return detail::fail(s, fmt::format("opening database {}", name), found.error());
    if (!*found) {
      return make_error(ErrorCode::DataLoss,
                        fmt::format("store {} lacks the {} database", s.path.string(), name));
    }
  }
  return d;
}

// A data.mdb that ends before a page LMDB may read (a copy cut short, a full
// disk, a bad transfer): LMDB maps the file and would die of SIGBUS on the
// first read of a page past its end, so this runs before any tree is read.
// A file may end short of the pages its meta page counts and be whole: the
// pages past its end are free and were never written (file_pages.cpp).
// Nothing is written either way.
Expected<void> check_not_truncated(Shared& s) {
  std::unique_lock lock(s.remap_mutex);
  auto txn = detail::begin_read(s, lock);
  if (!txn) return tl::unexpected(txn.error());
  return detail::check_pages_present(s, txn->handle());
}

// Neither a warlog store nor an empty environment.
Error not_a_store(const Shared& s) {
  return Error{ErrorCode::InvalidArgument,
               fmt::format("{} holds an LMDB environment that is not a warlog store",
                           s.path.string())};
}

Expected<Dbis> init_read_write(Shared& s) {
  auto init = [&](detail::WriteTxn& w) -> Expected<Dbis> {
    MDB_txn* txn = w.txn.handle();
    MDB_dbi meta = 0;
    auto found = lmdb::dbi_open(txn, kDbMeta, 0, meta);
    if (!found) return detail::fail(s, "opening database meta", found.error());
    const bool fresh = !*found;
    if (fresh) {
      auto empty = env_is_empty(s, txn);
      if (!empty) return tl::unexpected(empty.error());
      if (!*empty) return tl::unexpected(not_a_store(s));
    } else if (auto ok = check_format(s, txn, meta); !ok) {
      return tl::unexpected(ok.error());
    }
    auto dbis = open_dbis(s, txn, MDB_CREATE);
    if (!dbis) return dbis;
    if (fresh) {
      static_assert(kFormatVersion < 256);
      const char v[4] = {0, 0, 0, static_cast<char>(kFormatVersion)};
      auto put = w.put(dbis->meta, kFormatKey, {v, 4}, 0, "writing the format version");
      if (!put) return tl::unexpected(put.error());
    }
    return dbis;
  };
  return detail::with_write_txn<Dbis>(s, Durability::Sync, init);
}

Expected<Dbis> init_read_only(Shared& s) {
  std::unique_lock lock(s.remap_mutex);
  auto txn = detail::begin_read(s, lock);
  if (!txn) return tl::unexpected(txn.error());
  MDB_dbi meta = 0;
  auto found = lmdb::dbi_open(txn->handle(), kDbMeta, 0, meta);
  if (!found) return detail::fail(s, "opening database meta", found.error());
  if (!*found) {
    auto empty = env_is_empty(s, txn->handle());
    if (!empty) return tl::unexpected(empty.error());
    if (*empty) {
      return make_error(ErrorCode::NotFound, fmt::format("no warlog store at {}", s.path.string()));
    }
    return tl::unexpected(not_a_store(s));
  }
  if (auto ok = check_format(s, txn->handle(), meta); !ok) return tl::unexpected(ok.error());
  auto dbis = open_dbis(s, txn->handle(), 0);
  if (!dbis) return dbis;
  // Commit, not abort: handles opened in an aborted txn are closed.
  if (auto c = txn->commit(); !c) return detail::fail(s, "opening the databases", c.error());
  return dbis;
}

}  // namespace

// --- Store ------------------------------------------------------------------------
Expected<Store> Store::open(const fs::path& path, const Options& options) {
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (ec && ec != std::errc::no_such_file_or_directory) {
    return make_error(ErrorCode::IoError,
                      fmt::format("cannot read {}: {}", path.string(), ec.message()));
  }
  if (!fs::exists(status)) {
    if (options.read_only) {
      return make_error(ErrorCode::NotFound, fmt::format("no warlog store at {}", path.string()));
    }
    if (!fs::create_directories(path, ec) && ec) {
      return make_error(ErrorCode::IoError, fmt::format("cannot create store directory {}: {}",
                                                        path.string(), ec.message()));
    }
  } else if (!fs::is_directory(status)) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("{} is not a directory (a warlog store is a directory holding "
                                  "data.mdb)",
                                  path.string()));
  }
  const bool existed = fs::exists(path / "data.mdb", ec);
  if (ec) {
    return make_error(ErrorCode::IoError,
                      fmt::format("cannot read {}: {}", path.string(), ec.message()));
  }
  // LMDB takes an empty data.mdb for a new environment and would write a
  // fresh, empty store over what was a truncated one.
  if (existed && fs::file_size(path / "data.mdb", ec) == 0 && !ec) {
    return make_error(ErrorCode::DataLoss,
                      fmt::format("store {}: data.mdb is empty (truncated to 0 bytes); restore it from a copy",
                                  path.string()));
  }
  if (options.read_only && !existed) {
    return make_error(ErrorCode::NotFound, fmt::format("no warlog store at {}", path.string()));
  }

  auto guard = detail::OpenGuard::acquire(path);
  if (!guard) return tl::unexpected(guard.error());
  auto shared = std::make_shared<Shared>();
  Shared& s = *shared;
  s.guard = std::move(*guard);
  if (!options.read_only) {
    auto owner = options.serve_owner ? OwnerLock::own(path) : OwnerLock::share(path);
    if (!owner) return tl::unexpected(owner.error());
    s.owner = std::move(*owner);
  }
  s.path = path;
  s.read_only = options.read_only;
  s.max_map_size = std::max(options.max_map_size, options.map_size);

  auto env = lmdb::Env::create();
  if (!env) return detail::fail(s, "creating the environment", env.error());
  s.env = std::move(*env);
  if (auto r = s.env.set_maxdbs(kMaxDbs); !r) return detail::fail(s, "setting maxdbs", r.error());
  if (auto r = s.env.set_maxreaders(options.max_readers); !r) {
    return detail::fail(s, "setting maxreaders", r.error());
  }
  // A new store starts at options.map_size; an existing one adopts its recorded size.
  if (!options.read_only && !existed) {
    if (auto r = s.env.set_mapsize(options.map_size); !r)
      return detail::fail(s, "setting the map size", r.error());
  }
  const unsigned flags = MDB_NOTLS | (options.read_only ? MDB_RDONLY : 0u);
  if (auto r = s.env.open(path.c_str(), flags, 0644); !r) {
    if (r.error() == MDB_INVALID) {
      return make_error(ErrorCode::DataLoss,
                        fmt::format("{}: data.mdb is not an LMDB file", path.string()));
    }
    return detail::fail(s, "opening", r.error());
  }
  if (auto dead = s.env.reader_check(); !dead) {
    return detail::fail(s, "clearing stale readers", dead.error());
  }
  auto info = s.env.info();
  if (!info) return detail::fail(s, "reading the environment info", info.error());
  if (!options.read_only && info->me_mapsize < options.map_size) {
    if (auto r = s.env.set_mapsize(options.map_size); !r)
      return detail::fail(s, "setting the map size", r.error());
    info = s.env.info();
    if (!info) return detail::fail(s, "reading the environment info", info.error());
  }
  s.map_size = info->me_mapsize;
  if (existed) {
    if (auto whole = check_not_truncated(s); !whole) return tl::unexpected(whole.error());
  }

  auto dbis = options.read_only ? init_read_only(s) : init_read_write(s);
  if (!dbis) return tl::unexpected(dbis.error());
  s.dbi = *dbis;
  return Store(std::move(shared));
}

Store::Store(std::shared_ptr<detail::Shared> shared) noexcept : shared_(std::move(shared)) {}
Store::Store(Store&&) noexcept = default;
Store& Store::operator=(Store&&) noexcept = default;
Store::~Store() = default;

const fs::path& Store::path() const noexcept { return shared_->path; }
bool Store::read_only() const noexcept { return shared_->read_only; }
std::size_t Store::map_size() const noexcept {
  std::lock_guard lock(shared_->remap_mutex);
  return shared_->map_size;
}

namespace detail {

Expected<lmdb::Txn> begin_read(Shared& s, std::unique_lock<std::mutex>& lock) {
  // Each adoption follows a growth by the other process; it is not endless
  // (the map doubles, or the other process stops), but a bound keeps a bug
  // from spinning.
  constexpr int kMaxAdoptions = 1000;
  constexpr auto kWait = std::chrono::seconds(30);
  for (int adopted = 0;;) {
    auto txn = lmdb::Txn::begin(s.env.handle(), nullptr, MDB_RDONLY);
    if (txn) return std::move(*txn);
    if (txn.error() != MDB_MAP_RESIZED) return fail(s, "beginning a read transaction", txn.error());
    if (const auto mine = s.readers_of.find(std::this_thread::get_id()); mine != s.readers_of.end()) {
      return make_error(ErrorCode::ResourceExhausted,
                        fmt::format("store {}: another process grew the map, and this thread still holds {} "
                                    "reader(s) of the store; end them and retry",
                                    s.path.string(), mine->second));
    }
    if (s.live_readers > 0) {
      if (!s.readers_gone.wait_for(lock, kWait, [&] { return s.live_readers == 0; })) {
        return make_error(ErrorCode::ResourceExhausted,
                          fmt::format("store {}: another process grew the map, and {} reader(s) of the store "
                                      "stayed open for {} s; close them and retry",
                                      s.path.string(), s.live_readers, kWait.count()));
      }
      continue;  // another waiter may have adopted the size meanwhile
    }
    if (++adopted > kMaxAdoptions) {
      return make_error(ErrorCode::ResourceExhausted,
                        fmt::format("store {}: another process grew the map {} times while this one began "
                                    "one read transaction",
                                    s.path.string(), kMaxAdoptions));
    }
    s.pages.forget();  // of the old map, which set_mapsize unmaps
    if (auto r = s.env.set_mapsize(0); !r) return fail(s, "adopting the grown map", r.error());
    auto info = s.env.info();
    if (!info) return fail(s, "reading the environment info", info.error());
    s.map_size = info->me_mapsize;
  }
}

}  // namespace detail

Expected<Reader> Store::reader() const {
  Shared& s = *shared_;
  std::unique_lock lock(s.remap_mutex);
  auto txn = detail::begin_read(s, lock);
  if (!txn) return tl::unexpected(txn.error());
  ++s.live_readers;
  ++s.readers_of[std::this_thread::get_id()];
  return Reader(shared_, txn->release());
}

Expected<void> Store::sync() {
  if (shared_->read_only) return {};
  if (auto r = shared_->env.sync(true); !r) return detail::fail(*shared_, "syncing", r.error());
  return {};
}

}  // namespace warlog::store
