// Target "block": a stored block value of store format 2 (store/src/block.hpp)
// through the block parser, the body reader and the event codec, as every
// reading verb meets it (docs/architecture.md › "Store format 2" › 3):
//   - parse_block returns a view or DataLoss/Unsupported, and a view's tags
//     and body lie inside the value, a raw body exactly its stated length;
//   - a zstd body (codec 1) decodes to exactly its stated length (at most
//     64 × kMaxEventBytes) or is DataLoss: the decompression is bounded;
//   - the body reader gives events inside the body, none over
//     kMaxEventBytes, or DataLoss; each event decodes or fails as
//     DataLoss/Unsupported;
//   - S over the body is computed without touching anything outside it.

#include <cstdint>
#include <string>
#include <string_view>

#include "block.hpp"
#include "check.hpp"
#include "harness.hpp"
#include "warlog/core/hash.hpp"
#include "warlog/events/codec.hpp"

using namespace warlog;

namespace {
bool expected_code(ErrorCode c) { return c == ErrorCode::DataLoss || c == ErrorCode::Unsupported; }
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string value(reinterpret_cast<const char*>(data), size);
  // Its first seq: 0 for a value of one event, else a sealed segment's (64 events allowed).
  for (const core::Seq first : {core::Seq{0}, core::Seq{65}}) {
    auto b = store::detail::parse_block(value, first);
    if (!b) {
      FUZZ_CHECK(expected_code(b.error().code), b.error().message.c_str());
      continue;
    }
    const auto* begin = value.data();
    const auto* end = value.data() + value.size();
    FUZZ_CHECK(b->n >= 1 && b->n <= (first == 0 ? 1 : 64), "a block's count outside its segment");
    FUZZ_CHECK(b->tags.data() >= begin && b->tags.data() + b->tags.size() <= end, "tags outside the value");
    FUZZ_CHECK(b->body.data() >= begin && b->body.data() + b->body.size() == end, "the body is not the value's rest");
    FUZZ_CHECK(b->tags.size() == std::size_t{b->n} * 8, "tags of another count");
    store::detail::AlignedBody aligned;
    auto decoded = aligned.decode(*b, first);
    if (!decoded) {
      FUZZ_CHECK(decoded.error().code == ErrorCode::DataLoss, decoded.error().message.c_str());
      continue;
    }
    const std::string_view body = *decoded;
    FUZZ_CHECK(body.size() == b->raw_size, "a body of another length than its header states");
    FUZZ_CHECK(body.size() <= 64 * events::kMaxEventBytes, "a body over the limit");
    (void)core::chain_hash(store::detail::chain_start(), body);
    store::detail::BodyReader in(body);
    for (std::size_t events = 0;; ++events) {
      auto next = in.next();
      if (!next) {
        FUZZ_CHECK(next.error().code == ErrorCode::DataLoss, next.error().message.c_str());
        break;
      }
      if (!*next) break;
      const std::string_view ev = **next;
      FUZZ_CHECK(ev.data() >= body.data() && ev.data() + ev.size() <= body.data() + body.size(),
                 "an event outside the body");
      FUZZ_CHECK(ev.size() <= events::kMaxEventBytes, "an event over the limit");
      if (events < b->n) (void)b->tag(events);
      auto decoded = events::decode_event(ev);
      if (!decoded) FUZZ_CHECK(expected_code(decoded.error().code), decoded.error().message.c_str());
    }
  }
  return 0;
}
