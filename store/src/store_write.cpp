// Writing streams and blobs. Each public call is one write transaction.

#include <string>
#include <variant>
#include <vector>

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

// Encodes events as seq first_seq.. of game, chaining from *head (advanced
// to the last one's hash). Nothing is written: an over-size event fails here,
// before any put, so a caller can skip a game without undoing half of it.
Expected<std::vector<std::string>> encode_events(core::GameId game, core::Seq first_seq,
                                                 std::span<const core::Event> events, core::Digest& head) {
  std::vector<std::string> out;
  out.reserve(events.size());
  core::Seq seq = first_seq;
  for (const auto& ev : events) {
    std::string bytes = events::encode_event(ev, game, seq, head);
    if (bytes.size() > events::kMaxEventBytes) {
      return make_error(ErrorCode::ResourceExhausted,
                        fmt::format("game {}, seq {}: the event encodes to {} bytes, over the "
                                    "limit of {}; nothing was written",
                                    game, seq, bytes.size(), events::kMaxEventBytes));
    }
    head = core::chain_hash(head, bytes);
    out.push_back(std::move(bytes));
    ++seq;
  }
  return out;
}

// Writes encoded events as seq first_seq.. of game. MDB_APPEND when the keys
// are known to sort after every stored key.
Expected<void> put_events(WriteTxn& w, core::GameId game, core::Seq first_seq,
                          const std::vector<std::string>& encoded, bool append) {
  core::Seq seq = first_seq;
  for (const auto& bytes : encoded) {
    const auto key = event_key(game, seq);
    auto put = w.put(w.s.dbi.events, view(key), bytes, append ? MDB_APPEND : MDB_NOOVERWRITE,
                     "writing an event");
    if (!put) return tl::unexpected(put.error());
    if (!*put) {
      return make_error(ErrorCode::DataLoss,
                        fmt::format("game {}, seq {} is already stored although the game's "
                                    "metadata does not count it; run verify",
                                    game, seq));
    }
    ++seq;
  }
  return {};
}

// The chain hash of the game's last stored event, recomputed from its bytes,
// must equal the metadata's head: nothing is chained onto a broken link.
Expected<void> check_head(WriteTxn& w, const GameMeta& m) {
  if (m.event_count == 0) return {};
  const core::Seq last = m.event_count - 1;
  auto broken = [&](std::string_view why) {
    return make_error(
        ErrorCode::DataLoss,
        fmt::format("game {}, seq {}: {}; nothing appended, run verify", m.id, last, why));
  };
  const auto key = event_key(m.id, last);
  auto bytes = w.get(w.s.dbi.events, view(key), "reading the last event");
  if (!bytes) return tl::unexpected(bytes.error());
  if (!*bytes) return broken("the last event is missing");
  auto header = events::decode_header(**bytes);
  if (!header) return broken(header.error().message);
  if (core::chain_hash(header->prev_hash, **bytes) != m.head) {
    return broken("the last event does not hash to the head in the game's metadata");
  }
  return {};
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
  return &std::get<core::GameCreated>(events[0].payload);
}

// Why a write failed: a game-level refusal (the game is skipped, the
// transaction goes on) or a store error (the transaction is aborted).
struct ImportError {
  Error error;
  bool game_level = false;
};

