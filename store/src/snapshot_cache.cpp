// The per-user snapshot cache (snapshot_cache.hpp): its own LMDB
// environment, keys bound to what a snapshot was folded from, values MACed
// under the local key.

#include "warlog/store/snapshot_cache.hpp"

#include <fcntl.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <system_error>

#include "warlog/store/keys.hpp"
#include "warlog/store/lmdb.hpp"

namespace warlog::store {

namespace fs = std::filesystem;

namespace {

static_assert(crypto_auth_BYTES == 32 && crypto_auth_KEYBYTES == 32);
constexpr std::size_t kMacBytes = crypto_auth_BYTES;
// .2: a snapshot's state holds the turn the game was decided in
// (decidedTurn); one cached before would read as decided in turn 0.
constexpr std::string_view kKeyTag = "warlog.snapshot-cache.2";
constexpr const char* kDbCacheSnapshots = "snapshots";
constexpr const char* kDbCacheByGame = "by_game";
constexpr const char* kDbCacheWalked = "walked";
constexpr std::string_view kWalkedTag = "warlog.walked-blocks.1";
// Address space, not disk: LMDB grows data.mdb as pages are used. 2,000
// snapshots of ~1.5 KB per million events: room for thousands of such games.
constexpr std::size_t kCacheMapSize = std::size_t{8} << 30;

[[nodiscard]] const char* env_or_null(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? v : nullptr;
}

[[nodiscard]] Error io_error(std::string_view doing, const fs::path& p, int err) {
  return Error{ErrorCode::IoError, fmt::format("{} {}: {}", doing, p.string(), std::strerror(err))};
}

[[nodiscard]] Error cache_error(const fs::path& dir, std::string_view doing, int rc) {
  ErrorCode code = rc > 0 ? ErrorCode::IoError : ErrorCode::Internal;
  if (rc == MDB_MAP_FULL || rc == MDB_READERS_FULL || rc == ENOSPC) code = ErrorCode::ResourceExhausted;
  if (rc == MDB_INVALID || rc == MDB_CORRUPTED || rc == MDB_PAGE_NOTFOUND) code = ErrorCode::DataLoss;
  return Error{code, fmt::format("snapshot cache {}: {}: {}", dir.string(), doing, lmdb::strerror(rc))};
}

// Reads a key file that exists; checks it is the user's alone.
[[nodiscard]] Expected<std::string> read_key(const fs::path& file) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return tl::unexpected(io_error("cannot open the local key", file, errno));
  struct stat st {};
  std::string key(crypto_auth_KEYBYTES + 1, '\0');
  ssize_t n = -1;
  if (::fstat(fd, &st) == 0) n = ::read(fd, key.data(), key.size());
  const int err = errno;
  ::close(fd);
  if (n < 0) return tl::unexpected(io_error("cannot read the local key", file, err));
  if ((st.st_mode & 0077) != 0) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("local key {} may be read or written by others (mode {:04o}): anyone who can "
                                  "read it can forge snapshots; chmod 600 it, or delete it to make a new one",
                                  file.string(), st.st_mode & 07777));
  }
  if (!S_ISREG(st.st_mode) || static_cast<std::size_t>(n) != crypto_auth_KEYBYTES) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("local key {} is not {} bytes; delete it to make a new one", file.string(),
                                  crypto_auth_KEYBYTES));
  }
  key.resize(crypto_auth_KEYBYTES);
  return key;
}

