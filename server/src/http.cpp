// server::Http (http.hpp): routes, tokens, limits, follow streams.

#include "http.hpp"

#include <fmt/format.h>
#include <kj/compat/tls.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <optional>
#include <string_view>

#include "warlog/core/text.hpp"
#include "warlog/replay/corrections.hpp"
#include "warlog/replay/event_json.hpp"
#include "warlog/replay/recorder.hpp"
#include "warlog/replay/report.hpp"
#include "warlog/replay/visibility.hpp"
#include "warlog/store/store.hpp"
#include "http_parts.hpp"
#include "web.hpp"

namespace warlog::server {

namespace {

using nlohmann::json;

kj::StringPtr reason(unsigned status) {
  switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 409: return "Conflict";
    case 413: return "Payload Too Large";
    case 429: return "Too Many Requests";
    case 500: return "Internal Server Error";
    case 503: return "Service Unavailable";
    default: return "Status";
  }
}

kj::StringPtr content_type(std::string_view path) {
  if (path.ends_with(".html")) return "text/html; charset=utf-8";
  if (path.ends_with(".css")) return "text/css; charset=utf-8";
  if (path.ends_with(".js")) return "text/javascript; charset=utf-8";
  if (path.ends_with(".svg")) return "image/svg+xml";
  return "application/octet-stream";
}

Target split_target(std::string_view url) {
  Target t;
  const auto q = url.find('?');
  t.path = std::string(url.substr(0, q));
  if (q != std::string_view::npos) {
    std::string_view rest = url.substr(q + 1);
    while (!rest.empty()) {
      const auto amp = rest.find('&');
      const std::string_view kv = rest.substr(0, amp);
      const auto eq = kv.find('=');
      t.query[std::string(kv.substr(0, eq))] = eq == std::string_view::npos ? "" : std::string(kv.substr(eq + 1));
      if (amp == std::string_view::npos) break;
      rest = rest.substr(amp + 1);
    }
  }
  std::string_view p = t.path;
  while (!p.empty()) {
    if (p.front() == '/') {
      p.remove_prefix(1);
      continue;
    }
    const auto slash = p.find('/');
    t.parts.emplace_back(p.substr(0, slash));
    if (slash == std::string_view::npos) break;
    p.remove_prefix(slash);
  }
  return t;
}

// The number of leading events the public may see: every turn but the last
// `behind` ones (setup always), R-085.
std::size_t public_count(const std::vector<core::Event>& events, std::uint16_t behind) {
  if (events.empty() || behind == 0) return events.size();
  const unsigned last = events.back().turn;
  const unsigned through = last >= behind ? last - behind : 0;
  std::size_t n = 0;
  while (n < events.size() && events[n].turn <= through) ++n;
  return n;
}

// The game as its recorder holds it, for the web recorder: where play
// stands, each seat's hand and Homeland, the board (docs/server.md › 4).
json state_json(const replay::Recorder& r) {
  const core::GameState& st = r.state();
  const core::NotationPlace place = r.place();
  const auto seat1 = [](core::Seat s) { return s == core::kNoSeat ? 0 : s + 1; };
  json seats = json::array();
  for (std::size_t i = 0; i < st.seats.size(); ++i) {
    const core::SeatState& s = st.seats[i];
    json hand = json::array(), homeland = json::array();
    for (const auto& [card, n] : s.hand) {
      for (int k = 0; k < n; ++k) hand.push_back(card);
    }
    for (const core::HeldCard& h : s.homeland) homeland.push_back(h.card);
    int deck = 0;
    for (const auto& [card, n] : s.deck) deck += n;
    seats.push_back({{"seat", i + 1}, {"player", s.player}, {"allegiance", core::to_string(s.allegiance)},
                     {"hand", hand}, {"homeland", homeland}, {"deck", deck}});
  }
  json board = json::array();
  for (std::size_t i = 0; i < st.grid.size() && st.cols > 0; ++i) {
    if (!st.grid[i]) continue;
    const core::Troop& t = *st.grid[i];
    const core::Space at{static_cast<std::int8_t>(i % static_cast<std::size_t>(st.cols)),
                         static_cast<std::int8_t>(i / static_cast<std::size_t>(st.cols))};
    board.push_back({{"space", core::to_string(at)}, {"card", t.card}, {"seat", t.owner + 1}, {"damage", t.damage},
                     {"lost", t.has(core::kTroopLost)}, {"burrowed", t.has(core::kTroopBurrowed)}});
  }
  json territories = json::array();
  for (const core::TerritoryState& t : st.territories) {
    // Control is derived from the Troops beside it, never stored.
    const core::Seat by = core::territory_controller(st, t, r.catalog(), r.ruleset());
    territories.push_back({{"space", core::to_string(t.space)}, {"card", t.card}, {"controller", seat1(by)}});
  }
  return json{{"game", r.game()},
              {"next_seq", r.next_seq()},
              {"where", r.where()},
              {"place", {{"in_turn", place.in_turn}, {"turn", place.turn}, {"phase", core::to_string(place.phase)},
                         {"seat", seat1(place.seat)}}},
              {"cols", st.cols},
              {"rows", st.rows},
              {"seats", seats},
              {"board", board},
              {"territories", territories},
              {"ended_at", r.ended_at() ? json(*r.ended_at()) : json(nullptr)},
              {"findings", r.findings().size()}};
}

}  // namespace

