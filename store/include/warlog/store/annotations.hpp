#pragma once
// The `annotations` database: what is recorded beside a game's stream
// (disputes, rulings, signatures; core/annotation.hpp), never in it, and
// chained per game (docs/architecture.md › Store format 2 §2, §3).
//
//   key    game u64 BE ‖ n u64 BE   (16 bytes; n = 0, 1, 2, ... per game,
//                                    the order of appending)
//   value  A(n) (32 bytes) ‖ the AnnotationAt in canonical Cap'n Proto
//          (events/annotation_codec.hpp), which names the seq it concerns
//
//   A(-1) = BLAKE2b-256("warlog.annotation-chain.2" ‖ identity)
//   A(n)  = BLAKE2b-256(A(n-1) ‖ u32 LE length ‖ canonical bytes of n)
//
// where identity is GameMeta::identity. The game record keeps the count and
// A(count - 1) (A(-1) for none), rewritten in the same write transaction as
// each append, so removing, reordering or editing any annotation, the last
// one included, shows in verify; and a signature over (count, head) goes
// stale when one is added and INVALID when one it covered is removed.
//
// Append-only: Store::append_annotation writes n = the game's count with
// MDB_NOOVERWRITE; nothing rewrites or deletes a value. A ruling is a new
// record naming its dispute by (seq, N): the N-th DisputeRaised about that
// seq, counted in n order (replay/disputes.hpp).
//
// Why n per game and not seq ‖ n (format 1): the chain needs one order, and
// the order that matters is the order things were said; "what concerns seq
// S" is a filter over a game's few annotations.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "warlog/core/annotation.hpp"
#include "warlog/core/hash.hpp"
#include "warlog/store/keys.hpp"

namespace warlog::store {

using AnnotationKey = std::array<char, 16>;

[[nodiscard]] inline AnnotationKey annotation_key(core::GameId game, std::uint64_t n) noexcept {
  AnnotationKey k{};
  put_be64(k.data(), game);
  put_be64(k.data() + 8, n);
  return k;
}

struct AnnotationKeyParts {
  core::GameId game = 0;
  std::uint64_t n = 0;
};

// nullopt for a key that is not 16 bytes.
[[nodiscard]] inline std::optional<AnnotationKeyParts> parse_annotation_key(std::string_view k) noexcept {
  if (k.size() != 16) return std::nullopt;
  return AnnotationKeyParts{get_be64(k.data()), get_be64(k.data() + 8)};
}

// --- The chain ------------------------------------------------------------------
inline constexpr std::string_view kAnnotationChainTag = "warlog.annotation-chain.2";

// A(-1) of the game with this identity.
[[nodiscard]] core::Digest annotation_chain_start(const core::Digest& identity);
// A(n) from A(n-1) and the canonical bytes of annotation n.
[[nodiscard]] core::Digest annotation_chain_next(const core::Digest& prev, std::string_view canonical);

// One stored annotation with where it is kept.
struct AnnotationRecord {
  core::GameId game = 0;
  std::uint64_t n = 0;  // its place in the game's chain
  core::Seq seq = 0;    // the event it concerns
  core::Annotation value;
  // A(n) recomputed from A(-1) over the stored bytes of records 0..n as they
  // are now (what a signature's annotation head is checked against). Every
  // read checks it against the stored A(n) (Reader::annotations), so the two
  // agree for every record a reader is given.
  core::Digest chain{};

  friend bool operator==(const AnnotationRecord&, const AnnotationRecord&) = default;
};

}  // namespace warlog::store