// Writes a new key beside `file` and links it into place: two processes
// making it at once both end up reading the one that won.
[[nodiscard]] Expected<void> make_key(const fs::path& file) {
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  if (ec) return tl::unexpected(io_error("cannot make the directory of the local key", file, ec.value()));
  (void)::chmod(file.parent_path().c_str(), 0700);
  const fs::path tmp = file.string() + fmt::format(".{}.tmp", ::getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return tl::unexpected(io_error("cannot make the local key", tmp, errno));
  unsigned char key[crypto_auth_KEYBYTES];
  crypto_auth_keygen(key);
  const bool written = ::fchmod(fd, 0600) == 0 && ::write(fd, key, sizeof key) == static_cast<ssize_t>(sizeof key) &&
                       ::fsync(fd) == 0;
  const int err = errno;
  sodium_memzero(key, sizeof key);
  ::close(fd);
  if (!written) {
    ::unlink(tmp.c_str());
    return tl::unexpected(io_error("cannot write the local key", tmp, err));
  }
  const int linked = ::link(tmp.c_str(), file.c_str());
  const int link_err = errno;
  ::unlink(tmp.c_str());
  if (linked != 0 && link_err != EEXIST) return tl::unexpected(io_error("cannot make the local key", file, link_err));
  return {};
}

void put_be32(char* out, std::uint32_t v) noexcept {
  for (int i = 3; i >= 0; --i) {
    out[i] = static_cast<char>(v & 0xFF);
    v >>= 8;
  }
}

[[nodiscard]] std::string_view digest_view(const core::Digest& d) noexcept {
  return {reinterpret_cast<const char*>(d.data()), d.size()};
}

using ByGameKey = std::array<char, 72>;
[[nodiscard]] ByGameKey by_game_key(const core::Digest& identity, core::Seq seq, const core::Digest& key) noexcept {
  ByGameKey k{};
  std::memcpy(k.data(), identity.data(), 32);
  put_be64(k.data() + 32, seq);
  std::memcpy(k.data() + 40, key.data(), 32);
  return k;
}

[[nodiscard]] bool of_game(std::string_view k, const core::Digest& identity) noexcept {
  return k.size() == 72 && std::memcmp(k.data(), identity.data(), 32) == 0;
}

// The process's open caches, by directory: LMDB forbids a second open.
std::mutex g_caches_mutex;
std::map<fs::path, std::weak_ptr<SnapshotCache>> g_caches;

}  // namespace

// --- Location and key -------------------------------------------------------------
Expected<CacheLocation> default_cache_location() {
  const char* home = env_or_null("HOME");
  CacheLocation where;
  if (const char* dir = env_or_null("WARLOG_CACHE_DIR")) {
    where.dir = dir;
  } else if (const char* xdg = env_or_null("XDG_CACHE_HOME")) {
    where.dir = fs::path(xdg) / "warlog" / "snapshots";
  } else if (home != nullptr) {
    where.dir = fs::path(home) / ".cache" / "warlog" / "snapshots";
  } else {
    return make_error(ErrorCode::NotFound, "no snapshot cache: set WARLOG_CACHE_DIR, XDG_CACHE_HOME or HOME");
  }
  if (const char* xdg = env_or_null("XDG_CONFIG_HOME")) {
    where.key_file = fs::path(xdg) / "warlog" / "local.key";
  } else if (home != nullptr) {
    where.key_file = fs::path(home) / ".config" / "warlog" / "local.key";
  } else {
    return make_error(ErrorCode::NotFound, "no local key for the snapshot cache: set XDG_CONFIG_HOME or HOME");
  }
  return where;
}

Expected<std::string> load_local_key(const fs::path& key_file) {
  if (sodium_init() < 0) return make_error(ErrorCode::Internal, "libsodium failed to initialise");
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(key_file, ec))) {
    if (auto made = make_key(key_file); !made) return tl::unexpected(made.error());
  }
  return read_key(key_file);
}

core::Digest cache_key(const SnapshotBinding& b) noexcept {
  std::string msg;
  msg.reserve(kKeyTag.size() + 32 * 5 + 12);
  msg.append(kKeyTag);
  msg.append(digest_view(b.identity));
  char seq[8];
  put_be64(seq, b.seq);
  msg.append(seq, 8);
  msg.append(digest_view(b.chain));
  msg.append(digest_view(b.ruleset));
  msg.append(digest_view(b.catalog));
  char version[4];
  put_be32(version, b.engine_version);
  msg.append(version, 4);
  return core::blake2b(msg);
}

// --- The environment ----------------------------------------------------------------
struct SnapshotCache::Impl {
  CacheLocation where;
  std::string mac_key;
  lmdb::Env env;
  MDB_dbi snapshots = 0;
  MDB_dbi by_game = 0;
  MDB_dbi walked = 0;

  ~Impl() { sodium_memzero(mac_key.data(), mac_key.size()); }

