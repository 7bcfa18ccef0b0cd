#pragma once
// A Reader: one read-only LMDB transaction, one consistent view of the store.
// Appends committed after it began are invisible to it; open a new Reader to
// see them. A resource type: movable, not copyable; it keeps the environment
// alive, so it may outlive the Store that made it. Keep it short-lived where
// you can: while any Reader of a store is open in this process the map cannot
// grow (see Store), and an old Reader pins old pages in the file.

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "warlog/core/error.hpp"
#include "warlog/core/event.hpp"
#include "warlog/core/hash.hpp"
#include "warlog/store/annotations.hpp"
#include "warlog/store/game_meta.hpp"
#include "warlog/store/keys.hpp"

struct MDB_txn;  // lmdb.h; kept out of this header so front ends never see LMDB

namespace warlog::store {

namespace detail {
struct Shared;
}

// The end of a stream, for scan's to_seq.
inline constexpr core::Seq kEndSeq = std::numeric_limits<core::Seq>::max();

// The first place verify found a game broken (docs/architecture.md › "Store
// format 2" › 4).
struct BrokenLink {
  enum class Kind : std::uint8_t {
    BadMetadata,       // the game record does not decode
    IdentityMismatch,  // the record's identity is not event 0's, or the identity index does not point back
    BadKey,            // an events key of the wrong size under this game's prefix
    Gap,               // a block is missing (blocks do not follow each other)
    Undecodable,       // a block or an event does not decode within its limits
    HeaderMismatch,    // an event's header seq differs from its place in the block
    ChainMismatch,     // a block's S differs from S recomputed over its body (tags recomputed too)
    CountMismatch,     // the stream is shorter or longer than the record says
    HeadMismatch,      // the last block's S is not the record's head
    TagMismatch,       // an event's tag does not hold: the first altered event
    Orphan,            // events stored under a game id with no record (a deleted record)
    BlobMismatch,      // a catalog or ruleset GameCreated names is missing or does not hash to its name
    // The annotation chain (annotations.hpp; `annotation` names the n):
    BadAnnotation,            // a key, a gap in n, a value that does not decode or names no event
    AnnotationChainMismatch,  // the stored A(n) is not the hash recomputed over the chain
    AnnotationCountMismatch,  // more or fewer annotations than the game record counts
    AnnotationHeadMismatch,   // the chain does not end at the record's annotation head
  };
  core::GameId game = 0;
  core::Seq seq = 0;  // the event at which the check failed (a block's first seq)
  Kind kind = Kind::ChainMismatch;
  std::string what;  // one line for a person
  std::optional<std::uint64_t> annotation;  // the annotation's n, for the annotation kinds

  [[nodiscard]] std::string to_string() const;  // "game 3, seq 17: what"
};

// What a reading verb says of a game whose annotation chain breaks where
// `link` names (one of the annotation kinds): "game G: trust: BROKEN at
// annotation N: ...; its disputes, rulings and signatures are refused".
[[nodiscard]] std::string annotation_break_message(const BrokenLink& link);

struct VerifyReport {
  core::GameId game = 0;
  core::Seq events_checked = 0;      // events whose every check passed
  core::Seq unknown_payloads = 0;    // events of a payload kind newer than this build
  std::uint64_t annotations_checked = 0;  // annotations whose chain link held
  std::optional<BrokenLink> broken;  // the first broken link; empty when intact
  // verify(game, fn) only: events given to fn (each after its block's tags
  // and S held), and why the giving stopped short of a checked event (an
  // event of a payload kind this build does not know: "game G, seq S: ...",
  // ErrorCode::Unsupported), while the check went on to the end.
  core::Seq events_given = 0;
  std::optional<Error> not_given;
  // The S of each block whose every check held, in order from the game's
  // first: what SnapshotCache::put_walked records of a game that verified.
  std::vector<core::Digest> blocks;
  // Events decoded without the whole-message walk (events::Walk::Known):
  // in blocks whose S the `walked` record named at their place.
  core::Seq events_known = 0;

  [[nodiscard]] bool ok() const noexcept { return !broken.has_value(); }
};

// Return false to stop the scan early.
using EventFn = std::function<bool(const core::Event&)>;
// bytes (canonical, word-aligned or not) are valid only during the call. Copy to keep.
using RawEventFn = std::function<bool(core::Seq seq, std::string_view bytes)>;

class Reader {
 public:
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;
  Reader(Reader&& o) noexcept;
  Reader& operator=(Reader&& o) noexcept;
  ~Reader();

