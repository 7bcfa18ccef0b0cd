// Who sees what (docs/rulings.md › Visibility, replay/visibility.hpp): one
// table per event kind and zone, and the seat and public views derived from
// it, checked per event kind and on the folded states of every sample game.

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>
#include <variant>

#include "game_corpus.hpp"
#include "warlog/core/fold.hpp"
#include "warlog/replay/visibility.hpp"

namespace warlog {
namespace {

using replay::Perspective;

constexpr std::array kAll{Perspective::Judge, Perspective::Seat1, Perspective::Seat2, Perspective::Public};

template <std::size_t... I>
std::vector<core::Payload> every_payload(std::index_sequence<I...>) {
  return {core::Payload(std::in_place_index<I>)...};
}

int total(const core::CardPile& pile) {
  int n = 0;
  for (const auto& [card, count] : pile) n += count;
  return n;
}

core::Event drawn_by(core::Seat seat, std::vector<core::CardName> cards) {
  core::Event e;
  e.seat = seat;
  e.turn = 1;
  e.phase = core::Phase::Muster;
  e.payload = core::CardsDrawn{std::move(cards)};
  return e;
}

TEST(Visibility, EveryEventKindHasItsRowInPayloadOrder) {
  const auto payloads = every_payload(std::make_index_sequence<std::variant_size_v<core::Payload>>{});
  ASSERT_EQ(replay::event_visibility().size(), payloads.size());
  for (const core::Payload& p : payloads) {
    const replay::EventVisibility* row = replay::event_visibility(p);
    ASSERT_NE(row, nullptr);
    EXPECT_EQ(row->event, core::payload_name(p));
    EXPECT_FALSE(row->note.empty()) << row->event;
  }
}

TEST(Visibility, ADrawShowsItsSeatTheCardsAndEveryoneHowMany) {
  const core::Ruleset rules;
  const core::Event e = drawn_by(0, {"Ironclaw Lancer", "Imperial Grenadier"});
  for (Perspective p : {Perspective::Judge, Perspective::Seat1}) EXPECT_EQ(replay::view_of(e, p, rules), e);
  for (Perspective p : {Perspective::Seat2, Perspective::Public}) {
    const core::Event v = replay::view_of(e, p, rules);
    const auto& cards = std::get<core::CardsDrawn>(v.payload).cards;
    ASSERT_EQ(cards.size(), 2u) << to_string(p);
    for (const std::string& c : cards) EXPECT_EQ(c, replay::kHiddenCard) << to_string(p);
  }
}

TEST(Visibility, ADecklistIsItsSeatsAndTheJudgesOnly) {
  const core::Ruleset rules;
  core::Event e;
  e.payload = core::ArmyRegistered{1, {{"Ironclaw Lancer", 3}, {"Imperial Grenadier", 2}}, {{"Orders", 4}}};
  EXPECT_EQ(replay::view_of(e, Perspective::Seat2, rules), e);
  EXPECT_EQ(replay::view_of(e, Perspective::Judge, rules), e);
  const core::Event seen = replay::view_of(e, Perspective::Seat1, rules);
  const auto& a = std::get<core::ArmyRegistered>(seen.payload);
  ASSERT_EQ(a.army.size(), 1u);
  EXPECT_EQ(a.army[0].card, replay::kHiddenCard);
  EXPECT_EQ(a.army[0].count, 5) << "the deck's size stays seen";
  ASSERT_EQ(a.orders.size(), 1u);
  EXPECT_EQ(a.orders[0].count, 4);
}

TEST(Visibility, R070HomelandCardsAreSeenByEveryoneUnlessTheRulesetHidesThem) {
  core::Event e;
  e.seat = 1;
  e.payload = core::Foraged{"Ironclaw Lancer"};
  core::Ruleset open;
  EXPECT_EQ(replay::view_of(e, Perspective::Seat1, open), e);
  EXPECT_EQ(replay::view_of(e, Perspective::Public, open), e);
  auto hidden = core::parse_ruleset_toml("[visibility]\nhomeland_hidden = true\n");
  ASSERT_TRUE(hidden) << hidden.error().message;
  EXPECT_EQ(std::get<core::Foraged>(replay::view_of(e, Perspective::Seat1, *hidden).payload).card,
            replay::kHiddenCard);
  EXPECT_EQ(replay::view_of(e, Perspective::Seat2, *hidden), e);
  EXPECT_EQ(replay::seen(replay::Zone::Homeland, *hidden), replay::Seen::OwnSeat);
}

// Every event of every sample: a view differs from the event only where the
// table says the event names cards of a zone the perspective does not see.
TEST(Visibility, EverySampleEventIsHiddenExactlyWhereTheTableSays) {
  std::set<std::string_view> hidden_kinds;
  for (const auto& file : testing::sample_game_files()) {
    const testing::CorpusGame g = testing::load_sample_game(file);
    for (const core::Event& e : g.events) {
      const replay::EventVisibility* row = replay::event_visibility(e.payload);
      ASSERT_NE(row, nullptr);
      for (Perspective p : kAll) {
        const core::Event v = replay::view_of(e, p, g.ruleset);
        EXPECT_EQ(v.seq, e.seq);
        EXPECT_EQ(v.payload.index(), e.payload.index());
        if (v == e) continue;
        hidden_kinds.insert(row->event);
        ASSERT_TRUE(row->zone) << g.name << " seq " << e.seq << ": " << row->event << " hid cards the table shows";
        EXPECT_NE(replay::seen(*row->zone, g.ruleset), replay::Seen::Everyone) << row->event;
        EXPECT_NE(p, Perspective::Judge) << "the judge sees everything";
      }
    }
  }
  EXPECT_TRUE(hidden_kinds.count("CardsDrawn")) << "the samples draw";
  EXPECT_TRUE(hidden_kinds.count("ArmyRegistered")) << "the samples register decks";
}

// The folded state of every sample, seen from each seat: the other seat's
// hand and deck are counts only, everything public is unchanged.
TEST(Visibility, ASeatSeesItsOwnHandAndOnlyTheSizeOfTheOthers) {
  for (const auto& file : testing::sample_game_files()) {
    const testing::CorpusGame g = testing::load_sample_game(file);
    std::vector<core::Finding> findings;
    const core::Context ctx{g.catalog, g.ruleset};
    const core::GameState state = core::fold(ctx, g.events, findings);
    EXPECT_EQ(replay::view_of(state, Perspective::Judge, g.ruleset), state) << g.name;
    for (Perspective p : kAll) {
      const core::GameState v = replay::view_of(state, p, g.ruleset);
      EXPECT_EQ(v.grid, state.grid) << g.name << ": the battlefield is seen by everyone";
      EXPECT_EQ(v.territories, state.territories) << g.name;
      for (std::size_t s = 0; s < state.seats.size(); ++s) {
        const core::SeatState& mine = state.seats[s];
        const core::SeatState& seen = v.seats[s];
        EXPECT_EQ(total(seen.hand), total(mine.hand)) << g.name << " seat " << s << " from " << to_string(p);
        EXPECT_EQ(total(seen.deck), total(mine.deck)) << g.name;
        EXPECT_EQ(seen.discard, mine.discard) << g.name << ": the discard is face up";
        EXPECT_EQ(seen.homeland, mine.homeland) << g.name << ": R-070, Homelands are seen by everyone";
        const bool own = replay::seat_of(p) == s || p == Perspective::Judge;
        if (own) {
          EXPECT_EQ(seen.hand, mine.hand) << g.name;
        } else if (total(mine.hand) > 0) {
          ASSERT_EQ(seen.hand.size(), 1u) << g.name;
          EXPECT_EQ(seen.hand.begin()->first, replay::kHiddenCard) << g.name;
        }
      }
    }
  }
}

TEST(Visibility, PerspectivesReadAndPrint) {
  for (Perspective p : kAll) EXPECT_EQ(replay::perspective_from_string(to_string(p)), p);
  EXPECT_EQ(replay::perspective_from_string("2"), Perspective::Seat2);
  EXPECT_FALSE(replay::perspective_from_string("seat 3"));
}

}  // namespace
}  // namespace warlog
