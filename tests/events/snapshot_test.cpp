// Snapshots of folded state (events/snapshot.hpp): every state a real game
// passes through decodes to exactly itself (GameState::operator== compares
// every field), a field set alone survives, and bytes that are not a
// snapshot are DataLoss, never a crash or a plausible state.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include <capnp/any.h>

#include "events/samples.hpp"
#include "game_corpus.hpp"
#include "warlog/core/fold.hpp"
#include "warlog/core/hash.hpp"
#include "warlog/events/codec.hpp"
#include "warlog/events/snapshot.hpp"

namespace warlog::events {
namespace {

SnapshotHeader header_for(const core::GameState& s, core::Seq seq) {
  SnapshotHeader h;
  h.engine_version = core::kEngineVersion;
  h.ruleset_hash = s.ruleset_hash.empty() ? std::string(64, 'a') : s.ruleset_hash;
  h.catalog_hash = s.catalog_hash.empty() ? std::string(64, 'c') : s.catalog_hash;
  h.game = 0x0102'0304'0506'0708ull;
  h.seq = seq;
  h.chain_hash = test::sample_digest();
  return h;
}

void expect_round_trip(const core::GameState& state, core::Seq seq, const std::string& where) {
  const SnapshotHeader h = header_for(state, seq);
  const std::string bytes = encode_snapshot(state, h);
  auto back = decode_snapshot(bytes);
  ASSERT_TRUE(back) << where << ": " << back.error().message;
  EXPECT_EQ(back->header, h) << where;
  EXPECT_TRUE(back->state == state) << where << "\nwant:\n" << core::to_text(state) << "\ngot:\n"
                                    << core::to_text(back->state);
  auto header_only = decode_snapshot_header(bytes);
  ASSERT_TRUE(header_only) << where;
  EXPECT_EQ(*header_only, h) << where;
}

// Folds the game and round-trips the state after every event.
void round_trip_every_state(const testing::CorpusGame& g) {
  const core::Context ctx{g.catalog, g.ruleset};
  core::GameState state;
  std::vector<core::Finding> sink;
  for (const core::Event& ev : g.events) {
    core::apply(ctx, state, ev, sink);
    expect_round_trip(state, ev.seq, g.name + " after seq " + std::to_string(ev.seq));
    if (::testing::Test::HasFailure()) return;  // one state's diff is enough to read
  }
}

TEST(SnapshotCodec, EveryStateOfEverySampleGameRoundTrips) {
  const auto files = testing::sample_game_files();
  ASSERT_FALSE(files.empty());
  for (const auto& f : files) round_trip_every_state(testing::load_sample_game(f));
}

TEST(SnapshotCodec, EveryStateOfGeneratedGamesRoundTrips) {
  // Synthetic games reach what the samples do not: Territories filling,
  // Lost and Burrowed Troops, wages due, victories.
  for (std::uint64_t seed : {1, 2, 3, 5, 8}) round_trip_every_state(testing::generated_game(seed));
}

TEST(SnapshotCodec, TheEmptyStateRoundTrips) { expect_round_trip(core::GameState{}, 0, "empty state"); }

// A state with every field away from its default.
core::GameState rich_state() {
  using namespace core;
  GameState s;
  s.title = "Spring League \u2014 Table 2";
  s.date = "2026-03-14";
  s.ruleset_hash = std::string(64, 'e');
  s.catalog_hash = std::string(64, 'f');
  s.cols = 3;
  s.rows = 4;
  s.created = true;
  s.grid.assign(12, std::nullopt);
  s.grid[0] = Troop{"Ironclaw Lancer", 1, 2, kTroopLost | kTroopTurncoat, 3, 4, 5};
  // Damage stays >= 0: decode refuses a state that breaks the fold's invariants.
  s.grid[11] = Troop{"Paw Militia", 0, 6, kTroopBurrowed, 7, 0, 0};
  for (Seat i = 0; i < kSeatCount; ++i) {
    SeatState& p = s.seats[i];
    p.player = i == 0 ? "Ana" : "Bj\u00f6rn";
    p.allegiance = i == 0 ? Allegiance::Weald : Allegiance::Hirelings;
    p.registered = true;
    p.deck = {{"Grain Cart", 3 + i}, {"Paw Slinger", 1}};
    p.orders = {{"March Order", 5}};
    p.hand = {{"Supply Wagon", 2}};
    p.discard = {{"Drill Orders", 1}, {"", 4}};
    p.this_turn.not_playable = {{"Mill Gambit", 1}};
    p.homeland = {{"Supply Wagon", 2}, {"Grain Cart", 3}};
    p.gambits_in_play = {{"Ford Gambit", 6}};
    p.this_turn.drawn = 7;
    p.this_turn.foraged = true;
    p.this_turn.returned = true;
    p.this_turn.gambit_stocked = true;
    p.this_turn.mustered = true;
    p.local_favor_until_turn = 9;
    p.cards_owed_discard = 2;
    p.this_part.acted = true;
    p.this_turn.recovery_spent = 3;
    p.this_turn.provisions_paid = true;
    p.this_part.fled = 1;
    p.rabble_side = true;
    p.this_turn.wages_due = {{"Paw Militia", Space{1, 2}, true}, {"Talon Sergeant", Space{}, false}};
    p.this_turn.turncoat_offer = {{"Claw Musketeer", 1}};
    p.this_turn.turncoat_draws = 2;
  }
  s.territories = {{"Old Mill", Space{1, 1}, 2}, {"Ford", Space{2, 2}, 0, true}};
  s.next_seq = 1'000'001;
  s.turn = 17;
  s.phase = Phase::Attrition;
  s.active = 1;
  s.leader = 0;
  s.part = 5;
  s.this_turn.charge_declared = true;
  s.this_turn.charge_declined = true;
  s.this_turn.charger = 1;
  s.this_charge.last_combat_morale = 4;
  s.this_turn.shotte_seats = {0, 1, 1};
  s.this_charge.vacated = {Space{0, 0}};
  s.this_turn.fled = {Space{1, 0}, Space{2, 3}};
  s.this_turn.defeated = {Space{2, 1}};
  s.this_charge.defenders_struck = {Space{0, 3}};
  s.this_turn.shotte_alternation_broken = true;
  s.this_turn.win_checked = true;
  s.final_turn = 18;
  s.placed_this_turn = {core::PlacedBeneath{"Ironclaw Lancer", Space{1, 1}, 1, 2, true, 41}};
  s.winner = 1;
  s.victory = Victory::Concession;
  s.decided_at = 999'999;
  s.decided_turn = 16;
  s.play_after_end_reported = true;
  s.cards_in_game = core::cards_in_places(s);  // card conservation: decode checks it
  return s;
}

TEST(SnapshotCodec, EveryFieldAwayFromItsDefaultRoundTrips) { expect_round_trip(rich_state(), 1'000'000, "rich"); }

// Each field changed alone, from the default state and from the rich one,
// must come back changed: a field dropped, or written into its neighbour,
// shows here even where rich_state's values happen to coincide.
TEST(SnapshotCodec, EachFieldChangedAloneComesBack) {
  using namespace core;
  using Edit = std::function<void(GameState&)>;
  const std::vector<std::pair<const char*, Edit>> edits = {
      {"title", [](GameState& s) { s.title += "x"; }},
      {"date", [](GameState& s) { s.date += "x"; }},
      {"ruleset_hash", [](GameState& s) { s.ruleset_hash += "x"; }},
      {"catalog_hash", [](GameState& s) { s.catalog_hash += "x"; }},
      {"cols", [](GameState& s) { s.cols = static_cast<std::int8_t>(s.cols + 1); }},
      {"rows", [](GameState& s) { s.rows = static_cast<std::int8_t>(s.rows + 1); }},
      {"created", [](GameState& s) { s.created = !s.created; }},
      {"grid size", [](GameState& s) { s.grid.push_back(std::nullopt); }},
      {"grid troop", [](GameState& s) { s.grid.push_back(Troop{"Marshal Vex", 1, 0, 0, 0, 0, 0}); }},
      {"troop owner", [](GameState& s) { s.grid.push_back(Troop{"", 1, 0, 0, 0, 0, 0}); }},
      {"troop damage", [](GameState& s) { s.grid.push_back(Troop{"", 0, 1, 0, 0, 0, 0}); }},
      {"troop flags", [](GameState& s) { s.grid.push_back(Troop{"", 0, 0, kTroopShotteUsed, 0, 0, 0}); }},
      {"troop entered", [](GameState& s) { s.grid.push_back(Troop{"", 0, 0, 0, 1, 0, 0}); }},
      {"troop unburrowed", [](GameState& s) { s.grid.push_back(Troop{"", 0, 0, 0, 0, 1, 0}); }},
      {"troop lost", [](GameState& s) { s.grid.push_back(Troop{"", 0, 0, 0, 0, 0, 1}); }},
      {"player", [](GameState& s) { s.seats[1].player += "x"; }},
      {"allegiance", [](GameState& s) { s.seats[1].allegiance = Allegiance::PawCoalition; }},
      {"registered", [](GameState& s) { s.seats[1].registered = !s.seats[1].registered; }},
      {"deck", [](GameState& s) { ++s.seats[1].deck["Pile"]; }},
      {"orders", [](GameState& s) { ++s.seats[1].orders["Pile"]; }},
      {"hand", [](GameState& s) { ++s.seats[1].hand["Pile"]; }},
      {"discard", [](GameState& s) { ++s.seats[1].discard["Pile"]; }},
      {"not playable", [](GameState& s) { ++s.seats[1].this_turn.not_playable["Pile"]; }},
      {"homeland", [](GameState& s) { s.seats[1].homeland.push_back({"Held", 1}); }},
      {"gambits", [](GameState& s) { s.seats[1].gambits_in_play.push_back({"Held", 1}); }},
      {"drawn", [](GameState& s) { ++s.seats[1].this_turn.drawn; }},
      {"foraged", [](GameState& s) { s.seats[1].this_turn.foraged = !s.seats[1].this_turn.foraged; }},
      {"returned", [](GameState& s) { s.seats[1].this_turn.returned = !s.seats[1].this_turn.returned; }},
      {"gambit stocked", [](GameState& s) { s.seats[1].this_turn.gambit_stocked = !s.seats[1].this_turn.gambit_stocked; }},
      {"mustered", [](GameState& s) { s.seats[1].this_turn.mustered = !s.seats[1].this_turn.mustered; }},
      {"local favor", [](GameState& s) { ++s.seats[1].local_favor_until_turn; }},
      {"owed discard", [](GameState& s) { ++s.seats[1].cards_owed_discard; }},
      {"acted", [](GameState& s) { s.seats[1].this_part.acted = !s.seats[1].this_part.acted; }},
      {"recovery", [](GameState& s) { ++s.seats[1].this_turn.recovery_spent; }},
      {"paid", [](GameState& s) { s.seats[1].this_turn.provisions_paid = !s.seats[1].this_turn.provisions_paid; }},
      {"fled part", [](GameState& s) { ++s.seats[1].this_part.fled; }},
      {"rabble", [](GameState& s) { s.seats[1].rabble_side = !s.seats[1].rabble_side; }},
      {"wages", [](GameState& s) { s.seats[1].this_turn.wages_due.push_back({"W", Space{0, 1}, false}); }},
      {"wage unburrowed", [](GameState& s) { s.seats[1].this_turn.wages_due.push_back({"", Space{}, true}); }},
      {"turncoat offer", [](GameState& s) { ++s.seats[1].this_turn.turncoat_offer["Pile"]; }},
      {"turncoat draws", [](GameState& s) { ++s.seats[1].this_turn.turncoat_draws; }},
      {"territories", [](GameState& s) { s.territories.push_back({"T", Space{0, 0}, 0}); }},
      {"beneath", [](GameState& s) { s.territories.push_back({"", Space{}, 1}); }},
      {"final due", [](GameState& s) { s.territories.push_back({"", Space{}, 0, true}); }},
      {"cards in game", [](GameState& s) { ++s.cards_in_game; ++s.seats[0].discard["Extra"]; }},
      {"next_seq", [](GameState& s) { ++s.next_seq; }},
      {"turn", [](GameState& s) { ++s.turn; }},
      {"phase", [](GameState& s) { s.phase = s.phase == Phase::End ? Phase::Muster : Phase::End; }},
      {"active", [](GameState& s) { s.active = s.active == 0 ? 1 : 0; }},
      {"leader", [](GameState& s) { s.leader = s.leader == 0 ? 1 : 0; }},
      {"part", [](GameState& s) { ++s.part; }},
      {"charge declared", [](GameState& s) { s.this_turn.charge_declared = !s.this_turn.charge_declared; }},
      {"charge declined", [](GameState& s) { s.this_turn.charge_declined = !s.this_turn.charge_declined; }},
      {"charger", [](GameState& s) { s.this_turn.charger = s.this_turn.charger == 0 ? 1 : 0; }},
      {"last combat morale", [](GameState& s) { ++s.this_charge.last_combat_morale; }},
      {"shotte seats", [](GameState& s) { s.this_turn.shotte_seats.push_back(1); }},
      {"vacated", [](GameState& s) { s.this_charge.vacated.push_back(Space{4, 4}); }},
      {"fled turn", [](GameState& s) { s.this_turn.fled.push_back(Space{4, 4}); }},
      {"defeated", [](GameState& s) { s.this_turn.defeated.push_back(Space{4, 4}); }},
      {"defenders struck", [](GameState& s) { s.this_charge.defenders_struck.push_back(Space{4, 4}); }},
      {"alternation", [](GameState& s) { s.this_turn.shotte_alternation_broken = !s.this_turn.shotte_alternation_broken; }},
      {"win checked", [](GameState& s) { s.this_turn.win_checked = !s.this_turn.win_checked; }},
      {"final turn", [](GameState& s) { ++s.final_turn; }},
      {"placed", [](GameState& s) { s.placed_this_turn.push_back(core::PlacedBeneath{"Paw Militia", Space{4, 4}, 0, 1, false, 7}); }},
      {"placement chosen", [](GameState& s) { if (!s.placed_this_turn.empty()) s.placed_this_turn[0].chosen = !s.placed_this_turn[0].chosen; }},
      {"winner", [](GameState& s) { s.winner = s.winner == 0 ? 1 : 0; }},
      {"victory", [](GameState& s) { s.victory = s.victory == Victory::Attrition ? Victory::Supremacy : Victory::Attrition; }},
      {"victory cleared", [](GameState& s) { s.victory.reset(); }},
      {"decided_at", [](GameState& s) { s.decided_at = s.decided_at.value_or(0) + 1; }},
      {"decided_at zero", [](GameState& s) { s.decided_at = 0; }},
      {"decided_turn", [](GameState& s) { ++s.decided_turn; }},
      {"play after end", [](GameState& s) { s.play_after_end_reported = !s.play_after_end_reported; }},
  };
  for (const GameState& base : {GameState{}, rich_state()}) {
    for (const auto& [name, edit] : edits) {
      GameState changed = base;
      edit(changed);
      // A card added to a place is a card the armies registered: card
      // conservation holds, so decode takes the state and the field is seen.
      changed.cards_in_game = core::cards_in_places(changed);
      if (changed == base) continue;  // e.g. clearing a victory the default never had
      auto back = decode_snapshot(encode_snapshot(changed, header_for(changed, 1)));
      // Some edits make a state the fold could never reach (a grid of
      // another size): decode refuses those, naming the broken invariant.
      if (const std::string why = core::check_invariants(changed); !why.empty()) {
        ASSERT_FALSE(back) << name;
        EXPECT_THAT(back.error().message, ::testing::HasSubstr(why)) << name;
        continue;
      }
      ASSERT_TRUE(back) << name;
      EXPECT_TRUE(back->state == changed) << name << " did not survive the round trip";
    }
  }
}

// --- Bytes that are not a snapshot -------------------------------------------------

// `because`: a word the message must hold, so a structural test shows it
// was caught by its own check and not by an earlier one.
void expect_data_loss(std::string_view bytes, const std::string& what, const std::string& because = "") {
  auto r = decode_snapshot(bytes);
  ASSERT_FALSE(r) << what << " decoded";
  EXPECT_EQ(r.error().code, ErrorCode::DataLoss) << what << ": " << r.error().message;
  EXPECT_EQ(r.error().message.find('\n'), std::string::npos) << what;
  EXPECT_NE(r.error().message.find(because), std::string::npos) << what << ": " << r.error().message;
}

// A packed message with a sound checksum: what reaches the Cap'n Proto reader.
std::string sealed(std::string packed) {
  const core::Digest sum = core::blake2b(packed);
  packed.append(reinterpret_cast<const char*>(sum.data()), sum.size());
  return packed;
}

// The packed message of an encoding, checksum removed.
std::string unsealed(const std::string& value) { return value.substr(0, value.size() - 32); }

TEST(SnapshotCodecHostile, EmptyGarbageAndEventsAreDataLoss) {
  expect_data_loss("", "empty");
  expect_data_loss(std::string(32, '\0'), "a checksum alone");
  expect_data_loss(std::string(100, '\xAB'), "0xAB bytes");
  std::string noise(4096, '\0');
  std::uint32_t x = 12345;
  for (char& c : noise) c = static_cast<char>((x = x * 1103515245u + 12345u) >> 16);
  expect_data_loss(noise, "noise");
  expect_data_loss(sealed(noise), "sealed noise");
  const auto events = test::sample_events();
  expect_data_loss(sealed(encode_event(events[0])), "an event");
}

TEST(SnapshotCodecHostile, EveryTruncationAndEveryFlippedBitIsDataLoss) {
  const std::string bytes = encode_snapshot(rich_state(), header_for(rich_state(), 5));
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    expect_data_loss(std::string_view(bytes).substr(0, n), "prefix of " + std::to_string(n) + " bytes");
  }
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    std::string flipped = bytes;
    flipped[i] = static_cast<char>(flipped[i] ^ (1 << (i % 8)));
    expect_data_loss(flipped, "bit flipped in byte " + std::to_string(i));
  }
}