  // --- Games ---------------------------------------------------------------
  // Every game id, ascending. Reads keys only, so a corrupt metadata value
  // cannot hide the other games.
  [[nodiscard]] Expected<std::vector<core::GameId>> game_ids() const;
  // Every game's metadata, ascending by id. DataLoss "game N: ..." for the
  // first value that does not decode.
  [[nodiscard]] Expected<std::vector<GameMeta>> games() const;
  // A game's record with the fields derived from its GameCreated (block 0,
  // whose S is checked, and whose event 0 must hash to the record's
  // identity). NotFound "game 17 does not exist"; DataLoss for a corrupt
  // record or block 0, and "game 17: events with no game record ..." (or
  // annotations) when the record is missing but something is stored under
  // the id (a deleted record hides nothing); Unsupported for format 1's record.
  [[nodiscard]] Expected<GameMeta> game(core::GameId id) const;
  // The stored record only (derived fields empty): no stream read. Errors as game().
  [[nodiscard]] Expected<GameMeta> record(core::GameId id) const;

  // --- Streams ---------------------------------------------------------------
  // Calls fn for each event with from_seq <= seq < min(to_seq, event count),
  // in seq order, block by block from a cursor (a game is never loaded
  // whole). Every block read is checked before any of its events is given:
  // S recomputed from its body, starting at the stored S of the block before
  // the first one read (S(-1) from seq 0), must equal its stored S, and the
  // last block's the record's head. Returns how many events fn was given.
  // Errors: NotFound for an unknown game; DataLoss "game G: the chain breaks
  // in the block at seq A..B: run verify", or "game G, seq S: ..." for a
  // missing block, a block or event that does not decode, a header seq that
  // disagrees, or a compressed body that does not decode to its stated
  // length ("the block at seq A..B: its zstd body ..."); Unsupported for a
  // payload kind or block codec newer than this build. Events of blocks
  // before the error were given to fn. Events
  // come with game set to `game` (it is not stored in them).
  // Memory: every 16,384 events read, counted for the whole store (across
  // scans, Readers and threads), the pages of the mapped data file read so
  // far go back to the kernel (madvise), so the process's resident set stays
  // flat however long the game and however many games; the bytes stay
  // readable (a later read faults them back in).
  [[nodiscard]] Expected<core::Seq> scan(core::GameId game, core::Seq from_seq, core::Seq to_seq,
                                         const EventFn& fn) const;
  // As scan, with the same chain checks, but gives each event's canonical
  // bytes (events/codec.hpp) undecoded.
  [[nodiscard]] Expected<core::Seq> scan_raw(core::GameId game, core::Seq from_seq,
                                             core::Seq to_seq, const RawEventFn& fn) const;
  // The event chain head after the first `count` events (1 <= count <= the
  // event count): S over the segment holding event count - 1, as far as it
  // goes; the record's head for count = the event count. Reads and checks
  // the block holding it. Errors: InvalidArgument for a count out of range;
  // as scan.
  [[nodiscard]] Expected<core::Digest> head_at(core::GameId game, core::Seq count) const;

  // --- Integrity ---------------------------------------------------------------
  // Checks one game (store/src/verify.cpp): the record decodes; its identity
  // is event 0's and the identity index points back; blocks follow each
  // other with no gap and decode within their limits; each event's tag
  // (names the first altered event) and each block's S (names the altered
  // block when tags were recomputed); count and head against the record;
  // the blobs GameCreated names re-hash; then the annotation chain
  // (annotations.hpp): each stored A(n) against the recomputed one (the
  // first altered annotation is named), its count and head against the
  // record. Reports the first broken link;
  // never fails on corrupt data. Errors (not findings): NotFound for a
  // game id with neither a record nor events (a game id with events but no
  // record is reported broken, kind Orphan); IoError etc. when LMDB fails.
  [[nodiscard]] Expected<VerifyReport> verify(core::GameId game) const;
  // The same check, giving fn each decoded event of the record's count
  // (game set) in order as the check passes it, so that one walk both
  // checks and folds a game (Archive::audit): a block's events are given
  // only once its tags and S hold, the last block's only once its S is the
  // record's head, so nothing given was altered. A false from fn stops the
  // giving, never the check. The report says how many were given.
  [[nodiscard]] Expected<VerifyReport> verify(core::GameId game, const EventFn& fn) const;
  // The same, where `walked` is the S of each block this machine walked
  // whole before (SnapshotCache::walked, under the user's local MAC key):
  // a block whose S, recomputed from its body and the chain before it, is
  // the one recorded at its place decodes its events without the
  // whole-message and canonical-form walks (events::Walk::Known). Its
  // tags, its S and everything else are checked as ever; a block whose S
  // differs (altered, grown, or never walked) is walked whole.
  [[nodiscard]] Expected<VerifyReport> verify(core::GameId game, const EventFn& fn,
                                              std::span<const core::Digest> walked) const;
  // Game ids that have events or annotations but no record (a deleted
  // record), ascending.
  [[nodiscard]] Expected<std::vector<core::GameId>> orphan_games() const;