struct Http::Follow {
  kj::Own<kj::AsyncOutputStream> out;
  core::GameId game = 0;
  core::Seq from = 0;
  TokenEntry who;
  unsigned quiet = 0;  // wakes with nothing sent since the last heartbeat
};

Http::Http(const ServeOptions& options, replay::Archive& archive, Writer& writer, kj::Timer& timer, AppendRate& rate)
    : options_(options),
      archive_(archive),
      writer_(writer),
      timer_(timer),
      authorization_(builder_.add("Authorization")),
      table_(builder_.build()),
      tokens_(options.store),
      tasks_(*this),
      rate_(rate),
      overview_(archive),
      calls_(options.store) {
  if (auto loaded = calls_.load(); !loaded && options_.on_warning) {
    options_.on_warning(fmt::format("{}; serving with no judge call", loaded.error().message));
  }
}

Http::~Http() noexcept(false) = default;

void Http::taskFailed(kj::Exception&&) {
  // A connection that failed (the peer went away, a timeout): it is closed.
}

kj::Promise<void> Http::send(Response& response, unsigned status, std::string body, kj::StringPtr type,
                             bool retry_after) {
  kj::HttpHeaders h(*table_);
  h.set(kj::HttpHeaderId::CONTENT_TYPE, type);
  h.add("Content-Security-Policy", kCsp);
  h.add("X-Content-Type-Options", "nosniff");
  h.add("Cache-Control", "no-store");
  if (retry_after) h.add("Retry-After", "1");
  auto out = response.send(status, reason(status), h, body.size());
  auto bytes = kj::heapArray<char>(body.data(), body.size());
  auto written = out->write(bytes.begin(), bytes.size());
  return written.attach(kj::mv(out), kj::mv(bytes));
}

kj::Promise<void> Http::request(kj::HttpMethod method, kj::StringPtr url, const kj::HttpHeaders& headers,
                                kj::AsyncInputStream& body, Response& response) {
  Request q{method, split_target(std::string_view(url.cStr(), url.size())), {}, 0};
  if (q.target.parts.empty() || q.target.parts[0] != "api") {
    if (method != kj::HttpMethod::GET) return send(response, 405, json{{"error", "GET only"}}.dump());
    const std::string path = q.target.path == "/" ? "/index.html" : q.target.path;
    for (const WebFile& f : web_files()) {
      if (f.path == path) return send(response, 200, std::string(f.bytes), content_type(path));
    }
    return send(response, 404, json{{"error", fmt::format("no page {}", core::clip_for_message(path))}}.dump());
  }
  // The token, checked on every request against the file as it stands.
  (void)tokens_.refresh();  // a file that cannot be read admits nobody (the table is emptied)
  std::optional<TokenEntry> who;
  KJ_IF_MAYBE(auth, headers.get(authorization_)) {
    const std::string_view a(auth->cStr(), auth->size());
    if (a.starts_with("Bearer ")) who = tokens_.find(a.substr(7));
  }
  if (!who) {
    return send(response, 401, json{{"error", "a token is needed: Authorization: Bearer TOKEN "
                                              "(warlog serve token issue)"}}.dump());
  }
  q.who = *who;
  return api(q, body, response);
}

