// server::Rpc (rpc.hpp): Gate, Session and Table of events/schema/serve.capnp.

#include "rpc.hpp"

#include <capnp/rpc-twoparty.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "schema/serve.capnp.h"
#include "warlog/core/text.hpp"
#include "warlog/store/store.hpp"

namespace warlog::server {

namespace cs = capnp_serve;

namespace {

// The schema's Status is LineStatus, enumerant for enumerant.
static_assert(static_cast<unsigned>(cs::LineOutcome::Status::ALREADY_RECORDED) ==
              static_cast<unsigned>(replay::LineStatus::AlreadyRecorded));

// A call refused: its message crosses the wire as the exception's description.
[[noreturn]] void refuse(kj::Exception::Type type, const std::string& message) {
  throw kj::Exception(type, __FILE__, __LINE__, kj::heapString(message.data(), message.size()));
}

// A fetch answers at most this many events, or about this many bytes, a call.
constexpr core::Seq kFetchEvents = 4096;
constexpr std::size_t kFetchBytes = std::size_t{4} << 20;

// The writer's answer to a task or a line, on the event loop.
kj::Promise<Answer> answered(Writer& writer, LineRequest request) {
  auto paf = kj::newPromiseAndCrossThreadFulfiller<Answer>();
  auto fulfiller = std::make_shared<kj::Own<kj::CrossThreadPromiseFulfiller<Answer>>>(kj::mv(paf.fulfiller));
  writer.submit(std::move(request), [fulfiller](Answer a) { (*fulfiller)->fulfill(kj::mv(a)); });
  return kj::mv(paf.promise);
}
kj::Promise<Answer> ran(Writer& writer, Writer::Task task) {
  auto paf = kj::newPromiseAndCrossThreadFulfiller<Answer>();
  auto fulfiller = std::make_shared<kj::Own<kj::CrossThreadPromiseFulfiller<Answer>>>(kj::mv(paf.fulfiller));
  writer.run(std::move(task), [fulfiller](Answer a) { (*fulfiller)->fulfill(kj::mv(a)); });
  return kj::mv(paf.promise);
}

// An error answer of the writer ({"error": ...}) as a refused call: 503 (the
// server stopping, the store failing) may pass with a retry, the others not.
[[noreturn]] void refuse_answer(const Answer& a) {
  const nlohmann::json j = nlohmann::json::parse(a.body, nullptr, false);
  const std::string message = j.is_object() && j.contains("error") && j["error"].is_string()
                                  ? j["error"].get<std::string>()
                                  : fmt::format("the server answered {}", a.status);
  refuse(a.status == 503 ? kj::Exception::Type::OVERLOADED : kj::Exception::Type::FAILED, message);
}

}  // namespace

struct Rpc::Shared {
  const ServeOptions& options;
  replay::Archive& archive;
  Writer& writer;
  AppendRate& rate;
  std::function<void(core::GameId)> appended;
  TokenTable tokens;
  cs::Gate::Client gate = nullptr;

  // Every call, as every HTTP request: the token still in the file. The
  // client stops on "token refused" (nothing it can retry).
  void check(const TokenEntry& who) {
    (void)tokens.refresh();  // a file that cannot be read admits nobody
    if (!tokens.holds(who.hash)) {
      refuse(kj::Exception::Type::FAILED,
             fmt::format("token refused: token {} is revoked (warlog serve token list); nothing done", who.id()));
    }
  }
};

namespace {

using Shared = Rpc::Shared;

class TableImpl final : public cs::Table::Server {
 public:
  TableImpl(Shared& s, TokenEntry who, core::GameId game) : s_(s), who_(std::move(who)), game_(game) {}

