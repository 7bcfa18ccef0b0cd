// The judges' side of `warlog serve` (docs/server.md › 7): the overview,
// its follow stream, "call a judge", disputes and rulings from the page.
// A round of the Old Mill Open (samples/event) is opened, so every game has
// its table; every test starts its own server on loopback and stops it.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <chrono>
#include <fstream>

#include <nlohmann/json.hpp>

#include "cli/cli_run.hpp"
#include "served_store.hpp"
#include "temp_dir.hpp"

namespace warlog::testing {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;
using Clock = std::chrono::steady_clock;

// Table 1 (game 1, Alice vs Bruno) draws three cards in its first Muster:
// one violation of Muster Phase › a. Draw cards (MUS-a.draw).
const std::vector<std::string> kTurnOne = {"Turn 1", "Morale 1", "Muster 1"};
const std::string kThreeCards = "draw \"Supply Wagon\", \"Ironclaw Lancer\", \"Claw Musketeer\"";

std::int64_t wall_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

class ServeOverview : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string ev = std::string(WARLOG_SAMPLES_DIR) + "/event";
    const CliResult decks = run_warlog("serve decks '" + dir_.store() + "' '" + ev + "'");
    ASSERT_EQ(decks.code, 0) << decks.err;
    const CliResult round =
        run_warlog("serve round open '" + dir_.store() + "' --round 1 --pairings '" + ev + "/round1.csv'");
    ASSERT_EQ(round.code, 0) << round.err;
    table1_ = issue_token(dir_.store(), "table", 1);
    table2_ = issue_token(dir_.store(), "table", 2);
    judge_ = issue_token(dir_.store(), "judge");
    public_ = issue_token(dir_.store(), "public");
  }

  [[nodiscard]] std::uint64_t next_seq(int port, int game) const {
    const HttpReply r = http(port, "GET", fmt::format("/api/games/{}/events", game), judge_);
    EXPECT_EQ(r.status, 200) << r.body;
    return r.status == 200 ? json::parse(r.body)["next_seq"].get<std::uint64_t>() : 0;
  }
  // Records lines at a game with a table's token, each answered ok.
  void record(int port, int game, const std::string& token, const std::vector<std::string>& lines) const {
    std::uint64_t e = next_seq(port, game);
    for (const std::string& line : lines) {
      const HttpReply r = http(port, "POST", fmt::format("/api/games/{}/lines", game), token, line_body(e, line));
      ASSERT_EQ(r.status, 200) << line << ": " << r.body;
      e = json::parse(r.body)["next_seq"].get<std::uint64_t>();
    }
  }
  [[nodiscard]] json overview(int port, const std::string& query = "") const {
    const HttpReply r = http(port, "GET", "/api/overview" + query, judge_);
    EXPECT_EQ(r.status, 200) << r.body;
    return r.status == 200 ? json::parse(r.body) : json{};
  }
  [[nodiscard]] static json row(const json& overview, int game) {
    for (const json& r : overview["games"]) {
      if (r["game"] == game) return r;
    }
    ADD_FAILURE() << "no row for game " << game << ": " << overview.dump();
    return json{};
  }
  // A judge's overview stream, its first message (the whole overview) read.
  [[nodiscard]] int open_stream(int port, const std::string& token, std::string* first = nullptr) const {
    const int fd = connect_loopback(port);
    EXPECT_GE(fd, 0);
    EXPECT_TRUE(send_all(fd, fmt::format("GET /api/overview/follow HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {}\r\n\r\n", token)));
    const FollowRead head = follow_for(fd, std::chrono::seconds(10), "\"games\"");
    EXPECT_THAT(head.text, HasSubstr("text/event-stream"));
    EXPECT_THAT(head.text, HasSubstr("event: overview\ndata: {"));
    if (first) *first = head.text;
    return fd;
  }
  [[nodiscard]] int check_schema(const json& j) const {
    const auto file = dir_.path() / "overview.json";
    std::ofstream(file) << j.dump();
    const CliResult r = run_warlog_command(std::string(WARLOG_PYTHON3) + " " + WARLOG_SOURCE_DIR +
                                           "/scripts/check-json-schema serve-overview '" + file.string() + "'");
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    return r.code;
  }

  TempDir dir_;
  std::string table1_, table2_, judge_, public_;
};