// Writes a checked stream as game `id` inside w: the identity index, the
// events (MDB_APPEND: id is past every stored game), the metadata. A
// game-level refusal (Conflict, an over-size event) is found before the
// first put, so nothing of the game is in w when it is returned.
tl::expected<void, ImportError> write_new_game(WriteTxn& w, core::GameId id, const core::GameCreated& created,
                                               std::span<const core::Event> events) {
  auto store_error = [](Error e) { return tl::unexpected(ImportError{std::move(e), false}); };
  const auto& dbi = w.s.dbi;
  const core::Digest identity = game_identity(created);
  const std::string_view id_key(reinterpret_cast<const char*>(identity.data()), identity.size());
  auto existing = w.get(dbi.identity, id_key, "reading the identity index");
  if (!existing) return store_error(existing.error());
  if (*existing) {
    const auto other = (*existing)->size() == 8 ? get_be64((*existing)->data()) : 0;
    return tl::unexpected(ImportError{
        Error{ErrorCode::Conflict, fmt::format("import: \"{}\" ({}) is already stored as game {} (same "
                                               "GameCreated); nothing written",
                                               created.title, created.date, other)},
        true});
  }
  core::Digest head{};
  auto encoded = encode_events(id, 0, events, head);
  if (!encoded) return tl::unexpected(ImportError{encoded.error(), true});
  if (auto r = put_events(w, id, 0, *encoded, true); !r) return store_error(r.error());

  GameMeta m;
  m.id = id;
  m.event_count = events.size();
  m.head = head;
  m.identity = identity;
  m.annotation_head = annotation_chain_start(identity);  // the annotation chain (annotations.hpp)
  m.title = created.title;
  m.date = created.date;
  m.ruleset_hash = created.ruleset_hash;
  m.catalog_hash = created.catalog_hash;
  m.seats = created.seats;
  const auto gkey = game_key(id);
  auto put = w.put(dbi.games, view(gkey), encode_game_meta(m), MDB_APPEND, "writing game metadata");
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

Expected<std::vector<Expected<core::GameId>>> Store::import_games(
    std::span<const std::span<const core::Event>> games, Durability durability) {
  std::vector<Expected<const core::GameCreated*>> checked;
  checked.reserve(games.size());
  for (const auto& g : games) checked.push_back(check_new_stream(g));
  return detail::with_write_txn<std::vector<Expected<core::GameId>>>(
      *shared_, durability, [&](WriteTxn& w) -> Expected<std::vector<Expected<core::GameId>>> {
        auto last = last_game_id(w);
        if (!last) return tl::unexpected(last.error());
        core::GameId next = *last + 1;
        std::vector<Expected<core::GameId>> out;
        out.reserve(games.size());
        for (std::size_t i = 0; i < games.size(); ++i) {
          if (!checked[i]) {
            out.push_back(tl::unexpected(checked[i].error()));
            continue;
          }
          auto r = write_new_game(w, next, **checked[i], games[i]);
          if (r) {
            out.push_back(next++);
          } else if (r.error().game_level) {
            out.push_back(tl::unexpected(std::move(r.error().error)));
          } else {
            return tl::unexpected(std::move(r.error().error));  // aborts the whole batch
          }
        }
        return out;
      });
}

Expected<core::Seq> Store::append(core::GameId game, core::Seq expected_next_seq,
                                  std::span<const core::Event> events, Durability durability) {
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (is_game_created(events[i])) {
      return make_error(ErrorCode::InvalidArgument,
                        fmt::format("append to game {}: event {} is a GameCreated", game, i));
    }
  }
  return detail::with_write_txn<core::Seq>(
      *shared_, durability, [&](WriteTxn& w) -> Expected<core::Seq> {
        const auto gkey = game_key(game);
        auto raw = w.get(w.s.dbi.games, view(gkey), "reading game metadata");
        if (!raw) return tl::unexpected(raw.error());
        if (!*raw)
          return make_error(ErrorCode::NotFound, fmt::format("game {} does not exist", game));
        auto meta = decode_game_meta(**raw);
        if (!meta) {
          return make_error(meta.error().code,
                            fmt::format("game {}: {}", game, meta.error().message));
        }
        if (meta->event_count != expected_next_seq) {
          return make_error(ErrorCode::Conflict,
                            fmt::format("game {} has {} events; the append expected {} (another "
                                        "writer got there first); nothing written",
                                        game, meta->event_count, expected_next_seq));
        }
        if (events.empty()) return meta->event_count;
        if (auto ok = check_head(w, *meta); !ok) return tl::unexpected(ok.error());

        // Only the last game's keys may use MDB_APPEND: later games' keys sort after.
        auto last = last_game_id(w);
        if (!last) return tl::unexpected(last.error());
        auto encoded = encode_events(game, meta->event_count, events, meta->head);
        if (!encoded) return tl::unexpected(encoded.error());
        if (auto r = put_events(w, game, meta->event_count, *encoded, *last == game); !r) {
          return tl::unexpected(r.error());
        }
        meta->event_count += events.size();
        auto put =
            w.put(w.s.dbi.games, view(gkey), encode_game_meta(*meta), 0, "writing game metadata");
        if (!put) return tl::unexpected(put.error());
        return meta->event_count;
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
