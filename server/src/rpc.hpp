#pragma once
// The Cap'n Proto RPC side of `warlog serve` (docs/server.md › 3;
// events/schema/serve.capnp): two-party RPC over TCP on the event loop
// thread, beside HTTP. Lines go through the same Writer as HTTP's POST
// (expected seq, durable commit before the answer, retry answered
// already-recorded), under the same roles, the same token bucket and the
// same request size; reads go to the store directly. Every call checks its
// token against the token file as it stands.

#include <kj/async-io.h>

#include <cstddef>
#include <functional>

#include "append_rate.hpp"
#include "warlog/replay/replay.hpp"
#include "warlog/server/server.hpp"
#include "warlog/server/tokens.hpp"
#include "writer.hpp"

namespace warlog::server {

class Rpc final : private kj::TaskSet::ErrorHandler {
 public:
  // `appended` is told each game an RPC line appended to (HTTP's follow
  // streams wake at once).
  Rpc(const ServeOptions& options, replay::Archive& archive, Writer& writer, AppendRate& rate,
      std::function<void(core::GameId)> appended);
  ~Rpc() noexcept(false);
  Rpc(const Rpc&) = delete;
  Rpc& operator=(const Rpc&) = delete;

  // Serves each connection of `listener` until it fails; one past
  // Limits::connections is closed at once.
  kj::Promise<void> accept(kj::ConnectionReceiver& listener);

  [[nodiscard]] std::size_t open_connections() const noexcept { return open_; }

  struct Shared;  // what every capability refers to (rpc.cpp)

 private:
  struct Connection;
  void taskFailed(kj::Exception&& exception) override;

  kj::Own<Shared> shared_;
  std::size_t open_ = 0;
  kj::TaskSet tasks_;  // last: the connections go first, with the capabilities that refer to shared_
};

}  // namespace warlog::server
