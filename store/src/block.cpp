#include "block.hpp"

#include <fmt/format.h>
#include <sodium.h>

#include <cstring>
#include <optional>

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
  if (b.codec == kCodecZstd) {
    return make_error(ErrorCode::Unsupported,
                      fmt::format("the block at seq {} is zstd-compressed (codec 1), which this warlog does not "
                                  "read yet",
                                  first));
  }
  if (b.codec != kCodecRaw) return bad(fmt::format("names codec {}", b.codec));
  b.n = get_le16(value.data() + 2);
  const std::uint32_t raw = get_le32(value.data() + 4);
  const core::Seq capacity = segment_end(first) - first;
  if (b.n == 0 || b.n > capacity) return bad(fmt::format("counts {} events, not 1..{}", b.n, capacity));
  if (raw > kSegmentEvents * events::kMaxEventBytes) return bad(fmt::format("states a body of {} bytes", raw));
  for (std::size_t i = 0; i < b.s.size(); ++i) b.s[i] = static_cast<std::uint8_t>(value[8 + i]);
  const std::size_t tags = std::size_t{b.n} * kTagBytes;
  if (value.size() < kBlockHeaderBytes + tags) return bad("ends inside its tags");
  b.tags = value.substr(kBlockHeaderBytes, tags);
  b.body = value.substr(kBlockHeaderBytes + tags);
  if (b.body.size() != raw) return bad(fmt::format("has a body of {} bytes, its header states {}", b.body.size(), raw));
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

std::string BlockBuilder::value() const {
  std::string out;
  out.reserve(kBlockHeaderBytes + tags.size() + body.size());
  out.push_back(static_cast<char>(kBlockVersion));
  out.push_back(static_cast<char>(kCodecRaw));
  put_le(out, n, 2);
  put_le(out, body.size(), 4);
  const core::Digest h = s();
  out.append(reinterpret_cast<const char*>(h.data()), h.size());
  out.append(tags);
  out.append(body);
  return out;
}

std::string_view AlignedBody::assign(std::string_view body) {
  words_.resize((body.size() + 7) / 8);
  if (!body.empty()) std::memcpy(words_.data(), body.data(), body.size());
  return {reinterpret_cast<const char*>(words_.data()), body.size()};
}

}  // namespace warlog::store::detail
