// GameCreated's event, round and table (schema growth @9-@11): in the
// notation as [Event], [Round], [Table], exported back, through the codec,
// and absent from a game of no event, whose bytes stay what they were.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>

#include "warlog/core/catalog.hpp"
#include "warlog/core/notation.hpp"
#include "warlog/events/codec.hpp"

namespace warlog::tournament {
namespace {

using ::testing::HasSubstr;

std::shared_ptr<const core::Catalog> sample_catalog() {
  auto c = core::load_catalog(std::string(WARLOG_SAMPLES_DIR) + "/catalogs/sample_cards.csv");
  EXPECT_TRUE(c.has_value());
  return std::make_shared<const core::Catalog>(std::move(*c));
}

const char* kHeader =
    "[Title \"t\"]\n[Event \"Old Mill Open\"]\n[Round 2]\n[Table 7]\n[Board \"5x4\"]\n"
    "[Seat1 \"Alice\" \"Claw Empire\"]\n[Seat2 \"Bruno\" \"Paw Coalition\"]\n";

TEST(GameCreatedEvent, TheNotationReadsAndWritesEventRoundAndTable) {
  auto catalog = sample_catalog();
  auto parsed = core::parse_notation(kHeader, "g.wlog", *catalog, "", nullptr);
  ASSERT_TRUE(parsed.ok()) << parsed.errors.front().to_string();
  const auto& created = std::get<core::GameCreated>(parsed.game.events.front().payload);
  EXPECT_EQ(created.event, "Old Mill Open");
  EXPECT_EQ(created.round, 2);
  EXPECT_EQ(created.table, 7);
  const std::string exported = core::export_notation(parsed.game.events);
  EXPECT_THAT(exported, HasSubstr("[Event \"Old Mill Open\"]\n[Round 2]\n[Table 7]\n"));
  auto again = core::parse_notation(exported, "export", *catalog, "", nullptr);
  ASSERT_TRUE(again.ok()) << again.errors.front().to_string();
  EXPECT_EQ(again.game.events.front().payload, parsed.game.events.front().payload);
}

TEST(GameCreatedEvent, ARoundOfZeroOrATableTwiceIsANotationError) {
  auto catalog = sample_catalog();
  auto zero = core::parse_notation(std::string(kHeader) + "[Round 0]\n", "g.wlog", *catalog, "", nullptr);
  ASSERT_FALSE(zero.ok());
  EXPECT_THAT(zero.errors.front().to_string(), HasSubstr("g.wlog:8:"));
  auto twice = core::parse_notation(std::string(kHeader) + "[Table 8]\n", "g.wlog", *catalog, "", nullptr);
  ASSERT_FALSE(twice.ok());
  EXPECT_THAT(twice.errors.front().to_string(), HasSubstr("each tag once"));
}

TEST(GameCreatedEvent, TheCodecKeepsThemAndAGameOfNoEventEncodesWithoutThem) {
  core::Event ev;
  core::GameCreated g;
  g.title = "t";
  g.seats = {{"Alice", core::Allegiance::ClawEmpire}, {"Bruno", core::Allegiance::PawCoalition}};
  ev.payload = g;
  const std::string plain = events::encode_event(ev);
  g.event = "Old Mill Open";
  g.round = 2;
  g.table = 7;
  ev.payload = g;
  const std::string with = events::encode_event(ev);
  auto back = events::decode_event(with);
  ASSERT_TRUE(back.has_value()) << back.error().message;
  EXPECT_EQ(back->payload, ev.payload);
  // Canonical form drops trailing zero words and null pointers, so a
  // GameCreated of no event is the message it was before the fields
  // existed. Set, they add a data word (round, table), two pointers
  // (gameUuid's, null, then event's) and the text's two words.
  EXPECT_EQ(with.size() - plain.size(), 40U);
  auto plain_back = events::decode_event(plain);
  ASSERT_TRUE(plain_back.has_value());
  const auto& p = std::get<core::GameCreated>(plain_back->payload);
  EXPECT_TRUE(p.event.empty());
  EXPECT_EQ(p.round, 0);
  EXPECT_EQ(p.table, 0);
}

}  // namespace
}  // namespace warlog::tournament
