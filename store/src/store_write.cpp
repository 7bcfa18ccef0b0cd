// Writing streams and blobs. Each public call is one write transaction.

#include <algorithm>
#include <atomic>
#include <map>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "shared.hpp"
#include "warlog/events/codec.hpp"
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

Error conflict(const core::GameCreated& created, core::GameId other) {
  return Error{ErrorCode::Conflict, fmt::format("import: \"{}\" ({}) is already stored as game {} (same "
                                                "GameCreated); nothing written",
                                                created.title, created.date, other)};
}

// Conflict when a game with this identity is stored (game-level), or a
// store error.
tl::expected<void, ImportError> check_not_stored(WriteTxn& w, const core::GameCreated& created,
                                                 const core::Digest& identity) {
  const std::string_view id_key(reinterpret_cast<const char*>(identity.data()), identity.size());
  auto existing = w.get(w.s.dbi.identity, id_key, "reading the identity index");
  if (!existing) return tl::unexpected(ImportError{existing.error(), false});
  if (!*existing) return {};
  const auto other = (*existing)->size() == 8 ? get_be64((*existing)->data()) : 0;
  return tl::unexpected(ImportError{conflict(created, other), true});
}

// A game's encoded stream, ready to write as game `id`.
struct EncodedGame {
  const core::GameCreated* created = nullptr;
  core::Digest identity{};
  core::GameId id = 0;
  std::size_t source = 0;  // index of its events in the caller's list
  Expected<std::vector<std::string>> encoded = std::vector<std::string>{};
  core::Digest head{};
};

// Writes an encoded game inside w: the events (MDB_APPEND: id is past every
// stored game), the metadata, the identity index.
Expected<void> write_encoded(WriteTxn& w, const EncodedGame& g) {
  const auto& dbi = w.s.dbi;
  if (auto r = put_events(w, g.id, 0, *g.encoded, true); !r) return tl::unexpected(r.error());
  const core::GameCreated& created = *g.created;
  GameMeta m;
  m.id = g.id;
  m.event_count = g.encoded->size();
  m.head = g.head;
  m.identity = g.identity;
  m.title = created.title;
  m.date = created.date;
  m.ruleset_hash = created.ruleset_hash;
  m.catalog_hash = created.catalog_hash;
  m.seats = created.seats;
  const auto gkey = game_key(g.id);
  auto put = w.put(dbi.games, view(gkey), encode_game_meta(m), MDB_APPEND, "writing game metadata");
  if (!put) return tl::unexpected(put.error());
  if (!*put) return make_error(ErrorCode::Internal, fmt::format("game {} already exists", g.id));
  const std::string_view id_key(reinterpret_cast<const char*>(g.identity.data()), g.identity.size());
  auto idx = w.put(dbi.identity, id_key, view(gkey), MDB_NOOVERWRITE, "writing the identity index");
  if (!idx) return tl::unexpected(idx.error());
  return {};
}

// Writes a checked stream as game `id` inside w. A game-level refusal
// (Conflict, an over-size event) is found before the first put, so nothing
// of the game is in w when it is returned.
tl::expected<void, ImportError> write_new_game(WriteTxn& w, core::GameId id, const core::GameCreated& created,
                                               std::span<const core::Event> events) {
  EncodedGame g{&created, game_identity(created), id};
  if (auto ok = check_not_stored(w, created, g.identity); !ok) return ok;
  g.encoded = encode_events(id, 0, events, g.head);
  if (!g.encoded) return tl::unexpected(ImportError{g.encoded.error(), true});
  if (auto r = write_encoded(w, g); !r) return tl::unexpected(ImportError{r.error(), false});
  return {};
}

// Encodes every game (as its planned id) on one thread per core: games are
// independent (each chain is its own), and encoding and hashing are two
// thirds of an import's instructions (callgrind), the puts the rest.
void encode_all(std::vector<EncodedGame>& plan, std::span<const std::span<const core::Event>> games) {
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t k = next++; k < plan.size(); k = next++) {
      EncodedGame& g = plan[k];
      g.encoded = encode_events(g.id, 0, games[g.source], g.head);
    }
  };
  const std::size_t threads = std::min<std::size_t>(std::max(1u, std::thread::hardware_concurrency()), plan.size());
  std::vector<std::jthread> pool;
  for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
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
        std::vector<Expected<core::GameId>> out(games.size(), core::GameId{0});
        // Plan: which games go in and as what id. Conflicts (with the store,
        // or with an earlier game of the batch) are known before encoding.
        std::vector<EncodedGame> plan;
        std::vector<std::pair<std::size_t, std::size_t>> repeats;  // (game, plan index of its twin)
        std::map<core::Digest, std::size_t> planned;                // identity -> plan index
        for (std::size_t i = 0; i < games.size(); ++i) {
          if (!checked[i]) {
            out[i] = tl::unexpected(checked[i].error());
            continue;
          }
          const core::GameCreated& created = **checked[i];
          const core::Digest identity = game_identity(created);
          if (auto ok = check_not_stored(w, created, identity); !ok) {
            if (!ok.error().game_level) return tl::unexpected(std::move(ok.error().error));
            out[i] = tl::unexpected(std::move(ok.error().error));
            continue;
          }
          if (auto it = planned.find(identity); it != planned.end()) {
            repeats.emplace_back(i, it->second);
            continue;
          }
          planned.emplace(identity, plan.size());
          plan.push_back(EncodedGame{&created, identity, *last + 1 + plan.size(), i});
        }
        encode_all(plan, games);
        const bool all_encoded = std::all_of(plan.begin(), plan.end(), [](const auto& g) { return g.encoded.has_value(); });
        if (!all_encoded) {
          // A refused game (an over-size event) shifts the ids after it and
          // may leave its twin importable: take the batch one game at a
          // time, as import_game would. Nothing has been written yet.
          core::GameId next = *last + 1;
          for (std::size_t i = 0; i < games.size(); ++i) {
            if (!checked[i]) continue;
            auto r = write_new_game(w, next, **checked[i], games[i]);
            if (r) {
              out[i] = next++;
            } else if (r.error().game_level) {
              out[i] = tl::unexpected(std::move(r.error().error));
            } else {
              return tl::unexpected(std::move(r.error().error));  // aborts the whole batch
            }
          }
          return out;
        }
        for (const EncodedGame& g : plan) {
          if (auto r = write_encoded(w, g); !r) return tl::unexpected(r.error());  // aborts the whole batch
          out[g.source] = g.id;
        }
        for (const auto& [i, twin] : repeats) out[i] = tl::unexpected(conflict(**checked[i], plan[twin].id));
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
