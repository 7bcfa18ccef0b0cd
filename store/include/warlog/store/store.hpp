#pragma once
// The event store: one LMDB environment (a directory holding data.mdb and
// lock.mdb) with the named databases listed in keys.hpp. One stream per game,
// append-only, each event's header chained to the one before by BLAKE2b-256
// (hash_n = BLAKE2b(hash_{n-1} || stored bytes_n), hash_{-1} = 32 zero bytes),
// catalogs and rulesets kept by content hash.
//
// A resource type: movable, not copyable. LMDB forbids opening one
// environment twice in one process (closing either breaks the other's locks),
// so open() refuses a store this process already has open: share the Store.
// Any number of processes may open it; readers never block the writer.
//
// Thread safety: a Store may be used from several threads (writes are
// serialised); a Reader from one thread at a time (MDB_NOTLS: it need not be
// the thread that opened it).

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "warlog/core/annotation.hpp"
#include "warlog/core/error.hpp"
#include "warlog/core/event.hpp"
#include "warlog/core/hash.hpp"
#include "warlog/store/reader.hpp"

namespace warlog::store {

struct Options {
  bool read_only = false;
  // Initial map size in bytes for a new store. An existing store keeps the
  // larger of this and the size it last grew to. The map doubles on
  // MDB_MAP_FULL up to max_map_size. Ignored when read_only.
  std::size_t map_size = std::size_t{64} << 20;
  std::size_t max_map_size = std::size_t{1} << 40;
  unsigned max_readers = 126;  // reader slots shared by all processes
};

// When a commit returns, relative to the disk. A process crash (even SIGKILL)
// loses nothing committed in either mode: the pages are in the OS page cache.
// The modes differ on an OS crash or power loss.
enum class Durability : std::uint8_t {
  // fsync data, then the meta page: an acknowledged commit survives power
  // loss. Two flushes per commit; use for a live single-event append.
  Sync,
  // One flush (MDB_NOMETASYNC for this commit): the store stays consistent,
  // but an OS crash may roll back the most recent commits. For bulk import
  // of many games; call Store::sync() at the end of the batch.
  Relaxed,
};

class Store {
 public:
  // Opens (or, unless read_only, creates) the store at `path`, a directory.
  // Clears reader slots left by dead processes (mdb_reader_check).
  // Errors: NotFound "no warlog store at PATH" (read-only and absent);
  // InvalidArgument for a path that is a file, an LMDB environment that is not
  // a warlog store, or a store already open in this process; Unsupported for a
  // store of a newer format (meta "format" > kFormatVersion) or LMDB version;
  // DataLoss for a data.mdb that is not LMDB; IoError when the OS refuses.
  [[nodiscard]] static Expected<Store> open(const std::filesystem::path& path,
                                            const Options& options = {});

  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;
  Store(Store&&) noexcept;
  Store& operator=(Store&&) noexcept;
  ~Store();

  // --- Reading -------------------------------------------------------------
  // Begins a read-only transaction: a consistent view as of now.
  // Errors: ResourceExhausted when every reader slot is taken.
  [[nodiscard]] Expected<Reader> reader() const;

  // --- Writing (each call is one transaction: all or nothing) ----------------
  // Imports a whole game as a new stream and returns its new id (the largest
  // id + 1, ids start at 1). The events' game and seq fields are ignored: the
  // store writes game = new id, seq = 0..n-1, and the chained prev_hash.
  // Errors: InvalidArgument when events is empty, the first is not
  // GameCreated or a later one is; Conflict "already stored as game N" when a
  // game with the same GameCreated (title, date, seats, territories, ruleset,
  // catalog) exists; ResourceExhausted for an event over
  // events::kMaxEventBytes encoded, or a map that cannot grow further.
  [[nodiscard]] Expected<core::GameId> import_game(std::span<const core::Event> events,
                                                   Durability durability = Durability::Sync);

  // Imports many games in one write transaction, one commit: the bulk path
  // (one or two flushes for the batch instead of per game). Returns one
  // result per game, in order: its new id, or why it was skipped. Each game
  // is all or nothing, checked as import_game checks it before any of its
  // events is written; a game refused (InvalidArgument, Conflict with a
  // stored game or an earlier game of the batch, ResourceExhausted for an
  // over-size event) is skipped whole and the others are imported, with
  // consecutive ids. An error of the store itself (I/O, a map that cannot
  // grow) aborts the transaction: nothing of the batch is written and the
  // call fails. A game's encoded events are held in memory while it is written.
  [[nodiscard]] Expected<std::vector<Expected<core::GameId>>> import_games(
      std::span<const std::span<const core::Event>> games, Durability durability = Durability::Sync);