kj::Promise<void> Http::api(Request& q, kj::AsyncInputStream& body, Response& response) {
  const auto& parts = q.target.parts;
  const bool get = q.method == kj::HttpMethod::GET;
  // GET /api/games
  if (parts.size() == 2 && parts[1] == "games") {
    if (!get) return send(response, 405, json{{"error", "GET only"}}.dump());
    auto games = archive_.games();
    if (!games) return send(response, 500, json{{"error", games.error().message}}.dump());
    json list = json::array();
    for (const replay::GameSummary& g : *games) {
      if (q.who.role == Role::Table && g.id != q.who.game) continue;
      list.push_back({{"game", g.id}, {"title", g.title}, {"date", g.date}, {"events", g.events},
                      {"players", replay::players_json(g)}});
    }
    return send(response, 200, json{{"games", list}, {"role", to_string(q.who.role)}}.dump());
  }
  if (parts.size() == 2 && parts[1] == "stats" && get) {
    if (q.who.role != Role::Judge) return send(response, 403, json{{"error", "a judge's"}}.dump());
    const WriterStats s = writer_.stats();
    return send(response, 200,
                json{{"commits", s.commits}, {"lines", s.lines}, {"connections", open_}}.dump());
  }
  if (parts.size() >= 2 && parts[1] == "overview") {
    if (q.who.role != Role::Judge) {
      return send(response, 403, json{{"error", "the overview is the judges': use a judge's token"}}.dump());
    }
    if (!get) return send(response, 405, json{{"error", "GET only"}}.dump());
    if (parts.size() == 2) return overview(q, response);
    if (parts.size() == 3 && parts[2] == "follow") return overview_follow(q, response);
  }
  if (parts.size() < 4 || parts[1] != "games") return send(response, 404, json{{"error", "no such API"}}.dump());
  const auto game = parse_u64(parts[2]);
  if (!game || *game == 0) return send(response, 404, json{{"error", "a game is a number: /api/games/N/..."}}.dump());
  q.game = *game;
  if (q.who.role == Role::Table && q.game != q.who.game) {
    return send(response, 403, json{{"error", fmt::format("this table's token is for game {}", q.who.game)}}.dump());
  }
  const std::string& verb = parts[3];
  if (parts.size() == 4 && verb == "lines") {
    if (q.method != kj::HttpMethod::POST) return send(response, 405, json{{"error", "POST only"}}.dump());
    if (q.who.role == Role::Public) return send(response, 403, json{{"error", "a public token only reads"}}.dump());
    return post_line(q, body, response);
  }
  if (verb == "call" && (parts.size() == 4 || (parts.size() == 5 && parts[4] == "answer"))) {
    return call(q, body, response);
  }
  if (parts.size() == 4 && verb == "disputes") return disputes(q, body, response);
  if (parts.size() == 4 && verb == "rulings") return rule(q, body, response);
  if (!get) return send(response, 405, json{{"error", "GET only"}}.dump());
  std::uint64_t from = 0;
  if (auto it = q.target.query.find("from"); it != q.target.query.end()) {
    auto v = parse_u64(it->second);
    if (!v) return send(response, 400, json{{"error", "from=S takes a seq"}}.dump());
    from = *v;
  }
  if (parts.size() == 4 && verb == "follow") return follow(q, response);
  if (parts.size() == 4 && verb == "state") {
    // The recorder's live state, hands included: the table's and the judges', not the public's.
    if (q.who.role == Role::Public) return send(response, 403, json{{"error", "the public follows the events"}}.dump());
    const core::GameId game = q.game;
    return on_writer([game](Writer& w) -> Answer {
             auto r = w.recorder(game);
             if (!r) return error_answer(r.error().code == ErrorCode::NotFound ? 404 : 500, r.error().message);
             return Answer{200, state_json(**r).dump(), game, false};
           })
        .then([this, &response](Answer a) { return send_answer(response, a); });
  }
  if (parts.size() == 4 && verb == "events") {
    auto summary = archive_.game(q.game);
    if (!summary) return send(response, 404, json{{"error", summary.error().message}}.dump());
    auto events = archive_.events(q.game);
    if (!events) return send(response, 500, json{{"error", events.error().message}}.dump());
    std::size_t visible = events->size();
    std::shared_ptr<const core::Ruleset> rules;
    if (q.who.role == Role::Public) {
      visible = public_count(*events, options_.public_turns_behind);
      auto r = archive_.ruleset_by_hash(summary->ruleset_hash);
      if (!r) return send(response, 500, json{{"error", r.error().message}}.dump());
      rules = *r;
    }
    json list = json::array();
    for (std::size_t i = from; i < visible; ++i) {
      list.push_back(replay::event_json(rules ? replay::view_of((*events)[i], replay::Perspective::Public, *rules)
                                              : (*events)[i]));
    }
    return send(response, 200,
                json{{"game", q.game}, {"events", list}, {"next_seq", visible}}.dump());
  }
  if (parts.size() == 5 && verb == "backups" && parts[4] == "preview") {
    if (q.who.role != Role::Judge) {
      return send(response, 403,
                  json{{"error", "a backup, and its preview, are a judge's: use a judge's token (R-086)"}}.dump());
    }
    auto it = q.target.query.find("to");
    auto to = it == q.target.query.end() ? std::nullopt : parse_u64(it->second);
    if (!to) return send(response, 400, json{{"error", "to=S takes the seq to back up to"}}.dump());
    auto events = archive_.events(q.game);
    if (!events) return send(response, 404, json{{"error", events.error().message}}.dump());
    auto crossing = replay::backup_crossing(*events, *to);
    if (!crossing) return send(response, 400, json{{"error", crossing.error().message}}.dump());
    json crossed = json::array();
    for (const replay::Crossed& c : crossing->crossed) {
      crossed.push_back({{"seq", c.seq}, {"seat", c.seat == core::kNoSeat ? 0 : c.seat + 1},
                         {"kind", replay::to_string(c.kind)}, {"what", c.what}});
    }
    return send(response, 200,
                json{{"game", q.game}, {"target", crossing->target}, {"events", crossing->events},
                     {"crossed", crossed}}.dump());
  }
  return send(response, 404, json{{"error", "no such API"}}.dump());
}

