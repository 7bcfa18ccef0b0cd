// Reading: games, streams by cursor, blobs. One read txn per Reader.

#include "warlog/store/reader.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <utility>

#include "shared.hpp"
#include "warlog/events/codec.hpp"
#include "warlog/store/keys.hpp"

namespace warlog::store {

using detail::Shared;

Reader::Reader(std::shared_ptr<Shared> shared, MDB_txn* txn) noexcept
    : shared_(std::move(shared)), txn_(txn), owner_(std::this_thread::get_id()) {}

Reader::Reader(Reader&& o) noexcept
    : shared_(std::move(o.shared_)), txn_(std::exchange(o.txn_, nullptr)), owner_(o.owner_) {}

Reader& Reader::operator=(Reader&& o) noexcept {
  if (this != &o) {
    end();
    shared_ = std::move(o.shared_);
    txn_ = std::exchange(o.txn_, nullptr);
    owner_ = o.owner_;
  }
  return *this;
}

Reader::~Reader() { end(); }

void Reader::end() noexcept {
  if (txn_ == nullptr) return;
  // The txn ends before the count drops: a remap may follow at once.
  mdb_txn_abort(std::exchange(txn_, nullptr));
  std::lock_guard lock(shared_->remap_mutex);
  if (const auto mine = shared_->readers_of.find(owner_); mine != shared_->readers_of.end() && --mine->second == 0) {
    shared_->readers_of.erase(mine);
  }
  if (--shared_->live_readers == 0) shared_->readers_gone.notify_all();
}

std::string BrokenLink::to_string() const {
  return fmt::format("game {}, seq {}: {}", game, seq, what);
}

// --- Games ----------------------------------------------------------------------
Expected<std::vector<core::GameId>> Reader::game_ids() const {
  const Shared& s = *shared_;
  auto cursor = lmdb::Cursor::open(txn_, s.dbi.games);
  if (!cursor) return detail::fail(s, "opening a games cursor", cursor.error());
  std::vector<core::GameId> ids;
  for (auto e = cursor->get(MDB_FIRST);; e = cursor->get(MDB_NEXT)) {
    if (!e) return detail::fail(s, "reading games", e.error());
    if (!*e) break;
    if (cursor->key().size() != 8) {
      return make_error(ErrorCode::DataLoss, fmt::format("store {}: a games key is {} bytes, not 8",
                                                         s.path.string(), cursor->key().size()));
    }
    ids.push_back(get_be64(cursor->key().data()));
  }
  return ids;
}

Expected<std::vector<GameMeta>> Reader::games() const {
  auto ids = game_ids();
  if (!ids) return tl::unexpected(ids.error());
  std::vector<GameMeta> out;
  out.reserve(ids->size());
  for (const auto id : *ids) {
    auto m = game(id);
    if (!m) return tl::unexpected(m.error());
    out.push_back(std::move(*m));
  }
  return out;
}

Expected<GameMeta> Reader::game(core::GameId id) const {
  const Shared& s = *shared_;
  const auto key = game_key(id);
  auto raw = lmdb::get(txn_, s.dbi.games, view(key));
  if (!raw) return detail::fail(s, "reading game metadata", raw.error());
  if (!*raw) return make_error(ErrorCode::NotFound, fmt::format("game {} does not exist", id));
  auto m = decode_game_meta(**raw);
  if (!m) return make_error(m.error().code, fmt::format("game {}: {}", id, m.error().message));
  if (m->id != id) {
    return make_error(ErrorCode::DataLoss,
                      fmt::format("game {}: the metadata names game {}", id, m->id));
  }
  return m;
}

// --- Streams ----------------------------------------------------------------------
namespace {

// Scans longer than this many events give the pages they have read back
// every this many events (PagesBehind).
constexpr core::Seq kReleaseEvery = 16384;

// Drops the pages of the memory-mapped data file that a long scan has read
// from this process's resident set, behind the cursor: a million-event game
// would otherwise leave ~130 MB of the file mapped in (RSS), though the scan
// holds one event at a time. madvise(MADV_DONTNEED) on LMDB's map, which is
// a read-only MAP_SHARED mapping of data.mdb (no MDB_WRITEMAP; a Reader's
// txn is always MDB_RDONLY, so every value points into the map): the pages
// stay in the kernel's page cache and a later read faults them back in with
// the same bytes. Only the range between the lowest and highest value read
// since the last release is given back; it lies within the one mapping.
class PagesBehind {
 public:
  explicit PagesBehind(bool enabled) : enabled_(enabled) {}
  PagesBehind(const PagesBehind&) = delete;
  PagesBehind& operator=(const PagesBehind&) = delete;
  ~PagesBehind() { release(); }

