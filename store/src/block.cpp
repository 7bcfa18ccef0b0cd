#include "block.hpp"

#include <fmt/format.h>
#include <sodium.h>
#include <zstd.h>

#include <array>
#include <cstring>
#include <new>
#include <optional>
#include <stdexcept>

#include "warlog/events/codec.hpp"

namespace warlog::store::detail {

namespace {

std::uint16_t get_le16(const char* p) noexcept {
  return static_cast<std::uint16_t>(static_cast<unsigned char>(p[0]) | static_cast<unsigned char>(p[1]) << 8);
}
std::uint32_t get_le32(const char* p) noexcept {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = v << 8 | static_cast<unsigned char>(p[i]);
  return v;
}
void put_le(std::string& out, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>(v >> (8 * i) & 0xFF));
}

}  // namespace

std::string block_range(core::Seq first, std::size_t n) {
  return n <= 1 ? fmt::format("seq {}", first) : fmt::format("seq {}..{}", first, first + n - 1);
}

const core::Digest& chain_start() noexcept {
  static const core::Digest s = core::blake2b("warlog.event-chain.2");
  return s;
}

std::uint64_t event_tag(core::Seq seq, std::string_view canonical) noexcept {
  unsigned char be[8];
  for (int i = 7; i >= 0; --i, seq >>= 8) be[i] = static_cast<unsigned char>(seq & 0xFF);
  crypto_generichash_state st;
  crypto_generichash_init(&st, nullptr, 0, 16);
  crypto_generichash_update(&st, be, sizeof be);
  crypto_generichash_update(&st, reinterpret_cast<const unsigned char*>(canonical.data()), canonical.size());
  unsigned char out[16];
  crypto_generichash_final(&st, out, sizeof out);
  std::uint64_t tag = 0;
  std::memcpy(&tag, out, sizeof tag);  // the first 8 bytes, as stored
  return tag;
}

std::uint64_t frame_check(std::string_view frame) noexcept {
  static const auto key = [] {
    const core::Digest d = core::blake2b("warlog.zstd-frame-check.1");
    std::array<unsigned char, crypto_shorthash_KEYBYTES> k{};
    std::memcpy(k.data(), d.data(), k.size());
    return k;
  }();
  unsigned char out[crypto_shorthash_BYTES];
  crypto_shorthash(out, reinterpret_cast<const unsigned char*>(frame.data()), frame.size(), key.data());
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = v << 8 | out[i];
  return v;
}

std::uint64_t BlockView::tag(std::size_t i) const noexcept {
  std::uint64_t t = 0;
  std::memcpy(&t, tags.data() + i * kTagBytes, sizeof t);
  return t;
}

Expected<BlockView> parse_block(std::string_view value, core::Seq first) {
  auto bad = [&](std::string_view what) {
    return make_error(ErrorCode::DataLoss, fmt::format("the block at seq {} ({} bytes) {}", first, value.size(), what));
  };
  if (value.size() < kBlockHeaderBytes) return bad("is shorter than a block header");
  const auto version = static_cast<std::uint8_t>(value[0]);
  if (version > kBlockVersion) {
    return make_error(ErrorCode::Unsupported, fmt::format("the block at seq {} has version {}, newer than this "
                                                          "warlog reads ({})", first, version, kBlockVersion));
  }
  if (version != kBlockVersion) return bad(fmt::format("has version {}", version));
  BlockView b;
  b.codec = static_cast<std::uint8_t>(value[1]);
  if (b.codec > kCodecZstd) {
    return make_error(ErrorCode::Unsupported, fmt::format("the block at seq {} names codec {}, which this warlog "
                                                          "does not know (0 raw, 1 zstd)",
                                                          first, b.codec));
  }
  b.n = get_le16(value.data() + 2);
  const std::uint32_t raw = get_le32(value.data() + 4);
  b.raw_size = raw;
  const core::Seq capacity = segment_end(first) - first;
  if (b.n == 0 || b.n > capacity) return bad(fmt::format("counts {} events, not 1..{}", b.n, capacity));
  if (raw > kSegmentEvents * events::kMaxEventBytes) return bad(fmt::format("states a body of {} bytes", raw));
  for (std::size_t i = 0; i < b.s.size(); ++i) b.s[i] = static_cast<std::uint8_t>(value[8 + i]);
  const std::size_t tags = std::size_t{b.n} * kTagBytes;
  if (value.size() < kBlockHeaderBytes + tags) return bad("ends inside its tags");
  b.tags = value.substr(kBlockHeaderBytes, tags);
  b.body = value.substr(kBlockHeaderBytes + tags);
  if (b.codec == kCodecRaw && b.body.size() != raw) {
    return bad(fmt::format("has a body of {} bytes, its header states {}", b.body.size(), raw));
  }
  if (b.codec == kCodecZstd && b.body.empty()) return bad("is zstd-compressed but has no body");
  return b;
}

Expected<std::optional<std::string_view>> BodyReader::next() {
  if (rest_.empty()) return std::optional<std::string_view>{};
  if (rest_.size() < 4) return make_error(ErrorCode::DataLoss, "the body ends inside an event's length");
  const std::uint32_t n = get_le32(rest_.data());
  if (n > events::kMaxEventBytes) {
    return make_error(ErrorCode::DataLoss, fmt::format("an event's length {} is over the limit of {}", n,
                                                       events::kMaxEventBytes));
  }
  if (rest_.size() - 4 < n) {
    return make_error(ErrorCode::DataLoss,
                      fmt::format("an event's length {} runs past the body ({} bytes left)", n, rest_.size() - 4));
  }
  const auto out = rest_.substr(4, n);
  rest_.remove_prefix(4 + std::size_t{n});
  return std::optional<std::string_view>{out};
}