std::optional<kj::Promise<void>> Http::over_rate(const Request& q, Response& response) {
  if (rate_.take(q.who.hash)) return std::nullopt;
  return send(response, 429, json{{"error", rate_.refusal() + "; nothing recorded"}}.dump(), "application/json", true);
}

kj::Promise<void> Http::post_line(Request& q, kj::AsyncInputStream& body, Response& response) {
  if (auto refused = over_rate(q, response)) return kj::mv(*refused);
  const core::GameId game = q.game;
  const Role role = q.who.role;
  return json_body(
      body, response, {"expectedSeq", "line"}, "{\"expectedSeq\":S,\"line\":\"...\"}",
      [this, &response, game, role](json j) -> kj::Promise<void> {
        const auto bad = [this, &response](std::string why) {
          return send(response, 400, json{{"error", why + "; nothing recorded"}}.dump());
        };
        if (!j.contains("expectedSeq") || !j["expectedSeq"].is_number_unsigned()) return bad("expectedSeq must be a seq (a number)");
        if (!j.contains("line") || !j["line"].is_string()) return bad("line must be a string");
        LineRequest req{game, j["expectedSeq"].get<std::uint64_t>(), j["line"].get<std::string>(), role};
        if (auto fault = core::check_text(req.line)) return bad(fmt::format("line: {}", fault->reason));
        auto paf = kj::newPromiseAndCrossThreadFulfiller<Answer>();
        auto fulfiller = std::make_shared<kj::Own<kj::CrossThreadPromiseFulfiller<Answer>>>(kj::mv(paf.fulfiller));
        writer_.submit(std::move(req), [fulfiller](Answer a) { (*fulfiller)->fulfill(kj::mv(a)); });
        return paf.promise.then([this, &response](Answer a) {
          if (a.wrote) notify(a.game);
          return send_answer(response, a);
        });
      });
}

