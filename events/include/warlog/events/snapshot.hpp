#pragma once
// Snapshots of folded state: a core::GameState after one event, as a packed
// Cap'n Proto message (schema: Snapshot in events/schema/warlog.capnp), with
// a header that says what it was folded from and under. A snapshot is a
// cache: whoever reads one checks the header against what it wants (seek, in
// replay/seek.hpp) and discards it on any difference. Nothing here trusts it.
//
// Bytes: the packed message, then BLAKE2b-256 of it (32 bytes). Events are
// covered by the hash chain and `verify`; a snapshot has no chain, and a
// flipped bit in a Troop's damage would still decode, so the checksum turns
// any corruption into DataLoss (discard and rebuild) rather than a wrong
// state shown to a judge. It is not a signature: it guards against disks and
// bugs, not forgers. `capnp convert packed:text` reads the value without its
// last 32 bytes.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "warlog/core/error.hpp"
#include "warlog/core/event.hpp"
#include "warlog/core/hash.hpp"
#include "warlog/core/state.hpp"

namespace warlog::events {

// What a snapshot was folded from and under; readable without the state.
struct SnapshotHeader {
  std::uint32_t engine_version = 0;  // core::kEngineVersion of the fold that made it
  std::string ruleset_hash;          // hex content hash of the ruleset folded under
  std::string catalog_hash;          // hex content hash of the catalog folded under
  core::GameId game = 0;
  core::Seq seq = 0;                 // the state is the one after this event
  core::Digest chain_hash{};         // the store's hash chain through event `seq`

  friend bool operator==(const SnapshotHeader&, const SnapshotHeader&) = default;
};

struct Snapshot {
  SnapshotHeader header;
  core::GameState state;
};

// Encodes every field of `state` (core::GameState::operator== compares them
// all, and so does the round-trip test) as a packed message and its
// checksum. Never fails; the result may exceed kMaxSnapshotBytes for a
// pathological state, which callers check before storing it.
[[nodiscard]] std::string encode_snapshot(const core::GameState& state, const SnapshotHeader& header);

// Decodes a snapshot. Errors: DataLoss for bytes that are not a valid
// snapshot: over kMaxSnapshotBytes, a checksum mismatch (any truncated,
// appended or changed byte), and behind a sound checksum a message over the
// traversal limit, nesting deeper than the schema allows, or a state that
// cannot be one (seat count, grid indices, a card twice in a pile, anything
// core::check_invariants refuses); Unsupported for an enumerant this build
// does not know.
[[nodiscard]] Expected<Snapshot> decode_snapshot(std::string_view bytes);

// Decodes the header only (the message is still unpacked and bounded as
// above, but no state is built). Errors as decode_snapshot.
[[nodiscard]] Expected<SnapshotHeader> decode_snapshot_header(std::string_view bytes);

// The largest snapshot accepted, packed. Real states pack to a few KB (a
// 1,000,000-event synthetic game: see docs/architecture.md › Seek); the
// bound (about 100 times the largest measured) keeps a hostile value from
// costing more than a few milliseconds: with the traversal limit at 8 times
// it in words, a decode reads at most 2 MiB.
inline constexpr std::size_t kMaxSnapshotBytes = std::size_t{256} << 10;

}  // namespace warlog::events
