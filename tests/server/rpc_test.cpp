// `warlog serve --rpc` on loopback (docs/server.md › 3): a table records the
// tutorial game line by line over Cap'n Proto RPC; tokens checked on every
// call (a revoked one too, on capabilities obtained before); roles; a retry
// recorded once; malformed, oversized and too frequent calls refused while
// the server goes on; `warlog record --server`. Every test starts its own
// server and stops it (ServedStore); every call waits at most 20 s.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <capnp/rpc-twoparty.h>
#include <fmt/format.h>
#include <kj/async-io.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <memory>
#include <thread>

#include "cli/cli_run.hpp"
#include "sample_lines.hpp"
#include "schema/serve.capnp.h"
#include "served_store.hpp"
#include "temp_dir.hpp"
#include "warlog/store/store.hpp"

namespace warlog::testing {
namespace {

namespace cs = capnp_serve;
using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

// The RPC port from the start line ("... and rpc 127.0.0.1:PORT (pid ...").
int rpc_port(const ServedStore& served) {
  const std::string& line = served.first_line();
  const auto at = line.find("rpc 127.0.0.1:");
  if (at == std::string::npos) throw std::runtime_error("no rpc address in: " + line);
  return std::stoi(line.substr(at + 14));
}

// One client connection, as warlog record --server makes it, on the test's
// event loop (one a thread: every Client of a test shares it).
class Client {
 public:
  Client(kj::AsyncIoContext& io, int port)
      : io_(io),
        stream_(io_.provider->getNetwork().parseAddress("127.0.0.1", static_cast<unsigned>(port)).wait(io_.waitScope)
                    ->connect()
                    .wait(io_.waitScope)),
        rpc_(kj::heap<capnp::TwoPartyClient>(*stream_)),
        gate_(rpc_->bootstrap().castAs<cs::Gate>()) {}

  // Waits for a call, at most 20 s.
  template <typename T>
  T wait(kj::Promise<T>&& p) {
    return io_.provider->getTimer().timeoutAfter(20 * kj::SECONDS, kj::mv(p)).wait(io_.waitScope);
  }
  // What a call was refused with ("" when it was answered).
  template <typename T>
  std::string refusal(kj::Promise<T>&& p) {
    std::string why;
    KJ_IF_MAYBE(e, kj::runCatchingExceptions([&] { (void)wait(kj::mv(p)); })) { why = e->getDescription().cStr(); }
    return why;
  }

  cs::Session::Client login(const std::string& token) {
    auto q = gate_.loginRequest();
    q.setToken(token);
    return q.send().getSession();
  }
  kj::Promise<capnp::Response<cs::Session::OpenResults>> open(cs::Session::Client session, std::uint64_t game) {
    auto q = session.openRequest();
    q.setGame(game);
    return q.send();
  }
  kj::Promise<capnp::Response<cs::Table::EnterResults>> enter(cs::Table::Client table, std::uint64_t expected,
                                                               const std::string& line) {
    auto q = table.enterRequest();
    q.setExpectedSeq(expected);
    q.setLine(line);
    return q.send();
  }
  cs::Table::Client table(const std::string& token, std::uint64_t game) {
    return wait(open(login(token), game)).getTable();
  }
  std::uint64_t next_seq(const std::string& token, std::uint64_t game) {
    return wait(open(login(token), game)).getNextSeq();
  }

 private:
  kj::AsyncIoContext& io_;
  kj::Own<kj::AsyncIoStream> stream_;
  kj::Own<capnp::TwoPartyClient> rpc_;
  cs::Gate::Client gate_;
};

class ServeRpc : public ::testing::Test {
 protected:
  void SetUp() override {
    lines_ = serve_tutorial(dir_, true);  // game 1 from the header, game 2 another table's
    table1_ = issue_token(dir_.store(), "table", 1);
    judge_ = issue_token(dir_.store(), "judge");
    public_ = issue_token(dir_.store(), "public");
  }

  [[nodiscard]] std::vector<std::string> with_rpc(std::vector<std::string> extra = {}) const {
    extra.insert(extra.end(), {"--rpc", "127.0.0.1:0"});
    return extra;
  }

