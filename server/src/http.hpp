#pragma once
// The HTTP side of `warlog serve` (docs/server.md › 4): the web recorder's
// files and the JSON API, on the event loop thread. Appends go to the
// Writer; reads go to the store directly (LMDB readers never wait for the
// writer). Every request's token is checked against the token file as it
// stands (TokenTable::refresh on each).

#include <kj/async-io.h>
#include <kj/compat/http.h>

#include <map>
#include <memory>
#include <string>

#include "warlog/replay/replay.hpp"
#include "warlog/server/server.hpp"
#include "warlog/server/tokens.hpp"
#include "append_rate.hpp"
#include "writer.hpp"

namespace warlog::server {

class Http final : public kj::HttpService, private kj::TaskSet::ErrorHandler {
 public:
  Http(const ServeOptions& options, replay::Archive& archive, Writer& writer, kj::Timer& timer, AppendRate& rate);
  ~Http() noexcept(false);

  kj::Promise<void> request(kj::HttpMethod method, kj::StringPtr url, const kj::HttpHeaders& headers,
                            kj::AsyncInputStream& body, Response& response) override;

  // Accepts connections for `server` until the listener fails, refusing
  // (503) those past Limits::connections.
  kj::Promise<void> accept(kj::ConnectionReceiver& listener, kj::HttpServer& server);

  [[nodiscard]] const kj::HttpHeaderTable& header_table() const { return *table_; }
  [[nodiscard]] std::size_t open_connections() const noexcept { return open_; }
  // Wakes the follow streams of `game`: events were appended to it (by RPC too).
  void notify(core::GameId game);

 private:
  struct Request;
  struct Follow;
  void taskFailed(kj::Exception&& exception) override;

  kj::Promise<void> send(Response& response, unsigned status, std::string body,
                         kj::StringPtr type = "application/json", bool retry_after = false);
  kj::Promise<void> send_answer(Response& response, const Answer& a) {
    return send(response, a.status, a.body);
  }
  kj::Promise<void> api(Request& q, kj::AsyncInputStream& body, Response& response);
  kj::Promise<void> post_line(Request& q, kj::AsyncInputStream& body, Response& response);
  kj::Promise<void> follow(Request& q, Response& response);
  kj::Promise<void> follow_step(kj::Own<Follow> f);
  kj::Promise<void> refuse_connection(kj::Own<kj::AsyncIoStream> connection);
  // Resolves when an append to `game` is committed.
  kj::Promise<void> appended_to(core::GameId game);

  const ServeOptions& options_;
  replay::Archive& archive_;
  Writer& writer_;
  kj::Timer& timer_;
  kj::HttpHeaderTable::Builder builder_;
  kj::HttpHeaderId authorization_;
  kj::Own<kj::HttpHeaderTable> table_;
  TokenTable tokens_;
  kj::TaskSet tasks_;
  std::size_t open_ = 0;
  AppendRate& rate_;  // shared with RPC: a token's appends, whichever way they come
  std::map<core::GameId, std::vector<kj::Own<kj::PromiseFulfiller<void>>>> waiting_;
};

}  // namespace warlog::server
