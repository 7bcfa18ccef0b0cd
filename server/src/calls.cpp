// server::Calls (calls.hpp).

#include "calls.hpp"

#include <fmt/format.h>

#include "store_file.hpp"

namespace warlog::server {

using nlohmann::json;

json call_json(const Call& c) {
  return {{"game", c.game},
          {"raised_ms", c.raised_ms},
          {"raised_by", c.raised_by},
          {"note", c.note},
          {"answered_ms", c.answered_ms > 0 ? json(c.answered_ms) : json(nullptr)},
          {"answered_by", c.answered_by}};
}

Expected<void> Calls::load() {
  auto text = read_store_file(file_);
  if (!text) return tl::unexpected(text.error());
  calls_.clear();
  if (text->empty()) return {};
  const json j = json::parse(*text, nullptr, false);
  const auto bad = [this] {
    return make_error(ErrorCode::DataLoss, fmt::format("{} does not parse: remove it to start with no call", file_.string()));
  };
  if (j.is_discarded() || !j.is_object() || !j.contains("calls") || !j["calls"].is_array()) return bad();
  try {
    for (const json& e : j["calls"]) {
      Call c;
      c.game = e.at("game").get<core::GameId>();
      c.raised_ms = e.at("raised_ms").get<std::int64_t>();
      c.raised_by = e.at("raised_by").get<std::string>();
      c.note = e.at("note").get<std::string>();
      c.answered_ms = e.at("answered_ms").is_null() ? 0 : e.at("answered_ms").get<std::int64_t>();
      c.answered_by = e.at("answered_by").get<std::string>();
      calls_[c.game] = std::move(c);
    }
  } catch (const json::exception&) {
    return bad();
  }
  return {};
}

const Call* Calls::find(core::GameId game) const {
  const auto it = calls_.find(game);
  return it == calls_.end() ? nullptr : &it->second;
}

const Call& Calls::raise(core::GameId game, std::int64_t now_ms, std::string raised_by, std::string note) {
  auto [it, fresh] = calls_.try_emplace(game, Call{game, now_ms, std::move(raised_by), std::move(note), 0, {}});
  if (fresh) ++versions_[game];
  return it->second;
}

const Call* Calls::answer(core::GameId game, std::int64_t now_ms, std::string by) {
  const auto it = calls_.find(game);
  if (it == calls_.end()) return nullptr;
  it->second.answered_ms = now_ms;
  it->second.answered_by = std::move(by);
  ++versions_[game];
  return &it->second;
}

bool Calls::clear(core::GameId game) {
  if (calls_.erase(game) == 0) return false;
  ++versions_[game];
  return true;
}

std::uint64_t Calls::version(core::GameId game) const {
  const auto it = versions_.find(game);
  return it == versions_.end() ? 0 : it->second;
}

std::string Calls::text() const {
  json list = json::array();
  for (const auto& [game, c] : calls_) list.push_back(call_json(c));
  return json{{"calls", list}}.dump(1) + "\n";
}

}  // namespace warlog::server
