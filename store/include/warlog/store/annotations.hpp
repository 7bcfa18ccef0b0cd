#pragma once
// The `annotations` database: what is recorded beside a game's stream
// (disputes, rulings, signatures; core/annotation.hpp), never in it.
//
//   key    game u64 BE ‖ seq u64 BE ‖ n u32 BE   (20 bytes)
//   value  one packed Cap'n Proto Annotation (events/schema/annotation.capnp)
//
// Append-only: Store::append_annotation writes the next n under (game, seq)
// with MDB_NOOVERWRITE and nothing ever rewrites or deletes a value. A ruling
// is a new record at its dispute's (game, seq) naming the dispute's n; a
// signature is keyed at the last event it covers. Big-endian keys keep a
// game's annotations together and in event order, so listing one game is a
// range read and `mdb_dump -s annotations` shows them in order.
//
// Why signatures live here rather than in a `signatures` database: the
// DESIGN puts everything that is not a game action beside the stream; one
// append-only side table needs no store format bump (an older warlog opening
// a newer store sees the same seven databases) and a signature is naturally
// "about the event it ends at".

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "warlog/core/annotation.hpp"
#include "warlog/store/keys.hpp"

namespace warlog::store {

using AnnotationKey = std::array<char, 20>;

[[nodiscard]] inline AnnotationKey annotation_key(core::GameId game, core::Seq seq,
                                                  std::uint32_t n) noexcept {
  AnnotationKey k{};
  put_be64(k.data(), game);
  put_be64(k.data() + 8, seq);
  for (int i = 3; i >= 0; --i) {
    k[16 + static_cast<std::size_t>(i)] = static_cast<char>(n & 0xFF);
    n >>= 8;
  }
  return k;
}

struct AnnotationKeyParts {
  core::GameId game = 0;
  core::Seq seq = 0;
  std::uint32_t n = 0;
};

// nullopt for a key that is not 20 bytes.
[[nodiscard]] inline std::optional<AnnotationKeyParts> parse_annotation_key(std::string_view k) noexcept {
  if (k.size() != 20) return std::nullopt;
  std::uint32_t n = 0;
  for (std::size_t i = 16; i < 20; ++i) n = n << 8 | static_cast<unsigned char>(k[i]);
  return AnnotationKeyParts{get_be64(k.data()), get_be64(k.data() + 8), n};
}

// One stored annotation with where it is kept.
struct AnnotationRecord {
  core::GameId game = 0;
  core::Seq seq = 0;
  std::uint32_t n = 0;
  core::Annotation value;
  friend bool operator==(const AnnotationRecord&, const AnnotationRecord&) = default;
};

}  // namespace warlog::store
