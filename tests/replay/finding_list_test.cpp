// FindingList (replay/finding_list.hpp): compact rows that read back exactly
// what was pushed, messages stored once when they repeat, a lossy dedup that
// never mixes up two messages, truncate and the seq search.

#include <gtest/gtest.h>

#include <string>

#include "warlog/replay/finding_list.hpp"

namespace warlog::replay {
namespace {

core::Finding finding(core::Seq seq, std::string_view rule, std::string message,
                      core::Severity severity = core::Severity::Violation) {
  return core::Finding{seq, rule, severity, core::Basis::Written, std::move(message), core::kNoSeat, seq};
}

TEST(FindingList, ReadsBackWhatWasPushedWithTheRegistersCitation) {
  const core::Rule& rule = core::all_rules().front();
  FindingList list;
  list.push_back(finding(7, rule.id, "Bruno drew 3 cards"), 2, core::Phase::Muster, 1);
  list.push_back(finding(9, "NOT.a.rule", "odd", core::Severity::Warning), 3, core::Phase::Warfare, core::kNoSeat);
  ASSERT_EQ(list.size(), 2u);

  const FindingView v = list.at(0);
  EXPECT_EQ(v.seq, 7u);
  EXPECT_EQ(v.rule_id, rule.id);
  EXPECT_EQ(v.message, "Bruno drew 3 cards");
  EXPECT_EQ(v.citation, rule.citation);
  EXPECT_EQ(v.turn, 2);
  EXPECT_EQ(v.phase, core::Phase::Muster);
  EXPECT_EQ(v.seat, 1);

  const LocatedFinding other = list.located(1);
  EXPECT_EQ(other.finding, finding(9, "NOT.a.rule", "odd", core::Severity::Warning));
  EXPECT_EQ(other.citation, "") << "a rule the register does not know has no citation";
  EXPECT_EQ(other.seat, core::kNoSeat);
  EXPECT_EQ(list.violations(), 1u);
}

// A finding reported when a part closes concerns an earlier event: the list
// reads that back, and truncate forgets it with its row.
TEST(FindingList, ReadsBackTheEventAFindingConcerns) {
  FindingList list;
  list.push_back(finding(4, "MUS-a.draw", "drew 3"), 1, core::Phase::Muster, 0);
  core::Finding closed = finding(12, "ATT-3.discard", "still owes 1 discard");
  closed.concerns = 9;
  closed.seat = 1;
  list.push_back(closed, 1, core::Phase::Attrition, 1);
  list.push_back(finding(15, "MUS-a.draw", "drew 1"), 2, core::Phase::Muster, 1);
  EXPECT_EQ(list.concerns(0), 4u);
  EXPECT_EQ(list.concerns(1), 9u);
  EXPECT_EQ(list.concerns(2), 15u);
  EXPECT_EQ(list.located(1).finding, closed);
  list.truncate(1);
  core::Finding again = finding(13, "LOG.order", "late");
  again.concerns = 13;
  list.push_back(again, 1, core::Phase::Attrition, 1);
  EXPECT_EQ(list.concerns(1), 13u) << "the truncated row's concerns went with it";
}

TEST(FindingList, ARepeatedMessageIsStoredOnce) {
  FindingList list;
  const std::string message = "Ironclaw Lancer fought while Lost";
  for (core::Seq s = 0; s < 1000; ++s) list.push_back(finding(s, "X", message), 1, core::Phase::Warfare, 0);
  EXPECT_EQ(list.text_bytes(), message.size());
  for (std::size_t i = 0; i < list.size(); ++i) ASSERT_EQ(list.at(i).message, message);
  // A row is 40 bytes; the whole list well under what 1,000 LocatedFindings
  // with their own strings take.
  EXPECT_LT(list.heap_bytes(), 1000 * sizeof(LocatedFinding));
}

// The dedup cache has 4,096 slots, so 20,000 distinct messages must collide
// in it: each must still read back as itself, and interleaved repeats of the
// first are shared only while their slot still remembers them.
TEST(FindingList, DistinctMessagesStayDistinctThroughCollisions) {
  FindingList list;
  std::size_t text = 0;
  for (core::Seq s = 0; s < 20000; ++s) {
    const std::string m = "message " + std::to_string(s);
    text += m.size();
    list.push_back(finding(s, "X", m), 1, core::Phase::Muster, 0);
  }
  for (core::Seq s = 0; s < 20000; ++s) ASSERT_EQ(list.at(s).message, "message " + std::to_string(s)) << s;
  EXPECT_EQ(list.text_bytes(), text) << "no two distinct messages share text";
}

TEST(FindingList, UpperBoundFindsTheFirstRowAfterASeq) {
  FindingList list;
  for (core::Seq s : {3u, 3u, 5u, 9u}) list.push_back(finding(s, "X", "m"), 1, core::Phase::Muster, 0);
  EXPECT_EQ(list.upper_bound(0), 0u);
  EXPECT_EQ(list.upper_bound(3), 2u);
  EXPECT_EQ(list.upper_bound(4), 2u);
  EXPECT_EQ(list.upper_bound(5), 3u);
  EXPECT_EQ(list.upper_bound(9), 4u);
  EXPECT_EQ(list.upper_bound(100), 4u);
}

TEST(FindingList, TruncateDropsLaterRowsAndKeepsEarlierText) {
  FindingList list;
  list.push_back(finding(1, "X", "shared"), 1, core::Phase::Muster, 0);
  list.push_back(finding(2, "X", "shared"), 1, core::Phase::Muster, 0);
  list.push_back(finding(3, "X", "later"), 1, core::Phase::Muster, 0);
  list.truncate(1);
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list.at(0).message, "shared");
  list.truncate(5);
  EXPECT_EQ(list.size(), 1u) << "truncating past the end does nothing";
  list.push_back(finding(4, "X", "shared"), 1, core::Phase::Muster, 0);
  EXPECT_EQ(list.at(1).message, "shared");
  EXPECT_EQ(list.at(1).seq, 4u);
}

}  // namespace
}  // namespace warlog::replay
