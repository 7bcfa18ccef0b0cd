#pragma once
// The write path's one loop: begin a write txn, run the body, commit; on
// MDB_MAP_FULL (from a put or the commit) abort, double the map and run the
// body again from scratch, so a growth never leaves anything half written.

#include <algorithm>
#include <string_view>
#include <utility>

#include "shared.hpp"
#include "warlog/store/store.hpp"

namespace warlog::store::detail {

// A write transaction plus what the retry loop needs to know about it.
struct WriteTxn {
  Shared& s;
  lmdb::Txn txn;
  bool map_full = false;  // a put hit MDB_MAP_FULL: grow and retry

  // lmdb::put with context; false is MDB_KEYEXIST.
  [[nodiscard]] Expected<bool> put(MDB_dbi dbi, std::string_view key, std::string_view value,
                                   unsigned flags, std::string_view doing) {
    auto r = lmdb::put(txn.handle(), dbi, key, value, flags);
    if (r) return *r;
    if (r.error() == MDB_MAP_FULL) map_full = true;
    return fail(s, doing, r.error());
  }
  [[nodiscard]] Expected<std::optional<std::string_view>> get(MDB_dbi dbi, std::string_view key,
                                                              std::string_view doing) {
    auto r = lmdb::get(txn.handle(), dbi, key);
    if (!r) return fail(s, doing, r.error());
    return *r;
  }
};

// Changes the map size (0: adopt the size another process recorded). Only
// with no transaction of this process open (see shared.hpp).
[[nodiscard]] inline Expected<void> remap(Shared& s, std::size_t size) {
  std::lock_guard lock(s.remap_mutex);
  if (s.live_readers > 0) {
    return make_error(ErrorCode::ResourceExhausted,
                      fmt::format("store {}: the map must grow beyond {} MiB, which cannot happen "
                                  "while {} reader(s) of it are open in this process; close them "
                                  "and retry",
                                  s.path.string(), s.map_size >> 20, s.live_readers));
  }
  s.pages.forget();  // of the old map, which set_mapsize unmaps
  if (auto r = s.env.set_mapsize(size); !r) return fail(s, "resizing the map", r.error());
  auto info = s.env.info();
  if (!info) return fail(s, "reading the environment info", info.error());
  s.map_size = info->me_mapsize;
  return {};
}

[[nodiscard]] inline Expected<void> grow(Shared& s) {
  std::size_t current = 0;
  {
    std::lock_guard lock(s.remap_mutex);
    current = s.map_size;
  }
  if (current >= s.max_map_size) {
    return make_error(ErrorCode::ResourceExhausted,
                      fmt::format("store {}: the map is full at its limit of {} MiB "
                                  "(Options::max_map_size); nothing was written",
                                  s.path.string(), current >> 20));
  }
  return remap(s, std::min(current * 2, s.max_map_size));
}

// Runs body(WriteTxn&) -> Expected<T> in a write txn and commits it with the
// given durability. Errors from body abort the txn (nothing written).
template <class T, class Body>
[[nodiscard]] Expected<T> with_write_txn(Shared& s, Durability durability, Body&& body) {
  if (s.read_only) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("store {} is open read-only", s.path.string()));
  }
  std::lock_guard lock(s.write_mutex);
  for (;;) {
    auto txn = lmdb::Txn::begin(s.env.handle(), nullptr, 0);
    if (!txn && txn.error() == MDB_MAP_RESIZED) {
      if (auto r = remap(s, 0); !r) return tl::unexpected(r.error());
      continue;
    }
    if (!txn) return fail(s, "beginning a write transaction", txn.error());
    WriteTxn w{s, std::move(*txn), false};
    Expected<T> result = body(w);
    if (!result) {
      w.txn.abort();
      if (!w.map_full) return result;
      if (auto g = grow(s); !g) return tl::unexpected(g.error());
      continue;
    }
    const bool relaxed = durability == Durability::Relaxed;
    if (relaxed) {
      if (auto r = s.env.set_flags(MDB_NOMETASYNC, true); !r)
        return fail(s, "relaxing sync", r.error());
    }
    auto committed = w.txn.commit();
    if (relaxed) (void)s.env.set_flags(MDB_NOMETASYNC, false);
    if (!committed && committed.error() == MDB_MAP_FULL) {
      if (auto g = grow(s); !g) return tl::unexpected(g.error());
      continue;
    }
    if (!committed) return fail(s, "committing", committed.error());
    return result;
  }
}

}  // namespace warlog::store::detail
