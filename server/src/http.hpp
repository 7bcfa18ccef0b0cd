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
#include "writer.hpp"

namespace kj {
class TlsContext;
}

namespace warlog::server {

class Http final : public kj::HttpService, private kj::TaskSet::ErrorHandler {
 public:
  Http(const ServeOptions& options, replay::Archive& archive, Writer& writer, kj::Timer& timer);
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
  void notify(core::GameId game);
  bool take_append(const core::Digest& token);  // the token bucket

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
  struct Bucket {
    double tokens = 0;
    kj::TimePoint last = kj::origin<kj::TimePoint>();
  };
  std::map<core::Digest, Bucket> buckets_;
  std::map<core::GameId, std::vector<kj::Own<kj::PromiseFulfiller<void>>>> waiting_;
};

}  // namespace warlog::server
