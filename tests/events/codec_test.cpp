// Round trips and sizes: what a well-formed event becomes and comes back as.

#include "warlog/events/codec.hpp"

#include <cstddef>
#include <limits>
#include <set>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <gtest/gtest.h>

#include "events/samples.hpp"

namespace warlog::events {
namespace {

using test::make_event;
using test::sample_events;

void expect_header(const Header& h, const core::Event& ev) {
  EXPECT_EQ(h.seq, ev.seq);
  EXPECT_EQ(h.turn, ev.turn);
  EXPECT_EQ(h.phase, ev.phase);
  EXPECT_EQ(h.seat, ev.seat);
  EXPECT_EQ(h.recorded_at_ms, ev.recorded_at_ms);
}

TEST(CodecSamples, CoverEveryPayloadKindOnce) {
  std::set<std::size_t> kinds;
  for (const auto& ev : sample_events()) kinds.insert(ev.payload.index());
  EXPECT_EQ(kinds.size(), std::variant_size_v<core::Payload>);
  EXPECT_EQ(sample_events().size(), std::variant_size_v<core::Payload>);
}

TEST(CodecRoundTrip, EveryPayloadKindWithValues) {
  for (const auto& ev : sample_events()) {
    SCOPED_TRACE("payload index " + std::to_string(ev.payload.index()));
    const std::string bytes = encode_event(ev);
    const auto decoded = decode_event(bytes);
    ASSERT_TRUE(decoded.has_value()) << decoded.error().message;
    EXPECT_EQ(*decoded, ev);

    const auto header = decode_header(bytes);
    ASSERT_TRUE(header.has_value()) << header.error().message;
    expect_header(*header, ev);
  }
}

// Every alternative default-constructed: invalid spaces (-1,-1), kNoSeat,
// empty strings and lists must survive, not come back as zeros.
template <std::size_t... I>
std::vector<core::Payload> default_payloads(std::index_sequence<I...>) {
  return {core::Payload(std::in_place_index<I>)...};
}

TEST(CodecRoundTrip, EveryPayloadKindWithDefaults) {
  for (auto& payload :
       default_payloads(std::make_index_sequence<std::variant_size_v<core::Payload>>())) {
    core::Event ev;
    ev.payload = std::move(payload);
    SCOPED_TRACE("payload index " + std::to_string(ev.payload.index()));
    const auto decoded = decode_event(encode_event(ev));
    ASSERT_TRUE(decoded.has_value()) << decoded.error().message;
    EXPECT_EQ(*decoded, ev);
  }
}

TEST(CodecRoundTrip, ExtremeValues) {
  constexpr int kMin = std::numeric_limits<int>::min();
  constexpr int kMax = std::numeric_limits<int>::max();
  std::vector<core::Event> events = {
      make_event(std::numeric_limits<core::Seq>::max(), 65535, core::Phase::End, 0,
                 core::ShotteFired{{127, -128}, {-128, 127}, kMin}),
      make_event(0, 0, core::Phase::Setup, 254,
                 core::ArmyRegistered{255, {{"x", kMax}, {"", kMin}}, {}}),
      make_event(1, 1, core::Phase::Muster, 1,
                 core::CardsDrawn{{std::string("nul\0inside", 10), "\xff\xfe not UTF-8"}}),
      make_event(2, 1, core::Phase::Muster, 1,
                 core::GameCreated{"", "", "", "", {}, {}, -128, 127, std::string(16, '\0'), "", 65535, 65535}),
  };
  for (const auto& ev : events) {
    SCOPED_TRACE("payload index " + std::to_string(ev.payload.index()));
    const auto decoded = decode_event(encode_event(ev));
    ASSERT_TRUE(decoded.has_value()) << decoded.error().message;
    EXPECT_EQ(*decoded, ev);
  }
}

// Store format 2 › 2: recordedAt is inside the canonical bytes (so chained),
// 0 when not recorded, and a header alone carries it.
TEST(CodecRoundTrip, RecordedAtIsCarriedAndChained) {
  auto ev = sample_events().front();
  ev.recorded_at_ms = 0;
  const std::string none = encode_event(ev);
  ev.recorded_at_ms = 1'796'040'000'123;
  const std::string bytes = encode_event(ev);
  EXPECT_NE(bytes, none);
  const auto header = decode_header(bytes);
  ASSERT_TRUE(header.has_value()) << header.error().message;
  expect_header(*header, ev);
  EXPECT_EQ(decode_event(none)->recorded_at_ms, 0);
}

// Store format 2 › 1: a local game id is not part of a game, so the same
// event of game 3 here and game 17 elsewhere has the same bytes.
TEST(CodecEncode, LeavesTheGameIdOut) {
  auto ev = sample_events()[10];
  ev.game = 3;
  const std::string here = encode_event(ev);
  ev.game = 17;
  EXPECT_EQ(encode_event(ev), here);
  EXPECT_EQ(decode_event(here)->game, 0u);
}

// Canonical form is Cap'n Proto's own (capnp::canonicalize): whole words, and
// a GameCreated's uuid (set live, empty when imported) is in the bytes.
TEST(CodecEncode, IsCanonicalWholeWordsWithTheUuid) {
  auto ev = sample_events().front();  // GameCreated
  ASSERT_TRUE(std::holds_alternative<core::GameCreated>(ev.payload));
  const std::string imported = encode_event(ev);
  EXPECT_EQ(imported.size() % 8, 0u);
  std::get<core::GameCreated>(ev.payload).game_uuid = std::string("0123456789abcdef", 16);
  const std::string live = encode_event(ev);
  EXPECT_NE(live, imported);
  EXPECT_EQ(decode_event(live)->payload, ev.payload);
}

// The hash chain covers the encoded bytes, so the same event must always
// encode to the same bytes.
TEST(CodecEncode, IsDeterministic) {
  for (const auto& ev : sample_events()) {
    EXPECT_EQ(encode_event(ev), encode_event(ev));
  }
}

// LMDB hands out values at any even address; the codec must not care.
TEST(CodecDecode, AcceptsMisalignedInput) {
  const auto ev = sample_events()[20];  // CombatResolved: nested lists
  const std::string bytes = encode_event(ev);
  for (std::size_t shift = 1; shift < 8; ++shift) {
    const std::string buffer = std::string(shift, '\0') + bytes;
    const auto decoded = decode_event(std::string_view(buffer).substr(shift));
    ASSERT_TRUE(decoded.has_value()) << "shift " << shift << ": " << decoded.error().message;
    EXPECT_EQ(*decoded, ev);
  }
}

TEST(CodecSize, TypicalEventsAreSmall) {
  const auto size_of = [&](core::Payload p) {
    return encode_event(make_event(120, 4, core::Phase::Muster, 0, std::move(p))).size();
  };
  // Canonical bytes are unpacked words: pointers and a three-word header are
  // most of each (compression is the block's job, codec 1).
  EXPECT_LT(size_of(core::CardPlayed{"Pikeman", {2, 0}}), 100u);
  EXPECT_LT(size_of(core::TroopMoved{{2, 0}, {2, 1}}), 100u);
  EXPECT_LT(size_of(core::PhaseStarted{}), 80u);
  EXPECT_LT(size_of(core::CardsDrawn{{"Pikeman", "Longbow", "Mill Gambit"}}), 136u);
}

// The largest events the store accepts must decode: the traversal limit must
// leave room for legal content that is mostly pointers, not only for typical
// content. `grow` adds one element to the payload until it nearly reaches the limit.
template <class Payload, class Grow>
core::Event grown_to_limit(Payload payload, Grow grow) {
  for (;;) {
    for (int i = 0; i < 64; ++i) grow(payload);
    auto ev = make_event(1, 1, core::Phase::Muster, 0, payload);
    if (encode_event(ev).size() > kMaxEventBytes - 4096) return ev;
  }
}

TEST(CodecSize, EventsNearTheLimitDecode) {
  int n = 0;
  const std::vector<core::Event> events = {
      grown_to_limit(core::CardsDrawn{},
                     [&](auto& p) { p.cards.push_back("Pikeman " + std::to_string(++n)); }),
      // Lists of structs: the most pointers and struct words per byte.
      grown_to_limit(core::TroopsShifted{}, [](auto& p) { p.moves.emplace_back(); }),
      grown_to_limit(core::ProvisionsPaid{}, [](auto& p) { p.unpaid.emplace_back(); }),
      grown_to_limit(core::CardsDiscarded{}, [](auto& p) { p.cards.emplace_back(); }),
  };
  for (const auto& ev : events) {
    const std::string bytes = encode_event(ev);
    SCOPED_TRACE("payload index " + std::to_string(ev.payload.index()) + ", " +
                 std::to_string(bytes.size()) + " bytes");
    ASSERT_LE(bytes.size(), kMaxEventBytes);
    const auto decoded = decode_event(bytes);
    ASSERT_TRUE(decoded.has_value()) << decoded.error().message;
    EXPECT_EQ(*decoded, ev);
  }
}

}  // namespace
}  // namespace warlog::events