TEST_F(ServeOverview, EachTableShowsItsTurnLastEventOpenViolationAndDisputes) {
  ServedStore served(dir_.store());
  const int port = served.port();
  const std::int64_t before = wall_ms();
  std::vector<std::string> lines = kTurnOne;
  lines.push_back(kThreeCards);
  record(port, 1, table1_, lines);
  const std::int64_t after = wall_ms();

  const json all = overview(port);
  EXPECT_EQ(check_schema(all), 0);
  ASSERT_EQ(all["games"].size(), 2u);
  const json t1 = row(all, 1);
  EXPECT_EQ(t1["event"], "Old Mill Open");
  EXPECT_EQ(t1["round"], 1);
  EXPECT_EQ(t1["table"], 1);
  EXPECT_EQ(t1["players"][0]["player"], "Alice");
  EXPECT_EQ(t1["players"][1]["player"], "Bruno");
  EXPECT_EQ(t1["turn"], 1);
  EXPECT_EQ(t1["phase"], "muster");
  EXPECT_EQ(t1["events"], next_seq(port, 1));
  ASSERT_TRUE(t1["last_event_ms"].is_number()) << t1.dump();
  EXPECT_GE(t1["last_event_ms"].get<std::int64_t>(), before);
  EXPECT_LE(t1["last_event_ms"].get<std::int64_t>(), after);
  EXPECT_EQ(t1["open_violations"], 1);
  EXPECT_EQ(t1["newest_violation"]["rule"], "MUS-a.draw");
  EXPECT_THAT(t1["newest_violation"]["citation"].get<std::string>(), HasSubstr("Muster Phase"));
  EXPECT_EQ(t1["open_disputes"], 0);
  EXPECT_TRUE(t1["call"].is_null());
  EXPECT_TRUE(t1["outcome"].is_null()) << "still being played";
  const json t2 = row(all, 2);
  EXPECT_EQ(t2["table"], 2);
  EXPECT_EQ(t2["open_violations"], 0);
  EXPECT_TRUE(t2["newest_violation"].is_null());
  EXPECT_TRUE(t2["last_event_ms"].is_number()) << "round open stamps the setup";

  // The game ends: the outcome shows.
  record(port, 1, table1_, {"end 2 concession"});
  const json ended = row(overview(port), 1);
  EXPECT_EQ(ended["outcome"]["player"], "Bruno");
  EXPECT_EQ(ended["outcome"]["victory"], "concession");

  // Filters: the event (URL-encoded) and the round.
  EXPECT_EQ(overview(port, "?event=Old%20Mill%20Open&round=1")["games"].size(), 2u);
  EXPECT_EQ(overview(port, "?round=2")["games"].size(), 0u);
  EXPECT_EQ(overview(port, "?event=Elsewhere")["games"].size(), 0u);
  EXPECT_EQ(http(port, "GET", "/api/overview?round=x", judge_).status, 400);
}

TEST_F(ServeOverview, OnlyAJudgeReadsTheOverviewOrFollowsIt) {
  ServedStore served(dir_.store());
  const int port = served.port();
  for (const std::string target : {"/api/overview", "/api/overview/follow"}) {
    EXPECT_EQ(http(port, "GET", target, "").status, 401) << target;
    for (const std::string* token : {&table1_, &public_}) {
      const HttpReply r = http(port, "GET", target, *token);
      EXPECT_EQ(r.status, 403) << target << ": " << r.body;
      EXPECT_THAT(r.body, HasSubstr("judges'"));
    }
  }
  EXPECT_EQ(http(port, "POST", "/api/overview", judge_, "{}").status, 405);
}