  void read(std::string_view bytes) noexcept {
    if (!enabled_ || bytes.empty()) return;
    const auto at = reinterpret_cast<std::uintptr_t>(bytes.data());
    lo_ = std::min(lo_, at);
    hi_ = std::max(hi_, at + bytes.size());
    if (++count_ >= kReleaseEvery) release();
  }

  void release() noexcept {
    if (!enabled_ || lo_ >= hi_) return;
    static const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    const std::uintptr_t first = lo_ & ~(page - 1);
    const std::uintptr_t end = (hi_ + page - 1) & ~(page - 1);
    // Advice only: a failure leaves the pages resident, nothing else.
    (void)::madvise(reinterpret_cast<void*>(first), end - first, MADV_DONTNEED);
    lo_ = UINTPTR_MAX;
    hi_ = 0;
    count_ = 0;
  }

 private:
  bool enabled_;
  std::uintptr_t lo_ = UINTPTR_MAX;
  std::uintptr_t hi_ = 0;
  core::Seq count_ = 0;
};

// Walks keys (game, from)..(game, to) with a cursor, checking that each seq is
// the next one, and calls fn(seq, bytes) -> Expected<bool continue>. A walk
// of more than kReleaseEvery events gives its pages back as it goes.
template <class Fn>
Expected<core::Seq> walk(const Shared& s, MDB_txn* txn, core::GameId game, core::Seq from,
                         core::Seq to, Fn&& fn) {
  if (from >= to) return core::Seq{0};
  auto cursor = lmdb::Cursor::open(txn, s.dbi.events);
  if (!cursor) return detail::fail(s, "opening an events cursor", cursor.error());
  const auto start = event_key(game, from);
  core::Seq expected = from;
  core::Seq given = 0;
  PagesBehind behind(to - from > kReleaseEvery);
  for (auto e = cursor->get(MDB_SET_RANGE, view(start)); expected < to; e = cursor->get(MDB_NEXT)) {
    if (!e) return detail::fail(s, "reading events", e.error());
    const auto parts = *e ? parse_event_key(cursor->key()) : std::nullopt;
    if (!parts || parts->game != game || parts->seq != expected) {
      return make_error(ErrorCode::DataLoss,
                        fmt::format("game {}, seq {}: the event is missing (the metadata counts "
                                    "{} events); run verify",
                                    game, expected, to));
    }
    const std::string_view bytes = cursor->value();
    auto more = fn(expected, bytes);
    behind.read(bytes);
    if (!more) return tl::unexpected(more.error());
    ++given;
    ++expected;
    if (!*more) break;
  }
  return given;
}

}  // namespace

Expected<core::Seq> Reader::scan(core::GameId game, core::Seq from_seq, core::Seq to_seq,
                                 const EventFn& fn) const {
  auto m = this->game(game);
  if (!m) return tl::unexpected(m.error());
  const core::Seq to = std::min(to_seq, m->event_count);
  return walk(*shared_, txn_, game, from_seq, to,
              [&](core::Seq seq, std::string_view bytes) -> Expected<bool> {
                auto ev = events::decode_event(bytes);
                if (!ev) {
                  return make_error(ev.error().code, fmt::format("game {}, seq {}: {}", game, seq,
                                                                 ev.error().message));
                }
                if (ev->game != game || ev->seq != seq) {
                  return make_error(ErrorCode::DataLoss,
                                    fmt::format("game {}, seq {}: the stored header says game {}, "
                                                "seq {}; run verify",
                                                game, seq, ev->game, ev->seq));
                }
                return fn(*ev);
              });
}

Expected<core::Seq> Reader::scan_raw(core::GameId game, core::Seq from_seq, core::Seq to_seq,
                                     const RawEventFn& fn) const {
  auto m = this->game(game);
  if (!m) return tl::unexpected(m.error());
  const core::Seq to = std::min(to_seq, m->event_count);
  return walk(
      *shared_, txn_, game, from_seq, to,
      [&](core::Seq seq, std::string_view bytes) -> Expected<bool> { return fn(seq, bytes); });
}

// --- Blobs ----------------------------------------------------------------------------
Expected<std::string> Reader::get_blob(BlobKind kind, const core::Digest& hash) const {
  const Shared& s = *shared_;
  const auto key = blob_key(kind, hash);
  auto raw = lmdb::get(txn_, s.dbi.blobs, view(key));
  if (!raw) return detail::fail(s, "reading a blob", raw.error());
  if (!*raw) {
    return make_error(
        ErrorCode::NotFound,
        fmt::format("no {} with hash {} in the store",
                    kind == BlobKind::Catalog ? "catalog" : "ruleset", core::to_hex(hash)));
  }
  return std::string(**raw);
}

}  // namespace warlog::store