  std::unique_ptr<kj::AsyncIoContext> loop_ = std::make_unique<kj::AsyncIoContext>(kj::setupAsyncIo());
  TempDir dir_;
  SampleLines lines_;
  std::string table1_, judge_, public_;
};

TEST_F(ServeRpc, ATableRecordsTheTutorialGameLineByLineAsImportStoresIt) {
  std::string fetched_head;
  std::vector<std::string> fetched;
  {
    ServedStore served(dir_.store(), with_rpc({"--appends-per-second", "1000", "--append-burst", "1000"}));
    Client c(*loop_, rpc_port(served));
    auto table = c.table(table1_, 1);
    std::uint64_t expected = c.next_seq(table1_, 1);
    for (const std::string& line : lines_.body) {
      auto answer = c.wait(c.enter(table, expected, line));
      const auto o = answer.getOutcome();
      const auto first = line.find_first_not_of(" \t");
      const bool blank = first == std::string::npos || line[first] == '#';
      ASSERT_EQ(o.getStatus(), blank ? cs::LineOutcome::Status::NOTHING : cs::LineOutcome::Status::OK)
          << line << ": " << o.getText().cStr();
      if (!blank) {
        ASSERT_EQ(o.getSeqs().size(), json::parse(o.getJson().cStr())["seqs"].size());
        EXPECT_EQ(o.getSeqs()[0], expected);
        EXPECT_THAT(std::string(o.getText().cStr()), HasSubstr("recorded")) << line;
      }
      expected = o.getNextSeq();
    }
    // Fetch hands back the canonical bytes and the chain head, page by page if need be.
    for (std::uint64_t from = 0;;) {
      auto q = table.fetchRequest();
      q.setFromSeq(from);
      auto got = c.wait(q.send());
      for (auto ev : got.getEvents()) fetched.emplace_back(reinterpret_cast<const char*>(ev.begin()), ev.size());
      from = fetched.size();
      fetched_head.assign(reinterpret_cast<const char*>(got.getHead().begin()), got.getHead().size());
      ASSERT_EQ(got.getEventCount(), expected);
      if (from >= got.getEventCount() || got.getEvents().size() == 0) break;
    }
    EXPECT_EQ(served.stop(SIGTERM), 0) << served.err();
  }
  // What was fetched is what the store holds: its bytes and its head.
  auto store = store::Store::open(dir_.store(), store::Options{.read_only = true});
  ASSERT_TRUE(store) << store.error().message;
  auto reader = store->reader();
  ASSERT_TRUE(reader);
  auto meta = reader->record(1);
  ASSERT_TRUE(meta);
  EXPECT_EQ(fetched.size(), meta->event_count);
  EXPECT_EQ(fetched_head, std::string(meta->head.begin(), meta->head.end()));
  std::vector<std::string> stored;
  ASSERT_TRUE(reader->scan_raw(1, 0, store::kEndSeq, [&](core::Seq, std::string_view b) {
    stored.emplace_back(b);
    return true;
  }));
  EXPECT_EQ(fetched, stored);
  // The same events as the whole file imported (recording adds only times and the uuid).
  TempDir other;
  ASSERT_EQ(run_warlog("import --store '" + other.store() + "' '" + lines_.whole.string() + "'").code, 0);
  const CliResult served_list = run_warlog("list --store '" + dir_.store() + "' --format json");
  const CliResult imported_list = run_warlog("list --store '" + other.store() + "' --format json");
  EXPECT_EQ(json::parse(served_list.out)["games"][0]["events"], json::parse(imported_list.out)["games"][0]["events"]);
  EXPECT_EQ(run_warlog("verify --store '" + dir_.store() + "'").code, 0);
  const CliResult audit = run_warlog("audit --store '" + dir_.store() + "' --game 1 --format json");
  const CliResult audit_whole = run_warlog("audit --store '" + other.store() + "' --game 1 --format json");
  EXPECT_EQ(json::parse(audit.out)["summary"], json::parse(audit_whole.out)["summary"]);
}

TEST_F(ServeRpc, ABadTokenIsRefusedAndARevokedOneOnEveryLaterCall) {
  ServedStore served(dir_.store(), with_rpc());
  Client c(*loop_, rpc_port(served));
  EXPECT_THAT(c.refusal(c.open(c.login(std::string(64, 'a')), 1)), HasSubstr("token refused: not a token of this server"));
  EXPECT_THAT(c.refusal(c.open(c.login(""), 1)), HasSubstr("token refused"));

  const std::string judge = issue_token(dir_.store(), "judge");
  auto session = c.login(judge);
  auto table = c.wait(c.open(session, 1)).getTable();
  EXPECT_EQ(c.wait(session.gamesRequest().send()).getGames().size(), 2u);
  const std::uint64_t e = c.next_seq(judge, 1);
  const CliResult list = run_warlog("serve token list '" + dir_.store() + "'");
  std::string last = list.out.substr(0, list.out.size() - 1);
  const std::string id = last.substr(last.rfind('\n') + 1, 12);  // the newest token: this judge's
  ASSERT_EQ(run_warlog("serve token revoke '" + dir_.store() + "' " + id).code, 0);
  // The session and the table obtained before are refused from the next call, naming the token.
  EXPECT_THAT(c.refusal(session.gamesRequest().send()), HasSubstr(fmt::format("token {} is revoked", id)));
  EXPECT_THAT(c.refusal(c.enter(table, e, "Turn 1")), HasSubstr(fmt::format("token {} is revoked", id)));
  EXPECT_THAT(c.refusal(c.open(c.login(judge), 1)), HasSubstr("token refused"));
  EXPECT_EQ(c.next_seq(judge_, 1), e) << "nothing written with the revoked token";
}

TEST_F(ServeRpc, RolesDecideWhoOpensWhatAndWhoBacksUp) {
  ServedStore served(dir_.store(), with_rpc());
  Client c(*loop_, rpc_port(served));
  EXPECT_THAT(c.refusal(c.open(c.login(table1_), 2)), HasSubstr("this table's token is for game 1, not game 2"));
  EXPECT_THAT(c.refusal(c.open(c.login(public_), 1)), HasSubstr("a public token follows the public view over HTTP"));
  EXPECT_THAT(c.refusal(c.open(c.login(judge_), 99)), HasSubstr("99"));
  // A table lists its own game only; a judge every game.
  EXPECT_EQ(c.wait(c.login(table1_).gamesRequest().send()).getGames().size(), 1u);
  auto games = c.wait(c.login(judge_).gamesRequest().send());
  ASSERT_EQ(games.getGames().size(), 2u);
  EXPECT_EQ(std::string(games.getGames()[1].getTitle().cStr()), "Table 2");
  // A backup is a judge's: a table's is refused and writes nothing.
  auto table = c.table(table1_, 1);
  const std::uint64_t e = c.wait(c.enter(table, c.next_seq(judge_, 1), "Turn 1")).getOutcome().getNextSeq();
  EXPECT_THAT(c.refusal(c.enter(table, e, "backup 1 \"slip\" by \"Ann\"")), HasSubstr("a backup is a judge's"));
  EXPECT_EQ(c.next_seq(judge_, 1), e);
}

TEST_F(ServeRpc, ARetriedEnterIsRecordedOnce) {
  ServedStore served(dir_.store(), with_rpc());
  const int port = rpc_port(served);
  std::uint64_t e = 0;
  {
    Client c(*loop_, port);
    e = c.next_seq(table1_, 1);
    const auto first = c.wait(c.enter(c.table(table1_, 1), e, "Turn 1"));
    ASSERT_EQ(first.getOutcome().getStatus(), cs::LineOutcome::Status::OK) << first.getOutcome().getText().cStr();
  }
  // A new connection, as after a drop: the same line with the same seq.
  Client again(*loop_, port);
  const auto second = again.wait(again.enter(again.table(table1_, 1), e, "Turn 1"));
  const auto o = second.getOutcome();
  EXPECT_EQ(o.getStatus(), cs::LineOutcome::Status::ALREADY_RECORDED) << o.getText().cStr();
  ASSERT_EQ(o.getSeqs().size(), 1u);
  EXPECT_EQ(o.getSeqs()[0], e);
  EXPECT_EQ(o.getNextSeq(), e + 1);
  EXPECT_EQ(again.next_seq(judge_, 1), e + 1) << "recorded once";
  // Another line at that stale seq is a conflict, answered with the events stored there.
  const auto stale = again.wait(again.enter(again.table(table1_, 1), e, "Morale 1"));
  EXPECT_EQ(stale.getOutcome().getStatus(), cs::LineOutcome::Status::CONFLICT);
  EXPECT_EQ(again.next_seq(judge_, 1), e + 1);
}

TEST_F(ServeRpc, MalformedAndOversizedMessagesAreRefusedAndTheServerGoesOn) {
  ServedStore served(dir_.store(), with_rpc({"--max-request-kib", "8"}));
  const int port = rpc_port(served);
  // Bytes that are no Cap'n Proto message: that connection is closed.
  const int fd = connect_loopback(port);
  ASSERT_GE(fd, 0);
  ASSERT_TRUE(send_all(fd, std::string("\xff\xff\xff\x7f") + std::string(60, 'x')));
  bool closed = false;
  for (const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
       !closed && std::chrono::steady_clock::now() < until;) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) continue;
    char buf[4096];
    closed = ::recv(fd, buf, sizeof buf, 0) <= 0;  // what it reads first is the server's Abort message
  }
  EXPECT_TRUE(closed);
  ::close(fd);

