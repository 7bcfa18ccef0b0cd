// Events as JSON (the JSON Lines export): every payload kind and every field
// survives the round trip, so nothing is left out of the export.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "temp_dir.hpp"
#include "warlog/replay/event_json.hpp"
#include "warlog/replay/export.hpp"

namespace warlog {
namespace {

using namespace core;
using ::testing::HasSubstr;

// One event of every payload kind, every field away from its default.
std::vector<Event> one_of_each() {
  const Space b2{1, 1}, c3{2, 2}, odd{30, 2};  // odd: a space the notation cannot write
  GameCreated created{"Title \"quoted\" ›", "2026-03-14", std::string(64, 'a'), std::string(64, 'c'),
                      {{"Alice", Allegiance::Weald}, {"Bruno", Allegiance::Hirelings}},
                      {{"Old Mill", b2}},
                      7, 6, std::string("\x00\x01uuid\xfe\xff-16-bytes", 16), "Spring Open", 2, 7};
  std::vector<Payload> payloads = {
      created,
      ArmyRegistered{1, {{"Paw Militia", 6}}, {{"March Order", 5}}},
      TurnStarted{},
      MoraleChecked{1},
      PhaseStarted{},
      GameEnded{0, Victory::Attrition},
      CardsDrawn{{"A", "B"}},
      Foraged{"Grain Cart"},
      ReturnedFromHomeland{"Grain Cart"},
      GambitStocked{"Barricade Levy"},
      CardPlayed{"Paw Slinger", c3},
      TroopMoved{b2, c3},
      TroopsShifted{{{b2, c3}, {c3, b2}}},
      AbilityUsed{odd, "dig in"},
      TroopBurrowed{b2},
      TroopUnburrowed{c3},
      ShotteFired{b2, c3, 2},
      ChargeDeclared{ChargeMode::Burrow, b2},
      ChargeDeclined{},
      LocalFavorUsed{"move one Troop an extra space"},
      CombatResolved{b2, {{c3, 3}}, {{c3, {{b2, 1}, {b2, 2}}}}},
      TroopLost{c3},
      TroopDefeated{b2, c3},  // beneath the Territory on c3; without it, "beneath" is left out
      LostTroopRecovered{c3, Recovery::Reshuffle, Space{}},
      ProvisionsPaid{{{b2, ""}, {Space{}, "Drill Orders"}}, {{c3, ""}}},
      CardsDiscarded{{"A"}},
      TerritoryControlTaken{b2},
      TroopFled{c3},
      Voided{12, "wrong card typed", "Ana"},
      BackupTo{7, "appeal", "a1b2c3d4e5f60718", std::string("\x00\xffsig", 5)},
  };
  std::vector<Event> out;
  for (std::size_t i = 0; i < payloads.size(); ++i) {
    Event ev;
    ev.game = 9;
    ev.seq = 70'000 + i;
    ev.turn = static_cast<std::uint16_t>(i);
    ev.phase = static_cast<Phase>(i % 5);
    ev.seat = i % 3 == 0 ? kNoSeat : static_cast<Seat>(i % 2);
    ev.payload = payloads[i];
    ev.recorded_at_ms = i % 2 == 0 ? 0 : 1'796'040'000'000 + static_cast<std::int64_t>(i);  // 0: not recorded
    out.push_back(ev);
  }
  return out;
}

TEST(EventJson, EveryPayloadKindRoundTrips) {
  const auto events = one_of_each();
  ASSERT_EQ(events.size(), std::variant_size_v<Payload>) << "add the new payload kind here";
  for (const Event& ev : events) {
    const nlohmann::json j = replay::event_json(ev);
    auto back = replay::event_from_json(nlohmann::json::parse(j.dump()));
    ASSERT_TRUE(back) << j.dump() << ": " << back.error().message;
    EXPECT_EQ(*back, ev) << j.dump();
  }
}

TEST(EventJson, UsesTheAuditsConventions) {
  const auto events = one_of_each();
  const nlohmann::json cards = replay::event_json(events[6]);  // CardsDrawn, no seat
  EXPECT_EQ(cards["type"], "CardsDrawn");
  EXPECT_EQ(cards["seat"], 0) << "no seat is 0";
  EXPECT_EQ(replay::event_json(events[7])["seat"], 2) << "seats are 1-based";
  EXPECT_EQ(cards["phase"], "muster");
  EXPECT_EQ(cards["payload"]["cards"], nlohmann::json({"A", "B"}));
  EXPECT_EQ(replay::event_json(events[3])["payload"]["leader"], 2) << "seats are 1-based";
  EXPECT_EQ(replay::event_json(events[0])["payload"]["seats"][0]["allegiance"], "The Weald");
  EXPECT_EQ(replay::event_json(events[11])["payload"]["from"], "b2");
  EXPECT_TRUE(replay::event_json(events[23])["payload"]["to"].is_null()) << "no space is null";
  EXPECT_EQ(replay::event_json(events[13])["payload"]["space"], nlohmann::json({{"col", 30}, {"row", 2}}));
  EXPECT_EQ(replay::event_json(events[5])["payload"]["victory"], "attrition");
}

TEST(EventJson, MalformedInputNamesTheField) {
  auto j = replay::event_json(one_of_each()[10]);
  j["payload"].erase("space");
  auto r = replay::event_from_json(j);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::InvalidArgument);
  EXPECT_THAT(r.error().message, HasSubstr("space"));
  j = replay::event_json(one_of_each()[10]);
  j["type"] = "CardTeleported";
  EXPECT_THAT(replay::event_from_json(j).error().message, HasSubstr("CardTeleported"));
  j = replay::event_json(one_of_each()[10]);
  j["seat"] = 300;
  EXPECT_FALSE(replay::event_from_json(j));
}

// The sample exported as JSON Lines: one line per stored event, each the
// stored event, each with the stored chain link.
TEST(EventJson, TheSampleExportsLineByLine) {
  testing::TempDir dir;
  auto archive = replay::Archive::open(dir.store(), replay::Archive::Mode::ReadWrite);
  ASSERT_TRUE(archive);
  ASSERT_TRUE(archive->import_file(std::string(WARLOG_SAMPLES_DIR) + "/tutorial/spine_first_blood.wlog", {}));
  auto events = archive->events(1);
  ASSERT_TRUE(events);
  std::ostringstream out;
  auto stats = replay::export_game(*archive, 1, replay::ExportFormat::JsonLines, out);
  ASSERT_TRUE(stats) << stats.error().message;
  EXPECT_EQ(stats->events, events->size());
  EXPECT_EQ(stats->bytes_written, out.str().size());
  std::istringstream lines(out.str());
  std::size_t i = 0;
  for (std::string line; std::getline(lines, line); ++i) {
    const auto j = nlohmann::json::parse(line);
    auto ev = replay::event_from_json(j);
    ASSERT_TRUE(ev) << line;
    ASSERT_LT(i, events->size());
    EXPECT_EQ(*ev, (*events)[i]);
  }
  EXPECT_EQ(i, events->size());

  std::ostringstream packed;
  auto capnp = replay::export_game(*archive, 1, replay::ExportFormat::CapnpPacked, packed);
  ASSERT_TRUE(capnp);
  EXPECT_EQ(capnp->stored_bytes, stats->stored_bytes);
  std::ostringstream unpacked;
  auto binary = replay::export_game(*archive, 1, replay::ExportFormat::CapnpBinary, unpacked);
  ASSERT_TRUE(binary);
  EXPECT_GT(binary->bytes_written, capnp->bytes_written) << "packing shrinks the canonical words";
  EXPECT_EQ(binary->bytes_written % 8, 0u) << "standard framing is whole words";
  // One segment table per event before the words as stored: the canonical
  // bytes the chain covers, byte for byte.
  EXPECT_EQ(binary->bytes_written, binary->stored_bytes + 8 * events->size());
}

}  // namespace
}  // namespace warlog
