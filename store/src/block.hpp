#pragma once
// Blocks and the event chain of store format 2 (docs/architecture.md ›
// "Store format 2" › 1 and 3). Private to the store target.
//
// Segment 0 is event 0 alone; segment k >= 1 is seqs 64k-63 .. 64k. One
// block holds one segment (the last one possibly partial: the open tail):
//
//   u8 version = 1 · u8 codec (0 raw, 1 zstd) · u16 LE n · u32 LE raw body
//   length · 32 S after this block · n × 8 tags · stored body
//   body = for each event, in seq order: u32 LE length ‖ canonical(e)
//   stored body = the body (codec 0), or one zstd frame of it followed by
//   u64 LE SipHash-2-4(frame) under a fixed key (codec 1: frame_check, so
//   that a flipped bit zstd does not read is still seen)
//
// A block is sealed when it holds its whole segment (64 events; block 0,
// GameCreated alone, stays raw so that listing a game is one small read):
// sealed blocks are written with codec 1. The open tail is written with
// codec 0 by append, so each append rewrites a raw value of at most a few
// KB; import, which writes a finished record, compresses its partial last
// block too (a third of a generated game's events; an append to it later
// rewrites it raw). The chain and the tags are over the body, never the
// stored form: recompressing changes no hash.
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
inline constexpr std::uint8_t kCodecZstd = 1;
// The zstd level sealed blocks are written at (docs/performance.md ›
// "Store bytes per event" has the measurement that chose it).
inline constexpr int kZstdLevel = 3;
inline constexpr std::size_t kBlockHeaderBytes = 40;
inline constexpr std::size_t kTagBytes = 8;
inline constexpr std::size_t kFrameCheckBytes = 8;

// The first seq of the segment holding seq.
[[nodiscard]] constexpr core::Seq segment_first(core::Seq seq) noexcept {
  return seq == 0 ? 0 : (seq - 1) / kSegmentEvents * kSegmentEvents + 1;
}
// One past the last seq the segment starting at `first` may hold.
[[nodiscard]] constexpr core::Seq segment_end(core::Seq first) noexcept {
  return first == 0 ? 1 : first + kSegmentEvents;
}
// Whether the block at `first` holding n events is sealed (written compressed).
[[nodiscard]] constexpr bool sealed(core::Seq first, std::size_t n) noexcept {
  return first > 0 && n == kSegmentEvents;
}
// "seq A" or "seq A..B": how messages name a block.
[[nodiscard]] std::string block_range(core::Seq first, std::size_t n);

[[nodiscard]] const core::Digest& chain_start() noexcept;  // S(-1)

inline void put_le32(std::string& out, std::size_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>(v >> (8 * i) & 0xFF));
}
[[nodiscard]] std::uint64_t event_tag(core::Seq seq, std::string_view canonical) noexcept;
// The check stored after a codec-1 frame: crypto_shorthash (SipHash-2-4)
// under the first 16 bytes of BLAKE2b-256("warlog.zstd-frame-check.1").
// Against damage, not forgery: an editor recomputes it as easily as a tag.
[[nodiscard]] std::uint64_t frame_check(std::string_view frame) noexcept;

// A stored block, parsed but not decoded; views into the value.
struct BlockView {
  std::uint8_t codec = kCodecRaw;
  std::uint16_t n = 0;
  std::uint32_t raw_size = 0;  // the body's length, as the header states it
  core::Digest s{};
  std::string_view tags;  // n × 8 bytes
  std::string_view body;  // the stored body: raw (codec 0) or a zstd frame (codec 1)
  [[nodiscard]] std::uint64_t tag(std::size_t i) const noexcept;
};

// Checks the layout: version, codec, n within 1..64 (1 for block 0), the
// raw length against 64 × kMaxEventBytes and, for codec 0, against the
// body. Errors: DataLoss naming what is wrong; Unsupported for a newer
// block version or an unknown codec.
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
  // The stored block with S = s: codec 0 (raw) or 1 (one zstd frame of
  // the body at kZstdLevel).
  [[nodiscard]] std::string value_as(std::uint8_t codec, const core::Digest& s) const;
};

// The body of a block in word-aligned memory, so that Cap'n Proto reads
// each event in place (LMDB values are only 2-byte aligned): a raw body
// copied once, a zstd body decompressed into it. Reused from block to block.
class AlignedBody {
 public:
  AlignedBody();
  AlignedBody(const AlignedBody&) = delete;
  AlignedBody& operator=(const AlignedBody&) = delete;
  ~AlignedBody();

  // The raw body of the block at `first`. Decompression is bounded: the
  // header's raw length (at most 64 × kMaxEventBytes, checked by
  // parse_block) must be the frame's stated content size before anything
  // is decompressed into a buffer of exactly that size, and the bytes
  // produced must fill it; the stored body must be exactly one frame and
  // its check (frame_check), which is compared first.
  // Errors: DataLoss "the block at seq A..B: ..." for anything else.
  [[nodiscard]] Expected<std::string_view> decode(const BlockView& b, core::Seq first);
  [[nodiscard]] std::string_view assign(std::string_view body);  // a raw body

 private:
  std::vector<std::uint64_t> words_;
  struct Zstd;
  std::unique_ptr<Zstd> zstd_;  // made on the first compressed block
};

}  // namespace warlog::store::detail