kj::Promise<void> Http::json_body(kj::AsyncInputStream& body, Response& response,
                                  std::vector<std::string> fields, std::string shape,
                                  kj::Function<kj::Promise<void>(json)> then) {
  const std::size_t limit = options_.limits.request_bytes;
  const auto too_big = [this, &response, limit] {
    return send(response, 413, json{{"error", fmt::format("request over {} KiB; nothing recorded", limit / 1024)}}.dump());
  };
  KJ_IF_MAYBE(length, body.tryGetLength()) {
    if (*length > limit) return too_big();
  }
  return body.readAllText(limit + 1).then(
      [this, &response, limit, too_big, known = std::move(fields), shape = std::move(shape),
       then = kj::mv(then)](kj::String text) mutable -> kj::Promise<void> {
        if (text.size() > limit) return too_big();
        const std::string_view raw(text.cStr(), text.size());
        const auto bad = [this, &response](std::string why) {
          return send(response, 400, json{{"error", why + "; nothing recorded"}}.dump());
        };
        if (auto at = core::invalid_utf8_at(raw)) return bad(fmt::format("invalid UTF-8 at byte {}", *at));
        json j = raw.empty() ? json::object() : json::parse(raw, nullptr, false);
        if (j.is_discarded() || !j.is_object()) return bad(fmt::format("the body is not a JSON object {}", shape));
        for (const auto& [key, value] : j.items()) {
          if (std::find(known.begin(), known.end(), key) == known.end()) {
            return bad(fmt::format("unknown field \"{}\"", core::clip_for_message(key)));
          }
        }
        return then(std::move(j));
      },
      [too_big](kj::Exception&&) -> kj::Promise<void> { return too_big(); });  // readAllText past its limit
}

kj::Promise<Answer> Http::on_writer(Writer::Task task) {
  auto paf = kj::newPromiseAndCrossThreadFulfiller<Answer>();
  auto fulfiller = std::make_shared<kj::Own<kj::CrossThreadPromiseFulfiller<Answer>>>(kj::mv(paf.fulfiller));
  writer_.run(std::move(task), [fulfiller](Answer a) { (*fulfiller)->fulfill(kj::mv(a)); });
  return kj::mv(paf.promise);
}

kj::Promise<void> Http::appended_to(core::GameId game) {
  auto& list = waiting_[game];
  std::erase_if(list, [](kj::Own<kj::PromiseFulfiller<void>>& f) { return !f->isWaiting(); });
  auto paf = kj::newPromiseAndFulfiller<void>();
  list.push_back(kj::mv(paf.fulfiller));
  return kj::mv(paf.promise);
}

kj::Promise<void> Http::overview_moved() {
  std::erase_if(overview_waiting_, [](kj::Own<kj::PromiseFulfiller<void>>& f) { return !f->isWaiting(); });
  auto paf = kj::newPromiseAndFulfiller<void>();
  overview_waiting_.push_back(kj::mv(paf.fulfiller));
  return kj::mv(paf.promise);
}

void Http::notify(core::GameId game) {
  auto judges = std::move(overview_waiting_);
  overview_waiting_.clear();
  for (auto& f : judges) f->fulfill();
  auto it = waiting_.find(game);
  if (it == waiting_.end()) return;
  auto list = std::move(it->second);
  waiting_.erase(it);
  for (auto& f : list) f->fulfill();
}

kj::Promise<void> Http::follow(Request& q, Response& response) {
  auto summary = archive_.game(q.game);
  if (!summary) return send(response, 404, json{{"error", summary.error().message}}.dump());
  kj::HttpHeaders h(*table_);
  h.set(kj::HttpHeaderId::CONTENT_TYPE, "text/event-stream; charset=utf-8");
  h.add("Content-Security-Policy", kCsp);
  h.add("Cache-Control", "no-store");
  auto f = kj::heap<Follow>();
  f->out = response.send(200, "OK", h);
  f->game = q.game;
  f->from = q.target.query.count("from") ? *parse_u64(q.target.query.at("from")) : 0;
  f->who = q.who;
  return follow_step(kj::mv(f));
}