  // Appends events to a game and returns its new event count. expected_next_seq
  // must equal the game's current event count (optimistic concurrency).
  // Errors: NotFound "game 17 does not exist"; Conflict when expected_next_seq
  // is stale (nothing written); InvalidArgument for a GameCreated among the
  // events; DataLoss when the stored head no longer matches the last event
  // (run verify; nothing is appended to a broken chain); as import_game.
  [[nodiscard]] Expected<core::Seq> append(core::GameId game, core::Seq expected_next_seq,
                                           std::span<const core::Event> events,
                                           Durability durability = Durability::Sync);

  // Stores bytes under (kind, BLAKE2b-256(bytes)) and returns the hash.
  // Storing the same bytes again is a no-op.
  [[nodiscard]] Expected<core::Digest> put_blob(BlobKind kind, std::string_view bytes);

  // --- Snapshots (store/src/snapshots.cpp) --------------------------------------
  // Snapshots are a cache beside the streams: writing them never touches an
  // event, and losing them only makes seeks slower. Default durability is
  // Relaxed for that reason.
  //
  // Stores each record under (game, record.seq, ruleset_digest,
  // engine_version), replacing what was there, in one transaction. With
  // `replace`, first removes the game's snapshots under this ruleset digest
  // and every snapshot of the game made by another engine version (stale
  // forever). Errors: NotFound for an unknown game; InvalidArgument for a seq
  // at or past the game's event count, or a record over
  // events::kMaxSnapshotBytes; as import_game for the map.
  [[nodiscard]] Expected<void> put_snapshots(core::GameId game, const core::Digest& ruleset_digest,
                                             std::uint32_t engine_version, std::span<const StoredSnapshot> records,
                                             bool replace = false, Durability durability = Durability::Relaxed);
  [[nodiscard]] Expected<void> put_snapshot(core::GameId game, core::Seq seq, const core::Digest& ruleset_digest,
                                            std::uint32_t engine_version, std::string_view bytes,
                                            Durability durability = Durability::Relaxed);
  // Removes one snapshot; false when it was not there.
  [[nodiscard]] Expected<bool> delete_snapshot(core::GameId game, core::Seq seq, const core::Digest& ruleset_digest,
                                               std::uint32_t engine_version);
  // Removes every snapshot of a game; returns how many.
  [[nodiscard]] Expected<std::size_t> drop_snapshots(core::GameId game);

  // --- Annotations (store/src/annotations.cpp; layout: annotations.hpp) -------
  // Appends `a`, concerning event `seq`, as the game's next annotation n,
  // chains it and updates the game record's annotation count and head in the
  // same transaction; returns n. Append-only: nothing is ever rewritten.
  // expected_next, when given, must equal the game's annotation count (all
  // kinds, not only those at `seq`: the chain has one order, so any append
  // in between changes what the writer read), as append's expected_next_seq:
  // a writer that read a stale history gets Conflict and writes nothing.
  // Errors: NotFound for an unknown game or a seq at or past its event count,
  // and for a DisputeRuled naming no dispute (seq, dispute); InvalidArgument
  // for a GameSigned whose event_count is not seq + 1; Conflict for a
  // GameSigned whose annotation_count is not the game's; DataLoss when the
  // record's head is not the last stored annotation's (run verify);
  // ResourceExhausted for a value over events::kMaxAnnotationBytes.
  [[nodiscard]] Expected<std::uint64_t> append_annotation(core::GameId game, core::Seq seq,
                                                          const core::Annotation& a,
                                                          std::optional<std::uint64_t> expected_next = std::nullopt);

  // Flushes commits made with Durability::Relaxed to disk.
  [[nodiscard]] Expected<void> sync();

  // --- Facts -------------------------------------------------------------------
  [[nodiscard]] const std::filesystem::path& path() const noexcept;
  [[nodiscard]] bool read_only() const noexcept;
  [[nodiscard]] std::size_t map_size() const noexcept;  // current, in bytes

 private:
  explicit Store(std::shared_ptr<detail::Shared> shared) noexcept;
  std::shared_ptr<detail::Shared> shared_;
};

}  // namespace warlog::store