TEST(SnapshotCodecHostile, TrailingBytesAreDataLoss) {
  const std::string bytes = encode_snapshot(rich_state(), header_for(rich_state(), 5));
  expect_data_loss(bytes + '\0', "a byte after the checksum");
  expect_data_loss(sealed(unsealed(bytes) + std::string(8, '\0')), "a word after the message, checksummed", "trailing");
}

TEST(SnapshotCodecHostile, OverTheSizeLimitIsDataLoss) {
  expect_data_loss(sealed(std::string(kMaxSnapshotBytes, '\0')), "oversized value", "over the limit");
}

TEST(SnapshotCodecHostile, AZeroBombIsRefusedBeforeItIsUnpacked) {
  // A segment table claiming 2^28 words, then packed zero runs: tiny input
  // that would unpack to 2 GiB if the traversal limit were not checked first.
  std::string bomb = {'\x80', '\x10'};  // tag: only byte 7 set; segment 0 size 0x10000000 words
  for (int i = 0; i < 64; ++i) bomb += std::string{'\0', '\xFF'};
  expect_data_loss(sealed(bomb), "zero bomb", "not a valid message");
}

// The snapshot header with a fourth pointer, one this build does not know,
// leading to a chain of `depth` structs: Snapshot > header > chain.
std::string with_chain_under_header(int depth) {
  const core::GameState state = rich_state();
  test::RawMessage m(unsealed(encode_snapshot(state, header_for(state, 5))), true);
  capnp::MallocMessageBuilder keep;  // the old header, while its pointer is reused
  keep.getRoot<capnp::AnyPointer>().set(m.event().getPointerSection()[0].asReader());
  auto old = keep.getRoot<capnp::AnyStruct>();
  auto h = m.event().getPointerSection()[0].initAsAnyStruct(
      static_cast<capnp::uint>(old.getDataSection().size() / 8), 4);
  std::copy(old.getDataSection().begin(), old.getDataSection().end(), h.getDataSection().begin());
  for (capnp::uint i = 0; i < 3; ++i) h.getPointerSection()[i].set(old.getPointerSection()[i].asReader());
  auto next = h.getPointerSection()[3];
  for (int i = 0; i < depth; ++i) next = next.initAsAnyStruct(0, 1).getPointerSection()[0];
  return sealed(m.pack());
}

