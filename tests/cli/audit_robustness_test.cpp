// warlog audit over a store where one game's stored bytes are damaged: that
// game is reported as data loss in one line (exit 2), and every other game
// is still audited and reported (issue 4, reliability).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "cli/cli_run.hpp"
#include "events/samples.hpp"
#include "store/store_fixtures.hpp"
#include "warlog/events/codec.hpp"

namespace warlog {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
namespace fs = std::filesystem;

const std::string kSamples = WARLOG_SAMPLES_DIR;
using testing::retitled_sample;

class AuditRobustness : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string store = "--store " + dir_.store();
    ASSERT_EQ(testing::run_warlog("import " + store + " " + kSamples + "/tutorial/spine_first_blood.wlog").code, 0);
    const auto second = retitled_sample(dir_.path(), "Second");
    const auto r = testing::run_warlog("import " + store + " '" + second.string() + "'");
    ASSERT_EQ(r.code, 0) << r.err;
    ASSERT_THAT(r.out, HasSubstr("as game 2"));
  }
  // Replaces the canonical bytes of game 1's event `seq` with edit(bytes),
  // by default as a forger who recomputes every tag, S and the head would:
  // then only decoding can fail (store_fixtures.hpp).
  template <class Edit>
  void damage(core::Seq seq, Edit&& edit, store::test::Forge forge = store::test::Forge::Consistent) {
    store::test::forge_event(dir_.store(), 1, seq, edit, forge);
  }
  testing::TempDir dir_;
};

TEST_F(AuditRobustness, ATruncatedEventIsDataLossForThatGameOnly) {
  damage(7, [](std::string& bytes) { bytes.resize(bytes.size() / 16 * 8); });
  const auto r = testing::run_warlog("audit --store " + dir_.store());
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  // One line on stderr, naming the game and the damaged event.
  EXPECT_EQ(testing::count_lines(r.err), 1u) << r.err;
  EXPECT_THAT(r.err, HasSubstr("game 1"));
  EXPECT_THAT(r.err, HasSubstr("seq 7"));
  EXPECT_THAT(r.err, HasSubstr("not a valid message")) << "say it is damage, not a rule finding";
  // Game 2 is audited as if nothing happened: its report and its violation.
  EXPECT_THAT(r.out, HasSubstr("game 2  \"Second\""));
  EXPECT_THAT(r.out, HasSubstr("MUS-a.draw violation"));
  EXPECT_THAT(r.out, Not(HasSubstr("game 1  \"")));
  EXPECT_THAT(r.out, HasSubstr("summary: 2 games"));
  EXPECT_THAT(r.out, HasSubstr("1 game(s) could not be audited"));
}

TEST_F(AuditRobustness, GarbageBytesAreDataLossInEveryFormat) {
  damage(3, [](std::string& bytes) { bytes.assign(bytes.size(), '\xff'); });
  const auto json = testing::run_warlog("audit --store " + dir_.store() + " --format json");
  EXPECT_EQ(json.code, 2);
  EXPECT_EQ(testing::count_lines(json.err), 1u) << json.err;
  EXPECT_THAT(json.err, HasSubstr("game 1"));
  EXPECT_THAT(json.out, HasSubstr("\"game\":2,"));
  const auto junit = testing::run_warlog("audit --store " + dir_.store() + " --format junit");
  EXPECT_EQ(junit.code, 2);
  EXPECT_THAT(junit.out, HasSubstr("errors=\"1\""));
  EXPECT_THAT(junit.out, HasSubstr("name=\"game 2: Second\""));
}

TEST_F(AuditRobustness, ARemovedBlockIsDataLossToo) {
  store::test::edit_raw(dir_.store(), store::kDbEvents, [](MDB_txn* txn, MDB_dbi dbi) {
    ASSERT_TRUE(store::lmdb::del(txn, dbi, store::view(store::event_key(1, 1))).value());  // seqs 1..37
  });
  const auto r = testing::run_warlog("audit --store " + dir_.store());
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(testing::count_lines(r.err), 1u) << r.err;
  // verify's own words for the break, where the audit's walk stopped.
  EXPECT_THAT(r.err, HasSubstr("game 1, seq 1: event 1 is missing: the stream ends there, the record counts 38"));
  EXPECT_THAT(r.out, HasSubstr("game 2  \"Second\""));
}

