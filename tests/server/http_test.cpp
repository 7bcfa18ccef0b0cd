// `warlog serve` over HTTP on loopback (docs/server.md › 4-6): a table
// records the tutorial game line by line; retries, tokens and roles, strict
// request bodies, the owner lock, follow streams, and each limit exceeded.
// Every test starts its own server and stops it (ServedStore).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "cli/cli_run.hpp"
#include "sample_lines.hpp"
#include "served_store.hpp"
#include "temp_dir.hpp"

namespace warlog::testing {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::StartsWith;

class ServeHttp : public ::testing::Test {
 protected:
  void SetUp() override {
    lines_ = serve_tutorial(dir_, true);  // game 1 from the header, game 2 another table's
    table1_ = issue_token(dir_.store(), "table", 1);
    judge_ = issue_token(dir_.store(), "judge");
    public_ = issue_token(dir_.store(), "public");
  }

  [[nodiscard]] json events(int port, int game, const std::string& token) const {
    const HttpReply r = http(port, "GET", fmt::format("/api/games/{}/events", game), token);
    EXPECT_EQ(r.status, 200) << r.body;
    return r.status == 200 ? json::parse(r.body) : json{};
  }
  [[nodiscard]] std::uint64_t next_seq(int port, int game = 1) const {
    return events(port, game, judge_)["next_seq"].get<std::uint64_t>();
  }

