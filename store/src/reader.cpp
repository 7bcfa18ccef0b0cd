// Reading: games, streams by cursor, blobs. One read txn per Reader.

#include "warlog/store/reader.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <utility>

#include "shared.hpp"
#include "block.hpp"
#include "warlog/events/codec.hpp"
#include "warlog/store/keys.hpp"

namespace warlog::store {

using detail::Shared;

namespace detail {

// madvise(MADV_DONTNEED) on LMDB's map, which is a read-only MAP_SHARED
// mapping of data.mdb (no MDB_WRITEMAP; a Reader's txn is always MDB_RDONLY,
// so every value it reads points into the map): the pages leave this
// process's resident set, stay in the page cache, and fault back in with
// the same bytes on the next read, also for a thread that is reading them
// now (replay::parallel_for's). Every address between the lowest and the
// highest value read lies within the one mapping, so the range is too.
// The range is everything read since the map was mapped, not only since the
// last release: the fault after a release maps up to 64 KiB of cached pages
// around the faulting one back in (the kernel's fault-around), and the
// B-tree's branch pages, never a value, lie between the values; both would
// pile up outside a range of the latest values only. Dropping a range of
// which little is resident costs little (the kernel walks the page tables
// present, 2 MiB apiece).
bool MappedPages::read(std::uintptr_t lo, std::uintptr_t hi, std::uint64_t events) noexcept {
  std::uintptr_t first = 0, end = 0;
  {
    std::lock_guard lock(mutex_);
    lo_ = std::min(lo_, lo);
    hi_ = std::max(hi_, hi);
    events_ += events;
    if (events_ < kReleaseEvery) return false;
    static const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    first = lo_ & ~(page - 1);
    end = (hi_ + page - 1) & ~(page - 1);
    events_ = 0;  // the range stays: the next release gives all of it back again
  }
  // Outside the lock: the other threads go on reading (and counting) while
  // the kernel drops the range. Advice only: a failure leaves the pages
  // resident, nothing else.
  (void)::madvise(reinterpret_cast<void*>(first), end - first, MADV_DONTNEED);
  return true;
}

void MappedPages::forget() noexcept {
  std::lock_guard lock(mutex_);
  lo_ = UINTPTR_MAX;
  hi_ = 0;
  events_ = 0;
}

void note_read(const Shared& s, std::string_view bytes, std::uint64_t events) noexcept {
  if (bytes.empty()) return;
  const auto at = reinterpret_cast<std::uintptr_t>(bytes.data());
  (void)s.pages.read(at, at + bytes.size(), events);
}

}  // namespace detail

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
  static const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  std::uintptr_t last_page = 0;
  for (auto e = cursor->get(MDB_FIRST);; e = cursor->get(MDB_NEXT)) {
    if (!e) return detail::fail(s, "reading games", e.error());
    if (!*e) break;
    if (cursor->key().size() != 8) {
      return make_error(ErrorCode::DataLoss, fmt::format("store {}: a games key is {} bytes, not 8",
                                                         s.path.string(), cursor->key().size()));
    }
    ids.push_back(get_be64(cursor->key().data()));
    // The records' pages lie among the events' (written with them), so each
    // new page of the walk is a fault that maps 64 KiB around it: a seek.
    const auto at = reinterpret_cast<std::uintptr_t>(cursor->key().data()) & ~(page - 1);
    detail::note_read(s, cursor->key(), at != last_page ? detail::MappedPages::kSeekEvents : 0);
    last_page = at;
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
  auto m = record(id);
  if (!m) return m;
  auto created = first_event(*m);
  if (!created) return tl::unexpected(created.error());
  const auto& g = std::get<core::GameCreated>(created->payload);
  m->title = g.title;
  m->date = g.date;
  m->ruleset_hash = g.ruleset_hash;
  m->catalog_hash = g.catalog_hash;
  m->seats = g.seats;
  return m;
}

Expected<GameMeta> Reader::record(core::GameId id) const {
  const Shared& s = *shared_;
  const auto key = game_key(id);
  auto raw = lmdb::get(txn_, s.dbi.games, view(key));
  if (!raw) return detail::fail(s, "reading the game record", raw.error());
  if (!*raw) {
    // A deleted record hides nothing: events or annotations under the id say so.
    auto missing = detail::missing_record(s, txn_, id);
    if (!missing) return tl::unexpected(missing.error());
    return tl::unexpected(*missing);
  }
  detail::note_read(s, **raw, detail::MappedPages::kSeekEvents);  // a get is a seek
  auto m = decode_game_meta(**raw);
  if (!m) return make_error(m.error().code, fmt::format("game {}: {}", id, m.error().message));
  m->id = id;
  return m;
}

// --- Streams ----------------------------------------------------------------------
namespace {


std::string block_range(core::Seq first, std::uint16_t n) {
  return n <= 1 ? fmt::format("seq {}", first) : fmt::format("seq {}..{}", first, first + n - 1);
}

Error chain_break(core::GameId game, core::Seq first, std::uint16_t n, std::string_view why = {}) {
  return Error{ErrorCode::DataLoss, fmt::format("game {}: the chain breaks in the block at {}{}: run verify", game,
                                                block_range(first, n), why)};
}

// One block as the walk gives it: its first seq, the parsed value, its body
// in aligned memory, and S before it.
struct WalkedBlock {
  core::Seq first = 0;
  const detail::BlockView* view = nullptr;
  std::string_view body;  // view->body decoded into aligned memory
  core::Digest prev{};
};

// Reads block `first` of `game` by key. nullopt when absent.
Expected<std::optional<detail::BlockView>> get_block(const Shared& s, MDB_txn* txn, core::GameId game,
                                                     core::Seq first) {
  const auto key = event_key(game, first);
  auto raw = lmdb::get(txn, s.dbi.events, view(key));
  if (!raw) return detail::fail(s, "reading a block", raw.error());
  if (!*raw) return std::optional<detail::BlockView>{};
  detail::note_read(s, **raw, detail::MappedPages::kSeekEvents);  // a get is a seek
  auto b = detail::parse_block(**raw, first);
  if (!b) return make_error(b.error().code, fmt::format("game {}: {}; run verify", game, b.error().message));
  return std::optional<detail::BlockView>{*b};
}

// Walks the blocks of m's game holding seqs from..to-1 with a cursor,
// recomputing S of each from the one before (from the stored S of the block
// before the first one read, or S(-1)) and comparing it with the stored S,
// and the last block's with the record's head, before calls
// fn(const WalkedBlock&) -> Expected<bool continue>. What it reads counts
// towards the store's next release of mapped pages (PagesBehind), every
// MappedPages::kReleaseEvery events within a long walk too.
template <class Fn>
Expected<void> walk_blocks(const Shared& s, MDB_txn* txn, const GameMeta& m, core::Seq from, core::Seq to, Fn&& fn) {
  to = std::min(to, m.event_count);
  if (from >= to) return {};
  const core::GameId game = m.id;
  core::Seq first = detail::segment_first(from);
  core::Digest prev = detail::chain_start();
  if (first > 0) {
    const core::Seq before = detail::segment_first(first - 1);
    auto b = get_block(s, txn, game, before);
    if (!b) return tl::unexpected(b.error());
    if (!*b) {
      return make_error(ErrorCode::DataLoss,
                        fmt::format("game {}: the block at seq {} is missing; run verify", game, before));
    }
    prev = (*b)->s;
  }
  auto cursor = lmdb::Cursor::open(txn, s.dbi.events);
  if (!cursor) return detail::fail(s, "opening an events cursor", cursor.error());
  thread_local detail::AlignedBody aligned;
  detail::PagesBehind behind(s.pages);
  const auto start = event_key(game, first);
  for (auto e = cursor->get(MDB_SET_RANGE, view(start)); first < to; e = cursor->get(MDB_NEXT)) {
    if (!e) return detail::fail(s, "reading events", e.error());
    const auto parts = *e ? parse_event_key(cursor->key()) : std::nullopt;
    if (!parts || parts->game != game || parts->seq != first) {
      return make_error(ErrorCode::DataLoss,
                        fmt::format("game {}: the block at seq {} is missing (the record counts {} events); "
                                    "run verify",
                                    game, first, m.event_count));
    }
    const std::string_view value = cursor->value();
    auto b = detail::parse_block(value, first);
    if (!b) return make_error(b.error().code, fmt::format("game {}: {}; run verify", game, b.error().message));
    const core::Seq end = first + b->n;
    const bool last = end >= m.event_count;
    if (end > m.event_count || (!last && end != detail::segment_end(first))) {
      return make_error(ErrorCode::DataLoss,
                        fmt::format("game {}: the block at {} holds {} events, which its place in a stream of {} "
                                    "does not allow; run verify",
                                    game, block_range(first, b->n), b->n, m.event_count));
    }
    auto body = aligned.decode(*b, first);
    if (!body) return make_error(ErrorCode::DataLoss, fmt::format("game {}: {}; run verify", game, body.error().message));
    WalkedBlock w{first, &*b, *body, prev};
    const core::Digest at = core::chain_hash(prev, w.body);
    if (at != b->s) return tl::unexpected(chain_break(game, first, b->n));
    if (last && at != m.head) {
      return tl::unexpected(chain_break(game, first, b->n, " (it does not end at the game record's head)"));
    }
    auto more = fn(w);
    behind.read(value, b->n);
    if (!more) return tl::unexpected(more.error());
    if (!*more) break;
    prev = at;
    first = end;
  }
  return {};
}

// Calls fn(seq, canonical bytes) -> Expected<bool> for each event of a
// walked block within from..to-1; false from fn is kept in *stop.
template <class Fn>
Expected<bool> each_event(core::GameId game, const WalkedBlock& w, core::Seq from, core::Seq to, Fn&& fn) {
  detail::BodyReader body(w.body);
  core::Seq seq = w.first;
  for (;; ++seq) {
    auto next = body.next();
    if (!next) {
      return make_error(ErrorCode::DataLoss, fmt::format("game {}: the block at {}: {}; run verify", game,
                                                         block_range(w.first, w.view->n), next.error().message));
    }
    if (!*next) break;
    if (seq == w.first + w.view->n) {
      return make_error(ErrorCode::DataLoss,
                        fmt::format("game {}: the block at {} holds more events than its {}; run verify", game,
                                    block_range(w.first, w.view->n), w.view->n));
    }
    if (seq < from || seq >= to) continue;
    auto more = fn(seq, **next);
    if (!more) return more;
    if (!*more) return false;
  }
  if (seq != w.first + w.view->n) {
    return make_error(ErrorCode::DataLoss,
                      fmt::format("game {}: the block at {} counts {} events but its body holds another number; "
                                  "run verify",
                                  game, block_range(w.first, w.view->n), w.view->n));
  }
  return true;
}

}  // namespace

Expected<core::Event> Reader::first_event(const GameMeta& m) const {
  const Shared& s = *shared_;
  auto b = get_block(s, txn_, m.id, 0);
  if (!b) return tl::unexpected(b.error());
  if (!*b) return make_error(ErrorCode::DataLoss, fmt::format("game {}: block 0 (GameCreated) is missing; run verify", m.id));
  thread_local detail::AlignedBody aligned;
  auto decoded = aligned.decode(**b, 0);
  if (!decoded) return make_error(ErrorCode::DataLoss, fmt::format("game {}: {}; run verify", m.id, decoded.error().message));
  const std::string_view body = *decoded;
  if (core::chain_hash(detail::chain_start(), body) != (*b)->s) return tl::unexpected(chain_break(m.id, 0, 1));
  detail::BodyReader in(body);
  auto bytes = in.next();
  if (!bytes || !*bytes) return make_error(ErrorCode::DataLoss, fmt::format("game {}: block 0 holds no event; run verify", m.id));
  if (game_identity(**bytes) != m.identity) {
    return make_error(ErrorCode::DataLoss,
                      fmt::format("game {}: event 0 does not hash to the identity in the game record; run verify", m.id));
  }
  auto ev = events::decode_event(**bytes);
  if (!ev) return make_error(ev.error().code, fmt::format("game {}, seq 0: {}", m.id, ev.error().message));
  if (!std::holds_alternative<core::GameCreated>(ev->payload)) {
    return make_error(ErrorCode::DataLoss, fmt::format("game {}: event 0 is not GameCreated; run verify", m.id));
  }
  ev->game = m.id;
  return ev;
}

namespace {

// scan and scan_raw: fn(seq, canonical bytes) -> Expected<bool continue>.
template <class Fn>
Expected<core::Seq> scan_bytes(const Shared& s, MDB_txn* txn, const GameMeta& m, core::Seq from, core::Seq to,
                               Fn&& fn) {
  core::Seq given = 0;
  auto walked = walk_blocks(s, txn, m, from, to, [&](const WalkedBlock& w) -> Expected<bool> {
    auto more = each_event(m.id, w, from, to, [&](core::Seq seq, std::string_view bytes) -> Expected<bool> {
      auto r = fn(seq, bytes);
      if (r) ++given;
      return r;
    });
    return more;
  });
  if (!walked) return tl::unexpected(walked.error());
  return given;
}

}  // namespace

Expected<core::Seq> Reader::scan(core::GameId game, core::Seq from_seq, core::Seq to_seq,
                                 const EventFn& fn) const {
  auto m = record(game);
  if (!m) return tl::unexpected(m.error());
  return scan_bytes(*shared_, txn_, *m, from_seq, to_seq, [&](core::Seq seq, std::string_view bytes) -> Expected<bool> {
    auto ev = events::decode_event(bytes);
    if (!ev) {
      return make_error(ev.error().code, fmt::format("game {}, seq {}: {}", game, seq, ev.error().message));
    }
    if (ev->seq != seq) {
      return make_error(ErrorCode::DataLoss,
                        fmt::format("game {}, seq {}: the stored header says seq {}; run verify", game, seq, ev->seq));
    }
    ev->game = game;
    return fn(*ev);
  });
}

Expected<core::Seq> Reader::scan_raw(core::GameId game, core::Seq from_seq, core::Seq to_seq,
                                     const RawEventFn& fn) const {
  auto m = record(game);
  if (!m) return tl::unexpected(m.error());
  return scan_bytes(*shared_, txn_, *m, from_seq, to_seq,
                    [&](core::Seq seq, std::string_view bytes) -> Expected<bool> { return fn(seq, bytes); });
}

Expected<core::Digest> Reader::head_at(core::GameId game, core::Seq count) const {
  auto m = record(game);
  if (!m) return tl::unexpected(m.error());
  if (count == 0 || count > m->event_count) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("game {} has {} events: there is no head after {}", game, m->event_count, count));
  }
  core::Digest head{};
  auto walked = walk_blocks(*shared_, txn_, *m, count - 1, count, [&](const WalkedBlock& w) -> Expected<bool> {
    // S over the block's events before `count`: a prefix of its body.
    std::size_t used = 0;
    detail::BodyReader body(w.body);
    for (core::Seq seq = w.first; seq < count; ++seq) {
      auto next = body.next();
      if (!next || !*next) return make_error(ErrorCode::DataLoss, fmt::format("game {}: the block at seq {} is short; run verify", game, w.first));
      used = static_cast<std::size_t>((*next)->data() + (*next)->size() - w.body.data());
    }
    head = core::chain_hash(w.prev, w.body.substr(0, used));
    return false;
  });
  if (!walked) return tl::unexpected(walked.error());
  return head;
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
  // Re-hashed on every read: a blob is named by its hash, and a catalog or
  // ruleset altered in place would otherwise fold every game under it wrongly.
  if (core::blake2b(**raw) != hash) {
    return make_error(ErrorCode::DataLoss,
                      fmt::format("the {} blob {} does not hash to its name (altered in the store); run verify",
                                  kind == BlobKind::Catalog ? "catalog" : "ruleset", core::to_hex(hash).substr(0, 16)));
  }
  return std::string(**raw);
}

}  // namespace warlog::store