// A byte flipped inside a card name still decodes, but reading checks the
// chain (docs/architecture.md › "Store format 2" › 4): audit refuses the
// block rather than fold altered bytes, and verify names the event.
TEST_F(AuditRobustness, ADecodableEditIsCaughtOnRead) {
  damage(
      27,
      [](std::string& bytes) {
        const auto at = bytes.find("Paw Slin");
        ASSERT_NE(at, std::string::npos);
        bytes[at + 1] ^= 0x20;  // "PAw Slinger"
      },
      store::test::Forge::Bytes);
  const auto audit = testing::run_warlog("audit --store " + dir_.store());
  EXPECT_EQ(audit.code, 2);
  EXPECT_THAT(audit.err, HasSubstr("game 1: the chain breaks at seq 27: event 27's tag does not hold"));
  EXPECT_THAT(audit.out, HasSubstr("game 2  \"Second\""));
  const auto verify = testing::run_warlog("verify --store " + dir_.store());
  EXPECT_EQ(verify.code, 1);
  EXPECT_THAT(verify.out, HasSubstr("game 1: BROKEN at seq 27"));
  EXPECT_THAT(verify.out, HasSubstr("game 2: ok"));
}

// The union discriminant of the event set to a kind this build does not
// know, as a newer warlog would have written it.
void to_unknown_kind(std::string& bytes) {
  auto ev = events::decode_event(bytes);
  ASSERT_TRUE(ev);
  auto other = *ev;
  other.payload = std::holds_alternative<core::TurnStarted>(ev->payload) ? core::Payload{core::PhaseStarted{}}
                                                                         : core::Payload{core::TurnStarted{}};
  events::test::RawMessage a(bytes);
  events::test::RawMessage b(events::encode_event(other));
  const auto offset = events::test::first_difference(a.event().getDataSection(), b.event().getDataSection());
  ASSERT_LT(offset, a.event().getDataSection().size());
  events::test::put_u16(a.event().getDataSection(), offset, 1000);
  bytes = a.canonical();
}

// Issue 9: an event of a payload kind a newer warlog wrote (the union
// discriminant set to one this build does not know).
TEST_F(AuditRobustness, AnUnknownPayloadKindIsReportedForThatGameOnly) {
  damage(5, to_unknown_kind);
  const std::string before = testing::slurp(dir_.store() + "/data.mdb");
  const auto r = testing::run_warlog("audit --store " + dir_.store());
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_EQ(testing::count_lines(r.err), 1u) << r.err;
  EXPECT_THAT(r.err, HasSubstr("game 1, seq 5: event payload kind 1000 is not known to this build"));
  EXPECT_THAT(r.out, HasSubstr("game 2  \"Second\""));
  EXPECT_THAT(r.out, HasSubstr("1 game(s) could not be audited"));
  EXPECT_TRUE(testing::slurp(dir_.store() + "/data.mdb") == before) << "audit wrote to the store";
}

// The same unknown kind in a block whose tags no longer hold (its bytes
// altered after they were written) is damage, never "a newer warlog wrote
// this": data loss, naming the first altered event (found by review).
TEST_F(AuditRobustness, AnUnknownPayloadKindInAnAlteredBlockIsDataLoss) {
  damage(5, to_unknown_kind, store::test::Forge::Bytes);
  const auto r = testing::run_warlog("audit --store " + dir_.store());
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_THAT(r.err, HasSubstr("warlog: data loss: game 1: the chain breaks at seq 5: event 5's tag does not hold"));
  EXPECT_THAT(r.err, Not(HasSubstr("not known to this build")));
}

// Issue 9: data.mdb cut short. Every verb says so in one line (exit 2, not a
// signal: LMDB would have faulted on a page past the end) and writes nothing.
TEST_F(AuditRobustness, ATruncatedDataFileIsOneLineForEveryVerb) {
  const fs::path data = dir_.store() + "/data.mdb";
  fs::resize_file(data, fs::file_size(data) / 2);
  const std::string before = testing::slurp(data.string());
  for (const std::string verb : {"audit", "verify", "list", "snapshot"}) {
    const auto r = testing::run_warlog(verb + " --store " + dir_.store());
    EXPECT_EQ(r.code, 2) << verb << ": " << r.out << r.err;
    EXPECT_EQ(testing::count_lines(r.err), 1u) << verb << ": " << r.err;
    EXPECT_THAT(r.err, HasSubstr("data.mdb is truncated")) << verb;
  }
  EXPECT_TRUE(testing::slurp(data.string()) == before) << "a verb wrote to the store";
}

}  // namespace
}  // namespace warlog
