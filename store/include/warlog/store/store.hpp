#pragma once
// The event store: one LMDB environment (a directory holding data.mdb and
// lock.mdb) with the named databases listed in keys.hpp, store format 2
// (docs/architecture.md › "Store format 2"). One stream per game,
// append-only, in blocks of 64 events chained by BLAKE2b-256 over their
// canonical bytes (S(k) = BLAKE2b(S(k-1) ‖ body(k)); store/src/block.hpp),
// catalogs and rulesets kept by content hash and re-hashed on read.
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
  // Unless read_only, the store's owner lock (owner_lock.hpp) is held for the
  // Store's life: shared by a local writer (open() fails with Conflict "warlog
  // serve (pid P) owns this store: record through it (its page and API), or stop it first" while a server runs),
  // exclusive for `warlog serve` (open() fails while any writer has it open).
  bool serve_owner = false;
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

// One game that Store::migrate_format1 converted.
struct MigratedGame {
  core::GameId id = 0;
  std::string title;
  core::Seq events = 0;
  core::Digest format1_head{};
  std::vector<core::GameSigned> signatures;  // format-1 signatures valid at that head
};

// One append of Store::append_batch: as Store::append's arguments.
struct AppendRequest {
  core::GameId game = 0;
  core::Seq expected_next_seq = 0;
  std::span<const core::Event> events;
};

// One game of Store::import_games.
struct ImportedGame {
  core::GameId id = 0;
  bool already_stored = false;  // an identical stream was stored as `id`; nothing written
  friend bool operator==(const ImportedGame&, const ImportedGame&) = default;
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
  // store writes seq = 0..n-1 in blocks (store/src/block.hpp) and the chain.
  // Errors: InvalidArgument when events is empty, the first is not
  // GameCreated or a later one is; Conflict "... is already imported as game
  // N" when a stream with the same event chain head (every event the same)
  // is stored; ResourceExhausted for an event over events::kMaxEventBytes
  // encoded, or a map that cannot grow further. Two games with the same
  // GameCreated but other events are two games.
  [[nodiscard]] Expected<core::GameId> import_game(std::span<const core::Event> events,
                                                   Durability durability = Durability::Sync);

  // Imports many games in one write transaction, one commit: the bulk path
  // (one or two flushes for the batch instead of per game). Returns one
  // result per game, in order: its new id; the id of the identical stream
  // already stored (or earlier in the batch), already_stored set, nothing
  // written; or why it was skipped. Each game is all or nothing, checked as
  // import_game checks it before any of its blocks is written; a game
  // refused (InvalidArgument, ResourceExhausted for an over-size event) is
  // skipped whole and the others are imported, with consecutive ids. An
  // error of the store itself (I/O, a map that cannot grow) aborts the
  // transaction: nothing of the batch is written and the call fails. A
  // game's encoded events are held in memory while it is written.
  [[nodiscard]] Expected<std::vector<Expected<ImportedGame>>> import_games(
      std::span<const std::span<const core::Event>> games, Durability durability = Durability::Sync);

  // Appends events to a game and returns its new event count. expected_next_seq
  // must equal the game's current event count (optimistic concurrency).
  // Errors: NotFound "game 17 does not exist"; Conflict when expected_next_seq
  // is stale (nothing written); InvalidArgument for a GameCreated among the
  // events; DataLoss when the open tail (the last block) no longer chains
  // from the block before or to the record's head (run verify; nothing is
  // appended to a broken chain); as import_game. The open tail is rewritten
  // in the same transaction as the game record.
  [[nodiscard]] Expected<core::Seq> append(core::GameId game, core::Seq expected_next_seq,
                                           std::span<const core::Event> events,
                                           Durability durability = Durability::Sync);

  // Many appends in one write transaction, one commit (the server's path:
  // one pair of flushes for every table that appended meanwhile). Returns
  // one result per request, in order: the game's new event count, or why it
  // was refused (as append: NotFound, Conflict, InvalidArgument, DataLoss
  // for a broken tail, ResourceExhausted for an over-size event), which
  // writes nothing of it and does not stop the others. Requests are applied
  // in order, so a second append to the same game expects the count after
  // the first. An error of the store itself (I/O, a map that cannot grow)
  // aborts the transaction: nothing of the batch is written and the call
  // fails.
  [[nodiscard]] Expected<std::vector<Expected<core::Seq>>> append_batch(std::span<const AppendRequest> requests,
                                                                         Durability durability = Durability::Sync);

  // Stores bytes under (kind, BLAKE2b-256(bytes)) and returns the hash.
  // Storing the same bytes again is a no-op.
  [[nodiscard]] Expected<core::Digest> put_blob(BlobKind kind, std::string_view bytes);

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

  // --- Migration (store/src/migrate.cpp) ------------------------------------------
  // `warlog migrate` (docs/architecture.md › "Store format 2" › 7): reads the
  // format-1 store at `path` read-only, checks every game's chain and
  // signatures with format 1's rules, writes the converted store beside it
  // (PATH.migrating: events re-encoded canonically under the same ids, blobs,
  // disputes and rulings through append_annotation, and a Migrated record
  // per game at its last event, the record flagged migrated), then renames
  // PATH to PATH.format-1 (kept) and the new store to PATH. Errors: NotFound
  // for no store; InvalidArgument for a store that is not format 1, or when
  // PATH.migrating or PATH.format-1 exists; DataLoss "game G: ..." naming
  // every game that fails the format-1 checks (nothing is written then).
  [[nodiscard]] static Expected<std::vector<MigratedGame>> migrate_format1(const std::filesystem::path& path,
                                                                           std::int64_t migrated_at_ms);

  // Flushes commits made with Durability::Relaxed to disk.
  [[nodiscard]] Expected<void> sync();

  // --- Copying (store/src/store_copy.cpp) ---------------------------------------
  // Writes a consistent, compacted copy of the store as of one read
  // transaction (mdb_env_copy2 with MDB_CP_COMPACT: free pages left out) to
  // dir/data.mdb, dir an existing empty directory, and flushes it to disk.
  // Sealed blocks stored raw (by a build before zstd) are compressed in the
  // copy (recompress_sealed), which is then compacted again: no hash
  // changes. Writers go on meanwhile; the copy holds no lock.mdb. Errors:
  // IoError, DataLoss when LMDB finds the store damaged.
  [[nodiscard]] Expected<void> copy_compact(const std::filesystem::path& dir) const;

  // Rewrites every sealed block (64 events) stored raw with codec 1, the
  // same tags and S (the chain is over the raw body), a batch of blocks per
  // write transaction; returns how many it rewrote. A block that does not
  // parse or decode is left as it is, for verify to name.
  [[nodiscard]] Expected<std::size_t> recompress_sealed();

  // --- Facts -------------------------------------------------------------------
  [[nodiscard]] const std::filesystem::path& path() const noexcept;
  [[nodiscard]] bool read_only() const noexcept;
  [[nodiscard]] std::size_t map_size() const noexcept;  // current, in bytes

  // Where this process maps data.mdb: a fault address inside it names a page
  // (replay/isolate.hpp reports it when a damaged page kills a reader).
  struct MapExtent {
    const void* base = nullptr;
    std::size_t bytes = 0;
    std::size_t page_size = 0;
  };
  [[nodiscard]] MapExtent map_extent() const noexcept;

 private:
  explicit Store(std::shared_ptr<detail::Shared> shared) noexcept;
  std::shared_ptr<detail::Shared> shared_;
};

}  // namespace warlog::store