// The issue's "within a second": measured from the request's answer to the
// judge's stream carrying it, event-driven off the commit (no polling).
TEST_F(ServeOverview, ATablesCallAndANewViolationReachAJudgesStreamWithinASecond) {
  ServedStore served(dir_.store());
  const int port = served.port();
  record(port, 1, table1_, kTurnOne);
  const int fd = open_stream(port, judge_);

  auto t0 = Clock::now();
  const HttpReply called = http(port, "POST", "/api/games/1/call", table1_, R"({"note":"rules question"})");
  ASSERT_EQ(called.status, 200) << called.body;
  const FollowRead call = follow_for(fd, std::chrono::seconds(5), "\"raised_by\":\"table\"");
  const auto call_ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
  EXPECT_THAT(call.text, HasSubstr("event: row\ndata: {"));
  EXPECT_THAT(call.text, HasSubstr("\"note\":\"rules question\""));
  EXPECT_LT(call_ms, 1000) << "a call reaches the judge within a second";

  t0 = Clock::now();
  const HttpReply drawn = http(port, "POST", "/api/games/1/lines", table1_, line_body(next_seq(port, 1), kThreeCards));
  ASSERT_EQ(drawn.status, 200) << drawn.body;
  const FollowRead violation = follow_for(fd, std::chrono::seconds(5), "\"MUS-a.draw\"");
  const auto violation_ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
  EXPECT_THAT(violation.text, HasSubstr("\"open_violations\":1"));
  EXPECT_LT(violation_ms, 1000) << "a new violation reaches the judge within a second";
  std::printf("call reached the judge's stream in %lld ms, the violation in %lld ms (append and stream)\n",
              static_cast<long long>(call_ms), static_cast<long long>(violation_ms));
  ::close(fd);
}

TEST_F(ServeOverview, AJudgeAnswersAndClearsACallWhichSurvivesARestart) {
  {
    ServedStore served(dir_.store());
    const int port = served.port();
    ASSERT_EQ(http(port, "POST", "/api/games/2/call", table2_, "").status, 200);
    // Calling again keeps the first call's time.
    const std::int64_t raised = row(overview(port), 2)["call"]["raised_ms"].get<std::int64_t>();
    ASSERT_EQ(http(port, "POST", "/api/games/2/call", table2_, R"({"note":"again"})").status, 200);
    EXPECT_EQ(row(overview(port), 2)["call"]["raised_ms"], raised);
    // Only a judge answers.
    EXPECT_EQ(http(port, "POST", "/api/games/2/call/answer", table2_, R"({"by":"Chen"})").status, 403);
    EXPECT_EQ(http(port, "POST", "/api/games/2/call/answer", judge_, R"({"by":""})").status, 400);
    EXPECT_EQ(http(port, "POST", "/api/games/1/call/answer", judge_, R"({"by":"Ana"})").status, 404) << "no call there";
    const HttpReply answered = http(port, "POST", "/api/games/2/call/answer", judge_, R"({"by":"Ana"})");
    ASSERT_EQ(answered.status, 200) << answered.body;
    EXPECT_EQ(json::parse(answered.body)["call"]["answered_by"], "Ana");
    EXPECT_EQ(served.stop(SIGTERM), 0) << served.err();
  }
  // A restarted server still has the call, answered.
  ServedStore again(dir_.store());
  const int port = again.port();
  const json call = row(overview(port), 2)["call"];
  ASSERT_TRUE(call.is_object()) << call.dump();
  EXPECT_EQ(call["answered_by"], "Ana");
  EXPECT_EQ(call["raised_by"], "table");
  // Only a judge clears it; then it is gone.
  EXPECT_EQ(http(port, "DELETE", "/api/games/2/call", table2_).status, 403);
  EXPECT_EQ(http(port, "DELETE", "/api/games/2/call", judge_).status, 200);
  EXPECT_TRUE(row(overview(port), 2)["call"].is_null());
  EXPECT_EQ(http(port, "DELETE", "/api/games/2/call", judge_).status, 404);
  EXPECT_EQ(check_schema(overview(port)), 0);
  // The game's stream and annotations are untouched by calls: it verifies as created.
  EXPECT_EQ(run_warlog("verify --store '" + dir_.store() + "'").code, 0);
}

TEST_F(ServeOverview, ATableCannotCallForAnotherTablesGameNorThePublicForAny) {
  ServedStore served(dir_.store());
  const int port = served.port();
  const HttpReply other = http(port, "POST", "/api/games/2/call", table1_, "{}");
  EXPECT_EQ(other.status, 403) << other.body;
  EXPECT_THAT(other.body, HasSubstr("game 1"));
  EXPECT_EQ(http(port, "POST", "/api/games/1/call", public_, "{}").status, 403);
  EXPECT_EQ(http(port, "POST", "/api/games/1/call", table1_, R"({"note":"x","seat":1})").status, 400);
  EXPECT_EQ(http(port, "POST", "/api/games/9/call", judge_, "{}").status, 404);
  const json all = overview(port);
  EXPECT_TRUE(row(all, 1)["call"].is_null());
  EXPECT_TRUE(row(all, 2)["call"].is_null());
}

