#pragma once
// Blocks and the event chain of store format 2 (docs/architecture.md ›
// "Store format 2" › 1 and 3). Private to the store target.
//
// Segment 0 is event 0 alone; segment k >= 1 is seqs 64k-63 .. 64k. One
// block holds one segment (the last one possibly partial: the open tail):
//
//   u8 version = 1 · u8 codec (0 raw, 1 zstd) · u16 LE n · u32 LE raw body
//   length · 32 S after this block · n × 8 tags · body
//   body = for each event, in seq order: u32 LE length ‖ canonical(e)
//
//   S(-1) = BLAKE2b-256("warlog.event-chain.2"), S(k) = BLAKE2b-256(S(k-1) ‖ body(k))
//   tag(e) = first 8 bytes of BLAKE2b-128(u64 BE seq ‖ canonical(e))

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "warlog/core/error.hpp"
#include "warlog/core/event.hpp"
#include "warlog/core/hash.hpp"

namespace warlog::store::detail {

inline constexpr core::Seq kSegmentEvents = 64;
inline constexpr std::uint8_t kBlockVersion = 1;
inline constexpr std::uint8_t kCodecRaw = 0;
inline constexpr std::uint8_t kCodecZstd = 1;  // reserved: the speed issue
inline constexpr std::size_t kBlockHeaderBytes = 40;
inline constexpr std::size_t kTagBytes = 8;

// The first seq of the segment holding seq.
[[nodiscard]] constexpr core::Seq segment_first(core::Seq seq) noexcept {
  return seq == 0 ? 0 : (seq - 1) / kSegmentEvents * kSegmentEvents + 1;
}
// One past the last seq the segment starting at `first` may hold.
[[nodiscard]] constexpr core::Seq segment_end(core::Seq first) noexcept {
  return first == 0 ? 1 : first + kSegmentEvents;
}

[[nodiscard]] const core::Digest& chain_start() noexcept;  // S(-1)

inline void put_le32(std::string& out, std::size_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>(v >> (8 * i) & 0xFF));
}
[[nodiscard]] std::uint64_t event_tag(core::Seq seq, std::string_view canonical) noexcept;

// A stored block, parsed but not decoded; views into the value.
struct BlockView {
  std::uint8_t codec = kCodecRaw;
  std::uint16_t n = 0;
  core::Digest s{};
  std::string_view tags;  // n × 8 bytes
  std::string_view body;  // raw body (codec 0)
  [[nodiscard]] std::uint64_t tag(std::size_t i) const noexcept;
};

// Checks the layout: version, codec, n within 1..64 (1 for block 0), the
// raw length against the body and 64 × kMaxEventBytes. Errors: DataLoss
// naming what is wrong; Unsupported for a newer block version or codec 1
// (zstd, not read by this build yet).
[[nodiscard]] Expected<BlockView> parse_block(std::string_view value, core::Seq first);

// The events of a raw body, one at a time: each length checked against the
// rest of the body and kMaxEventBytes before it is read.
class BodyReader {
 public:
  explicit BodyReader(std::string_view body) noexcept : rest_(body) {}
  // The next event's canonical bytes; nullopt at the end; DataLoss for a
  // length that runs past the body or over the limit.
  [[nodiscard]] Expected<std::optional<std::string_view>> next();

 private:
  std::string_view rest_;
};

// A block being built or extended (import, append's open tail).
struct BlockBuilder {
  core::Digest prev{};  // S of the block before
  std::string tags;
  std::string body;
  std::uint16_t n = 0;

  void add(core::Seq seq, std::string_view canonical);
  [[nodiscard]] core::Digest s() const;  // S(prev ‖ body)
  [[nodiscard]] std::string value() const;  // the stored block, codec 0
};

// The body of a block copied once into word-aligned memory, so that Cap'n
// Proto reads each event in place (LMDB values are only 2-byte aligned).
class AlignedBody {
 public:
  [[nodiscard]] std::string_view assign(std::string_view body);

 private:
  std::vector<std::uint64_t> words_;
};

}  // namespace warlog::store::detail
