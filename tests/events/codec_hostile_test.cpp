// Bad bytes: corrupt, truncated, oversized, or written by a newer warlog.
// The codec answers each with an Error and never crashes (the asan preset
// runs these too, so undefined behaviour would fail them as well).

#include "warlog/events/codec.hpp"
#include "warlog/events/format1.hpp"

#include <cstddef>
#include <cstdint>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "events/samples.hpp"
#include "game_corpus.hpp"

namespace warlog::events {
namespace {

using test::make_event;
using test::RawMessage;
using test::sample_events;
using ::testing::HasSubstr;

// Only the two documented error codes may come back; success is allowed
// for inputs that happen to be valid messages.
void expect_no_surprise(std::string_view bytes) {
  const auto ev = decode_event(bytes);
  if (!ev) {
    EXPECT_TRUE(ev.error().code == ErrorCode::DataLoss || ev.error().code == ErrorCode::Unsupported)
        << ev.error().message;
    EXPECT_FALSE(ev.error().message.empty());
  }
  const auto h = decode_header(bytes);
  if (!h) {
    EXPECT_TRUE(h.error().code == ErrorCode::DataLoss || h.error().code == ErrorCode::Unsupported)
        << h.error().message;
  }
}

TEST(CodecHostile, EmptyBytesAreDataLoss) {
  EXPECT_EQ(decode_event("").error().code, ErrorCode::DataLoss);
  EXPECT_EQ(decode_header("").error().code, ErrorCode::DataLoss);
}

TEST(CodecHostile, GarbageIsDataLoss) {
  for (std::string_view garbage :
       {std::string_view("this is not a Cap'n Proto message"), std::string_view("\xff"),
        std::string_view("\x00\x00\x00\x00\x00\x00\x00\x00", 8),
        std::string_view("\xff\xff\xff\xff\xff\xff\xff\xff\xff\x00", 10)}) {
    SCOPED_TRACE(::testing::PrintToString(std::string(garbage)));
    const auto ev = decode_event(garbage);
    ASSERT_FALSE(ev.has_value());
    EXPECT_EQ(ev.error().code, ErrorCode::DataLoss);
    EXPECT_FALSE(ev.error().message.empty());
    EXPECT_EQ(decode_header(garbage).error().code, ErrorCode::DataLoss);
  }
}

TEST(CodecHostile, RandomBytesNeverCrash) {
  std::mt19937 rng(20260314);
  std::uniform_int_distribution<int> byte(0, 255);
  std::uniform_int_distribution<int> length(1, 300);
  for (int i = 0; i < 3000; ++i) {
    std::string bytes(static_cast<std::size_t>(length(rng)), '\0');
    for (char& c : bytes) c = static_cast<char>(byte(rng));
    expect_no_surprise(bytes);
  }
}

TEST(CodecHostile, EveryTruncationIsAnError) {
  for (const auto& ev : sample_events()) {
    const std::string bytes = encode_event(ev);
    for (std::size_t n = 1; n < bytes.size(); ++n) {
      const auto decoded = decode_event(std::string_view(bytes).substr(0, n));
      ASSERT_FALSE(decoded.has_value()) << "payload " << ev.payload.index() << " cut to " << n;
      EXPECT_EQ(decoded.error().code, ErrorCode::DataLoss) << decoded.error().message;
      EXPECT_FALSE(decode_header(std::string_view(bytes).substr(0, n)).has_value());
    }
  }
}

TEST(CodecHostile, EveryCorruptedByteIsSafe) {
  for (const auto& ev : sample_events()) {
    const std::string bytes = encode_event(ev);
    for (std::size_t i = 0; i < bytes.size(); ++i) {
      for (const unsigned char flip : {0x01, 0x10, 0x80, 0xFF}) {
        std::string corrupt = bytes;
        corrupt[i] = static_cast<char>(static_cast<unsigned char>(corrupt[i]) ^ flip);
        expect_no_surprise(corrupt);
      }
    }
  }
}

// A cut far from the header (a large event's end) must still be caught, also
// when only the header is decoded: decoding checks the whole message.
TEST(CodecHostile, TruncatedEndOfALargeEventIsDataLoss) {
  core::CardsDrawn drawn;
  for (int i = 0; i < 2000; ++i) drawn.cards.push_back("Pikeman " + std::to_string(i));
  const std::string bytes =
      encode_event(make_event(1, 1, core::Phase::Muster, 0, std::move(drawn)));
  ASSERT_TRUE(decode_header(bytes).has_value());
  for (std::size_t cut = 1; cut < bytes.size() / 2; cut = cut * 3 / 2 + 1) {
    const auto shorter = std::string_view(bytes).substr(0, bytes.size() - cut);
    const auto h = decode_header(shorter);
    ASSERT_FALSE(h.has_value()) << "cut " << cut;
    EXPECT_EQ(h.error().code, ErrorCode::DataLoss) << h.error().message;
    EXPECT_EQ(decode_event(shorter).error().code, ErrorCode::DataLoss);
  }
  EXPECT_THAT(decode_header(bytes + std::string(8, '\0')).error().message, HasSubstr("trailing"));
  EXPECT_THAT(decode_header(bytes + "\x01").error().message, HasSubstr("8-byte words"));
}

TEST(CodecHostile, TrailingBytesAreDataLoss) {
  const std::string bytes = encode_event(sample_events()[10]);
  const auto ev = decode_event(bytes + std::string(8, '\0'));
  ASSERT_FALSE(ev.has_value());
  EXPECT_EQ(ev.error().code, ErrorCode::DataLoss);
  EXPECT_THAT(ev.error().message, HasSubstr("trailing"));
}

// A payload kind added by a newer warlog: the union discriminant is the only
// thing that differs in the data section of two events with equal headers.
TEST(CodecHostile, UnknownPayloadKindIsUnsupported) {
  const auto played = make_event(5, 2, core::Phase::Muster, 0, core::CardPlayed{"Pikeman", {1, 0}});
  const auto foraged = make_event(5, 2, core::Phase::Muster, 0, core::Foraged{"Pikeman"});
  RawMessage a(encode_event(played));
  RawMessage b(encode_event(foraged));
  const auto offset =
      test::first_difference(a.event().getDataSection(), b.event().getDataSection());
  ASSERT_LT(offset, a.event().getDataSection().size());
  test::put_u16(a.event().getDataSection(), offset, 1000);
  const std::string newer = a.canonical();

  const auto ev = decode_event(newer);
  ASSERT_FALSE(ev.has_value());
  EXPECT_EQ(ev.error().code, ErrorCode::Unsupported);
  EXPECT_EQ(ev.error().message, "event payload kind 1000 is not known to this build");

  // The header stays readable, so the store can still verify the chain.
  const auto h = decode_header(newer);
  ASSERT_TRUE(h.has_value()) << h.error().message;
  EXPECT_EQ(h->seq, 5u);
}

TEST(CodecHostile, UnknownPhaseIsUnsupported) {
  auto muster = make_event(5, 2, core::Phase::Muster, 0, core::TurnStarted{});
  auto warfare = muster;
  warfare.phase = core::Phase::Warfare;
  RawMessage a(encode_event(muster));
  RawMessage b(encode_event(warfare));
  const auto offset =
      test::first_difference(a.header().getDataSection(), b.header().getDataSection());
  ASSERT_LT(offset, a.header().getDataSection().size());
  test::put_u16(a.header().getDataSection(), offset, 9);
  const std::string newer = a.canonical();

  for (const auto code : {decode_event(newer).error().code, decode_header(newer).error().code}) {
    EXPECT_EQ(code, ErrorCode::Unsupported);
  }
  EXPECT_THAT(decode_event(newer).error().message, HasSubstr("header.phase has value 9"));
}

TEST(CodecHostile, UnknownPayloadEnumerantIsUnsupported) {
  // Burrow (1), not Normal (0): canonical form drops a data word of zeros.
  const auto normal = make_event(5, 2, core::Phase::Warfare, 0,
                                 core::ChargeDeclared{core::ChargeMode::Burrow, {1, 1}});
  const auto card = make_event(5, 2, core::Phase::Warfare, 0,
                               core::ChargeDeclared{core::ChargeMode::Card, {1, 1}});
  RawMessage a(encode_event(normal));
  RawMessage b(encode_event(card));
  const auto offset =
      test::first_difference(a.payload().getDataSection(), b.payload().getDataSection());
  ASSERT_LT(offset, a.payload().getDataSection().size());
  test::put_u16(a.payload().getDataSection(), offset, 77);

  const auto ev = decode_event(a.canonical());
  ASSERT_FALSE(ev.has_value());
  EXPECT_EQ(ev.error().code, ErrorCode::Unsupported);
  EXPECT_THAT(ev.error().message, HasSubstr("ChargeDeclared.mode has value 77"));
}

TEST(CodecHostile, MissingHeaderIsDataLoss) {
  RawMessage raw(encode_event(sample_events()[10]));
  raw.event().getPointerSection()[0].clear();
  const std::string headless = raw.canonical();
  EXPECT_EQ(decode_event(headless).error().code, ErrorCode::DataLoss);
  EXPECT_THAT(decode_header(headless).error().message, HasSubstr("no header"));
}

// Format 1 wrote the chain link into the header (now obsoletePrevHash, of any
// size, even a wrong one); format 2 never reads it, so it cannot make a
// decode fail, and re-encoding (migrate) drops it.
TEST(CodecHostile, ObsoletePrevHashIsNeverRead) {
  auto ev = sample_events()[10];
  ev.recorded_at_ms = 0;  // format 1 had none
  RawMessage raw(format1::encode_event(ev, 5, ev.seq, test::sample_digest()), true);
  const kj::byte five[] = {1, 2, 3, 4, 5};
  raw.header().getPointerSection()[0].setAs<capnp::Data>(kj::arrayPtr(five, 5));
  const std::string with_hash = raw.canonical();
  ASSERT_NE(with_hash, encode_event(ev));
  const auto decoded = decode_event(with_hash);
  ASSERT_TRUE(decoded.has_value()) << decoded.error().message;
  EXPECT_EQ(*decoded, ev);
  EXPECT_EQ(encode_event(*decoded), encode_event(ev));
}

// The chain covers canonical bytes: the same event laid out otherwise (here
// with the words an edit leaves behind) is refused rather than read as it.
TEST(CodecHostile, NonCanonicalLayoutIsDataLoss) {
  RawMessage raw(encode_event(sample_events()[7]));  // Foraged
  raw.payload().getPointerSection()[0].setAs<capnp::Text>("Pikeman, a longer name than before");
  const auto ev = decode_event(raw.segment());
  ASSERT_FALSE(ev.has_value());
  EXPECT_EQ(ev.error().code, ErrorCode::DataLoss);
  EXPECT_THAT(ev.error().message, HasSubstr("canonical"));
  EXPECT_TRUE(decode_event(raw.canonical()).has_value());
}

// A struct where text was expected: the reader's type check, not a crash.
TEST(CodecHostile, WrongPointerKindIsDataLoss) {
  RawMessage raw(encode_event(sample_events()[7]));  // Foraged
  raw.payload().getPointerSection()[0].initAsAnyStruct(1, 1);
  const auto ev = decode_event(raw.canonical());
  ASSERT_FALSE(ev.has_value());
  EXPECT_EQ(ev.error().code, ErrorCode::DataLoss);
}

TEST(CodecHostile, MillionCardNamesAreRefused) {
  core::CardsDrawn drawn;
  drawn.cards.assign(1'000'000, "Pikeman");
  const std::string bytes =
      encode_event(make_event(1, 1, core::Phase::Muster, 0, std::move(drawn)));
  const auto ev = decode_event(bytes);
  ASSERT_FALSE(ev.has_value());
  EXPECT_EQ(ev.error().code, ErrorCode::DataLoss);
  EXPECT_THAT(ev.error().message, HasSubstr("too large"));
  EXPECT_FALSE(decode_header(bytes).has_value());
}

// Amplification: canonical bytes cannot claim more than they hold, but a
// list of a million zero-sized structs is 16 bytes that a reader would walk
// a million times. The traversal limit (charged a word per element) refuses it.
TEST(CodecHostile, SmallInputThatClaimsHugeIsRefused) {
  RawMessage raw(encode_event(make_event(1, 1, core::Phase::Muster, 0, core::CardsDrawn{{"Pikeman"}})));
  raw.payload().getPointerSection()[0].initAsListOfAnyStruct(0, 0, 1'000'000);
  const std::string bytes = raw.canonical();
  ASSERT_LT(bytes.size(), 128u);
  for (const auto& error : {decode_event(bytes).error(), decode_header(bytes).error()}) {
    EXPECT_EQ(error.code, ErrorCode::DataLoss);
    EXPECT_THAT(error.message, HasSubstr("traversal limit"));
  }
}

// --- Limits (issue 9): the size and nesting limits in codec.cpp ------------------

// A stored value over kMaxEventBytes was not written by warlog (append
// refuses it): refused by its size, before it is unpacked.
TEST(CodecLimits, OversizedBytesAreRefusedByTheirSize) {
  core::CardsDrawn drawn;
  for (int i = 0; drawn.cards.size() < 5000; ++i) drawn.cards.push_back("Pikeman " + std::to_string(i));
  const std::string bytes =
      encode_event(make_event(1, 1, core::Phase::Muster, 0, std::move(drawn)));
  ASSERT_GT(bytes.size(), kMaxEventBytes);
  for (const auto& error : {decode_event(bytes).error(), decode_header(bytes).error()}) {
    EXPECT_EQ(error.code, ErrorCode::DataLoss);
    EXPECT_EQ(error.message, "event of " + std::to_string(bytes.size()) +
                                 " bytes is too large: the limit is 65536 bytes");
  }
}

// TroopMoved.from with a pointer this build does not know, leading to a
// chain of `depth` structs: the path is Event > payload > from > chain.
std::string with_chain_under_from(int depth) {
  const auto moved = make_event(5, 2, core::Phase::Muster, 0, core::TroopMoved{{1, 0}, {1, 1}});
  RawMessage raw(encode_event(moved));
  auto old_from = raw.payload().getPointerSection()[0].getAs<capnp::AnyStruct>();
  const auto data = old_from.getDataSection();
  const std::vector<kj::byte> bytes(data.begin(), data.end());
  auto from = raw.payload().getPointerSection()[0].initAsAnyStruct(1, 1);
  std::copy(bytes.begin(), bytes.end(), from.getDataSection().begin());
  auto next = from.getPointerSection()[0];
  for (int i = 0; i < depth; ++i) next = next.initAsAnyStruct(0, 1).getPointerSection()[0];
  return raw.canonical();
}

TEST(CodecLimits, AFieldOfANewerBuildWithinTheNestingLimitIsIgnored) {
  const auto ev = decode_event(with_chain_under_from(4));
  ASSERT_TRUE(ev.has_value()) << ev.error().message;
  EXPECT_EQ(std::get<core::TroopMoved>(ev->payload), (core::TroopMoved{{1, 0}, {1, 1}}));
}

// Our readers never follow the unknown pointer, so without the whole-message
// walk this would decode; generic walkers (a newer build, capnp convert)
// would recurse 64 levels.
TEST(CodecLimits, DeeplyNestedMessageIsRefused) {
  const std::string deep = with_chain_under_from(64);
  for (const auto& error : {decode_event(deep).error(), decode_header(deep).error()}) {
    EXPECT_EQ(error.code, ErrorCode::DataLoss);
    EXPECT_THAT(error.message, HasSubstr("nested"));
  }
}

// The headroom docs/reliability.md states: every event of the samples and of
// 20 generated games encodes to under a sixteenth of the limit.
TEST(CodecLimits, LegalEventsLeaveSixteenfoldHeadroom) {
  std::vector<testing::CorpusGame> games;
  for (const auto& f : testing::sample_game_files()) games.push_back(testing::load_sample_game(f));
  for (std::uint64_t seed = 1; seed <= 20; ++seed) games.push_back(testing::generated_game(seed));
  std::size_t largest = 0;
  std::string which;
  for (const auto& g : games) {
    for (const auto& ev : g.events) {
      const std::size_t n = encode_event(ev).size();
      if (n > largest) {
        largest = n;
        which = g.name + " seq " + std::to_string(ev.seq) + " " + std::string(core::payload_name(ev.payload));
      }
    }
  }
  std::cout << "largest legal event: " << largest << " bytes (" << which << ")\n";
  EXPECT_LT(largest * 16, kMaxEventBytes) << which;
}

}  // namespace
}  // namespace warlog::events
