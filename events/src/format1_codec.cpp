// Format 1's event encoding: packed Cap'n Proto messages carrying the game
// id and the chain link (prevHash) in the header. Kept for `warlog migrate`
// (store/src/format1/) and nothing else. Every exception Cap'n Proto or the
// readers throw for bad input stops here and becomes an Error.

#include "warlog/events/format1.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <memory>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <capnp/message.h>
#include <capnp/serialize-packed.h>
#include <capnp/serialize.h>
#include <kj/exception.h>
#include <kj/io.h>

#include "bounds.hpp"
#include "convert.hpp"

namespace warlog::events::format1 {

namespace {

namespace cs = detail::cs;

// Cap'n Proto's guards against hostile input, sized for our events.
//
// traversalLimitInWords: packed bytes can claim far more than they hold (a
// zero run packs 256 words into 2 bytes), so the limit is what bounds the
// memory and work of a decode: PackedMessageReader checks the segment table
// against it before allocating, and every pointer followed is charged to it.
// A decode reads the message twice (check_whole_message's walk, then the
// readers), so it is charged about twice the unpacked size. Legal events
// unpack to under three times their packed size (the worst measured: long
// lists of empty names or invalid spaces, 2.9x; typical ones 1.5x), so the
// largest legal event (kMaxEventBytes packed) costs at most ~6x
// kMaxEventBytes of words read; eight times leaves a third more
// (tests: CodecSize.EventsNearTheLimitDecode) and still refuses bombs: a
// decode never unpacks more than 512 KiB.
//
// nestingLimit: the deepest legal path is five pointers (Event > payload >
// CombatResolved.defenders > DefenderSplit.strikes > Strike.target), so 8
// leaves three levels for the schema to grow while check_whole_message
// refuses anything deeper, known fields or not (tests: CodecHostile.
// DeeplyNestedMessageIsRefused, CodecTest round trips of every payload).
constexpr std::uint64_t kTraversalLimitWords = kMaxEventBytes / sizeof(capnp::word) * 8;
constexpr int kNestingLimit = 8;

capnp::ReaderOptions reader_options() {
  capnp::ReaderOptions options;
  options.traversalLimitInWords = kTraversalLimitWords;
  options.nestingLimit = kNestingLimit;
  return options;
}

// The header without prev_hash: what an event needs (decode_event). The
// chain is verify's business (decode_header), and reading the hash was a
// tenth of an audit (callgrind).
Header read_position(cs::Event::Reader ev) {
  // A null header pointer would read as game 0, seq 0: plausible and wrong.
  if (!ev.hasHeader()) {
    throw detail::DecodeFailure{ErrorCode::DataLoss, "event has no header"};
  }
  const auto h = ev.getHeader();
  Header out;
  out.game = h.getGame();
  out.seq = h.getSeq();
  out.turn = h.getTurn();
  out.phase = detail::from_schema(h.getPhase(), "header.phase");
  out.seat = h.getSeat();
  return out;
}

Header read_header(cs::Event::Reader ev) {
  Header out = read_position(ev);
  const auto prev = ev.getHeader().getObsoletePrevHash();
  if (prev.size() != out.prev_hash.size()) {
    throw detail::DecodeFailure{ErrorCode::DataLoss,
                                "event header's prev_hash is " + std::to_string(prev.size()) +
                                    " bytes, expected " + std::to_string(out.prev_hash.size())};
  }
  std::copy(prev.begin(), prev.end(), out.prev_hash.begin());
  return out;
}

std::string one_line(kj::StringPtr s) {
  std::string out(s.cStr(), s.size());
  for (char& c : out) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return out;
}

// Unpacks Cap'n Proto's packed encoding (encoding spec › Packing): per
// word a tag byte whose bit i says byte i follows (else it is zero); tag
// 0x00 is followed by a count of further zero words, tag 0xFF by its 8 bytes
// and a count of further words copied as they are. Returns the words
// written, or nullopt when the input ends inside a word or would unpack past
// `capacity` words. Hand-written rather than capnp::_::PackedInputStream:
// that stream, plus computeUnpackedSizeInWords to size its buffer, cost
// 1,600 instructions per stored event, 40% of an audit (callgrind).
std::optional<std::size_t> unpack(std::string_view packed, std::uint64_t* out, std::size_t capacity) {
  const auto* p = reinterpret_cast<const unsigned char*>(packed.data());
  const auto* const end = p + packed.size();
  auto* o = reinterpret_cast<unsigned char*>(out);
  std::size_t words = 0;
  while (p < end) {
    if (words == capacity) return std::nullopt;
    const unsigned tag = *p++;
    unsigned char* w = o + words * 8;
    ++words;
    if (tag == 0x00 || tag == 0xFF) {
      const std::size_t literal = tag == 0xFF ? 8 : 0;
      if (static_cast<std::size_t>(end - p) < literal + 1) return std::nullopt;
      if (literal != 0) std::memcpy(w, p, 8); else std::memset(w, 0, 8);
      p += literal;
      const std::size_t run = *p++;
      if (run > capacity - words) return std::nullopt;
      if (literal != 0) {
        if (static_cast<std::size_t>(end - p) < run * 8) return std::nullopt;
        std::memcpy(o + words * 8, p, run * 8);
        p += run * 8;
      } else {
        std::memset(o + words * 8, 0, run * 8);
      }
      words += run;
      continue;
    }
    if (end - p < 8 && end - p < std::popcount(tag)) return std::nullopt;
    for (unsigned i = 0; i < 8; ++i) w[i] = (tag >> i & 1u) != 0 ? *p++ : 0;
  }
  return words;
}

// The reference reader: PackedMessageReader unpacks into memory it owns and
// checks the segment table against the traversal limit before allocating.
// Used for whatever the fast path below cannot take, so that a bad value
// gets the same error either way.
template <class Read>
auto read_packed_stream(std::string_view bytes, Read& read)
    -> Expected<decltype(read(std::declval<cs::Event::Reader>()))> {
  kj::ArrayInputStream in(kj::arrayPtr(reinterpret_cast<const kj::byte*>(bytes.data()), bytes.size()));
  auto value = [&] {
    capnp::PackedMessageReader message(in, reader_options());
    detail::check_whole_message(message);
    return read(message.getRoot<cs::Event>());
    // Segments after the first are read lazily; the destructor consumes
    // any left unread (and throws if they are missing), so the check for
    // trailing bytes below sees the true end of the message.
  }();
  // A stored value is exactly one message: bytes beyond it mean the value
  // is not what was hashed and written.
  if (const auto rest = in.tryGetReadBuffer().size(); rest != 0) {
    return make_error(ErrorCode::DataLoss, std::to_string(rest) + " trailing bytes after the event message (" +
                                               std::to_string(bytes.size()) + " bytes)");
  }
  return value;
}

// The fast path for well-formed values: unpack into the thread's reused
// buffer and read in place (FlatArrayMessageReader), with no allocation.
// nullopt sends the value to read_packed_stream: it unpacks past the limit,
// does not unpack, or is not exactly one message.
template <class Read>
auto read_unpacked(std::string_view bytes, Read& read)
    -> std::optional<decltype(read(std::declval<cs::Event::Reader>()))> {
  // The thread's buffer, as large as the traversal limit allows a message.
  thread_local const std::unique_ptr<std::uint64_t[]> buffer(new std::uint64_t[kTraversalLimitWords]);
  const auto words = unpack(bytes, buffer.get(), kTraversalLimitWords);
  if (!words || *words == 0) return std::nullopt;
  const auto message_words = kj::arrayPtr(reinterpret_cast<const capnp::word*>(buffer.get()), *words);
  capnp::FlatArrayMessageReader message(message_words, reader_options());
  if (message.getEnd() != message_words.end()) return std::nullopt;
  detail::check_whole_message(message);
  return read(message.getRoot<cs::Event>());
}

// Runs `read` on the message in `bytes` and turns every failure into an Error.
template <class Read>
auto guarded(std::string_view bytes, Read&& read)
    -> Expected<decltype(read(std::declval<cs::Event::Reader>()))> {
  if (bytes.empty()) return make_error(ErrorCode::DataLoss, "event bytes are empty");
  // The store refuses to write an event over the limit, so a stored one
  // larger than it was not written by warlog.
  if (bytes.size() > kMaxEventBytes) {
    return make_error(ErrorCode::DataLoss, "event of " + std::to_string(bytes.size()) +
                                               " bytes is too large: the limit is " +
                                               std::to_string(kMaxEventBytes) + " bytes");
  }
  try {
    try {
      if (auto value = read_unpacked(bytes, read)) return std::move(*value);
    } catch (const kj::Exception&) {
      // Not well formed: the reference reader names what is wrong.
    }
    return read_packed_stream(bytes, read);
  } catch (const detail::DecodeFailure& f) {
    return make_error(f.code, f.message);
  } catch (const kj::Exception& e) {
    return make_error(ErrorCode::DataLoss, "event bytes (" + std::to_string(bytes.size()) +
                                               ") are not a valid message: " +
                                               one_line(e.getDescription()));
  }
}

// A BufferedOutputStream appending to a std::string: the packed message is
// written once, into the string that is returned.
class StringOutput final : public kj::BufferedOutputStream {
 public:
  explicit StringOutput(std::size_t capacity) { out_.resize(std::max<std::size_t>(capacity, 64)); }
  kj::ArrayPtr<kj::byte> getWriteBuffer() override {
    if (out_.size() - used_ < 16) out_.resize(out_.size() * 2);
    return kj::arrayPtr(reinterpret_cast<kj::byte*>(out_.data()) + used_, out_.size() - used_);
  }
  void write(const void* buffer, std::size_t size) override {
    if (buffer != out_.data() + used_) {  // not written into getWriteBuffer()'s space
      if (out_.size() - used_ < size) out_.resize(std::max(out_.size() * 2, used_ + size));
      std::memcpy(out_.data() + used_, buffer, size);
    }
    used_ += size;
  }
  std::string take() && {
    out_.resize(used_);
    return std::move(out_);
  }