  TempDir dir_;
  SampleLines lines_;
  std::string table1_, judge_, public_;
};

TEST_F(ServeHttp, ATableRecordsTheTutorialGameLineByLineAsImportStoresIt) {
  {
    // The whole game as fast as the test can send it: past the default 10 a second.
    ServedStore served(dir_.store(), {"--appends-per-second", "1000", "--append-burst", "1000"});
    std::uint64_t expected = next_seq(served.port());
    for (const std::string& line : lines_.body) {
      const HttpReply r = http(served.port(), "POST", "/api/games/1/lines", table1_, line_body(expected, line));
      ASSERT_EQ(r.status, 200) << line << ": " << r.body;
      EXPECT_EQ(header(r, "content-security-policy"), "default-src 'self'");
      const json j = json::parse(r.body);
      // A blank line or a comment records nothing and says so (R-082's "nothing").
      const auto first = line.find_first_not_of(" \t");
      const bool blank = first == std::string::npos || line[first] == '#';
      ASSERT_EQ(j["status"], blank ? "nothing" : "ok") << line << ": " << r.body;
      expected = j["next_seq"].get<std::uint64_t>();
    }
    EXPECT_EQ(served.stop(SIGTERM), 0) << served.err();
  }
  // The same events as the whole file imported (recording adds only times and the uuid).
  TempDir other;
  ASSERT_EQ(run_warlog("import --store '" + other.store() + "' '" + lines_.whole.string() + "'").code, 0);
  const CliResult served_list = run_warlog("list --store '" + dir_.store() + "' --format json");
  const CliResult imported_list = run_warlog("list --store '" + other.store() + "' --format json");
  EXPECT_EQ(json::parse(served_list.out)["games"][0]["events"], json::parse(imported_list.out)["games"][0]["events"]);
  const CliResult verify = run_warlog("verify --store '" + dir_.store() + "'");
  EXPECT_EQ(verify.code, 0) << verify.out << verify.err;
  const CliResult audit = run_warlog("audit --store '" + dir_.store() + "' --game 1 --format json");
  const CliResult audit_whole = run_warlog("audit --store '" + other.store() + "' --game 1 --format json");
  EXPECT_EQ(json::parse(audit.out)["summary"], json::parse(audit_whole.out)["summary"]);
}

TEST_F(ServeHttp, ARetryIsAlreadyRecordedAndAStaleSeqIsAConflict) {
  ServedStore served(dir_.store());
  const std::uint64_t e = next_seq(served.port());
  const HttpReply first = http(served.port(), "POST", "/api/games/1/lines", table1_, line_body(e, "Turn 1"));
  ASSERT_EQ(first.status, 200) << first.body;
  const HttpReply again = http(served.port(), "POST", "/api/games/1/lines", table1_, line_body(e, "Turn 1"));
  ASSERT_EQ(again.status, 200) << again.body;
  EXPECT_EQ(json::parse(again.body)["status"], "already-recorded");
  EXPECT_EQ(json::parse(again.body)["seqs"], json::array({e}));
  const HttpReply stale = http(served.port(), "POST", "/api/games/1/lines", table1_, line_body(e, "Morale 1"));
  EXPECT_EQ(stale.status, 409) << stale.body;
  EXPECT_EQ(json::parse(stale.body)["status"], "conflict");
  EXPECT_EQ(next_seq(served.port()), e + 1);
}

TEST_F(ServeHttp, TokensDecideWhoWritesWhereAndWhatEachSees) {
  ServedStore served(dir_.store());
  const int port = served.port();
  const std::uint64_t e = next_seq(port);
  const std::string line = line_body(e, "Turn 1");
  EXPECT_EQ(http(port, "POST", "/api/games/1/lines", "", line).status, 401);
  EXPECT_EQ(http(port, "POST", "/api/games/1/lines", std::string(64, 'a'), line).status, 401);
  EXPECT_EQ(http(port, "POST", "/api/games/2/lines", table1_, line_body(0, "Turn 9")).status, 403);
  EXPECT_EQ(http(port, "GET", "/api/games/2/events", table1_).status, 403);
  EXPECT_EQ(http(port, "POST", "/api/games/1/lines", public_, line).status, 403);
  EXPECT_EQ(next_seq(port), e) << "nothing written where a token does not allow";

  // A table lists only its game; the judge and the public every game.
  EXPECT_EQ(json::parse(http(port, "GET", "/api/games", table1_).body)["games"].size(), 1u);
  EXPECT_EQ(json::parse(http(port, "GET", "/api/games", judge_).body)["games"].size(), 2u);

  // The public: a turn behind, no hidden card (game 2 is a whole game of several turns).
  const json all = events(port, 2, judge_);
  const json pub = events(port, 2, public_);
  ASSERT_GT(all["events"].size(), pub["events"].size());
  const int last_turn = all["events"].back()["turn"].get<int>();
  for (const json& ev : pub["events"]) EXPECT_LT(ev["turn"].get<int>(), last_turn);
  bool hidden = false;
  for (const json& ev : pub["events"]) {
    if (ev["type"] == "CardsDrawn") {
      for (const json& c : ev["payload"]["cards"]) hidden = hidden || c == "(hidden)";
      for (const json& c : ev["payload"]["cards"]) EXPECT_EQ(c, "(hidden)") << ev.dump();
    }
  }
  EXPECT_TRUE(hidden);
  EXPECT_EQ(http(port, "GET", "/api/games/2/backups/preview?to=5", table1_).status, 403);
  const HttpReply preview = http(port, "GET", "/api/games/2/backups/preview?to=5", judge_);
  ASSERT_EQ(preview.status, 200) << preview.body;
  EXPECT_EQ(json::parse(preview.body)["target"], 5);
}

TEST_F(ServeHttp, RequestBodiesAreDecodedStrictlyAndARefusalWritesNothing) {
  ServedStore served(dir_.store());
  const int port = served.port();
  const std::uint64_t e = next_seq(port);
  const std::string seq = std::to_string(e);
  const std::vector<std::string> bodies = {
           "{\"expectedSeq\":" + seq + ",\"line\":\"Turn 1\",\"seat\":1}",  // an unknown field
           "{\"expectedSeq\":" + seq + ",\"line\":\"Turn \xff\"}",          // invalid UTF-8
           "{\"expectedSeq\":\"" + seq + "\",\"line\":\"Turn 1\"}",         // a seq as a string
           std::string("{\"expectedSeq\":-1,\"line\":\"Turn 1\"}"),
           "{\"expectedSeq\":" + seq + "}",
           "{\"expectedSeq\":" + seq + ",\"line\":\"Turn 1\\u0000\"}",      // a control character
           std::string("[1,2]"),
           std::string("{\"expectedSeq\":"),
           std::string(""),
       };
  for (const std::string& body : bodies) {
    const HttpReply r = http(port, "POST", "/api/games/1/lines", table1_, body);
    EXPECT_EQ(r.status, 400) << body << ": " << r.body;
    EXPECT_THAT(r.body, HasSubstr("nothing recorded")) << body;
  }
  EXPECT_EQ(next_seq(port), e);
  EXPECT_EQ(http(port, "GET", "/api/games/1/events?from=x", judge_).status, 400);
  EXPECT_EQ(http(port, "GET", "/api/games/x/events", judge_).status, 404);
  EXPECT_EQ(http(port, "GET", "/api/games/99/events", judge_).status, 404);
}

TEST_F(ServeHttp, EveryResponseCarriesTheContentSecurityPolicy) {
  ServedStore served(dir_.store());
  for (const auto& [target, token, status] : std::vector<std::tuple<std::string, std::string, int>>{
           {"/", "", 200}, {"/index.html", "", 200}, {"/nothing", "", 404}, {"/api/games", "", 401},
           {"/api/games", judge_, 200}, {"/api/nothing", judge_, 404}}) {
    const HttpReply r = http(served.port(), "GET", target, token);
    EXPECT_EQ(r.status, status) << target;
    EXPECT_EQ(header(r, "content-security-policy"), "default-src 'self'") << target;
  }
}

TEST_F(ServeHttp, TheServerOwnsTheStoreLocalWritersAreRefusedReadersAreNot) {
  ServedStore served(dir_.store());
  const CliResult import = run_warlog("import --store '" + dir_.store() + "' '" + lines_.whole.string() + "'");
  EXPECT_EQ(import.code, 2);
  EXPECT_EQ(import.err,
            fmt::format("warlog: warlog serve (pid {}) owns this store: record through it (its page and API), or stop it first\n", served.pid()));
  EXPECT_EQ(run_warlog("verify --store '" + dir_.store() + "'").code, 0);
  // A second server is refused too.
  const CliResult second = run_warlog("serve '" + dir_.store() + "' --http 127.0.0.1:0");
  EXPECT_EQ(second.code, 2);
  EXPECT_THAT(second.err, HasSubstr(fmt::format("warlog serve (pid {}) already owns this store", served.pid())));
}

TEST_F(ServeHttp, OffLoopbackItRefusesToStartUnlessInsecureLanWhichWarns) {
  const CliResult refused = run_warlog("serve '" + dir_.store() + "' --http 0.0.0.0:0");
  EXPECT_EQ(refused.code, 2);
  EXPECT_THAT(refused.err, HasSubstr("off loopback"));
  EXPECT_EQ(count_lines(refused.err), 1u);
  ServedStore lan(dir_.store(), {"--insecure-lan"}, "0.0.0.0");
  EXPECT_THAT(lan.err(), HasSubstr("without TLS (--insecure-lan)"));
}

TEST_F(ServeHttp, AFollowStreamGetsEachAppendAndClosesWhenItsTokenIsRevoked) {
  ServedStore served(dir_.store());
  const int port = served.port();
  const std::uint64_t e = next_seq(port);
  const std::string follower = issue_token(dir_.store(), "judge");
  const int fd = connect_loopback(port);
  ASSERT_GE(fd, 0);
  ASSERT_TRUE(send_all(fd, fmt::format("GET /api/games/1/follow?from={} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {}\r\n\r\n",
                                       e, follower)));
  const FollowRead head = follow_for(fd, std::chrono::seconds(5), "\r\n\r\n");
  EXPECT_THAT(head.text, StartsWith("HTTP/1.1 200"));
  EXPECT_THAT(head.text, HasSubstr("text/event-stream"));

  ASSERT_EQ(http(port, "POST", "/api/games/1/lines", table1_, line_body(e, "Turn 1")).status, 200);
  const FollowRead got = follow_for(fd, std::chrono::seconds(10), "\"TurnStarted\"");
  EXPECT_THAT(got.text, HasSubstr(fmt::format("id: {}\nevent: event\ndata: ", e)));
  EXPECT_THAT(got.text, HasSubstr("\"TurnStarted\""));

  const CliResult list = run_warlog("serve token list '" + dir_.store() + "'");
  ASSERT_EQ(list.code, 0);
  // The follower's id: the newest judge token, the last line.
  std::string last = list.out.substr(0, list.out.size() - 1);
  last = last.substr(last.rfind('\n') + 1);
  const std::string id = last.substr(0, 12);
  ASSERT_EQ(run_warlog("serve token revoke '" + dir_.store() + "' " + id).code, 0);
  EXPECT_TRUE(follow_for(fd, std::chrono::seconds(10)).closed) << "a revoked token's stream closes";
  ::close(fd);
  EXPECT_EQ(http(port, "GET", "/api/games", follower).status, 401);
}

TEST_F(ServeHttp, ARequestOverTheSizeLimitIs413AndWritesNothing) {
  ServedStore served(dir_.store(), {"--max-request-kib", "1"});
  const std::uint64_t e = next_seq(served.port());
  const std::string comment = "Turn 1 # " + std::string(2000, 'x');
  const HttpReply r = http(served.port(), "POST", "/api/games/1/lines", table1_, line_body(e, comment));
  EXPECT_EQ(r.status, 413) << r.body;
  EXPECT_EQ(next_seq(served.port()), e);
}

TEST_F(ServeHttp, AppendsPastTheTokensRateAre429AndWriteNothing) {
  ServedStore served(dir_.store(), {"--appends-per-second", "0.01", "--append-burst", "2"});
  const int port = served.port();
  std::uint64_t e = next_seq(port);
  for (const char* line : {"Turn 1", "Morale 1"}) {
    const HttpReply r = http(port, "POST", "/api/games/1/lines", table1_, line_body(e, line));
    ASSERT_EQ(r.status, 200) << r.body;
    e = json::parse(r.body)["next_seq"].get<std::uint64_t>();
  }
  const HttpReply over = http(port, "POST", "/api/games/1/lines", table1_, line_body(e, "Muster 1"));
  EXPECT_EQ(over.status, 429) << over.body;
  EXPECT_EQ(header(over, "retry-after"), "1");
  EXPECT_EQ(next_seq(port), e);
  // Another token has its own bucket.
  EXPECT_EQ(http(port, "POST", "/api/games/1/lines", judge_, line_body(e, "Muster 1")).status, 200);
}

TEST_F(ServeHttp, ConnectionsPastTheLimitAre503AndIdleOnesAreClosed) {
  ServedStore served(dir_.store(), {"--max-connections", "2", "--idle-seconds", "1"});
  const int port = served.port();
  const int a = connect_loopback(port), b = connect_loopback(port);
  ASSERT_GE(a, 0);
  ASSERT_GE(b, 0);
  // Accepted in order: the third is past the limit.
  const HttpReply third = http(port, "GET", "/api/games", judge_);
  EXPECT_EQ(third.status, 503) << third.body;
  EXPECT_EQ(header(third, "content-security-policy"), "default-src 'self'");
  // Two idle connections, closed by the server (after 1 s of nothing).
  EXPECT_TRUE(follow_for(a, std::chrono::seconds(15)).closed);
  EXPECT_TRUE(follow_for(b, std::chrono::seconds(15)).closed);
  ::close(a);
  ::close(b);
  EXPECT_EQ(http(port, "GET", "/api/games", judge_).status, 200) << "room again once they closed";
}

}  // namespace
}  // namespace warlog::testing