  Client c(*loop_, port);
  auto table = c.table(table1_, 1);
  const std::uint64_t e = c.next_seq(table1_, 1);
  // Past the call's limit: refused by name, the connection kept.
  EXPECT_THAT(c.refusal(c.enter(table, e, "Turn 1 # " + std::string(9000, 'x'))),
              HasSubstr("request over 8 KiB (--max-request-kib); nothing recorded"));
  EXPECT_THAT(c.refusal(c.enter(table, e, "Turn 1\x01")), HasSubstr("nothing recorded"));
  EXPECT_THAT(c.refusal(c.enter(table, e, "Turn \xff")), HasSubstr("invalid UTF-8"));
  EXPECT_EQ(c.wait(c.enter(table, e, "Turn 1")).getOutcome().getStatus(), cs::LineOutcome::Status::OK);
  // Four times past it the message never reaches a call: the connection is closed.
  Client big(*loop_, port);
  auto big_table = big.table(table1_, 1);
  const std::string too_big = big.refusal(big.enter(big_table, e + 1, "Morale 1 # " + std::string(40000, 'x')));
  EXPECT_FALSE(too_big.empty());
  EXPECT_THAT(big.refusal(big.open(big.login(judge_), 1)), Not(IsEmpty())) << "that connection is closed";
  // And the server serves on.
  Client after(*loop_, port);
  EXPECT_EQ(after.next_seq(judge_, 1), e + 1);
}