 private:
  std::string out_;
  std::size_t used_ = 0;
};

}  // namespace

std::string encode_event(const core::Event& ev, const core::Digest& prev_hash) {
  return encode_event(ev, ev.game, ev.seq, prev_hash);
}

std::string encode_event(const core::Event& ev, core::GameId game, core::Seq seq, const core::Digest& prev_hash) {
  // The first segment lives in zeroed thread-local scratch that the builder
  // zeroes again as it goes: without it each event cost a calloc of 8 KiB,
  // a third of a batched import (callgrind).
  thread_local std::array<capnp::word, 1024> scratch{};
  capnp::MallocMessageBuilder message(kj::arrayPtr(scratch.data(), scratch.size()));
  auto root = message.initRoot<cs::Event>();
  auto h = root.initHeader();
  h.setGame(game);
  h.setSeq(seq);
  h.setTurn(ev.turn);
  h.setPhase(detail::to_schema(ev.phase));
  h.setSeat(ev.seat);
  h.setObsoletePrevHash(capnp::Data::Reader(prev_hash.data(), prev_hash.size()));
  detail::write_payload(root.getPayload(), ev.payload);

  StringOutput out(capnp::computeSerializedSizeInWords(message) * sizeof(capnp::word) + 16);
  capnp::writePackedMessage(out, message);
  return std::move(out).take();
}

Expected<core::Event> decode_event(std::string_view bytes) {
  return guarded(bytes, [](cs::Event::Reader ev) {
    const Header h = read_position(ev);
    core::Event out;
    out.game = h.game;
    out.seq = h.seq;
    out.turn = h.turn;
    out.phase = h.phase;
    out.seat = h.seat;
    out.payload = detail::read_payload(ev.getPayload());
    return out;
  });
}

Expected<Header> decode_header(std::string_view bytes) {
  return guarded(bytes, [](cs::Event::Reader ev) { return read_header(ev); });
}

}  // namespace warlog::events::format1