  kj::Promise<void> enter(EnterContext context) override {
    s_.check(who_);
    const auto params = context.getParams();
    const std::size_t limit = s_.options.limits.request_bytes;
    if (params.totalSize().wordCount * 8 > limit) {
      refuse(kj::Exception::Type::FAILED,
             fmt::format("request over {} KiB (--max-request-kib); nothing recorded", limit / 1024));
    }
    if (!s_.rate.take(who_.hash)) {
      refuse(kj::Exception::Type::OVERLOADED, s_.rate.refusal() + " (--appends-per-second); nothing recorded");
    }
    const auto text = params.getLine();
    LineRequest req{game_, params.getExpectedSeq(), std::string(text.cStr(), text.size()), who_.role, true};
    if (auto at = core::invalid_utf8_at(req.line)) {
      refuse(kj::Exception::Type::FAILED, fmt::format("line: invalid UTF-8 at byte {}; nothing recorded", *at));
    }
    if (auto fault = core::check_text(req.line)) {
      refuse(kj::Exception::Type::FAILED, fmt::format("line: {}; nothing recorded", fault->reason));
    }
    return answered(s_.writer, std::move(req)).then([this, context](Answer a) mutable {
      if (a.wrote && s_.appended) s_.appended(a.game);
      if (!a.spoken) refuse_answer(a);
      auto out = context.getResults().initOutcome();
      out.setStatus(static_cast<cs::LineOutcome::Status>(a.spoken->status));
      const nlohmann::json j = nlohmann::json::parse(a.body, nullptr, false);
      if (j.is_object() && j.contains("seqs") && j["seqs"].is_array()) {
        auto seqs = out.initSeqs(static_cast<unsigned>(j["seqs"].size()));
        for (unsigned i = 0; i < seqs.size(); ++i) seqs.set(i, j["seqs"][i].get<std::uint64_t>());
      }
      out.setNextSeq(a.spoken->next_seq);
      out.setWhere(a.spoken->where);
      out.setText(a.spoken->text);
      out.setJson(a.body);
    });
  }

  kj::Promise<void> fetch(FetchContext context) override {
    s_.check(who_);
    const core::Seq from = context.getParams().getFromSeq();
    auto reader = s_.archive.store().reader();
    if (!reader) refuse(kj::Exception::Type::FAILED, reader.error().message);
    auto meta = reader->record(game_);
    if (!meta) refuse(kj::Exception::Type::FAILED, meta.error().message);
    std::vector<std::string> events;
    std::size_t bytes = 0;
    const core::Seq to = std::min(meta->event_count, from + kFetchEvents);
    if (from < to) {
      auto n = reader->scan_raw(game_, from, to, [&](core::Seq, std::string_view raw) {
        events.emplace_back(raw);
        bytes += raw.size();
        return bytes < kFetchBytes;
      });
      if (!n) refuse(kj::Exception::Type::FAILED, n.error().message);
    }
    auto results = context.getResults();
    auto list = results.initEvents(static_cast<unsigned>(events.size()));
    for (unsigned i = 0; i < list.size(); ++i) {
      list.set(i, capnp::Data::Reader(reinterpret_cast<const kj::byte*>(events[i].data()), events[i].size()));
    }
    results.setEventCount(meta->event_count);
    results.setHead(capnp::Data::Reader(meta->head.data(), meta->head.size()));
    return kj::READY_NOW;
  }

 private:
  Shared& s_;
  TokenEntry who_;
  core::GameId game_;
};

class SessionImpl final : public cs::Session::Server {
 public:
  SessionImpl(Shared& s, TokenEntry who) : s_(s), who_(std::move(who)) {}

  kj::Promise<void> games(GamesContext context) override {
    s_.check(who_);
    auto games = s_.archive.games();
    if (!games) refuse(kj::Exception::Type::FAILED, games.error().message);
    std::vector<const replay::GameSummary*> seen;
    for (const replay::GameSummary& g : *games) {
      if (who_.role != Role::Table || g.id == who_.game) seen.push_back(&g);
    }
    auto list = context.getResults().initGames(static_cast<unsigned>(seen.size()));
    for (unsigned i = 0; i < list.size(); ++i) {
      const replay::GameSummary& g = *seen[i];
      auto out = list[i];
      out.setGame(g.id);
      out.setTitle(g.title);
      out.setDate(g.date);
      out.setEvents(g.events);
      auto names = out.initPlayers(static_cast<unsigned>(g.seats.size()));
      for (unsigned k = 0; k < names.size(); ++k) names.set(k, g.seats[k].player);
    }
    return kj::READY_NOW;
  }

