// A consistent compacted copy of a store (warlog backup) and the facts of
// its map.

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string_view>

#include <vector>

#include "block.hpp"
#include "shared.hpp"
#include "warlog/store/keys.hpp"
#include "warlog/store/store.hpp"
#include "write_txn.hpp"

namespace warlog::store {

namespace fs = std::filesystem;

namespace {

// mdb_env_copy2 with MDB_CP_COMPACT, then a flush (LMDB closes the file
// without one).
Expected<void> copy_env(const detail::Shared& s, const fs::path& dir) {
  if (const int rc = mdb_env_copy2(s.env.handle(), dir.c_str(), MDB_CP_COMPACT); rc != 0) {
    return detail::fail(s, fmt::format("copying to {}", dir.string()), rc);
  }
  const fs::path file = dir / "data.mdb";
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0 || ::fsync(fd) != 0) {
    const int err = errno;
    if (fd >= 0) ::close(fd);
    return make_error(ErrorCode::IoError, fmt::format("cannot flush {}: {}", file.string(), std::strerror(err)));
  }
  ::close(fd);
  return {};
}

// Blocks rewritten per write transaction: bounds a transaction's dirty pages.
constexpr std::size_t kRecompressBatch = 4096;

}  // namespace

Expected<std::size_t> Store::recompress_sealed() {
  detail::Shared& s = *shared_;
  // The keys first (a cursor must not outlive its txn, and puts move pages).
  std::vector<std::string> keys;
  {
    auto reader = this->reader();
    if (!reader) return tl::unexpected(reader.error());
    auto cursor = lmdb::Cursor::open(reader->txn_, s.dbi.events);
    if (!cursor) return detail::fail(s, "opening an events cursor", cursor.error());
    for (auto e = cursor->get(MDB_FIRST);; e = cursor->get(MDB_NEXT)) {
      if (!e) return detail::fail(s, "reading events", e.error());
      if (!*e) break;
      const std::string_view v = cursor->value();
      const auto parts = parse_event_key(cursor->key());
      // Only what is plainly a raw sealed block; anything else is verify's to judge.
      if (!parts || v.size() < detail::kBlockHeaderBytes || v[1] != static_cast<char>(detail::kCodecRaw)) continue;
      const std::size_t n = static_cast<unsigned char>(v[2]) | std::size_t{static_cast<unsigned char>(v[3])} << 8;
      if (detail::sealed(parts->seq, n)) keys.emplace_back(cursor->key());
    }
  }
  std::size_t rewritten = 0;
  for (std::size_t at = 0; at < keys.size(); at += kRecompressBatch) {
    const std::size_t end = std::min(keys.size(), at + kRecompressBatch);
    auto done = detail::with_write_txn<std::size_t>(s, Durability::Relaxed, [&](detail::WriteTxn& w) -> Expected<std::size_t> {
      std::size_t n = 0;
      detail::AlignedBody aligned;
      for (std::size_t i = at; i < end; ++i) {
        auto raw = w.get(s.dbi.events, keys[i], "reading a block");
        if (!raw) return tl::unexpected(raw.error());
        if (!*raw) continue;
        const auto parts = parse_event_key(keys[i]);
        auto b = detail::parse_block(**raw, parts->seq);
        if (!b || b->codec != detail::kCodecRaw || !detail::sealed(parts->seq, b->n)) continue;
        auto body = aligned.decode(*b, parts->seq);
        if (!body) continue;
        // The same tags, the same S: only the stored form changes.
        detail::BlockBuilder same;
        same.tags.assign(b->tags);
        same.body.assign(*body);
        same.n = b->n;
        const std::string value = same.value_as(detail::kCodecZstd, b->s);
        auto put = w.put(s.dbi.events, keys[i], value, 0, "rewriting a block");
        if (!put) return tl::unexpected(put.error());
        ++n;
      }
      return n;
    });
    if (!done) return tl::unexpected(done.error());
    rewritten += *done;
  }
  if (rewritten > 0) {
    if (auto synced = sync(); !synced) return tl::unexpected(synced.error());
  }
  return rewritten;
}

Expected<void> Store::copy_compact(const fs::path& dir) const {
  const detail::Shared& s = *shared_;
  if (auto c = copy_env(s, dir); !c) return c;
  // Sealed blocks a build before codec 1 wrote raw are compressed in the
  // copy, which is then compacted again (the rewrite leaves free pages).
  std::size_t rewritten = 0;
  {
    auto copy = Store::open(dir);
    if (!copy) return tl::unexpected(copy.error());
    auto r = copy->recompress_sealed();
    if (!r) return tl::unexpected(r.error());
    rewritten = *r;
    if (rewritten > 0) {
      const fs::path again = dir / ".compact";
      std::error_code ec;
      fs::create_directory(again, ec);
      if (ec) return make_error(ErrorCode::IoError, fmt::format("cannot create {}: {}", again.string(), ec.message()));
      if (auto c = copy_env(*copy->shared_, again); !c) return c;
    }
  }
  std::error_code ec;
  if (rewritten > 0) {
    fs::rename(dir / ".compact" / "data.mdb", dir / "data.mdb", ec);
    if (!ec) fs::remove_all(dir / ".compact", ec);
    if (ec) return make_error(ErrorCode::IoError, fmt::format("cannot replace {}: {}", (dir / "data.mdb").string(), ec.message()));
  }
  fs::remove(dir / "lock.mdb", ec);  // opening the copy made one; a copy holds none
  return {};
}

// LMDB's me_mapaddr is only the address asked for (MDB_FIXEDMAP), null
// otherwise, so the map is found where the kernel lists it: the mapping of
// this store's data.mdb in /proc/self/maps.
Store::MapExtent Store::map_extent() const noexcept {
  MapExtent m;
  auto st = shared_->env.stat();
  if (!st) return m;
  std::error_code ec;
  const std::string file = fs::canonical(shared_->path / "data.mdb", ec).string();
  if (ec) return m;
  std::FILE* maps = std::fopen("/proc/self/maps", "re");
  if (maps == nullptr) return m;
  char line[4096];
  while (std::fgets(line, sizeof line, maps) != nullptr) {
    std::string_view l(line);
    if (!l.empty() && l.back() == '\n') l.remove_suffix(1);
    if (l.size() < file.size() || l.substr(l.size() - file.size()) != file) continue;
    unsigned long long from = 0, to = 0;
    if (std::sscanf(line, "%llx-%llx", &from, &to) != 2) continue;
    m.base = reinterpret_cast<const void*>(static_cast<std::uintptr_t>(from));
    m.bytes = static_cast<std::size_t>(to - from);
    m.page_size = st->ms_psize;
    break;
  }
  std::fclose(maps);
  return m;
}

}  // namespace warlog::store