  // The event chain's head after the first `count` events, recomputed from
  // the stored events (never the game record), for each count asked, in one
  // pass: what a signature's (event count, head) is checked against. A count
  // the stored stream does not reach (removed events, a gap, an unreadable
  // event) is absent from the result. Errors: NotFound for an unknown game;
  // IoError etc. (store/src/chain_heads.cpp: the event chain's definition.)
  [[nodiscard]] Expected<std::map<core::Seq, core::Digest>> chain_heads(core::GameId game,
                                                                        std::span<const core::Seq> counts) const;

  // What the events database holds, block by block (the benchmarks' bytes
  // per event, store/src/layout_stats.cpp): stored values' sizes split into
  // header and tags and body, the raw bodies they decode to, per codec. A
  // block that does not parse or decode is counted in `unreadable`.
  struct LayoutStats {
    std::uint64_t blocks = 0, compressed_blocks = 0, unreadable = 0;
    std::uint64_t events = 0;
    std::uint64_t value_bytes = 0;   // stored values, whole
    std::uint64_t header_bytes = 0;  // 40-byte headers and 8-byte tags
    std::uint64_t stored_body_bytes = 0, raw_body_bytes = 0;                        // every block
    std::uint64_t compressed_stored_bytes = 0, compressed_raw_bytes = 0;            // codec 1 blocks only
    std::uint64_t key_bytes = 0;
  };
  [[nodiscard]] Expected<LayoutStats> layout_stats() const;

  // --- Blobs -------------------------------------------------------------------
  // The bytes stored by Store::put_blob, re-hashed on every read. NotFound
  // "no ruleset with hash H"; DataLoss when the bytes do not hash to H.
  [[nodiscard]] Expected<std::string> get_blob(BlobKind kind, const core::Digest& hash) const;

  // --- The chain through an event (store/src/chain_through.cpp) ----------------
  // The chain value after event `seq`: what a snapshot of the state after
  // it is bound to (store/snapshot_cache.hpp), so that it cannot outlive an
  // edit of the events it was folded from: head_at(game, seq + 1). Errors:
  // NotFound for an unknown game or a seq at or past its event count;
  // DataLoss for a missing or undecodable event.
  [[nodiscard]] Expected<core::Digest> chain_through(core::GameId game, core::Seq seq) const;

  // --- Annotations (store/src/annotations.cpp; layout: annotations.hpp) -------
  // Every annotation of `game` (nullopt: of every game), in key order: by
  // game, then n (the order of appending), each with its chain recomputed.
  // The chain is checked as it is read, as verify checks it (each stored
  // A(n), no gap in n, the event each concerns, the record's count and
  // head), so an annotation edited in place is never given: DataLoss "game
  // G: trust: BROKEN at annotation N: ..." refuses the game's annotations
  // whole (annotation_break_message); DataLoss "game G: annotations ... with
  // no game record" for annotations under an id without one; Unsupported
  // "annotation G#N: ..." for a kind newer than this build. With nullopt the
  // first such game fails the whole list: read game by game to go on.
  [[nodiscard]] Expected<std::vector<AnnotationRecord>> annotations(
      std::optional<core::GameId> game) const;
  // The annotations of the game that concern one event, in n order (empty
  // when none).
  [[nodiscard]] Expected<std::vector<AnnotationRecord>> annotations_at(core::GameId game,
                                                                       core::Seq seq) const;

 private:
  friend class Store;
  Reader(std::shared_ptr<detail::Shared> shared, MDB_txn* txn) noexcept;
  void end() noexcept;
  [[nodiscard]] Expected<core::Event> first_event(const GameMeta& record) const;
  // verify's annotation part (annotations.cpp); `checked` counts the links that held.
  [[nodiscard]] Expected<std::optional<BrokenLink>> verify_annotations(const GameMeta& meta,
                                                                       std::uint64_t& checked) const;

  std::shared_ptr<detail::Shared> shared_;
  MDB_txn* txn_ = nullptr;  // owned: aborted in end()
  std::thread::id owner_;   // the thread that began it (Shared::readers_of)
};

}  // namespace warlog::store