TEST(SnapshotCodecLimits, AFieldOfANewerBuildWithinTheNestingLimitIsIgnored) {
  const auto r = decode_snapshot(with_chain_under_header(4));
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(r->state, rich_state());
}

TEST(SnapshotCodecLimits, DeeplyNestedMessageIsRefused) {
  expect_data_loss(with_chain_under_header(64), "64 levels under the header", "nested");
}

// The input fuzz target "snapshot" broke (fuzz/corpus/snapshot/
// crash-grid-size-mismatch): a state whose grid is not cols x rows, sealed
// with a sound checksum. The fold would index the grid by cols and rows.
TEST(SnapshotCodecHostile, AStateBreakingTheFoldsInvariantsIsDataLoss) {
  const std::string packed =
      testing::read_text_file(std::string(WARLOG_SOURCE_DIR) + "/fuzz/corpus/snapshot/crash-grid-size-mismatch");
  expect_data_loss(sealed(packed), "grid of another size", "grid size does not match cols x rows");
}

// The second: part of the turn 33, which the fold used as an index into the
// five parts of a turn (fuzz/corpus/snapshot/crash-part-out-of-range).
TEST(SnapshotCodecHostile, APartOfTheTurnOutOfRangeIsDataLoss) {
  const std::string packed =
      testing::read_text_file(std::string(WARLOG_SOURCE_DIR) + "/fuzz/corpus/snapshot/crash-part-out-of-range");
  expect_data_loss(sealed(packed), "part 33", "part of the turn 33 is not 0..5");
}

