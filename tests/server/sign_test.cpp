// The server signs games with the event's key (docs/server.md › The event's
// key and backups): `warlog serve --sign-as KEYFILE --signer NAME` signs a
// game's heads as `warlog sign` does once the line that ends it, or a
// judge's backup, is committed, and after a ruling; `warlog verify` checks
// those signatures as any other, and a later append makes one stale.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <future>
#include <nlohmann/json.hpp>

#include "cli/cli_run.hpp"
#include "sample_lines.hpp"
#include "served_store.hpp"
#include "temp_dir.hpp"
#include "warlog/replay/disputes.hpp"
#include "warlog/replay/signatures.hpp"
#include "writer.hpp"

namespace warlog::testing {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::Not;

class ServeSigning : public ::testing::Test {
 protected:
  void SetUp() override {
    lines_ = serve_tutorial(dir_, false);
    key_ = (dir_.path() / "event.key").string();
    keyring_ = (dir_.path() / "keyring").string();
    const std::string pub = (dir_.path() / "event.pub").string();
    ASSERT_EQ(run_warlog("keygen --out '" + key_ + "' --public-out '" + pub + "'").code, 0);
    const CliResult trusted = run_warlog("trust add 'Head Judge' '" + pub + "' --keyring '" + keyring_ + "' --store '" +
                                         dir_.store() + "'");
    ASSERT_EQ(trusted.code, 0) << trusted.err;
    table1_ = issue_token(dir_.store(), "table", 1);
    judge_ = issue_token(dir_.store(), "judge");
  }

  [[nodiscard]] std::vector<std::string> signing() const {
    return {"--sign-as", key_, "--signer", "Head Judge", "--appends-per-second", "1000", "--append-burst", "1000"};
  }
  // Posts one line at the game's next seq; its answer's JSON.
  json post(const ServedStore& s, const std::string& line, const std::string& token) {
    const HttpReply r = http(s.port(), "POST", "/api/games/1/lines", token, line_body(next_, line));
    EXPECT_EQ(r.status, 200) << line << ": " << r.body;
    const json j = r.status == 200 ? json::parse(r.body) : json{};
    if (j.contains("next_seq")) next_ = j["next_seq"].get<std::uint64_t>();
    return j;
  }
  void record_whole_game(const ServedStore& s) {
    const HttpReply events = http(s.port(), "GET", "/api/games/1/events", judge_);
    ASSERT_EQ(events.status, 200) << events.body;
    next_ = json::parse(events.body)["next_seq"].get<std::uint64_t>();
    for (const std::string& line : lines_.body) post(s, line, table1_);
  }
  [[nodiscard]] CliResult verify() const {
    return run_warlog("verify --store '" + dir_.store() + "' --keyring '" + keyring_ + "'");
  }