void BlockBuilder::add(core::Seq seq, std::string_view canonical) {
  const std::uint64_t t = event_tag(seq, canonical);
  tags.append(reinterpret_cast<const char*>(&t), sizeof t);
  put_le(body, canonical.size(), 4);
  body.append(canonical);
  ++n;
}

core::Digest BlockBuilder::s() const { return core::chain_hash(prev, body); }

std::string BlockBuilder::value_as(std::uint8_t codec, const core::Digest& h) const {
  std::string out;
  const std::size_t bound = codec == kCodecZstd ? ZSTD_compressBound(body.size()) : body.size();
  out.reserve(kBlockHeaderBytes + tags.size() + bound);
  out.push_back(static_cast<char>(kBlockVersion));
  out.push_back(static_cast<char>(codec));
  put_le(out, n, 2);
  put_le(out, body.size(), 4);
  out.append(reinterpret_cast<const char*>(h.data()), h.size());
  out.append(tags);
  if (codec != kCodecZstd) {
    out.append(body);
    return out;
  }
  // One context per thread, reused: ZSTD_createCCtx costs more than a block.
  thread_local const std::unique_ptr<ZSTD_CCtx, decltype(&ZSTD_freeCCtx)> cctx(ZSTD_createCCtx(), &ZSTD_freeCCtx);
  if (!cctx) throw std::bad_alloc();
  const std::size_t at = out.size();
  out.resize(at + bound);
  const std::size_t z = ZSTD_compressCCtx(cctx.get(), out.data() + at, bound, body.data(), body.size(), kZstdLevel);
  // Into a buffer of compressBound's size, at a fixed level, zstd fails only
  // for want of memory: a bug or an exhausted machine, not an input.
  if (ZSTD_isError(z)) throw std::runtime_error(std::string("zstd: ") + ZSTD_getErrorName(z));
  out.resize(at + z);
  put_le(out, frame_check(std::string_view(out).substr(at)), 8);
  return out;
}

struct AlignedBody::Zstd {
  std::unique_ptr<ZSTD_DCtx, decltype(&ZSTD_freeDCtx)> dctx{ZSTD_createDCtx(), &ZSTD_freeDCtx};
};

AlignedBody::AlignedBody() = default;
AlignedBody::~AlignedBody() = default;

std::string_view AlignedBody::assign(std::string_view body) {
  words_.resize((body.size() + 7) / 8);
  if (!body.empty()) std::memcpy(words_.data(), body.data(), body.size());
  return {reinterpret_cast<const char*>(words_.data()), body.size()};
}

Expected<std::string_view> AlignedBody::decode(const BlockView& b, core::Seq first) {
  if (b.codec == kCodecRaw) return assign(b.body);
  auto bad = [&](std::string_view what) {
    return make_error(ErrorCode::DataLoss, fmt::format("the block at {}: its zstd body ({} bytes) {}",
                                                       block_range(first, b.n), b.body.size(), what));
  };
  // Before: the header's length is bounded (parse_block), the frame must
  // state that same length and be the whole stored body.
  if (b.raw_size > kSegmentEvents * events::kMaxEventBytes) return bad("states an over-size body");
  // The check after the frame first: a frame may decode to the same bytes
  // with a bit flipped where zstd does not look (the tamper suite found
  // such bits), and damage to the stored form must not pass unseen.
  if (b.body.size() < kFrameCheckBytes + 1) return bad("is too short for a frame and its check");
  const std::string_view frame_bytes = b.body.substr(0, b.body.size() - kFrameCheckBytes);
  std::uint64_t check = 0;
  for (std::size_t i = kFrameCheckBytes; i-- > 0;) {
    check = check << 8 | static_cast<unsigned char>(b.body[frame_bytes.size() + i]);
  }
  if (check != frame_check(frame_bytes)) return bad("does not match the check stored after it (damaged)");
  const std::size_t frame = ZSTD_findFrameCompressedSize(frame_bytes.data(), frame_bytes.size());
  if (ZSTD_isError(frame)) return bad(fmt::format("is not a zstd frame ({})", ZSTD_getErrorName(frame)));
  if (frame != frame_bytes.size()) return bad(fmt::format("holds {} bytes after its frame", frame_bytes.size() - frame));
  const unsigned long long content = ZSTD_getFrameContentSize(frame_bytes.data(), frame_bytes.size());
  if (content == ZSTD_CONTENTSIZE_UNKNOWN || content == ZSTD_CONTENTSIZE_ERROR) {
    return bad("does not state its decompressed size");
  }
  if (content != b.raw_size) {
    return bad(fmt::format("decompresses to {} bytes, its header states {}", content, b.raw_size));
  }
  if (!zstd_) {
    zstd_ = std::make_unique<Zstd>();
    if (!zstd_->dctx) throw std::bad_alloc();
    // A window past the largest body is refused rather than allocated.
    (void)ZSTD_DCtx_setParameter(zstd_->dctx.get(), ZSTD_d_windowLogMax, 23);
  }
  words_.resize((std::size_t{b.raw_size} + 7) / 8);
  char* out = reinterpret_cast<char*>(words_.data());
  const std::size_t got = ZSTD_decompressDCtx(zstd_->dctx.get(), out, b.raw_size, frame_bytes.data(), frame_bytes.size());
  if (ZSTD_isError(got)) return bad(fmt::format("does not decode ({})", ZSTD_getErrorName(got)));
  // After: exactly the stated length came out (a buffer of that size cannot take more).
  if (got != b.raw_size) return bad(fmt::format("decodes to {} bytes, its header states {}", got, b.raw_size));
  return std::string_view(out, got);
}

}  // namespace warlog::store::detail