  kj::Promise<void> open(OpenContext context) override {
    s_.check(who_);
    const core::GameId game = context.getParams().getGame();
    if (who_.role == Role::Public) {
      refuse(kj::Exception::Type::FAILED,
             "a public token follows the public view over HTTP (GET /api/games/N/follow); RPC serves tables and judges");
    }
    if (who_.role == Role::Table && game != who_.game) {
      refuse(kj::Exception::Type::FAILED, fmt::format("this table's token is for game {}, not game {}", who_.game, game));
    }
    return ran(s_.writer,
               [game](Writer& w) -> Answer {
                 auto r = w.recorder(game);
                 if (!r) return error_answer(r.error().code == ErrorCode::NotFound ? 404 : 500, r.error().message);
                 Answer a{200, "", game, false, std::nullopt};
                 a.spoken = Answer::Spoken{replay::LineStatus::Nothing, (*r)->next_seq(), (*r)->where(), ""};
                 return a;
               })
        .then([this, context, game](Answer a) mutable {
          if (!a.spoken) refuse_answer(a);
          auto results = context.getResults();
          results.setTable(kj::heap<TableImpl>(s_, who_, game));
          results.setNextSeq(a.spoken->next_seq);
          results.setWhere(a.spoken->where);
        });
  }

 private:
  Shared& s_;
  TokenEntry who_;
};

class GateImpl final : public cs::Gate::Server {
 public:
  explicit GateImpl(Shared& s) : s_(s) {}

  kj::Promise<void> login(LoginContext context) override {
    (void)s_.tokens.refresh();
    const auto token = context.getParams().getToken();
    const auto who = s_.tokens.find(std::string_view(token.cStr(), token.size()));
    if (!who) {
      refuse(kj::Exception::Type::FAILED,
             "token refused: not a token of this server (warlog serve token issue STORE --role ...)");
    }
    auto results = context.getResults();
    results.setSession(kj::heap<SessionImpl>(s_, *who));
    results.setRole(std::string(to_string(who->role)));
    return kj::READY_NOW;
  }

 private:
  Shared& s_;
};

}  // namespace

// One client: its stream, the two-party network over it (refusing a
// message past the transport's limit: the connection is closed), and the
// RPC system serving the Gate on it.
struct Rpc::Connection {
  kj::Own<kj::AsyncIoStream> stream;
  capnp::TwoPartyVatNetwork network;
  capnp::RpcSystem<capnp::rpc::twoparty::VatId> rpc;

  Connection(kj::Own<kj::AsyncIoStream> s, capnp::Capability::Client gate, capnp::ReaderOptions options)
      : stream(kj::mv(s)),
        network(*stream, capnp::rpc::twoparty::Side::SERVER, options),
        rpc(capnp::makeRpcServer(network, kj::mv(gate))) {}
};

Rpc::Rpc(const ServeOptions& options, replay::Archive& archive, Writer& writer, AppendRate& rate,
         std::function<void(core::GameId)> appended)
    : shared_(kj::heap<Shared>(Shared{options, archive, writer, rate, std::move(appended), TokenTable(options.store)})),
      tasks_(*this) {
  shared_->gate = kj::heap<GateImpl>(*shared_);
}

Rpc::~Rpc() noexcept(false) = default;

void Rpc::taskFailed(kj::Exception&&) {
  // A connection that failed (the peer went away, a malformed message): it is closed.
}

kj::Promise<void> Rpc::accept(kj::ConnectionReceiver& listener) {
  return listener.accept().then([this, &listener](kj::Own<kj::AsyncIoStream> stream) {
    if (open_ < shared_->options.limits.connections) {
      ++open_;
      // A call's own limit (request_bytes) is checked by the call, naming it;
      // a message four times past it does not reach a call.
      capnp::ReaderOptions reading;
      reading.traversalLimitInWords = std::max<std::size_t>(shared_->options.limits.request_bytes / 2, 1024);
      auto c = kj::heap<Connection>(kj::mv(stream), shared_->gate, reading);
      auto done = c->network.onDisconnect();
      tasks_.add(done.attach(kj::mv(c), kj::defer([this] { --open_; })));
    }  // else: closed at once (the stream is dropped)
    return accept(listener);
  });
}

}  // namespace warlog::server