// One wake of a follow stream: the token still there (a revoked token's
// stream closes within a second), then every event from `from` that its
// role may see, as `event: event` messages, then sleep until the next
// append to the game or a second.
kj::Promise<void> Http::follow_step(kj::Own<Follow> f) {
  (void)tokens_.refresh();
  if (!tokens_.holds(f->who.hash)) return kj::READY_NOW;  // ends the response: the stream closes
  std::string text;
  auto events = archive_.events(f->game);
  if (events) {
    std::size_t visible = events->size();
    std::shared_ptr<const core::Ruleset> rules;
    if (f->who.role == Role::Public) {
      visible = public_count(*events, options_.public_turns_behind);
      if (auto summary = archive_.game(f->game)) {
        if (auto r = archive_.ruleset_by_hash(summary->ruleset_hash)) rules = *r;
      }
      if (!rules) visible = 0;
    }
    for (std::size_t i = f->from; i < visible; ++i) {
      const core::Event& ev = (*events)[i];
      const json j = replay::event_json(rules ? replay::view_of(ev, replay::Perspective::Public, *rules) : ev);
      text += fmt::format("id: {}\nevent: event\ndata: {}\n\n", ev.seq, j.dump());
    }
    if (visible > f->from) f->from = visible;
  }
  if (text.empty() && ++f->quiet >= 15) text = ": still here\n\n";  // a heartbeat finds a client gone
  if (!text.empty()) f->quiet = 0;
  auto bytes = kj::heapArray<char>(text.data(), text.size());
  kj::Promise<void> written = text.empty() ? kj::Promise<void>(kj::READY_NOW) : f->out->write(bytes.begin(), bytes.size());
  return written.attach(kj::mv(bytes)).then([this, f = kj::mv(f)]() mutable {
    const core::GameId game = f->game;
    return appended_to(game).exclusiveJoin(timer_.afterDelay(1 * kj::SECONDS)).then([this, f = kj::mv(f)]() mutable {
      return follow_step(kj::mv(f));
    });
  });
}

kj::Promise<void> Http::refuse_connection(kj::Own<kj::AsyncIoStream> connection) {
  // Read what the client sent first (so closing does not reset the answer
  // away), answer 503, close.
  auto buffer = kj::heapArray<char>(4096);
  auto read = connection->tryRead(buffer.begin(), 1, buffer.size()).then([](std::size_t) {});
  return timer_.timeoutAfter(1 * kj::SECONDS, kj::mv(read))
      .then([] {}, [](kj::Exception&&) {})
      .then([this, c = connection.get()] {
        const std::string body =
            json{{"error", fmt::format("over {} connections: try again shortly", options_.limits.connections)}}.dump();
        const std::string reply = fmt::format(
            "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Security-Policy: {}\r\n"
            "Connection: close\r\nContent-Length: {}\r\n\r\n{}",
            kCsp.cStr(), body.size(), body);
        auto bytes = kj::heapArray<char>(reply.data(), reply.size());
        auto w = c->write(bytes.begin(), bytes.size());
        return w.attach(kj::mv(bytes)).then([c] { c->shutdownWrite(); });
      })
      .attach(kj::mv(connection), kj::mv(buffer));
}

kj::Promise<void> Http::accept(kj::ConnectionReceiver& listener, kj::HttpServer& server,
                               kj::Maybe<kj::TlsContext&> tls) {
  return listener.accept().then([this, &listener, &server, tls](kj::Own<kj::AsyncIoStream> connection) mutable {
    // Not TlsContext::wrapPort: its accept() fails with the first failed
    // handshake (a phone that does not trust the CA), which would end ours.
    kj::Promise<kj::Own<kj::AsyncIoStream>> ready = kj::mv(connection);
    KJ_IF_MAYBE(t, tls) {
      auto& context = *t;
      ready = ready.then([this, &context](kj::Own<kj::AsyncIoStream> c) {
        return timer_.timeoutAfter(options_.limits.idle.count() * kj::MILLISECONDS, context.wrapServer(kj::mv(c)));
      });
    }
    if (open_ >= options_.limits.connections) {
      tasks_.add(ready.then([this](kj::Own<kj::AsyncIoStream> c) { return refuse_connection(kj::mv(c)); }));
    } else {
      ++open_;
      tasks_.add(ready.then([&server](kj::Own<kj::AsyncIoStream> c) { return server.listenHttp(kj::mv(c)); })
                     .attach(kj::defer([this] { --open_; })));
    }
    return accept(listener, server, tls);
  });
}

}  // namespace warlog::server