TEST(SnapshotCodecHostile, AGridClaimingTooManyCellsIsDataLoss) {
  core::GameState s;
  s.grid.assign(127 * 127 + 1, std::nullopt);
  expect_data_loss(encode_snapshot(s, header_for(s, 0)), "grid of 16130 cells", "claims 16130 cells");
}

// Messages only a corrupt store or a forger would hold, made by editing an
// encoding as untyped structs. Snapshot: pointers [0] header, [1] state.
// State's pointers in ordinal order: title, date, rulesetHash, catalogHash,
// grid, seats, territories, ...
constexpr unsigned kStateGrid = 4;
constexpr unsigned kStateSeats = 5;

TEST(SnapshotCodecHostile, AMissingHeaderOrStateIsDataLoss) {
  for (unsigned which : {0u, 1u}) {
    test::RawMessage m(unsealed(encode_snapshot(rich_state(), header_for(rich_state(), 5))), true);
    m.event().getPointerSection()[which].clear();
    expect_data_loss(sealed(m.pack()), which == 0 ? "no header" : "no state", which == 0 ? "no header" : "no state");
  }
}

TEST(SnapshotCodecHostile, AnotherSeatCountIsDataLoss) {
  test::RawMessage none(unsealed(encode_snapshot(rich_state(), header_for(rich_state(), 5))), true);
  none.event().getPointerSection()[1].getAs<capnp::AnyStruct>().getPointerSection()[kStateSeats].clear();
  expect_data_loss(sealed(none.pack()), "no seats", "0 seats");
}

