// warlog record --server (record_remote.hpp): Table.enter per line, each
// answered with replay::answer_text as the server's recorder words it. A
// call that fails (no answer, the connection dropped, the server stopping
// or busy) leaves its line "not confirmed": it is sent again, the same line
// with the same expected seq, over a new connection when the old one is
// gone, until the server answers (a first attempt that did commit is then
// answered already-recorded: nothing is recorded twice) or --retry-seconds
// pass.

#include "record_remote.hpp"

#include <capnp/rpc-twoparty.h>
#include <fmt/format.h>
#include <kj/async-io.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>

#include "color.hpp"
#include "common.hpp"
#include "schema/serve.capnp.h"
#include "verbs.hpp"
#include "warlog/server/server.hpp"

namespace warlog::cli {

namespace cs = capnp_serve;

namespace {

// One connection, logged in, with the game open.
struct Link {
  kj::Own<kj::AsyncIoStream> stream;
  kj::Own<capnp::TwoPartyClient> rpc;
  cs::Table::Client table = nullptr;
  std::uint64_t next_seq = 0;
  std::string where;
};

// A call answered: the game open, or a line's outcome. Throws kj::Exception.
kj::Own<Link> connect(kj::AsyncIoContext& io, const server::HostPort& at, const std::string& token,
                      std::uint64_t game) {
  auto link = kj::heap<Link>();
  KJ_IF_MAYBE(e, kj::runCatchingExceptions([&] {
    auto address = io.provider->getNetwork().parseAddress(at.host, at.port).wait(io.waitScope);
    link->stream = address->connect().wait(io.waitScope);
  })) {
    // Nobody listening (yet: a server restarting) is worth trying again.
    throw kj::Exception(kj::Exception::Type::DISCONNECTED, __FILE__, __LINE__,
                        kj::str("cannot connect: ", e->getDescription()));
  }
  link->rpc = kj::heap<capnp::TwoPartyClient>(*link->stream);
  auto login = link->rpc->bootstrap().castAs<cs::Gate>().loginRequest();
  login.setToken(token);
  auto open = login.send().getSession().openRequest();  // pipelined: one round trip
  open.setGame(game);
  auto opened = open.send().wait(io.waitScope);
  link->table = opened.getTable();
  link->next_seq = opened.getNextSeq();
  link->where = opened.getWhere();
  return link;
}

// The server's words, without the RPC layer's "remote exception: ".
std::string said(const kj::Exception& e) {
  std::string d(e.getDescription().cStr());
  for (const std::string_view prefix : {"remote exception: ", "remote exception:"}) {
    if (d.starts_with(prefix)) d.erase(0, prefix.size());
  }
  return d;
}

// Worth sending again: the answer was lost or the server asked for a
// pause. A refusal (FAILED) stands however often it is sent.
bool retryable(const kj::Exception& e) { return e.getType() != kj::Exception::Type::FAILED; }

void put(const std::string& s) {
  std::fwrite(s.data(), 1, s.size(), stdout);
  std::fflush(stdout);
}

}  // namespace

int record_remote(const RecordArgs& a) {
  const auto usage = [](const std::string& why) {
    fmt::print(stderr, "warlog: record --server: {}\n", why);
    return kExitError;
  };
  if (a.game == 0) return usage("give --game N: the server's game to record into (warlog serve round open makes them)");
  if (!a.header.empty()) return usage("a new game from --header is made on the server's store, not through it");
  if (a.strict || !a.sign_as.empty()) return usage("--strict and --sign-as are not served over RPC yet");
  const auto at = server::split_host_port(a.server);
  if (!at) return usage(fmt::format("--server takes HOST:PORT (warlog serve's --rpc), not '{}'", a.server));
  std::string token = a.token;
  if (token.empty()) {
    if (const char* env = std::getenv("WARLOG_TOKEN")) token = env;
  }
  if (token.empty()) return usage("a token is needed: --token TOKEN or WARLOG_TOKEN (warlog serve token issue)");

  const bool terminal = ::isatty(STDIN_FILENO) == 1 && ::isatty(STDOUT_FILENO) == 1;
  const bool jsonl = a.format == "jsonl";
  const bool color = !jsonl && use_color(a.color);
  const auto patience = std::chrono::milliseconds(static_cast<std::int64_t>(a.retry_seconds * 1000));
  auto io = kj::setupAsyncIo();
  kj::Timer& timer = io.provider->getTimer();
  kj::Own<Link> link;
  std::optional<std::uint64_t> next_seq;  // the expected seq of the next line: the server's, then each answer's
  std::string where;

  // Sends `line` (or, without one, only opens the game) until answered.
  // nullopt: answered; else the exit code.
  const auto exchange = [&](const std::string* line, std::uint64_t n) -> std::optional<int> {
    const auto since = std::chrono::steady_clock::now();
    kj::Duration pause = 100 * kj::MILLISECONDS;
    bool said_unconfirmed = false;
    for (;;) {
      kj::Maybe<kj::Exception> caught = kj::runCatchingExceptions([&] {
        if (!link) {
          link = connect(io, *at, token, a.game);
          if (!next_seq) next_seq = link->next_seq;  // a retry keeps the seq it was first sent with
          if (!line) where = link->where;
        }
        if (!line) return;
        auto enter = link->table.enterRequest();
        enter.setExpectedSeq(*next_seq);
        enter.setLine(*line);
        kj::Promise<capnp::Response<cs::Table::EnterResults>> sent = enter.send();
        auto answer = timer.timeoutAfter(30 * kj::SECONDS, kj::mv(sent)).wait(io.waitScope);
        const auto o = answer.getOutcome();
        if (jsonl) {
          nlohmann::json j = nlohmann::json::parse(std::string(o.getJson().cStr()), nullptr, false);
          j["line"] = n;
          if (j.contains("errors")) {
            for (auto& err : j["errors"]) err["line"] = n;
          }
          put(j.dump() + "\n");
        } else {
          put(color ? paint_findings(o.getText().cStr()) : std::string(o.getText().cStr()));
        }
        next_seq = o.getNextSeq();
        where = o.getWhere().cStr();
      });
      kj::Exception* failed = nullptr;
      KJ_IF_MAYBE(e, caught) { failed = e; }
      if (failed == nullptr) return std::nullopt;
      const std::string why = said(*failed);
      if (!retryable(*failed)) {
        if (!line || why.starts_with("token refused")) {
          fmt::print(stderr, "warlog: {}: {}\n", a.server, why);
          return kExitError;
        }
        fmt::print(stderr, "warlog: {}\n", why);  // refused: nothing recorded, on to the next line
        return std::nullopt;
      }
      link = nullptr;  // a new connection for the retry: this one may be gone or wedged
      if (std::chrono::steady_clock::now() - since > patience) {
        fmt::print(stderr, "warlog: {}: {}{}\n", a.server, why,
                   line ? fmt::format("; line {} not confirmed after {} s: it may or may not be recorded (see "
                                      "the game's events before entering it again)",
                                      n, a.retry_seconds)
                        : std::string());
        return kExitError;
      }
      if (!said_unconfirmed) {
        if (line) {
          fmt::print(stderr, "warlog: not confirmed ({}): sending line {} again with expected seq {}\n", why, n,
                     *next_seq);
        } else {
          fmt::print(stderr, "warlog: {}: {}: trying again for {} s\n", a.server, why, a.retry_seconds);
        }
        said_unconfirmed = true;
      }
      timer.afterDelay(pause).wait(io.waitScope);
      pause = std::min(pause * 2, 2 * kj::SECONDS);
    }
  };

  if (auto code = exchange(nullptr, 0)) return *code;
  if (terminal && !jsonl) {
    put(fmt::format("recording game {} on {}: type one action per line, Ctrl-D to stop\n", a.game, a.server));
  }
  std::string line;
  std::uint64_t n = 0;
  for (;;) {
    if (terminal && !jsonl) put(record_prompt(where, *next_seq));
    if (!std::getline(std::cin, line)) break;
    ++n;
    if (auto code = exchange(&line, n)) return *code;
  }
  if (terminal && !jsonl) put("\n");
  return kExitClean;
}

}  // namespace warlog::cli
