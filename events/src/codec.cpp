// The byte boundary of format 2: canonical Cap'n Proto messages in, core
// values out. Every exception Cap'n Proto or the readers throw for bad input
// stops here and becomes an Error; none reaches the store or the fold.

#include "warlog/events/codec.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include <capnp/message.h>
#include <capnp/serialize.h>
#include <kj/exception.h>

#include "bounds.hpp"
#include "convert.hpp"

namespace warlog::events {

namespace {

namespace cs = detail::cs;

// Cap'n Proto's guards against hostile input, sized for our events.
//
// traversalLimitInWords: canonical bytes are the message's words as they
// are, so a value cannot claim more than it holds; the limit still bounds a
// decode's work, because every pointer followed is charged to it (a list of
// empty structs, or two pointers at one target, is read more than once). A
// decode reads the message three times (check_whole_message's walk, the
// canonical-form check, then the readers), so a legal event costs about
// three times its size in words; four times kMaxEventBytes leaves room for
// all three and refuses amplification.
//
// nestingLimit: the deepest legal path is five pointers (Event > payload >
// CombatResolved.defenders > DefenderSplit.strikes > Strike.target), so 8
// leaves three levels for the schema to grow while check_whole_message
// refuses anything deeper, known fields or not (tests: CodecHostile.
// DeeplyNestedMessageIsRefused, CodecTest round trips of every payload).
constexpr std::uint64_t kTraversalLimitWords = kMaxEventBytes / sizeof(capnp::word) * 4;
constexpr int kNestingLimit = 8;

capnp::ReaderOptions reader_options() {
  capnp::ReaderOptions options;
  options.traversalLimitInWords = kTraversalLimitWords;
  options.nestingLimit = kNestingLimit;
  return options;
}

Header read_header(cs::Event::Reader ev) {
  // A null header pointer would read as seq 0: plausible and wrong.
  if (!ev.hasHeader()) {
    throw detail::DecodeFailure{ErrorCode::DataLoss, "event has no header"};
  }
  const auto h = ev.getHeader();
  Header out;
  out.seq = h.getSeq();
  out.turn = h.getTurn();
  out.phase = detail::from_schema(h.getPhase(), "header.phase");
  out.seat = h.getSeat();
  out.recorded_at_ms = h.getRecordedAt();
  return out;
}

std::string one_line(kj::StringPtr s) {
  std::string out(s.cStr(), s.size());
  for (char& c : out) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return out;
}

// The words of `bytes`: the bytes themselves when word-aligned (a block body
// read in place), else a copy in the thread's reused buffer. LMDB values are
// only 2-byte aligned, and the u32 length before each event in a block body
// leaves every other event 4 bytes off a word.
kj::ArrayPtr<const capnp::word> words_of(std::string_view bytes) {
  const std::size_t n = bytes.size() / sizeof(capnp::word);
  if (reinterpret_cast<std::uintptr_t>(bytes.data()) % alignof(capnp::word) == 0) {
    return kj::arrayPtr(reinterpret_cast<const capnp::word*>(bytes.data()), n);
  }
  thread_local const std::unique_ptr<capnp::word[]> buffer(new capnp::word[kMaxEventBytes / sizeof(capnp::word)]);
  std::memcpy(buffer.get(), bytes.data(), bytes.size());
  return kj::arrayPtr(buffer.get(), n);
}

// Runs `read` on the canonical message in `bytes` and turns every failure
// into an Error.
template <class Read>
auto guarded(std::string_view bytes, Walk walk, Read&& read)
    -> Expected<decltype(read(std::declval<cs::Event::Reader>()))> {
  if (bytes.empty()) return make_error(ErrorCode::DataLoss, "event bytes are empty");
  // The store refuses to write an event over the limit, so a stored one
  // larger than it was not written by warlog.
  if (bytes.size() > kMaxEventBytes) {
    return make_error(ErrorCode::DataLoss, "event of " + std::to_string(bytes.size()) +
                                               " bytes is too large: the limit is " +
                                               std::to_string(kMaxEventBytes) + " bytes");
  }
  if (bytes.size() % sizeof(capnp::word) != 0) {
    return make_error(ErrorCode::DataLoss, "event of " + std::to_string(bytes.size()) +
                                               " bytes is not a whole number of 8-byte words");
  }
  try {
    const auto words = words_of(bytes);
    const kj::ArrayPtr<const capnp::word> segments[1] = {words};
    capnp::SegmentArrayMessageReader message(kj::arrayPtr(segments, 1), reader_options());
    if (walk == Walk::Known) return read(message.getRoot<cs::Event>());
    detail::check_whole_message(message);
    // The chain is defined over canonical bytes, and canonical form ends at
    // the last object: trailing words, padding, a far pointer or a
    // reordered layout were not written by warlog (and would hash as
    // another event while decoding as this one).
    if (!message.isCanonical()) {
      throw detail::DecodeFailure{ErrorCode::DataLoss,
                                  "the event bytes (" + std::to_string(bytes.size()) +
                                      ") are not one canonical message (trailing bytes, padding or a "
                                      "non-canonical layout)"};
    }
    return read(message.getRoot<cs::Event>());
  } catch (const detail::DecodeFailure& f) {
    return make_error(f.code, f.message);
  } catch (const kj::Exception& e) {
    return make_error(ErrorCode::DataLoss, "event bytes (" + std::to_string(bytes.size()) +
                                               ") are not a valid message: " +
                                               one_line(e.getDescription()));
  }
}

}  // namespace

std::string encode_event(const core::Event& ev) { return encode_event(ev, ev.seq); }

std::string encode_event(const core::Event& ev, core::Seq seq) {
  // The first segment lives in zeroed thread-local scratch that the builder
  // zeroes again as it goes: without it each event cost a calloc of 8 KiB,
  // a third of a batched import (callgrind).
  thread_local std::array<capnp::word, 1024> scratch{};
  capnp::MallocMessageBuilder message(kj::arrayPtr(scratch.data(), scratch.size()));
  auto root = message.initRoot<cs::Event>();
  auto h = root.initHeader();
  h.setSeq(seq);  // game stays 0: a local id is not part of a game
  h.setTurn(ev.turn);
  h.setPhase(detail::to_schema(ev.phase));
  h.setSeat(ev.seat);
  h.setRecordedAt(ev.recorded_at_ms);
  detail::write_payload(root.getPayload(), ev.payload);
  const auto canonical = capnp::canonicalize(root.asReader());
  return std::string(reinterpret_cast<const char*>(canonical.begin()), canonical.asBytes().size());
}

Expected<core::Event> decode_event(std::string_view bytes) { return decode_event(bytes, Walk::Whole); }

Expected<core::Event> decode_event(std::string_view bytes, Walk walk) {
  return guarded(bytes, walk, [](cs::Event::Reader ev) {
    const Header h = read_header(ev);
    core::Event out;
    out.seq = h.seq;
    out.turn = h.turn;
    out.phase = h.phase;
    out.seat = h.seat;
    out.recorded_at_ms = h.recorded_at_ms;
    out.payload = detail::read_payload(ev.getPayload());
    return out;
  });
}

Expected<Header> decode_header(std::string_view bytes) {
  return guarded(bytes, Walk::Whole, [](cs::Event::Reader ev) { return read_header(ev); });
}

}  // namespace warlog::events
