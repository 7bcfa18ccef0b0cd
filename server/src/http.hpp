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
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "warlog/replay/replay.hpp"
#include "warlog/server/server.hpp"
#include "warlog/server/tokens.hpp"
#include "calls.hpp"
#include "overview.hpp"
#include "append_rate.hpp"
#include "writer.hpp"

namespace kj {
class TlsContext;
}

namespace warlog::server {

class Http final : public kj::HttpService, private kj::TaskSet::ErrorHandler {
 public:
  Http(const ServeOptions& options, replay::Archive& archive, Writer& writer, kj::Timer& timer, AppendRate& rate);
  ~Http() noexcept(false);

  kj::Promise<void> request(kj::HttpMethod method, kj::StringPtr url, const kj::HttpHeaders& headers,
                            kj::AsyncInputStream& body, Response& response) override;

  // Accepts connections for `server` until the listener fails, refusing
  // (503) those past Limits::connections. With `tls`, each connection's
  // handshake comes first, as its own task (one slow or failed handshake
  // holds up no other), within Limits::idle; a failed one is closed.
  kj::Promise<void> accept(kj::ConnectionReceiver& listener, kj::HttpServer& server,
                           kj::Maybe<kj::TlsContext&> tls = nullptr);

  [[nodiscard]] const kj::HttpHeaderTable& header_table() const { return *table_; }
  [[nodiscard]] std::size_t open_connections() const noexcept { return open_; }
  // Wakes the follow streams of `game`: events were appended to it (by RPC too).
  void notify(core::GameId game);

 private:
  struct Request;
  struct Follow;
  struct OverviewFollow;
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
  // Reads a body of at most Limits::request_bytes (empty: {}) as one JSON
  // object holding no field but `fields` and gives it to `then`; anything
  // else is answered here (400, 413), "nothing recorded". `shape` words the
  // object for the 400.
  kj::Promise<void> json_body(kj::AsyncInputStream& body, Response& response, std::vector<std::string> fields,
                              std::string shape, kj::Function<kj::Promise<void>(nlohmann::json)> then);
  // Runs `task` on the writer thread (it owns the store's write path).
  kj::Promise<Answer> on_writer(Writer::Task task);
  // The judges' overview (overview.hpp) and its follow stream.
  kj::Promise<void> overview(Request& q, Response& response);
  kj::Promise<void> overview_follow(Request& q, Response& response);
  kj::Promise<void> overview_step(kj::Own<OverviewFollow> f);
  [[nodiscard]] nlohmann::json overview_row(const Overview::Row& row) const;  // the row with its call
  // A judge call raised, answered or cleared (calls.hpp), and the file
  // written before the answer.
  kj::Promise<void> call(Request& q, kj::AsyncInputStream& body, Response& response);
  kj::Promise<Answer> keep_calls(Answer ok);
  // Disputes and rulings (replay/disputes.hpp), recorded on the writer thread.
  kj::Promise<void> disputes(Request& q, kj::AsyncInputStream& body, Response& response);
  kj::Promise<void> rule(Request& q, kj::AsyncInputStream& body, Response& response);
  kj::Promise<void> refuse_connection(kj::Own<kj::AsyncIoStream> connection);
  // Resolves when an append to `game` is committed.
  kj::Promise<void> appended_to(core::GameId game);
  // Resolves when any game's row may have moved (an append, a dispute, a
  // ruling, a call).
  kj::Promise<void> overview_moved();
  // A write past the token's rate (AppendRate, shared with RPC): the 429
  // sent; nullopt when it may go on.
  std::optional<kj::Promise<void>> over_rate(const Request& q, Response& response);

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
  std::vector<kj::Own<kj::PromiseFulfiller<void>>> overview_waiting_;
  Overview overview_;
  Calls calls_;
};

}  // namespace warlog::server