TEST(SnapshotCodecHostile, GridCellsOffTheGridOrTwiceAreDataLoss) {
  // rich_state holds Troops at cells 0 and 11 of 12. Cell: data [0] index (UInt32).
  auto with_indices = [](std::uint32_t first, std::uint32_t second) {
    test::RawMessage m(unsealed(encode_snapshot(rich_state(), header_for(rich_state(), 5))), true);
    auto grid = m.event().getPointerSection()[1].getAs<capnp::AnyStruct>().getPointerSection()[kStateGrid].getAs<capnp::AnyList>();
    auto cells = grid.as<capnp::List<capnp::AnyStruct>>();
    auto put = [](capnp::AnyStruct::Builder cell, std::uint32_t v) {
      auto data = cell.getDataSection();
      for (int i = 0; i < 4; ++i) data[static_cast<unsigned>(i)] = static_cast<kj::byte>(v >> (8 * i));
    };
    put(cells[0], first);
    put(cells[1], second);
    return sealed(m.pack());
  };
  ASSERT_TRUE(decode_snapshot(with_indices(0, 11)));  // the edit itself is sound
  expect_data_loss(with_indices(0, 12), "cell 12 of 12", "grid cell 12");
  expect_data_loss(with_indices(11, 11), "cell 11 twice", "grid cell 11");
  expect_data_loss(with_indices(11, 0), "cells out of order", "grid cell 0");
}

TEST(SnapshotCodecHostile, ACardTwiceInAPileIsDataLoss) {
  core::GameState s;
  s.seats[0].hand = {{"Aa", 1}, {"Ab", 2}};
  test::RawMessage m(unsealed(encode_snapshot(s, header_for(s, 0))), true);
  auto seat0 = m.event()
                   .getPointerSection()[1]
                   .getAs<capnp::AnyStruct>()
                   .getPointerSection()[kStateSeats]
                   .getAs<capnp::AnyList>().as<capnp::List<capnp::AnyStruct>>()[0];
  // Seat's pointers in ordinal order: player, deck, orders, hand, ...
  auto hand = seat0.getPointerSection()[3].getAs<capnp::AnyList>().as<capnp::List<capnp::AnyStruct>>();
  hand[1].getPointerSection()[0].setAs<capnp::Text>("Aa");
  expect_data_loss(sealed(m.pack()), "Aa twice in a hand", "names 'Aa' twice");
}

}  // namespace
}  // namespace warlog::events