TEST_F(ServeRpc, AppendsPastTheTokensRateAreRefusedByName) {
  ServedStore served(dir_.store(), with_rpc({"--appends-per-second", "0.01", "--append-burst", "2"}));
  Client c(*loop_, rpc_port(served));
  auto table = c.table(table1_, 1);
  std::uint64_t e = c.next_seq(table1_, 1);
  for (const char* line : {"Turn 1", "Morale 1"}) e = c.wait(c.enter(table, e, line)).getOutcome().getNextSeq();
  EXPECT_THAT(c.refusal(c.enter(table, e, "Muster 1")),
              HasSubstr("over 0.01 appends a second for this token (bursts of 2) (--appends-per-second)"));
  EXPECT_EQ(c.next_seq(judge_, 1), e);
  // The bucket is the token's, whichever way it comes: HTTP refuses it too.
  EXPECT_EQ(http(served.port(), "POST", "/api/games/1/lines", table1_, line_body(e, "Muster 1")).status, 429);
}

TEST_F(ServeRpc, OffLoopbackRpcIsRefusedWithoutInsecureLan) {
  const CliResult refused = run_warlog("serve '" + dir_.store() + "' --http 127.0.0.1:0 --rpc 0.0.0.0:0");
  EXPECT_EQ(refused.code, 2);
  EXPECT_THAT(refused.err, HasSubstr("--rpc 0.0.0.0:0 is off loopback"));
}

TEST_F(ServeRpc, WarlogRecordServerRecordsLinesFromStdinAsLocalRecordingAnswersThem) {
  const std::filesystem::path lines = dir_.path() / "lines.txt", more = dir_.path() / "more.txt";
  std::ofstream(lines) << "Turn 1\nMorale 1\nnonsense here\n";
  std::ofstream(more) << "Muster 1\n";
  // The same lines recorded locally into a copy of the store first: the answers to compare with.
  TempDir local;
  ASSERT_EQ(run_warlog("record '" + local.store() + "' --header '" + lines_.header.string() + "' </dev/null").code, 0);
  const CliResult here = run_warlog("record '" + local.store() + "' --game 1 < '" + lines.string() + "'");
  ServedStore served(dir_.store(), with_rpc());
  const std::string at = fmt::format("127.0.0.1:{}", rpc_port(served));
  const CliResult there = run_warlog("record --server " + at + " --game 1 < '" + lines.string() + "'",
                                     "WARLOG_TOKEN=" + table1_);
  EXPECT_EQ(there.code, 0) << there.err;
  EXPECT_EQ(there.out, here.out);
  EXPECT_THAT(there.out, HasSubstr("recorded"));
  // jsonl, and a token from --token.
  const CliResult json_lines = run_warlog("record --server " + at + " --game 1 --format jsonl --token " + table1_ +
                                          " < '" + more.string() + "'");
  ASSERT_EQ(json_lines.code, 0) << json_lines.err;
  EXPECT_EQ(json::parse(json_lines.out)["line"], 1);
  // A bad token ends the session at once, exit 2.
  const CliResult bad = run_warlog("record --server " + at + " --game 1 --token nope </dev/null");
  EXPECT_EQ(bad.code, 2);
  EXPECT_THAT(bad.err, HasSubstr("token refused"));
}

