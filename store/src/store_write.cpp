// Writing streams and blobs. Each public call is one write transaction.

#include <string>
#include <variant>
#include <vector>

#include "block.hpp"
#include "shared.hpp"
#include "warlog/events/codec.hpp"
#include "warlog/store/annotations.hpp"
#include "warlog/store/game_meta.hpp"
#include "warlog/store/keys.hpp"
#include "warlog/store/store.hpp"
#include "write_txn.hpp"

namespace warlog::store {

namespace {

using detail::Shared;
using detail::WriteTxn;

bool is_game_created(const core::Event& ev) {
  return std::holds_alternative<core::GameCreated>(ev.payload);
}

// The id of the last game, 0 for none.
Expected<core::GameId> last_game_id(WriteTxn& w) {
  auto cursor = lmdb::Cursor::open(w.txn.handle(), w.s.dbi.games);
  if (!cursor) return detail::fail(w.s, "opening a games cursor", cursor.error());
  auto last = cursor->get(MDB_LAST);
  if (!last) return detail::fail(w.s, "reading the last game", last.error());
  if (!*last) return core::GameId{0};
  if (cursor->key().size() != 8) {
    return make_error(ErrorCode::DataLoss, fmt::format("store {}: a games key is {} bytes, not 8",
                                                       w.s.path.string(), cursor->key().size()));
  }
  return get_be64(cursor->key().data());
}

// Encodes events canonically as seq first_seq.. Nothing is written: an
// over-size event fails here, before any put, so a caller can skip a game
// without undoing half of it.
Expected<std::vector<std::string>> encode_events(core::GameId game, core::Seq first_seq,
                                                 std::span<const core::Event> events) {
  std::vector<std::string> out;
  out.reserve(events.size());
  core::Seq seq = first_seq;
  for (const auto& ev : events) {
    std::string bytes = events::encode_event(ev, seq);
    if (bytes.size() > events::kMaxEventBytes) {
      return make_error(ErrorCode::ResourceExhausted,
                        fmt::format("game {}, seq {}: the event encodes to {} bytes, over the "
                                    "limit of {}; nothing was written",
                                    game, seq, bytes.size(), events::kMaxEventBytes));
    }
    out.push_back(std::move(bytes));
    ++seq;
  }
  return out;
}

// How put_blocks stores a block that is not sealed.
enum class Tail : std::uint8_t {
  Raw,         // append: the open tail stays raw, rewritten by the next append
  Compressed,  // import: a finished record; an append to it later rewrites it raw
};

// Lays encoded events as seqs first_seq.. into blocks, continuing `tail` (the
// open tail's builder, empty when the next seq starts a segment), and puts
// each block: the tail first (replacing the stored one), the others new.
// Sealed blocks are compressed (codec 1), block 0 never is (listing reads
// it). Returns the head: S of the last block.
Expected<core::Digest> put_blocks(WriteTxn& w, core::GameId game, core::Seq first_seq,
                                  const std::vector<std::string>& encoded, detail::BlockBuilder tail,
                                  core::Seq tail_first, bool append, Tail partial = Tail::Raw) {
  core::Seq seq = first_seq;
  core::Digest head = tail.prev;
  std::size_t i = 0;
  while (i < encoded.size()) {
    if (tail.n == 0) tail_first = seq;
    const core::Seq end = detail::segment_end(tail_first);
    for (; i < encoded.size() && seq < end; ++i, ++seq) tail.add(seq, encoded[i]);
    const bool replacing = tail_first < first_seq;  // the open tail, already stored
    const auto key = event_key(game, tail_first);
    const unsigned flags = replacing ? 0u : (append ? MDB_APPEND : MDB_NOOVERWRITE);
    const bool compress = tail_first > 0 && (partial == Tail::Compressed || detail::sealed(tail_first, tail.n));
    const std::string value = tail.value_as(compress ? detail::kCodecZstd : detail::kCodecRaw, tail.s());
    auto put = w.put(w.s.dbi.events, view(key), value, flags, "writing a block");
    if (!put) return tl::unexpected(put.error());
    if (!*put) {
      return make_error(ErrorCode::DataLoss,
                        fmt::format("game {}: a block at seq {} is already stored although the game record "
                                    "does not count it; run verify",
                                    game, tail_first));
    }
    head = tail.s();
    detail::BlockBuilder next;
    next.prev = head;
    tail = std::move(next);
  }
  return head;
}

// The open tail of m's game, checked: S recomputed from the block before
// must equal its stored S and the record's head (nothing is chained onto a
// broken link). An empty builder (prev = the head) when the last segment is
// full. Sets *first to the tail's first seq.
Expected<detail::BlockBuilder> open_tail(WriteTxn& w, const GameMeta& m, core::Seq& first) {
  auto broken = [&](std::string_view why) {
    return make_error(ErrorCode::DataLoss,
                      fmt::format("game {}: {}; nothing appended, run verify", m.id, why));
  };
  const core::Seq last = m.event_count - 1;
  first = detail::segment_first(last);
  const auto key = event_key(m.id, first);
  auto raw = w.get(w.s.dbi.events, view(key), "reading the last block");
  if (!raw) return tl::unexpected(raw.error());
  if (!*raw) return broken(fmt::format("the last block (seq {}) is missing", first));
  auto b = detail::parse_block(**raw, first);
  if (!b) return broken(b.error().message);
  if (first + b->n != m.event_count) return broken("the last block does not end at the record's event count");
  if (b->s != m.head) return broken("the last block does not end at the head in the game record");
  detail::BlockBuilder tail;
  if (first + b->n == detail::segment_end(first)) {  // full: the next event starts a segment
    tail.prev = m.head;
    first = m.event_count;
    return tail;
  }
  core::Digest prev = detail::chain_start();
  if (first > 0) {
    const core::Seq before = detail::segment_first(first - 1);
    const auto bkey = event_key(m.id, before);
    auto braw = w.get(w.s.dbi.events, view(bkey), "reading a block");
    if (!braw) return tl::unexpected(braw.error());
    if (!*braw) return broken(fmt::format("the block at seq {} is missing", before));
    auto bb = detail::parse_block(**braw, before);
    if (!bb) return broken(bb.error().message);
    prev = bb->s;
  }
  // The open tail is raw once appended to; import leaves it compressed (a
  // finished record), so the first append after an import decompresses it.
  thread_local detail::AlignedBody aligned;
  auto body = aligned.decode(*b, first);
  if (!body) return broken(body.error().message);
  if (core::chain_hash(prev, *body) != b->s) return broken("the chain breaks in the last block");
  tail.prev = prev;
  tail.tags.assign(b->tags);
  tail.body.assign(*body);
  tail.n = b->n;
  return tail;
}

}  // namespace

namespace {

// The checks import makes before any transaction: a non-empty stream that
// opens with its one GameCreated.
Expected<const core::GameCreated*> check_new_stream(std::span<const core::Event> events) {
  if (events.empty()) return make_error(ErrorCode::InvalidArgument, "import: no events");
  if (!is_game_created(events[0])) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("import: the first event is {}, not GameCreated",
                                  core::payload_name(events[0].payload)));
  }
  for (std::size_t i = 1; i < events.size(); ++i) {
    if (is_game_created(events[i])) {
      return make_error(ErrorCode::InvalidArgument,
                        fmt::format("import: event {} is a second GameCreated", i));
    }
  }
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (auto ok = core::check_event_text(events[i]); !ok) {
      return make_error(ErrorCode::InvalidArgument, fmt::format("import: event {}: {}", i, ok.error().message));
    }
  }
  return &std::get<core::GameCreated>(events[0].payload);
}