  [[nodiscard]] std::array<unsigned char, kMacBytes> mac(const core::Digest& key, std::string_view bytes) const {
    crypto_auth_hmacsha512256_state st;
    std::array<unsigned char, kMacBytes> out{};
    // crypto_auth is HMAC-SHA512-256; the streaming form avoids a copy.
    crypto_auth_hmacsha512256_init(&st, reinterpret_cast<const unsigned char*>(mac_key.data()), mac_key.size());
    crypto_auth_hmacsha512256_update(&st, key.data(), key.size());
    crypto_auth_hmacsha512256_update(&st, reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
    crypto_auth_hmacsha512256_final(&st, out.data());
    return out;
  }
  // The snapshot bytes of a stored value if its MAC holds under `key`.
  [[nodiscard]] std::optional<std::string_view> authentic(const core::Digest& key, std::string_view value) const {
    if (value.size() < kMacBytes) return std::nullopt;
    const std::string_view bytes = value.substr(0, value.size() - kMacBytes);
    const auto want = mac(key, bytes);
    if (sodium_memcmp(want.data(), value.data() + bytes.size(), kMacBytes) != 0) return std::nullopt;
    return bytes;
  }
};

SnapshotCache::SnapshotCache(std::unique_ptr<Impl> impl) noexcept : impl_(std::move(impl)) {}
SnapshotCache::~SnapshotCache() = default;
const CacheLocation& SnapshotCache::location() const noexcept { return impl_->where; }

Expected<std::shared_ptr<SnapshotCache>> SnapshotCache::open(const CacheLocation& where) {
  std::error_code ec;
  fs::create_directories(where.dir, ec);
  if (ec) return tl::unexpected(io_error("cannot make the snapshot cache", where.dir, ec.value()));
  const fs::path canonical = fs::weakly_canonical(where.dir, ec);
  const fs::path id = ec ? where.dir : canonical;
  std::lock_guard lock(g_caches_mutex);
  if (auto it = g_caches.find(id); it != g_caches.end()) {
    if (auto open = it->second.lock()) return open;
  }
  auto key = load_local_key(where.key_file);
  if (!key) return tl::unexpected(key.error());
  auto impl = std::make_unique<Impl>();
  impl->where = where;
  impl->mac_key = std::move(*key);
  auto env = lmdb::Env::create();
  if (!env) return tl::unexpected(cache_error(where.dir, "creating the environment", env.error()));
  impl->env = std::move(*env);
  auto ok = impl->env.set_maxdbs(3).and_then([&] { return impl->env.set_mapsize(kCacheMapSize); });
  if (!ok) return tl::unexpected(cache_error(where.dir, "configuring the environment", ok.error()));
  // NOTLS: a read may be begun on one thread and ended on another.
  // NOMETASYNC: one flush per commit; a crash loses at most the last writes.
  if (auto o = impl->env.open(where.dir.c_str(), MDB_NOTLS | MDB_NOMETASYNC, 0600); !o) {
    return tl::unexpected(cache_error(where.dir, "opening", o.error()));
  }
  (void)impl->env.reader_check();
  auto txn = lmdb::Txn::begin(impl->env.handle(), nullptr, 0);
  if (!txn) return tl::unexpected(cache_error(where.dir, "beginning a write", txn.error()));
  for (auto [name, dbi] : {std::pair{kDbCacheSnapshots, &impl->snapshots}, std::pair{kDbCacheByGame, &impl->by_game},
                            std::pair{kDbCacheWalked, &impl->walked}}) {
    if (auto d = lmdb::dbi_open(txn->handle(), name, MDB_CREATE, *dbi); !d) {
      return tl::unexpected(cache_error(where.dir, "opening a database", d.error()));
    }
  }
  if (auto c = txn->commit(); !c) return tl::unexpected(cache_error(where.dir, "creating the databases", c.error()));
  auto cache = std::shared_ptr<SnapshotCache>(new SnapshotCache(std::move(impl)));
  g_caches[id] = cache;
  return cache;
}

// --- Reading ------------------------------------------------------------------------
Expected<std::optional<core::Seq>> SnapshotCache::nearest_seq(const core::Digest& identity, core::Seq seq) const {
  const Impl& m = *impl_;
  auto txn = lmdb::Txn::begin(m.env.handle(), nullptr, MDB_RDONLY);
  if (!txn) return tl::unexpected(cache_error(m.where.dir, "beginning a read", txn.error()));
  auto cursor = lmdb::Cursor::open(txn->handle(), m.by_game);
  if (!cursor) return tl::unexpected(cache_error(m.where.dir, "opening a cursor", cursor.error()));
  // The first key past every entry at `seq`, then one step back.
  core::Digest ones;
  ones.fill(0xFF);
  const auto past = by_game_key(identity, seq, ones);
  auto at = cursor->get(MDB_SET_RANGE, view(past));
  if (!at) return tl::unexpected(cache_error(m.where.dir, "reading", at.error()));
  if (*at && cursor->key() == view(past)) return seq;
  auto e = *at ? cursor->get(MDB_PREV) : cursor->get(MDB_LAST);
  if (!e) return tl::unexpected(cache_error(m.where.dir, "reading", e.error()));
  if (!*e || !of_game(cursor->key(), identity)) return std::nullopt;
  return get_be64(cursor->key().data() + 32);
}

Expected<SnapshotCache::Lookup> SnapshotCache::get(const SnapshotBinding& b) const {
  const Impl& m = *impl_;
  const core::Digest key = cache_key(b);
  auto txn = lmdb::Txn::begin(m.env.handle(), nullptr, MDB_RDONLY);
  if (!txn) return tl::unexpected(cache_error(m.where.dir, "beginning a read", txn.error()));
  auto v = lmdb::get(txn->handle(), m.snapshots, digest_view(key));
  if (!v) return tl::unexpected(cache_error(m.where.dir, "reading a snapshot", v.error()));
  Lookup out;
  if (!*v) return out;
  if (auto bytes = m.authentic(key, **v)) {
    out.bytes = std::string(*bytes);
  } else {
    out.bad_mac = true;
  }
  return out;
}

Expected<std::vector<CacheEntry>> SnapshotCache::entries(const core::Digest& identity) const {
  const Impl& m = *impl_;
  auto txn = lmdb::Txn::begin(m.env.handle(), nullptr, MDB_RDONLY);
  if (!txn) return tl::unexpected(cache_error(m.where.dir, "beginning a read", txn.error()));
  auto cursor = lmdb::Cursor::open(txn->handle(), m.by_game);
  if (!cursor) return tl::unexpected(cache_error(m.where.dir, "opening a cursor", cursor.error()));
  std::vector<CacheEntry> out;
  for (auto e = cursor->get(MDB_SET_RANGE, digest_view(identity));; e = cursor->get(MDB_NEXT)) {
    if (!e) return tl::unexpected(cache_error(m.where.dir, "reading", e.error()));
    if (!*e || !of_game(cursor->key(), identity)) break;
    CacheEntry entry;
    entry.seq = get_be64(cursor->key().data() + 32);
    std::memcpy(entry.key.data(), cursor->key().data() + 40, 32);
    auto v = lmdb::get(txn->handle(), m.snapshots, digest_view(entry.key));
    if (!v) return tl::unexpected(cache_error(m.where.dir, "reading a snapshot", v.error()));
    if (*v) {
      auto bytes = m.authentic(entry.key, **v);
      entry.state = bytes ? CacheEntry::State::Authentic : CacheEntry::State::BadMac;
      if (bytes) entry.bytes = std::string(*bytes);
    }
    out.push_back(std::move(entry));
  }
  return out;
}

// --- Blocks walked whole --------------------------------------------------------------
namespace {

// What a walked record's MAC is keyed by: never a snapshot's cache key.
core::Digest walked_mac_key(const core::Digest& identity) {
  std::string msg(kWalkedTag);
  msg.append(digest_view(identity));
  return core::blake2b(msg);
}

}  // namespace

Expected<SnapshotCache::Walked> SnapshotCache::walked(const core::Digest& identity) const {
  const Impl& m = *impl_;
  auto txn = lmdb::Txn::begin(m.env.handle(), nullptr, MDB_RDONLY);
  if (!txn) return tl::unexpected(cache_error(m.where.dir, "beginning a read", txn.error()));
  auto v = lmdb::get(txn->handle(), m.walked, digest_view(identity));
  if (!v) return tl::unexpected(cache_error(m.where.dir, "reading a walked record", v.error()));
  Walked out;
  if (!*v) return out;
  auto bytes = m.authentic(walked_mac_key(identity), **v);
  if (!bytes || bytes->size() % sizeof(core::Digest) != 0) {
    out.bad_mac = true;
    return out;
  }
  out.blocks.resize(bytes->size() / sizeof(core::Digest));
  std::memcpy(out.blocks.data(), bytes->data(), bytes->size());
  return out;
}

Expected<void> SnapshotCache::put_walked(std::span<const WalkedGame> games) {
  const Impl& m = *impl_;
  auto txn = lmdb::Txn::begin(m.env.handle(), nullptr, 0);
  if (!txn) return tl::unexpected(cache_error(m.where.dir, "beginning a write", txn.error()));
  std::string value;
  for (const WalkedGame& g : games) {
    value.assign(reinterpret_cast<const char*>(g.blocks.data()), g.blocks.size() * sizeof(core::Digest));
    const auto mac = m.mac(walked_mac_key(g.identity), value);
    value.append(reinterpret_cast<const char*>(mac.data()), mac.size());
    auto p = lmdb::put(txn->handle(), m.walked, digest_view(g.identity), value, 0);
    if (!p) return tl::unexpected(cache_error(m.where.dir, "writing a walked record", p.error()));
  }
  if (auto c = txn->commit(); !c) return tl::unexpected(cache_error(m.where.dir, "committing walked records", c.error()));
  return {};
}

// --- Writing ------------------------------------------------------------------------
Expected<void> SnapshotCache::put(std::span<const CachedSnapshot> snapshots) {
  const Impl& m = *impl_;
  auto txn = lmdb::Txn::begin(m.env.handle(), nullptr, 0);
  if (!txn) return tl::unexpected(cache_error(m.where.dir, "beginning a write", txn.error()));
  std::string value;
  for (const CachedSnapshot& s : snapshots) {
    const core::Digest key = cache_key(s.binding);
    const auto mac = m.mac(key, s.bytes);
    value.assign(s.bytes);
    value.append(reinterpret_cast<const char*>(mac.data()), mac.size());
    auto p = lmdb::put(txn->handle(), m.snapshots, digest_view(key), value, 0);
    if (!p) return tl::unexpected(cache_error(m.where.dir, "writing a snapshot", p.error()));
    const auto hint = by_game_key(s.binding.identity, s.binding.seq, key);
    auto h = lmdb::put(txn->handle(), m.by_game, view(hint), {}, 0);
    if (!h) return tl::unexpected(cache_error(m.where.dir, "writing a snapshot", h.error()));
  }
  if (auto c = txn->commit(); !c) return tl::unexpected(cache_error(m.where.dir, "committing snapshots", c.error()));
  return {};
}

Expected<std::size_t> SnapshotCache::drop(const core::Digest& identity,
                                          const std::function<bool(const CacheEntry&)>& drop) {
  auto all = entries(identity);
  if (!all) return tl::unexpected(all.error());
  const Impl& m = *impl_;
  auto txn = lmdb::Txn::begin(m.env.handle(), nullptr, 0);
  if (!txn) return tl::unexpected(cache_error(m.where.dir, "beginning a write", txn.error()));
  std::size_t dropped = 0;
  for (const CacheEntry& e : *all) {
    if (drop && !drop(e)) continue;
    const auto hint = by_game_key(identity, e.seq, e.key);
    auto h = lmdb::del(txn->handle(), m.by_game, view(hint));
    if (!h) return tl::unexpected(cache_error(m.where.dir, "removing a snapshot", h.error()));
    auto d = lmdb::del(txn->handle(), m.snapshots, digest_view(e.key));
    if (!d) return tl::unexpected(cache_error(m.where.dir, "removing a snapshot", d.error()));
    ++dropped;
  }
  if (auto c = txn->commit(); !c) return tl::unexpected(cache_error(m.where.dir, "committing", c.error()));
  return dropped;
}

}  // namespace warlog::store