// A loopback port free a moment ago: for a server restarted on the same port.
int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t n = sizeof a;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &n) != 0) {
    ::close(fd);
    throw std::runtime_error("no free port");
  }
  ::close(fd);
  return ntohs(a.sin_port);
}

// `warlog record --server ...` with its stdin and stdout on pipes; killed
// (and waited for) when it dies.
class RecordProcess {
 public:
  RecordProcess(const std::vector<std::string>& args, const std::string& token, const std::filesystem::path& err) {
    int in[2], out[2];
    if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0) throw std::runtime_error("pipe");
    std::vector<std::string> argv_s = {WARLOG_CLI_PATH};
    argv_s.insert(argv_s.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& x : argv_s) argv.push_back(x.data());
    argv.push_back(nullptr);
    std::vector<std::string> env_s = {"WARLOG_TOKEN=" + token};
    for (char** e = environ; *e != nullptr; ++e) {
      if (std::string_view(*e).rfind("WARLOG_TOKEN=", 0) != 0) env_s.emplace_back(*e);
    }
    std::vector<char*> envp;
    for (auto& x : env_s) envp.push_back(x.data());
    envp.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int rc = posix_spawn(&pid_, WARLOG_CLI_PATH, &fa, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&fa);
    ::close(in[0]);
    ::close(out[1]);
    in_ = in[1];
    out_ = out[0];
    if (rc != 0) throw std::runtime_error("posix_spawn warlog record");
  }
  ~RecordProcess() {
    if (in_ >= 0) ::close(in_);
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    ::close(out_);
  }
  void send(const std::string& line) { ASSERT_TRUE(send_all_fd(in_, line)); }
  // stdout until it holds `needle` `times` times (at most 30 s).
  const std::string& read_until(const std::string& needle, int times) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    auto count = [&] {
      int k = 0;
      for (auto at = got_.find(needle); at != std::string::npos; at = got_.find(needle, at + 1)) ++k;
      return k;
    };
    while (count() < times && std::chrono::steady_clock::now() < deadline) {
      pollfd p{out_, POLLIN, 0};
      if (::poll(&p, 1, 100) <= 0) continue;
      char buf[4096];
      const ssize_t n = ::read(out_, buf, sizeof buf);
      if (n <= 0) break;
      got_.append(buf, static_cast<std::size_t>(n));
    }
    return got_;
  }
  // Closes stdin and waits (at most 30 s): the exit code.
  int finish() {
    ::close(in_);
    in_ = -1;
    int status = 0;
    for (int i = 0; i < 3000 && ::waitpid(pid_, &status, WNOHANG) != pid_; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      if (i == 2999) return -1;
    }
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

 private:
  static bool send_all_fd(int fd, const std::string& s) { return ::write(fd, s.data(), s.size()) == static_cast<ssize_t>(s.size()); }
  pid_t pid_ = -1;
  int in_ = -1, out_ = -1;
  std::string got_;
};

TEST_F(ServeRpc, WarlogRecordServerSendsALineAgainAcrossAServerRestartAndRecordsItOnce) {
  const int port = free_port();
  const std::vector<std::string> rpc = {"--rpc", fmt::format("127.0.0.1:{}", port)};
  auto first = std::make_unique<ServedStore>(dir_.store(), rpc);
  const std::uint64_t e = Client(*loop_, port).next_seq(judge_, 1);
  const std::filesystem::path err = dir_.path() / "record.err";
  RecordProcess rec({"record", "--server", fmt::format("127.0.0.1:{}", port), "--game", "1", "--retry-seconds", "60"},
                    table1_, err);
  rec.send("Turn 1\n");
  EXPECT_THAT(rec.read_until("recorded", 1), HasSubstr(fmt::format("seq {} recorded", e)));
  first->stop(SIGKILL);
  rec.send("Morale 1\n");
  for (int i = 0; i < 300 && slurp(err).find("not confirmed") == std::string::npos; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_THAT(slurp(err), HasSubstr(fmt::format("not confirmed")));
  EXPECT_THAT(slurp(err), HasSubstr(fmt::format("sending line 2 again with expected seq {}", e + 1)));
  ServedStore second(dir_.store(), rpc);  // the same port: the client finds it again
  EXPECT_THAT(rec.read_until("recorded", 2), HasSubstr(fmt::format("seq {} recorded", e + 1)));
  EXPECT_EQ(rec.finish(), 0) << slurp(err);
  EXPECT_EQ(Client(*loop_, port).next_seq(judge_, 1), e + 2) << "each line recorded once";
}

}  // namespace
}  // namespace warlog::testing
