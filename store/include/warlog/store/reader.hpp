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

// The first place verify found the chain broken.
struct BrokenLink {
  enum class Kind : std::uint8_t {
    BadMetadata,       // the games value does not decode
    IdentityMismatch,  // the identity index does not point back at this game
    BadKey,            // an events key of the wrong size under this game's prefix
    Gap,               // a seq is missing (an event removed, or keys out of order)
    Undecodable,       // the stored bytes do not decode (truncated, garbage)
    HeaderMismatch,    // the header's game or seq differ from its key (moved, reordered)
    ChainMismatch,     // prev_hash differs from the hash of the stored event before
    CountMismatch,     // the stream is shorter or longer than the metadata says
    HeadMismatch,      // the last event does not hash to the metadata's head
    // The annotation chain (annotations.hpp; `annotation` names the n):
    BadAnnotation,            // a key, a gap in n, a value that does not decode or names no event
    AnnotationChainMismatch,  // the stored A(n) is not the hash recomputed over the chain
    AnnotationCountMismatch,  // more or fewer annotations than the game record counts
    AnnotationHeadMismatch,   // the chain does not end at the record's annotation head
  };
  core::GameId game = 0;
  core::Seq seq = 0;  // the event at which the check failed
  Kind kind = Kind::ChainMismatch;
  std::string what;  // one line for a person
  std::optional<std::uint64_t> annotation;  // the annotation's n, for the annotation kinds

  [[nodiscard]] std::string to_string() const;  // "game 3, seq 17: what"
};

struct VerifyReport {
  core::GameId game = 0;
  core::Seq events_checked = 0;      // events whose every check passed
  core::Seq unknown_payloads = 0;    // events of a payload kind newer than this build
  std::uint64_t annotations_checked = 0;  // annotations whose chain link held
  std::optional<BrokenLink> broken;  // the first broken link; empty when intact

  [[nodiscard]] bool ok() const noexcept { return !broken.has_value(); }
};

// A stored snapshot: its seq and its bytes (a copy, valid after the Reader).
struct StoredSnapshot {
  core::Seq seq = 0;
  std::string bytes;
};

// Return false to stop the scan early.
using EventFn = std::function<bool(const core::Event&)>;
// bytes point into the memory map: valid only during the call. Copy to keep.
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
  // NotFound "game 17 does not exist"; DataLoss for corrupt metadata.
  [[nodiscard]] Expected<GameMeta> game(core::GameId id) const;

  // --- Streams ---------------------------------------------------------------
  // Calls fn for each event with from_seq <= seq < min(to_seq, event count),
  // in seq order, decoding one at a time from a cursor (a game is never loaded
  // whole). Returns how many events fn was given. Errors: NotFound for an
  // unknown game; DataLoss "game G, seq S: ..." for a missing event, a key or
  // header that disagrees, or bytes that do not decode; Unsupported for a
  // payload kind newer than this build. Events before the error were given
  // to fn. The hash chain is not checked here: that is verify's job.
  // Memory: a scan of more than 16,384 events gives the pages of the mapped
  // data file it has read back to the kernel as it goes (madvise), so the
  // process's resident set stays flat however long the game; the bytes stay
  // readable (a later read faults them back in).
  [[nodiscard]] Expected<core::Seq> scan(core::GameId game, core::Seq from_seq, core::Seq to_seq,
                                         const EventFn& fn) const;
  // As scan, but gives the stored (packed Cap'n Proto) bytes undecoded. Only
  // keys are checked.
  [[nodiscard]] Expected<core::Seq> scan_raw(core::GameId game, core::Seq from_seq,
                                             core::Seq to_seq, const RawEventFn& fn) const;

  // --- Integrity ---------------------------------------------------------------
  // Walks the game's stream with a cursor and checks, per event: the key's seq
  // is the next expected one, the bytes decode, the header's game and seq match
  // the key, the header's prev_hash is the chain hash of the stored bytes
  // before it (zero for seq 0); then that the count and the final chain hash
  // match the metadata; then the annotation chain (annotations.hpp): each
  // stored A(n) against the recomputed one (the first altered annotation is
  // named), then its count and head against the record. Reports the first
  // broken link; never fails on corrupt data. Errors (not findings): NotFound for an unknown game; IoError etc.
  // when LMDB itself fails.
  [[nodiscard]] Expected<VerifyReport> verify(core::GameId game) const;

  // The event chain's head after the first `count` events, recomputed from
  // the stored events (never the game record), for each count asked, in one
  // pass: what a signature's (event count, head) is checked against. A count
  // the stored stream does not reach (removed events, a gap, an unreadable
  // event) is absent from the result. Errors: NotFound for an unknown game;
  // IoError etc. (store/src/chain_heads.cpp: the event chain's definition.)
  [[nodiscard]] Expected<std::map<core::Seq, core::Digest>> chain_heads(core::GameId game,
                                                                        std::span<const core::Seq> counts) const;

  // --- Blobs -------------------------------------------------------------------
  // The bytes stored by Store::put_blob. NotFound "no ruleset with hash H".
  [[nodiscard]] Expected<std::string> get_blob(BlobKind kind, const core::Digest& hash) const;

  // --- Snapshots (store/src/snapshots.cpp) --------------------------------------
  // The snapshot with the greatest seq <= `seq` stored under this ruleset
  // digest and engine version, or nullopt. Bytes are returned as stored:
  // whether they decode and fit is the caller's business (replay/seek.hpp).
  [[nodiscard]] Expected<std::optional<StoredSnapshot>> nearest_snapshot(core::GameId game, core::Seq seq,
                                                                         const core::Digest& ruleset_digest,
                                                                         std::uint32_t engine_version) const;
  // Every snapshot key of a game, in key order (seq, ruleset, version).
  [[nodiscard]] Expected<std::vector<SnapshotKeyParts>> snapshot_keys(core::GameId game) const;

  // --- Annotations (store/src/annotations.cpp; layout: annotations.hpp) -------
  // Every annotation of `game` (nullopt: of every game), in key order: by
  // game, then n (the order of appending), each with its chain recomputed.
  // Errors: DataLoss "annotation G#N: ..." for a key or value that does not
  // decode; Unsupported for a kind newer than this build.
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
  // verify's annotation part (annotations.cpp); `checked` counts the links that held.
  [[nodiscard]] Expected<std::optional<BrokenLink>> verify_annotations(const GameMeta& meta,
                                                                       std::uint64_t& checked) const;

  std::shared_ptr<detail::Shared> shared_;
  MDB_txn* txn_ = nullptr;  // owned: aborted in end()
};

}  // namespace warlog::store