TEST_F(ServeOverview, ADisputeFromTheTableAndAJudgesRulingMoveTheRow) {
  ServedStore served(dir_.store());
  const int port = served.port();
  std::vector<std::string> lines = kTurnOne;
  lines.push_back(kThreeCards);
  record(port, 1, table1_, lines);
  const std::uint64_t draw = next_seq(port, 1) - 1;
  const std::string claim = fmt::format(R"({{"seq":{},"claim":"three cards drawn","by":"Bruno"}})", draw);
  EXPECT_EQ(http(port, "POST", "/api/games/1/disputes", public_, claim).status, 403);
  EXPECT_EQ(http(port, "POST", "/api/games/2/disputes", table1_, claim).status, 403);
  EXPECT_EQ(http(port, "POST", "/api/games/1/disputes", table1_, R"({"seq":1,"claim":"","by":"Bruno"})").status, 400);
  const HttpReply raised = http(port, "POST", "/api/games/1/disputes", table1_, claim);
  ASSERT_EQ(raised.status, 200) << raised.body;
  const std::string id = json::parse(raised.body)["dispute"]["id"].get<std::string>();
  EXPECT_EQ(id, fmt::format("1:{}:0", draw));
  EXPECT_EQ(row(overview(port), 1)["open_disputes"], 1);
  const json listed = json::parse(http(port, "GET", "/api/games/1/disputes", judge_).body);
  ASSERT_EQ(listed["disputes"].size(), 1u);
  EXPECT_EQ(listed["disputes"][0]["status"], "open");

  const std::string ruling = fmt::format(R"({{"dispute":"{}","ruling":"Upheld: a warning","by":"Head Judge"}})", id);
  EXPECT_EQ(http(port, "POST", "/api/games/1/rulings", table1_, ruling).status, 403);
  EXPECT_EQ(http(port, "POST", "/api/games/2/rulings", judge_, ruling).status, 400) << "a dispute of another game";
  const HttpReply ruled = http(port, "POST", "/api/games/1/rulings", judge_, ruling);
  ASSERT_EQ(ruled.status, 200) << ruled.body;
  EXPECT_EQ(json::parse(ruled.body)["dispute"]["status"], "resolved");
  const json t1 = row(overview(port), 1);
  EXPECT_EQ(t1["open_disputes"], 0);
  EXPECT_EQ(t1["open_violations"], 0) << "a ruled violation is no longer open (R-092)";
  EXPECT_TRUE(t1["newest_violation"].is_null());
  // Ruled again without superseding: a conflict, nothing written.
  const std::string appeal = fmt::format(R"({{"dispute":"{}","ruling":"Overturned","by":"Head Judge"}})", id);
  EXPECT_EQ(http(port, "POST", "/api/games/1/rulings", judge_, appeal).status, 409);
  EXPECT_EQ(served.stop(SIGTERM), 0);
  EXPECT_EQ(run_warlog("verify --store '" + dir_.store() + "'").code, 0);
}

TEST_F(ServeOverview, ARevokedJudgesOverviewStreamCloses) {
  ServedStore served(dir_.store());
  const std::string judge = issue_token(dir_.store(), "judge");
  const int fd = open_stream(served.port(), judge);
  const CliResult list = run_warlog("serve token list '" + dir_.store() + "'");
  ASSERT_EQ(list.code, 0);
  std::string last = list.out.substr(0, list.out.size() - 1);
  last = last.substr(last.rfind('\n') + 1);
  const auto t0 = Clock::now();
  ASSERT_EQ(run_warlog("serve token revoke '" + dir_.store() + "' " + last.substr(0, 12)).code, 0);
  EXPECT_TRUE(follow_for(fd, std::chrono::seconds(10)).closed) << "a revoked token's stream closes";
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
  std::printf("the revoked judge's overview stream closed %lld ms after the revoke\n", static_cast<long long>(ms));
  EXPECT_LT(ms, 3000) << "the stream checks its token every second";
  ::close(fd);
}

}  // namespace
}  // namespace warlog::testing