  TempDir dir_;
  SampleLines lines_;
  std::string key_, keyring_, table1_, judge_;
  std::uint64_t next_ = 0;
};

TEST_F(ServeSigning, AGameRecordedToItsEndIsSignedAndALaterAppendMakesItStale) {
  std::uint64_t end_seq = 0;
  {
    ServedStore served(dir_.store(), signing());
    record_whole_game(served);
    end_seq = next_ - 1;  // the tutorial's last line is its `end`
    // The writer signs after answering; stopping waits for the writer's thread.
    EXPECT_EQ(served.stop(SIGTERM), 0) << served.err();
    EXPECT_THAT(served.err(), HasSubstr("signing as 'Head Judge' (key "));
    EXPECT_THAT(served.err(), HasSubstr("game 1 signed (ended) by Head Judge"));
  }
  const CliResult signed_game = verify();
  EXPECT_EQ(signed_game.code, 0) << signed_game.out << signed_game.err;
  EXPECT_THAT(signed_game.out, HasSubstr("valid, signed by trusted 'Head Judge' (key "));
  EXPECT_THAT(signed_game.out, HasSubstr(fmt::format("over {} events, 0 annotations: valid", end_seq + 1)));

  {
    // A void of the `end` (the table's own slip) is no reason to sign: the signature goes stale.
    ServedStore served(dir_.store(), signing());
    EXPECT_EQ(post(served, fmt::format("void {} \"slip\" by \"Ana\"", end_seq), table1_)["status"], "ok");
    EXPECT_EQ(served.stop(SIGTERM), 0) << served.err();
    EXPECT_THAT(served.err(), Not(HasSubstr("signed (")));
  }
  const CliResult stale = verify();
  EXPECT_THAT(stale.out, HasSubstr("stale: 1 event since (signed by trusted 'Head Judge'")) << stale.out;
  EXPECT_THAT(stale.out, Not(HasSubstr("valid, signed by")));
}

TEST_F(ServeSigning, AJudgesBackupIsSignedWithTheEventsKeyAndTheGameAfterIt) {
  {
    ServedStore served(dir_.store(), signing());
    record_whole_game(served);
    const std::uint64_t end_seq = next_ - 1;
    EXPECT_EQ(post(served, fmt::format("backup {} \"appeal\" by \"J. Ruiz\"", end_seq), judge_)["status"], "ok");
    EXPECT_EQ(served.stop(SIGTERM), 0) << served.err();
    EXPECT_THAT(served.err(), HasSubstr("game 1 signed (ended)"));
    EXPECT_THAT(served.err(), HasSubstr(fmt::format("game 1 signed (backup) by Head Judge (key ")));
    EXPECT_THAT(served.err(), HasSubstr(fmt::format("over {} events and 1 annotation, in ", end_seq + 2)));
  }
  const CliResult v = verify();
  EXPECT_EQ(v.code, 0) << v.out << v.err;
  // The game as it stands after the backup (the signature before it is stale).
  EXPECT_THAT(v.out, HasSubstr("valid, signed by trusted 'Head Judge'"));
  EXPECT_THAT(v.out, HasSubstr("stale: 1 event since"));
  // The backup itself carries the event's key, as `warlog record --sign-as` signs one.
  EXPECT_THAT(v.out, HasSubstr("signed by trusted 'Head Judge' (key ")) << v.out;
  EXPECT_THAT(v.out, HasSubstr("as 'J. Ruiz': valid")) << v.out;
}

TEST_F(ServeSigning, WithoutAKeyNothingIsSignedAndTheStartSaysSoOnce) {
  {
    ServedStore served(dir_.store(), {"--appends-per-second", "1000", "--append-burst", "1000"});
    record_whole_game(served);
    EXPECT_EQ(served.stop(SIGTERM), 0) << served.err();
    const std::string err = served.err();
    const std::string said = "nothing is signed: no --sign-as KEYFILE --signer NAME";
    ASSERT_THAT(err, HasSubstr(said));
    EXPECT_EQ(err.find(said), err.rfind(said)) << err;
    EXPECT_THAT(err, Not(HasSubstr("signed (")));
  }
  EXPECT_THAT(verify().out, HasSubstr("unsigned: consistent, nobody attests it"));
}

TEST_F(ServeSigning, AKeyWithoutASignerOrAnUnreadableKeyIsRefused) {
  const CliResult alone = run_warlog("serve '" + dir_.store() + "' --http 127.0.0.1:0 --sign-as '" + key_ + "'");
  EXPECT_EQ(alone.code, 2);
  EXPECT_THAT(alone.err, HasSubstr("--sign-as KEYFILE and --signer NAME go together"));
  const CliResult missing =
      run_warlog("serve '" + dir_.store() + "' --http 127.0.0.1:0 --sign-as /nonexistent.key --signer 'Head Judge'");
  EXPECT_EQ(missing.code, 2);
  EXPECT_THAT(missing.err, HasSubstr("/nonexistent.key"));
}

// A ruling through the writer (Writer::resolve, what a judge's ruling on the
// page or over RPC calls) is followed by the game's signature over it.
TEST(WriterSigning, ARulingIsFollowedByTheGamesSignature) {
  TempDir dir;
  const SampleLines lines = sample_lines(dir.path(), "tutorial/spine_first_blood.wlog");
  ASSERT_EQ(run_warlog("import --store '" + dir.store() + "' '" + lines.whole.string() + "'").code, 0);
  auto archive = replay::Archive::open(dir.store(), replay::Archive::Mode::ReadWrite);
  ASSERT_TRUE(archive) << archive.error().message;
  auto key = store::generate_keypair();
  ASSERT_TRUE(key);
  std::vector<std::string> log;
  replay::NewDispute d{1, 5, "the Pikeman was placed out of reach", "Bruno", {}, "2026-12-06", {}};
  auto id = replay::add_dispute(*archive, d);
  ASSERT_TRUE(id) << id.error().message;
  {
    server::Writer w(*archive, server::Signing{*key, "Head Judge", [&log](const std::string& l) { log.push_back(l); }});
    std::promise<server::Answer> ruled;
    w.run(
        [&](server::Writer& writer) {
          replay::NewRuling r;
          r.ruling = "placed as the rules allow";
          r.ruled_by = "J. Ruiz";
          r.ruled_at = "2026-12-06";
          auto done = writer.resolve(*id, r);
          return done ? server::Answer{} : server::error_answer(500, done.error().message);
        },
        [&ruled](server::Answer a) { ruled.set_value(std::move(a)); });
    EXPECT_EQ(ruled.get_future().get().status, 200u);
    EXPECT_EQ(w.stats().annotations, 2u) << "the ruling and the signature";
  }
  ASSERT_EQ(log.size(), 1u);
  EXPECT_THAT(log[0], HasSubstr("game 1 signed (ruling) by Head Judge"));
  EXPECT_THAT(log[0], HasSubstr("and 2 annotations"));  // the dispute and its ruling
  auto checks = replay::check_signatures(*archive, 1);
  ASSERT_TRUE(checks) << checks.error().message;
  ASSERT_EQ(checks->size(), 1u);
  EXPECT_EQ((*checks)[0].status, store::SignatureCheck::Status::Valid) << (*checks)[0].detail;
  EXPECT_EQ((*checks)[0].signature().annotation_count, 2u);
}

}  // namespace
}  // namespace warlog::testing