// Why a write failed: a game-level refusal (the game is skipped, the
// transaction goes on) or a store error (the transaction is aborted).
struct ImportError {
  Error error;
  bool game_level = false;
  core::GameId already = 0;  // an identical stream is stored as this game
};

// Writes a checked stream as game `id` inside w: the identity index, the
// events (MDB_APPEND: id is past every stored game), the metadata. A
// game-level refusal (Conflict, an over-size event) is found before the
// first put, so nothing of the game is in w when it is returned.
tl::expected<void, ImportError> write_new_game(WriteTxn& w, core::GameId id, const core::GameCreated& created,
                                               std::span<const core::Event> events) {
  auto store_error = [](Error e) { return tl::unexpected(ImportError{std::move(e), false}); };
  const auto& dbi = w.s.dbi;
  auto encoded = encode_events(id, 0, events);
  if (!encoded) return tl::unexpected(ImportError{encoded.error(), true});
  // The index key of an imported game is the head of the whole stream: two
  // games with the same GameCreated but other moves are two games, and the
  // same file imported again is found (docs/architecture.md › "Store
  // format 2" › 3). Computed before any put, so a refusal writes nothing.
  detail::BlockBuilder chain;
  chain.prev = detail::chain_start();
  for (core::Seq seq = 0, first = 0; seq < encoded->size(); ++seq) {
    if (seq == detail::segment_end(first)) {
      chain.prev = chain.s();
      chain.body.clear();
      first = seq;
    }
    detail::put_le32(chain.body, (*encoded)[seq].size());
    chain.body.append((*encoded)[seq]);
  }
  const core::Digest head = chain.s();
  const std::string_view id_key(reinterpret_cast<const char*>(head.data()), head.size());
  auto existing = w.get(dbi.identity, id_key, "reading the identity index");
  if (!existing) return store_error(existing.error());
  if (*existing) {
    const auto other = (*existing)->size() == 8 ? get_be64((*existing)->data()) : 0;
    return tl::unexpected(ImportError{
        Error{ErrorCode::Conflict, fmt::format("\"{}\" ({}) is already imported as game {}", created.title,
                                               created.date, other)},
        true, other});
  }
  detail::BlockBuilder start;
  start.prev = detail::chain_start();
  auto written = put_blocks(w, id, 0, *encoded, std::move(start), 0, true, Tail::Compressed);
  if (!written) return store_error(written.error());

  GameMeta m;
  m.event_count = events.size();
  m.head = *written;
  m.identity = game_identity(encoded->front());
  m.annotation_head = annotation_chain_start(m.identity);
  const auto gkey = game_key(id);
  auto put = w.put(dbi.games, view(gkey), encode_game_meta(m), MDB_APPEND, "writing the game record");
  if (!put) return store_error(put.error());
  if (!*put) return store_error(Error{ErrorCode::Internal, fmt::format("game {} already exists", id)});
  auto idx = w.put(dbi.identity, id_key, view(gkey), MDB_NOOVERWRITE, "writing the identity index");
  if (!idx) return store_error(idx.error());
  return {};
}

}  // namespace

