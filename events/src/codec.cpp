// The byte boundary: packed Cap'n Proto messages in, core values out. Every
// exception Cap'n Proto or the readers throw for bad input stops here and
// becomes an Error; none reaches the store or the fold.

#include "warlog/events/codec.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include <capnp/message.h>
#include <capnp/serialize-packed.h>
#include <kj/exception.h>
#include <kj/io.h>

#include "bounds.hpp"
#include "convert.hpp"

namespace warlog::events {

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

Header read_header(cs::Event::Reader ev) {
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
  const auto prev = h.getPrevHash();
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
    kj::ArrayInputStream in(
        kj::arrayPtr(reinterpret_cast<const kj::byte*>(bytes.data()), bytes.size()));
    auto value = [&] {
      // PackedMessageReader unpacks into word-aligned memory it owns, so the
      // input may sit at any address (LMDB values are only 2-byte aligned).
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
      return make_error(ErrorCode::DataLoss, std::to_string(rest) +
                                                 " trailing bytes after the event message (" +
                                                 std::to_string(bytes.size()) + " bytes)");
    }
    return value;
  } catch (const detail::DecodeFailure& f) {
    return make_error(f.code, f.message);
  } catch (const kj::Exception& e) {
    return make_error(ErrorCode::DataLoss, "event bytes (" + std::to_string(bytes.size()) +
                                               ") are not a valid message: " +
                                               one_line(e.getDescription()));
  }
}

}  // namespace

std::string encode_event(const core::Event& ev, const core::Digest& prev_hash) {
  capnp::MallocMessageBuilder message;
  auto root = message.initRoot<cs::Event>();
  auto h = root.initHeader();
  h.setGame(ev.game);
  h.setSeq(ev.seq);
  h.setTurn(ev.turn);
  h.setPhase(detail::to_schema(ev.phase));
  h.setSeat(ev.seat);
  h.setPrevHash(capnp::Data::Reader(prev_hash.data(), prev_hash.size()));
  detail::write_payload(root.getPayload(), ev.payload);

  kj::VectorOutputStream out;
  capnp::writePackedMessage(out, message);
  const auto bytes = out.getArray();
  return std::string(reinterpret_cast<const char*>(bytes.begin()), bytes.size());
}

Expected<core::Event> decode_event(std::string_view bytes) {
  return guarded(bytes, [](cs::Event::Reader ev) {
    const Header h = read_header(ev);
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

}  // namespace warlog::events
