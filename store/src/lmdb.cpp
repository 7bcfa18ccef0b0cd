#include "warlog/store/lmdb.hpp"

namespace warlog::store::lmdb {

std::string strerror(int rc) { return mdb_strerror(rc); }

namespace {
Result<void> check(int rc) noexcept {
  if (rc != MDB_SUCCESS) return fail(rc);
  return {};
}
}  // namespace

// --- Env --------------------------------------------------------------------
Result<Env> Env::create() {
  MDB_env* h = nullptr;
  if (const int rc = mdb_env_create(&h); rc != MDB_SUCCESS) return fail(rc);
  return Env(h);
}

Env& Env::operator=(Env&& o) noexcept {
  if (this != &o) {
    close();
    handle_ = std::exchange(o.handle_, nullptr);
  }
  return *this;
}

Result<void> Env::set_mapsize(std::size_t bytes) noexcept {
  return check(mdb_env_set_mapsize(handle_, bytes));
}
Result<void> Env::set_maxdbs(unsigned n) noexcept { return check(mdb_env_set_maxdbs(handle_, n)); }
Result<void> Env::set_maxreaders(unsigned n) noexcept {
  return check(mdb_env_set_maxreaders(handle_, n));
}
Result<void> Env::set_flags(unsigned flags, bool on) noexcept {
  return check(mdb_env_set_flags(handle_, flags, on ? 1 : 0));
}
Result<void> Env::open(const char* path, unsigned flags, mdb_mode_t mode) noexcept {
  return check(mdb_env_open(handle_, path, flags, mode));
}
Result<int> Env::reader_check() noexcept {
  int dead = 0;
  if (const int rc = mdb_reader_check(handle_, &dead); rc != MDB_SUCCESS) return fail(rc);
  return dead;
}
Result<MDB_envinfo> Env::info() const noexcept {
  MDB_envinfo info{};
  if (const int rc = mdb_env_info(handle_, &info); rc != MDB_SUCCESS) return fail(rc);
  return info;
}
Result<MDB_stat> Env::stat() const noexcept {
  MDB_stat st{};
  if (const int rc = mdb_env_stat(handle_, &st); rc != MDB_SUCCESS) return fail(rc);
  return st;
}
Result<void> Env::sync(bool force) noexcept { return check(mdb_env_sync(handle_, force ? 1 : 0)); }

void Env::close() noexcept {
  if (handle_ != nullptr) mdb_env_close(std::exchange(handle_, nullptr));
}

// --- Txn --------------------------------------------------------------------
Result<Txn> Txn::begin(MDB_env* env, MDB_txn* parent, unsigned flags) noexcept {
  MDB_txn* h = nullptr;
  if (const int rc = mdb_txn_begin(env, parent, flags, &h); rc != MDB_SUCCESS) return fail(rc);
  return Txn(h);
}

Txn& Txn::operator=(Txn&& o) noexcept {
  if (this != &o) {
    abort();
    handle_ = std::exchange(o.handle_, nullptr);
  }
  return *this;
}

Result<void> Txn::commit() noexcept {
  // mdb_txn_commit frees the txn whether or not it succeeds.
  return check(mdb_txn_commit(std::exchange(handle_, nullptr)));
}

void Txn::abort() noexcept {
  if (handle_ != nullptr) mdb_txn_abort(std::exchange(handle_, nullptr));
}

// --- Databases --------------------------------------------------------------
Result<bool> dbi_open(MDB_txn* txn, const char* name, unsigned flags, MDB_dbi& dbi) noexcept {
  const int rc = mdb_dbi_open(txn, name, flags, &dbi);
  if (rc == MDB_NOTFOUND) return false;
  if (rc != MDB_SUCCESS) return fail(rc);
  return true;
}

Result<MDB_stat> dbi_stat(MDB_txn* txn, MDB_dbi dbi) noexcept {
  MDB_stat st{};
  if (const int rc = mdb_stat(txn, dbi, &st); rc != MDB_SUCCESS) return fail(rc);
  return st;
}

Result<std::optional<std::string_view>> get(MDB_txn* txn, MDB_dbi dbi,
                                            std::string_view key) noexcept {
  MDB_val k = to_val(key);
  MDB_val v{};
  const int rc = mdb_get(txn, dbi, &k, &v);
  if (rc == MDB_NOTFOUND) return std::optional<std::string_view>{};
  if (rc != MDB_SUCCESS) return fail(rc);
  return std::optional<std::string_view>{to_view(v)};
}

Result<bool> put(MDB_txn* txn, MDB_dbi dbi, std::string_view key, std::string_view value,
                 unsigned flags) noexcept {
  MDB_val k = to_val(key);
  MDB_val v = to_val(value);
  const int rc = mdb_put(txn, dbi, &k, &v, flags);
  if (rc == MDB_KEYEXIST) return false;
  if (rc != MDB_SUCCESS) return fail(rc);
  return true;
}

Result<bool> del(MDB_txn* txn, MDB_dbi dbi, std::string_view key) noexcept {
  MDB_val k = to_val(key);
  const int rc = mdb_del(txn, dbi, &k, nullptr);
  if (rc == MDB_NOTFOUND) return false;
  if (rc != MDB_SUCCESS) return fail(rc);
  return true;
}

// --- Cursor -----------------------------------------------------------------
Result<Cursor> Cursor::open(MDB_txn* txn, MDB_dbi dbi) noexcept {
  MDB_cursor* h = nullptr;
  if (const int rc = mdb_cursor_open(txn, dbi, &h); rc != MDB_SUCCESS) return fail(rc);
  return Cursor(h);
}

Cursor::Cursor(Cursor&& o) noexcept
    : handle_(std::exchange(o.handle_, nullptr)), key_(o.key_), value_(o.value_) {}

Cursor& Cursor::operator=(Cursor&& o) noexcept {
  if (this != &o) {
    close();
    handle_ = std::exchange(o.handle_, nullptr);
    key_ = o.key_;
    value_ = o.value_;
  }
  return *this;
}

Result<bool> Cursor::get(MDB_cursor_op op, std::string_view key) noexcept {
  MDB_val k = to_val(key);
  MDB_val v{0, nullptr};
  const int rc = mdb_cursor_get(handle_, &k, &v, op);
  if (rc == MDB_NOTFOUND) return false;
  if (rc != MDB_SUCCESS) return fail(rc);
  key_ = k;
  value_ = v;
  return true;
}

void Cursor::close() noexcept {
  if (handle_ != nullptr) mdb_cursor_close(std::exchange(handle_, nullptr));
}

}  // namespace warlog::store::lmdb