Expected<core::GameId> Store::import_game(std::span<const core::Event> events,
                                          Durability durability) {
  auto created = check_new_stream(events);
  if (!created) return tl::unexpected(created.error());
  return detail::with_write_txn<core::GameId>(
      *shared_, durability, [&](WriteTxn& w) -> Expected<core::GameId> {
        auto last = last_game_id(w);
        if (!last) return tl::unexpected(last.error());
        const core::GameId id = *last + 1;
        if (auto r = write_new_game(w, id, **created, events); !r) return tl::unexpected(r.error().error);
        return id;
      });
}

Expected<std::vector<Expected<ImportedGame>>> Store::import_games(
    std::span<const std::span<const core::Event>> games, Durability durability) {
  std::vector<Expected<const core::GameCreated*>> checked;
  checked.reserve(games.size());
  for (const auto& g : games) checked.push_back(check_new_stream(g));
  return detail::with_write_txn<std::vector<Expected<ImportedGame>>>(
      *shared_, durability, [&](WriteTxn& w) -> Expected<std::vector<Expected<ImportedGame>>> {
        auto last = last_game_id(w);
        if (!last) return tl::unexpected(last.error());
        core::GameId next = *last + 1;
        std::vector<Expected<ImportedGame>> out;
        out.reserve(games.size());
        for (std::size_t i = 0; i < games.size(); ++i) {
          if (!checked[i]) {
            out.push_back(tl::unexpected(checked[i].error()));
            continue;
          }
          auto r = write_new_game(w, next, **checked[i], games[i]);
          if (r) {
            out.push_back(ImportedGame{next++, false});
          } else if (r.error().already != 0) {
            out.push_back(ImportedGame{r.error().already, true});
          } else if (r.error().game_level) {
            out.push_back(tl::unexpected(std::move(r.error().error)));
          } else {
            return tl::unexpected(std::move(r.error().error));  // aborts the whole batch
          }
        }
        return out;
      });
}

namespace {

// The checks append makes before any transaction.
Expected<void> check_appended(core::GameId game, std::span<const core::Event> events) {
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (is_game_created(events[i])) {
      return make_error(ErrorCode::InvalidArgument,
                        fmt::format("append to game {}: event {} is a GameCreated", game, i));
    }
    if (auto ok = core::check_event_text(events[i]); !ok) {
      return make_error(ErrorCode::InvalidArgument,
                        fmt::format("append to game {}: event {}: {}", game, i, ok.error().message));
    }
  }
  return {};
}

