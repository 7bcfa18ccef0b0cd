// server::Http's judges' side (http.hpp, docs/server.md › 7): the
// overview and its follow stream, judge calls, disputes and rulings.

#include <fmt/format.h>
#include <kj/encoding.h>

#include <chrono>

#include "http_parts.hpp"
#include "store_file.hpp"
#include "warlog/core/text.hpp"
#include "warlog/replay/disputes.hpp"
#include "warlog/replay/signatures.hpp"

namespace warlog::server {

namespace {

using nlohmann::json;

std::int64_t now_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

unsigned status_of(ErrorCode code) {
  switch (code) {
    case ErrorCode::InvalidArgument: return 400;
    case ErrorCode::NotFound: return 404;
    case ErrorCode::Conflict: return 409;
    default: return 500;
  }
}

// A text field a person typed: a string, valid, without control characters
// (core::check_text); `required`: not empty either.
std::optional<std::string> text_field(const json& j, std::string_view key, bool required, std::string* why) {
  const std::string k(key);
  if (!j.contains(k)) {
    if (!required) return std::string();
    *why = fmt::format("{} is needed", key);
    return std::nullopt;
  }
  if (!j[k].is_string()) {
    *why = fmt::format("{} must be a string", key);
    return std::nullopt;
  }
  std::string v = j[k].get<std::string>();
  if (auto fault = core::check_text(v)) {
    *why = fmt::format("{}: {}", key, fault->reason);
    return std::nullopt;
  }
  if (required && v.find_first_not_of(" \t") == std::string::npos) {
    *why = fmt::format("{} is empty", key);
    return std::nullopt;
  }
  return v;
}

// Which games the overview shows: ?event=NAME (URL-encoded) and ?round=R.
struct OverviewFilter {
  std::optional<std::string> event;
  std::optional<std::uint16_t> round;
  [[nodiscard]] bool shows(const Overview::Row& row) const {
    if (event && (!row.place || row.place->event != *event)) return false;
    if (round && (!row.place || row.place->round != *round)) return false;
    return true;
  }
};

}  // namespace

struct Http::OverviewFollow {
  kj::Own<kj::AsyncOutputStream> out;
  TokenEntry who;
  OverviewFilter filter;
  bool started = false;  // the whole overview sent
  // What this stream was last sent of each game: the row's stamp and the call's version.
  std::map<core::GameId, std::pair<RowStamp, std::uint64_t>> sent;
  unsigned quiet = 0;
};

// --- The judges' overview ------------------------------------------------------

namespace {

// ?event=NAME&round=R; nullopt and `why` for a query that says neither well.
std::optional<OverviewFilter> overview_filter(const std::map<std::string, std::string>& query, std::string* why) {
  OverviewFilter f;
  if (auto it = query.find("event"); it != query.end()) {
    auto decoded = kj::decodeUriComponent(kj::StringPtr(it->second.c_str()));
    if (decoded.hadErrors || core::check_text(decoded.cStr())) {
      *why = "event=NAME takes the event's name, URL-encoded";
      return std::nullopt;
    }
    f.event = std::string(decoded.cStr());
  }
  if (auto it = query.find("round"); it != query.end()) {
    auto r = parse_u64(it->second);
    if (!r || *r == 0 || *r > 65535) {
      *why = "round=R takes a round's number";
      return std::nullopt;
    }
    f.round = static_cast<std::uint16_t>(*r);
  }
  return f;
}

}  // namespace

json Http::overview_row(const Overview::Row& row) const {
  json j = row.json;
  const Call* c = calls_.find(row.game);
  j["call"] = c ? call_json(*c) : json(nullptr);
  return j;
}

kj::Promise<void> Http::overview(Request& q, Response& response) {
  std::string why;
  const auto filter = overview_filter(q.target.query, &why);
  if (!filter) return send(response, 400, json{{"error", why}}.dump());
  auto rows = overview_.rows();
  if (!rows) return send(response, 500, json{{"error", rows.error().message}}.dump());
  json games = json::array();
  for (const Overview::Row* row : *rows) {
    if (filter->shows(*row)) games.push_back(overview_row(*row));
  }
  const json schema{{"name", "warlog.serve-overview"}, {"version", options_.json_schema_version}};
  return send(response, 200, json{{"schema", schema}, {"at_ms", now_ms()}, {"games", games}}.dump());
}

kj::Promise<void> Http::overview_follow(Request& q, Response& response) {
  std::string why;
  auto filter = overview_filter(q.target.query, &why);
  if (!filter) return send(response, 400, json{{"error", why}}.dump());
  kj::HttpHeaders h(*table_);
  h.set(kj::HttpHeaderId::CONTENT_TYPE, "text/event-stream; charset=utf-8");
  h.add("Content-Security-Policy", kCsp);
  h.add("Cache-Control", "no-store");
  auto f = kj::heap<OverviewFollow>();
  f->out = response.send(200, "OK", h);
  f->who = q.who;
  f->filter = std::move(*filter);
  return overview_step(kj::mv(f));
}

// One wake of a judge's overview stream: the token still there (a revoked
// one's stream closes within a second), then the whole overview once
// (`event: overview`), later each row that moved since this stream was last
// sent it (`event: row`), then sleep until something is committed, a call
// moves, or a second passes.
kj::Promise<void> Http::overview_step(kj::Own<OverviewFollow> f) {
  (void)tokens_.refresh();
  if (!tokens_.holds(f->who.hash)) return kj::READY_NOW;  // ends the response: the stream closes
  std::string text;
  if (auto rows = overview_.rows()) {
    json all = json::array();
    for (const Overview::Row* row : *rows) {
      if (!f->filter.shows(*row)) continue;
      const std::pair<RowStamp, std::uint64_t> now{row->stamp, calls_.version(row->game)};
      auto [it, fresh] = f->sent.try_emplace(row->game, now);
      if (!f->started) {
        all.push_back(overview_row(*row));
      } else if (fresh || it->second != now) {
        text += fmt::format("event: row\ndata: {}\n\n", overview_row(*row).dump());
      }
      it->second = now;
    }
    if (!f->started) {
      const json schema{{"name", "warlog.serve-overview"}, {"version", options_.json_schema_version}};
      text = fmt::format("event: overview\ndata: {}\n\n",
                         json{{"schema", schema}, {"at_ms", now_ms()}, {"games", all}}.dump());
      f->started = true;
    }
  }
  if (text.empty() && ++f->quiet >= 15) text = ": still here\n\n";  // a heartbeat finds a client gone
  if (!text.empty()) f->quiet = 0;
  auto bytes = kj::heapArray<char>(text.data(), text.size());
  kj::Promise<void> written = text.empty() ? kj::Promise<void>(kj::READY_NOW) : f->out->write(bytes.begin(), bytes.size());
  return written.attach(kj::mv(bytes)).then([this, f = kj::mv(f)]() mutable {
    return overview_moved().exclusiveJoin(timer_.afterDelay(1 * kj::SECONDS)).then([this, f = kj::mv(f)]() mutable {
      return overview_step(kj::mv(f));
    });
  });
}

// --- Judge calls --------------------------------------------------------------------

// POST /api/games/N/call {"note"}: a table (its own game) or a judge raises
// the call. POST /api/games/N/call/answer {"by"}: a judge is on the way.
// DELETE /api/games/N/call: a judge clears it.
kj::Promise<void> Http::call(Request& q, kj::AsyncInputStream& body, Response& response) {
  const bool answering = q.target.parts.size() == 5;
  const bool clearing = q.method == kj::HttpMethod::DELETE && !answering;
  if (!clearing && q.method != kj::HttpMethod::POST) {
    return send(response, 405, json{{"error", answering ? "POST only" : "POST (raise) or DELETE (clear)"}}.dump());
  }
  if (q.who.role == Role::Public) return send(response, 403, json{{"error", "a public token only reads"}}.dump());
  if ((answering || clearing) && q.who.role != Role::Judge) {
    return send(response, 403, json{{"error", "a judge answers and clears a call: use a judge's token"}}.dump());
  }
  if (auto refused = over_rate(q, response)) return kj::mv(*refused);
  auto game = archive_.game(q.game);
  if (!game) return send(response, 404, json{{"error", game.error().message}}.dump());
  const core::GameId id = q.game;
  const auto answered = [this, &response](kj::Promise<Answer> kept) {
    return kept.then([this, &response](Answer a) {
      notify(a.game);
      return send_answer(response, a);
    });
  };
  if (clearing) {
    if (!calls_.clear(id)) return send(response, 404, json{{"error", fmt::format("game {} has no call", id)}}.dump());
    return answered(keep_calls(Answer{200, json{{"game", id}, {"call", nullptr}}.dump(), id, false}));
  }
  return json_body(body, response, {answering ? "by" : "note"}, answering ? "{\"by\":\"NAME\"}" : "{\"note\":\"...\"}",
                   [this, &response, id, answering, answered, role = q.who.role](json j) -> kj::Promise<void> {
                     std::string why;
                     const auto text = text_field(j, answering ? "by" : "note", answering, &why);
                     if (!text) return send(response, 400, json{{"error", why + "; nothing recorded"}}.dump());
                     const Call* c = nullptr;
                     if (answering) {
                       c = calls_.answer(id, now_ms(), *text);
                       if (!c) return send(response, 404, json{{"error", fmt::format("game {} has no call", id)}}.dump());
                     } else {
                       c = &calls_.raise(id, now_ms(), std::string(to_string(role)), *text);
                     }
                     return answered(keep_calls(Answer{200, json{{"game", id}, {"call", call_json(*c)}}.dump(), id, false}));
                   });
}

// The calls written (the writer thread owns the disk's writes) before `ok`
// is answered.
kj::Promise<Answer> Http::keep_calls(Answer ok) {
  return on_writer([file = calls_.file(), text = calls_.text(), ok = std::move(ok)](Writer&) {
    auto written = replace_file(file, text);
    return written ? ok : error_answer(500, written.error().message + ": the call stands until the server stops");
  });
}

// --- Disputes and rulings -------------------------------------------------------

// GET /api/games/N/disputes: the game's disputes (dispute_json). POST
// {"seq", "claim", "by", "citations"}: one raised (a table at its game, a
// judge anywhere), recorded beside the log on the writer thread.
kj::Promise<void> Http::disputes(Request& q, kj::AsyncInputStream& body, Response& response) {
  if (q.who.role == Role::Public) return send(response, 403, json{{"error", "the disputes are the tables' and the judges'"}}.dump());
  if (q.method == kj::HttpMethod::GET) {
    auto game = archive_.game(q.game);
    if (!game) return send(response, 404, json{{"error", game.error().message}}.dump());
    auto list = replay::list_disputes(archive_, q.game);
    if (!list) return send(response, 500, json{{"error", list.error().message}}.dump());
    json out = json::array();
    for (const replay::Dispute& d : *list) out.push_back(replay::dispute_json(d, game->title));
    return send(response, 200, json{{"game", q.game}, {"disputes", out}}.dump());
  }
  if (q.method != kj::HttpMethod::POST) return send(response, 405, json{{"error", "GET or POST"}}.dump());
  if (auto refused = over_rate(q, response)) return kj::mv(*refused);
  const core::GameId id = q.game;
  return json_body(
      body, response, {"seq", "claim", "by", "citations"}, "{\"seq\":S,\"claim\":\"...\",\"by\":\"NAME\",\"citations\":[...]}",
      [this, &response, id](json j) -> kj::Promise<void> {
        std::string why;
        const auto bad = [this, &response](const std::string& w) {
          return send(response, 400, json{{"error", w + "; nothing recorded"}}.dump());
        };
        if (!j.contains("seq") || !j["seq"].is_number_unsigned()) return bad("seq must be the event's seq (a number)");
        auto claim = text_field(j, "claim", true, &why);
        if (!claim) return bad(why);
        auto by = text_field(j, "by", true, &why);
        if (!by) return bad(why);
        std::vector<std::string> citations;
        if (j.contains("citations")) {
          if (!j["citations"].is_array()) return bad("citations must be a list of rule ids or texts");
          for (const json& c : j["citations"]) {
            if (!c.is_string() || core::check_text(c.get<std::string>())) return bad("each citation is a text");
            citations.push_back(c.get<std::string>());
          }
        }
        replay::NewDispute d{id, j["seq"].get<core::Seq>(), *claim, *by, citations, replay::iso_utc(now_ms()), {}};
        return on_writer([d](Writer& w) -> Answer {
                 bool already = false;
                 auto added = w.add_dispute(d, &already);
                 if (!added) return error_answer(status_of(added.error().code), added.error().message + "; nothing recorded");
                 auto found = replay::find_dispute(w.archive(), *added);
                 auto game = w.archive().game(d.game);
                 if (!found || !game) return error_answer(500, "the dispute was recorded but cannot be read back");
                 return Answer{200, json{{"game", d.game}, {"already", already},
                                         {"dispute", replay::dispute_json(*found, game->title)}}.dump(),
                               d.game, !already};
               })
            .then([this, &response](Answer a) {
              if (a.wrote) notify(a.game);
              return send_answer(response, a);
            });
      });
}

// POST /api/games/N/rulings {"dispute": "G:S:N", "ruling", "by",
// "citations", "supersede"}: a judge's ruling on a dispute of this game.
kj::Promise<void> Http::rule(Request& q, kj::AsyncInputStream& body, Response& response) {
  if (q.method != kj::HttpMethod::POST) return send(response, 405, json{{"error", "POST only"}}.dump());
  if (q.who.role != Role::Judge) return send(response, 403, json{{"error", "a ruling is a judge's: use a judge's token"}}.dump());
  if (auto refused = over_rate(q, response)) return kj::mv(*refused);
  const core::GameId game = q.game;
  return json_body(
      body, response, {"dispute", "ruling", "by", "citations", "supersede"},
      "{\"dispute\":\"G:S:N\",\"ruling\":\"...\",\"by\":\"NAME\",\"citations\":[...],\"supersede\":false}",
      [this, &response, game](json j) -> kj::Promise<void> {
        std::string why;
        const auto bad = [this, &response](const std::string& w) {
          return send(response, 400, json{{"error", w + "; nothing recorded"}}.dump());
        };
        const auto text = text_field(j, "dispute", true, &why);
        if (!text) return bad(why);
        const auto id = replay::parse_dispute_id(*text);
        if (!id || id->game != game) return bad(fmt::format("dispute must be an id of game {}: {}:SEQ:N", game, game));
        replay::NewRuling r;
        auto ruling = text_field(j, "ruling", true, &why);
        if (!ruling) return bad(why);
        auto by = text_field(j, "by", true, &why);
        if (!by) return bad(why);
        r.ruling = *ruling;
        r.ruled_by = *by;
        if (j.contains("citations")) {
          if (!j["citations"].is_array()) return bad("citations must be a list of rule ids or texts");
          for (const json& c : j["citations"]) {
            if (!c.is_string() || core::check_text(c.get<std::string>())) return bad("each citation is a text");
            r.citations.push_back(c.get<std::string>());
          }
        }
        if (j.contains("supersede")) {
          if (!j["supersede"].is_boolean()) return bad("supersede must be true or false");
          r.supersede = j["supersede"].get<bool>();
        }
        r.ruled_at = replay::iso_utc(now_ms());
        return on_writer([id = *id, r](Writer& w) -> Answer {
                 bool already = false;
                 auto ruled = w.resolve(id, r, &already);  // then signed with the event's key
                 if (!ruled) return error_answer(status_of(ruled.error().code), ruled.error().message + "; nothing recorded");
                 auto g = w.archive().game(id.game);
                 return Answer{200, json{{"game", id.game}, {"already", already},
                                         {"dispute", replay::dispute_json(*ruled, g ? g->title : std::string())}}.dump(),
                               id.game, !already};
               })
            .then([this, &response](Answer a) {
              if (a.wrote) notify(a.game);
              return send_answer(response, a);
            });
      });
}

}  // namespace warlog::server
