#pragma once
// A thin RAII layer over the LMDB C API, in the spirit of lmdbxx: names match
// the C functions (mdb_env_set_mapsize -> Env::set_mapsize, mdb_cursor_get ->
// Cursor::get), so the LMDB manual still applies. Store internals and tests
// use it; the replay facade and front ends use store.hpp only.
//
// Errors are LMDB or errno return codes (`int`), not exceptions: the store
// maps them to warlog::Error with context, and needs the raw code to tell
// MDB_MAP_FULL (grow and retry) from the rest. An expected miss (MDB_NOTFOUND,
// MDB_KEYEXIST) is a plain value: an empty optional or `false`.
//
// Lifetimes: Env outlives every Txn begun on it; a Cursor dies before its Txn.
// Views returned by get() point into the memory map and are valid until the
// transaction ends (or, in a write txn, until the next write).

#include <lmdb.h>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <tl/expected.hpp>
#include <utility>

namespace warlog::store::lmdb {

template <class T>
using Result = tl::expected<T, int>;  // the error is an LMDB or errno code

[[nodiscard]] inline tl::unexpected<int> fail(int rc) { return tl::unexpected<int>(rc); }

// mdb_strerror: LMDB's message for its own codes, strerror for errno values.
[[nodiscard]] std::string strerror(int rc);

[[nodiscard]] inline MDB_val to_val(std::string_view s) noexcept {
  return MDB_val{s.size(), const_cast<char*>(s.data())};
}
[[nodiscard]] inline std::string_view to_view(const MDB_val& v) noexcept {
  return {static_cast<const char*>(v.mv_data), v.mv_size};
}

// --- Environment ----------------------------------------------------------
class Env {
 public:
  [[nodiscard]] static Result<Env> create();
  Env() = default;
  Env(const Env&) = delete;
  Env& operator=(const Env&) = delete;
  Env(Env&& o) noexcept : handle_(std::exchange(o.handle_, nullptr)) {}
  Env& operator=(Env&& o) noexcept;
  ~Env() { close(); }

  [[nodiscard]] Result<void> set_mapsize(std::size_t bytes) noexcept;  // 0: adopt the file's size
  [[nodiscard]] Result<void> set_maxdbs(unsigned n) noexcept;
  [[nodiscard]] Result<void> set_maxreaders(unsigned n) noexcept;
  [[nodiscard]] Result<void> set_flags(unsigned flags, bool on) noexcept;
  [[nodiscard]] Result<void> open(const char* path, unsigned flags, mdb_mode_t mode) noexcept;
  [[nodiscard]] Result<int> reader_check() noexcept;  // stale reader slots cleared
  [[nodiscard]] Result<MDB_envinfo> info() const noexcept;
  [[nodiscard]] Result<MDB_stat> stat() const noexcept;
  [[nodiscard]] Result<void> sync(bool force) noexcept;
  void close() noexcept;

  [[nodiscard]] MDB_env* handle() const noexcept { return handle_; }

 private:
  explicit Env(MDB_env* h) noexcept : handle_(h) {}
  MDB_env* handle_ = nullptr;
};

// --- Transaction ----------------------------------------------------------
// Aborted on destruction unless committed. MDB_RDONLY for a read txn.
class Txn {
 public:
  [[nodiscard]] static Result<Txn> begin(MDB_env* env, MDB_txn* parent, unsigned flags) noexcept;
  Txn() = default;
  Txn(const Txn&) = delete;
  Txn& operator=(const Txn&) = delete;
  Txn(Txn&& o) noexcept : handle_(std::exchange(o.handle_, nullptr)) {}
  Txn& operator=(Txn&& o) noexcept;
  ~Txn() { abort(); }

  [[nodiscard]] Result<void> commit() noexcept;  // ends the txn even when it fails
  void abort() noexcept;
  // Gives up ownership (the caller then aborts or commits the handle).
  [[nodiscard]] MDB_txn* release() noexcept { return std::exchange(handle_, nullptr); }

  [[nodiscard]] MDB_txn* handle() const noexcept { return handle_; }

 private:
  explicit Txn(MDB_txn* h) noexcept : handle_(h) {}
  MDB_txn* handle_ = nullptr;
};

// --- Databases (handles are plain values owned by the environment) --------
// mdb_dbi_open. false: the database does not exist (and no MDB_CREATE).
[[nodiscard]] Result<bool> dbi_open(MDB_txn* txn, const char* name, unsigned flags,
                                    MDB_dbi& dbi) noexcept;
[[nodiscard]] Result<MDB_stat> dbi_stat(MDB_txn* txn, MDB_dbi dbi) noexcept;

// A missing key is an empty optional.
[[nodiscard]] Result<std::optional<std::string_view>> get(MDB_txn* txn, MDB_dbi dbi,
                                                          std::string_view key) noexcept;
// false: MDB_KEYEXIST (with MDB_NOOVERWRITE, or MDB_APPEND out of order).
[[nodiscard]] Result<bool> put(MDB_txn* txn, MDB_dbi dbi, std::string_view key,
                               std::string_view value, unsigned flags) noexcept;
// false: the key was not there.
[[nodiscard]] Result<bool> del(MDB_txn* txn, MDB_dbi dbi, std::string_view key) noexcept;

// --- Cursor -----------------------------------------------------------------
class Cursor {
 public:
  [[nodiscard]] static Result<Cursor> open(MDB_txn* txn, MDB_dbi dbi) noexcept;
  Cursor() = default;
  Cursor(const Cursor&) = delete;
  Cursor& operator=(const Cursor&) = delete;
  Cursor(Cursor&& o) noexcept;
  Cursor& operator=(Cursor&& o) noexcept;
  ~Cursor() { close(); }

  // Moves the cursor: op is MDB_FIRST, MDB_NEXT, MDB_SET_RANGE (key used),
  // MDB_LAST, ... true: positioned, read key() and value(); false: no entry
  // there (MDB_NOTFOUND).
  [[nodiscard]] Result<bool> get(MDB_cursor_op op, std::string_view key = {}) noexcept;
  // The entry the last successful get() reached.
  [[nodiscard]] std::string_view key() const noexcept { return to_view(key_); }
  [[nodiscard]] std::string_view value() const noexcept { return to_view(value_); }
  void close() noexcept;

  [[nodiscard]] MDB_cursor* handle() const noexcept { return handle_; }

 private:
  explicit Cursor(MDB_cursor* h) noexcept : handle_(h) {}
  MDB_cursor* handle_ = nullptr;
  MDB_val key_{0, nullptr};
  MDB_val value_{0, nullptr};
};

}  // namespace warlog::store::lmdb