// Appends inside w. A game-level refusal (NotFound, Conflict, a broken
// tail, an over-size event) is found before the first put, so nothing of
// this append is in w when it is returned and the transaction may go on.
tl::expected<core::Seq, ImportError> append_in(WriteTxn& w, core::GameId game, core::Seq expected_next_seq,
                                               std::span<const core::Event> events) {
  auto refused = [](Error e) { return tl::unexpected(ImportError{std::move(e), true}); };
  auto store_error = [](Error e) { return tl::unexpected(ImportError{std::move(e), false}); };
  const auto gkey = game_key(game);
  auto raw = w.get(w.s.dbi.games, view(gkey), "reading the game record");
  if (!raw) return store_error(raw.error());
  if (!*raw) return refused(Error{ErrorCode::NotFound, fmt::format("game {} does not exist", game)});
  auto meta = decode_game_meta(**raw);
  if (!meta) return refused(Error{meta.error().code, fmt::format("game {}: {}", game, meta.error().message)});
  meta->id = game;
  if (meta->event_count != expected_next_seq) {
    return refused(Error{ErrorCode::Conflict,
                         fmt::format("game {} has {} events; the append expected {} (another "
                                     "writer got there first); nothing written",
                                     game, meta->event_count, expected_next_seq)});
  }
  if (events.empty()) return meta->event_count;
  core::Seq tail_first = 0;
  auto tail = open_tail(w, *meta, tail_first);
  if (!tail) {
    if (tail.error().code == ErrorCode::DataLoss) return refused(tail.error());
    return store_error(tail.error());
  }

  // Only the last game's keys may use MDB_APPEND: later games' keys sort after.
  auto last = last_game_id(w);
  if (!last) return store_error(last.error());
  auto encoded = encode_events(game, meta->event_count, events);
  if (!encoded) return refused(encoded.error());
  auto head = put_blocks(w, game, meta->event_count, *encoded, std::move(*tail), tail_first, *last == game);
  if (!head) return store_error(head.error());
  meta->head = *head;
  meta->event_count += events.size();
  auto put = w.put(w.s.dbi.games, view(gkey), encode_game_meta(*meta), 0, "writing the game record");
  if (!put) return store_error(put.error());
  return meta->event_count;
}

}  // namespace

Expected<core::Seq> Store::append(core::GameId game, core::Seq expected_next_seq,
                                  std::span<const core::Event> events, Durability durability) {
  if (auto ok = check_appended(game, events); !ok) return tl::unexpected(ok.error());
  return detail::with_write_txn<core::Seq>(
      *shared_, durability, [&](WriteTxn& w) -> Expected<core::Seq> {
        auto r = append_in(w, game, expected_next_seq, events);
        if (!r) return tl::unexpected(std::move(r.error().error));
        return *r;
      });
}

Expected<std::vector<Expected<core::Seq>>> Store::append_batch(std::span<const AppendRequest> requests,
                                                               Durability durability) {
  std::vector<Expected<void>> checked;
  checked.reserve(requests.size());
  for (const AppendRequest& r : requests) checked.push_back(check_appended(r.game, r.events));
  return detail::with_write_txn<std::vector<Expected<core::Seq>>>(
      *shared_, durability, [&](WriteTxn& w) -> Expected<std::vector<Expected<core::Seq>>> {
        std::vector<Expected<core::Seq>> out;
        out.reserve(requests.size());
        for (std::size_t i = 0; i < requests.size(); ++i) {
          if (!checked[i]) {
            out.push_back(tl::unexpected(checked[i].error()));
            continue;
          }
          auto r = append_in(w, requests[i].game, requests[i].expected_next_seq, requests[i].events);
          if (r) {
            out.push_back(*r);
          } else if (r.error().game_level) {
            out.push_back(tl::unexpected(std::move(r.error().error)));
          } else {
            return tl::unexpected(std::move(r.error().error));  // aborts the whole batch
          }
        }
        return out;
      });
}

Expected<core::Digest> Store::put_blob(BlobKind kind, std::string_view bytes) {
  const core::Digest hash = core::blake2b(bytes);
  const auto key = blob_key(kind, hash);
  auto done =
      detail::with_write_txn<bool>(*shared_, Durability::Sync, [&](WriteTxn& w) -> Expected<bool> {
        auto existing = w.get(w.s.dbi.blobs, view(key), "reading a blob");
        if (!existing) return tl::unexpected(existing.error());
        if (*existing) {
          if (**existing == bytes) return true;
          return make_error(
              ErrorCode::DataLoss,
              fmt::format("blob {} holds bytes that do not hash to its key; run verify",
                          core::to_hex(hash)));
        }
        auto put = w.put(w.s.dbi.blobs, view(key), bytes, MDB_NOOVERWRITE, "writing a blob");
        if (!put) return tl::unexpected(put.error());
        return true;
      });
  if (!done) return tl::unexpected(done.error());
  return hash;
}

}  // namespace warlog::store
