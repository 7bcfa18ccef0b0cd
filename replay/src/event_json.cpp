// core::Event <-> JSON (conventions: event_json.hpp). No Cap'n Proto here.

#include "warlog/replay/event_json.hpp"

#include <array>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

namespace warlog::core {
// A card is its name in JSON (found by nlohmann through ADL).
void to_json(nlohmann::json& j, const CardName& c) { j = c.str(); }
void from_json(const nlohmann::json& j, CardName& c) { c = CardName(j.get_ref<const std::string&>()); }
}  // namespace warlog::core

namespace warlog::replay {

namespace {

using json = nlohmann::json;
using namespace core;

// Bad input while reading; event_from_json turns it into an Error.
struct BadField {
  std::string what;
};

constexpr std::array<std::string_view, 4> kVictory = {"supremacy", "attrition", "concession", "unfinished"};
constexpr std::array<std::string_view, 3> kChargeMode = {"normal", "burrow", "card"};
constexpr std::array<std::string_view, 2> kRecovery = {"pay", "reshuffle"};

template <class E, std::size_t N>
json enum_json(E v, const std::array<std::string_view, N>& names) {
  const auto i = static_cast<std::size_t>(v);
  return i < N ? json(names[i]) : json(static_cast<int>(i));
}
template <class E, std::size_t N>
E enum_from(const json& j, const std::array<std::string_view, N>& names, const char* field) {
  const auto s = j.get<std::string>();
  for (std::size_t i = 0; i < N; ++i) {
    if (names[i] == s) return static_cast<E>(i);
  }
  throw BadField{std::string(field) + ": unknown value '" + s + "'"};
}

// --- Vocabulary -------------------------------------------------------------------
json seat_json(Seat s) { return s == kNoSeat ? 0 : static_cast<int>(s) + 1; }
Seat seat_from(const json& j) {
  const int v = j.get<int>();
  if (v == 0) return kNoSeat;
  if (v < 1 || v > 255) throw BadField{"seat " + std::to_string(v) + " is out of range"};
  return static_cast<Seat>(v - 1);
}

json space_json(Space s) {
  if (s == Space{}) return nullptr;
  if (const auto back = space_from_string(to_string(s)); back && *back == s) return to_string(s);
  return {{"col", s.col}, {"row", s.row}};
}
Space space_from(const json& j) {
  if (j.is_null()) return Space{};
  if (j.is_object()) return Space{j.at("col").get<std::int8_t>(), j.at("row").get<std::int8_t>()};
  const auto s = j.get<std::string>();
  const auto sp = space_from_string(s);
  if (!sp) throw BadField{"'" + s + "' is not a space"};
  return *sp;
}

json counts_json(const std::vector<CardCount>& v) {
  json out = json::array();
  for (const auto& c : v) out.push_back({{"card", c.card}, {"count", c.count}});
  return out;
}
std::vector<CardCount> counts_from(const json& j) {
  std::vector<CardCount> out;
  for (const auto& c : j) out.push_back({c.at("card").get<std::string>(), c.at("count").get<int>()});
  return out;
}

json strikes_json(const std::vector<Strike>& v) {
  json out = json::array();
  for (const auto& s : v) out.push_back({{"target", space_json(s.target)}, {"damage", s.damage}});
  return out;
}
std::vector<Strike> strikes_from(const json& j) {
  std::vector<Strike> out;
  for (const auto& s : j) out.push_back({space_from(s.at("target")), s.at("damage").get<int>()});
  return out;
}

json items_json(const std::vector<PaidItem>& v) {
  json out = json::array();
  for (const auto& i : v) out.push_back({{"space", space_json(i.space)}, {"card", i.card}});
  return out;
}
std::vector<PaidItem> items_from(const json& j) {
  std::vector<PaidItem> out;
  for (const auto& i : j) out.push_back({space_from(i.at("space")), i.at("card").get<std::string>()});
  return out;
}

json move_json(const TroopMoved& m) { return {{"from", space_json(m.from)}, {"to", space_json(m.to)}}; }
TroopMoved move_from(const json& j) { return {space_from(j.at("from")), space_from(j.at("to"))}; }

std::string hex_of(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 0xF]);
  }
  return out;
}
std::string bytes_of_hex(std::string_view hex, std::string_view field = "game_uuid") {
  auto nibble = [field](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    throw BadField{std::string(field) + " is not lowercase hex"};
  };
  if (hex.size() % 2 != 0) throw BadField{std::string(field) + " is not whole bytes of hex"};
  std::string out;
  for (std::size_t i = 0; i < hex.size(); i += 2) out.push_back(static_cast<char>(nibble(hex[i]) << 4 | nibble(hex[i + 1])));
  return out;
}

// --- Payloads -> JSON -------------------------------------------------------------
struct ToJson {
  json operator()(const GameCreated& p) const {
    json seats = json::array();
    for (const auto& s : p.seats) seats.push_back({{"player", s.player}, {"allegiance", to_string(s.allegiance)}});
    json territories = json::array();
    for (const auto& t : p.territories) territories.push_back({{"card", t.card}, {"space", space_json(t.space)}});
    json out = {{"title", p.title},         {"date", p.date},   {"ruleset_hash", p.ruleset_hash},
                {"catalog_hash", p.catalog_hash}, {"seats", seats}, {"territories", territories},
                {"cols", p.cols},           {"rows", p.rows}};
    if (!p.game_uuid.empty()) out["game_uuid"] = hex_of(p.game_uuid);  // set live only
    if (!p.event.empty()) out["event"] = p.event;  // an event's game only (tournament/)
    if (p.round != 0) out["round"] = p.round;
    if (p.table != 0) out["table"] = p.table;
    return out;
  }
  json operator()(const ArmyRegistered& p) const {
    return {{"seat", seat_json(p.seat)}, {"army", counts_json(p.army)}, {"orders", counts_json(p.orders)}};
  }
  json operator()(const TurnStarted&) const { return json::object(); }
  json operator()(const MoraleChecked& p) const { return {{"leader", seat_json(p.leader)}}; }
  json operator()(const PhaseStarted&) const { return json::object(); }
  json operator()(const GameEnded& p) const {
    return {{"winner", seat_json(p.winner)}, {"victory", enum_json(p.victory, kVictory)}};
  }
  json operator()(const CardsDrawn& p) const { return {{"cards", p.cards}}; }
  json operator()(const Foraged& p) const { return {{"card", p.card}}; }
  json operator()(const ReturnedFromHomeland& p) const { return {{"card", p.card}}; }
  json operator()(const GambitStocked& p) const { return {{"card", p.card}}; }
  json operator()(const CardPlayed& p) const { return {{"card", p.card}, {"space", space_json(p.space)}}; }
  json operator()(const TroopMoved& p) const { return move_json(p); }
  json operator()(const TroopsShifted& p) const {
    json moves = json::array();
    for (const auto& m : p.moves) moves.push_back(move_json(m));
    return {{"moves", moves}};
  }
  json operator()(const AbilityUsed& p) const { return {{"space", space_json(p.space)}, {"ability", p.ability}}; }
  json operator()(const TroopBurrowed& p) const { return {{"space", space_json(p.space)}}; }
  json operator()(const TroopUnburrowed& p) const { return {{"space", space_json(p.space)}}; }
  json operator()(const ShotteFired& p) const {
    return {{"shooter", space_json(p.shooter)}, {"target", space_json(p.target)}, {"damage", p.damage}};
  }
  json operator()(const ChargeDeclared& p) const {
    return {{"mode", enum_json(p.mode, kChargeMode)}, {"from", space_json(p.from)}};
  }
  json operator()(const ChargeDeclined&) const { return json::object(); }
  json operator()(const LocalFavorUsed& p) const { return {{"option", p.option}}; }
  json operator()(const CombatResolved& p) const {
    json defenders = json::array();
    for (const auto& d : p.defenders) {
      defenders.push_back({{"defender", space_json(d.defender)}, {"strikes", strikes_json(d.strikes)}});
    }
    return {{"troop", space_json(p.troop)}, {"strikes", strikes_json(p.strikes)}, {"defenders", defenders}};
  }
  json operator()(const TroopLost& p) const { return {{"space", space_json(p.space)}}; }
  json operator()(const TroopDefeated& p) const {
    json j{{"space", space_json(p.space)}};
    if (p.beneath.valid()) j["beneath"] = space_json(p.beneath);
    return j;
  }
  json operator()(const LostTroopRecovered& p) const {
    return {{"space", space_json(p.space)}, {"mode", enum_json(p.mode, kRecovery)}, {"to", space_json(p.to)}};
  }
  json operator()(const ProvisionsPaid& p) const {
    return {{"paid", items_json(p.paid)}, {"unpaid", items_json(p.unpaid)}};
  }
  json operator()(const CardsDiscarded& p) const { return {{"cards", p.cards}}; }
  json operator()(const TerritoryControlTaken& p) const { return {{"territory", space_json(p.territory)}}; }
  json operator()(const TroopFled& p) const { return {{"space", space_json(p.space)}}; }
  json operator()(const Voided& p) const { return {{"target", p.target}, {"reason", p.reason}, {"by", p.by}}; }
  json operator()(const BackupTo& p) const {
    json out = {{"target", p.target}, {"reason", p.reason}, {"by", p.by}};
    if (!p.signature.empty()) out["signature"] = hex_of(p.signature);  // absent: unsigned
    return out;
  }
};

// --- JSON -> payloads -------------------------------------------------------------
void read(const json& j, GameCreated& p) {
  p.title = j.at("title").get<std::string>();
  p.date = j.at("date").get<std::string>();
  p.ruleset_hash = j.at("ruleset_hash").get<std::string>();
  p.catalog_hash = j.at("catalog_hash").get<std::string>();
  for (const auto& s : j.at("seats")) {
    const auto name = s.at("allegiance").get<std::string>();
    const auto a = allegiance_from_string(name);
    if (!a) throw BadField{"allegiance '" + name + "' is unknown"};
    p.seats.push_back({s.at("player").get<std::string>(), *a});
  }
  for (const auto& t : j.at("territories")) p.territories.push_back({t.at("card").get<std::string>(), space_from(t.at("space"))});
  p.cols = j.at("cols").get<std::int8_t>();
  p.rows = j.at("rows").get<std::int8_t>();
  if (j.contains("game_uuid")) p.game_uuid = bytes_of_hex(j.at("game_uuid").get<std::string>());
  if (j.contains("event")) p.event = j.at("event").get<std::string>();
  if (j.contains("round")) p.round = j.at("round").get<std::uint16_t>();
  if (j.contains("table")) p.table = j.at("table").get<std::uint16_t>();
}
void read(const json& j, ArmyRegistered& p) {
  p.seat = seat_from(j.at("seat"));
  p.army = counts_from(j.at("army"));
  p.orders = counts_from(j.at("orders"));
}
void read(const json&, TurnStarted&) {}
void read(const json& j, MoraleChecked& p) { p.leader = seat_from(j.at("leader")); }
void read(const json&, PhaseStarted&) {}
void read(const json& j, GameEnded& p) {
  p.winner = seat_from(j.at("winner"));
  p.victory = enum_from<Victory>(j.at("victory"), kVictory, "victory");
}
void read(const json& j, CardsDrawn& p) { p.cards = j.at("cards").get<std::vector<CardName>>(); }
void read(const json& j, Foraged& p) { p.card = j.at("card").get<std::string>(); }
void read(const json& j, ReturnedFromHomeland& p) { p.card = j.at("card").get<std::string>(); }
void read(const json& j, GambitStocked& p) { p.card = j.at("card").get<std::string>(); }
void read(const json& j, CardPlayed& p) {
  p.card = j.at("card").get<std::string>();
  p.space = space_from(j.at("space"));
}
void read(const json& j, TroopMoved& p) { p = move_from(j); }
void read(const json& j, TroopsShifted& p) {
  for (const auto& m : j.at("moves")) p.moves.push_back(move_from(m));
}
void read(const json& j, AbilityUsed& p) {
  p.space = space_from(j.at("space"));
  p.ability = j.at("ability").get<std::string>();
}
void read(const json& j, TroopBurrowed& p) { p.space = space_from(j.at("space")); }
void read(const json& j, TroopUnburrowed& p) { p.space = space_from(j.at("space")); }
void read(const json& j, ShotteFired& p) {
  p.shooter = space_from(j.at("shooter"));
  p.target = space_from(j.at("target"));
  p.damage = j.at("damage").get<int>();
}
void read(const json& j, ChargeDeclared& p) {
  p.mode = enum_from<ChargeMode>(j.at("mode"), kChargeMode, "mode");
  p.from = space_from(j.at("from"));
}
void read(const json&, ChargeDeclined&) {}
void read(const json& j, LocalFavorUsed& p) { p.option = j.at("option").get<std::string>(); }
void read(const json& j, CombatResolved& p) {
  p.troop = space_from(j.at("troop"));
  p.strikes = strikes_from(j.at("strikes"));
  for (const auto& d : j.at("defenders")) p.defenders.push_back({space_from(d.at("defender")), strikes_from(d.at("strikes"))});
}
void read(const json& j, TroopLost& p) { p.space = space_from(j.at("space")); }
void read(const json& j, TroopDefeated& p) {
  p.space = space_from(j.at("space"));
  if (j.contains("beneath")) p.beneath = space_from(j.at("beneath"));
}
void read(const json& j, LostTroopRecovered& p) {
  p.space = space_from(j.at("space"));
  p.mode = enum_from<Recovery>(j.at("mode"), kRecovery, "mode");
  p.to = space_from(j.at("to"));
}
void read(const json& j, ProvisionsPaid& p) {
  p.paid = items_from(j.at("paid"));
  p.unpaid = items_from(j.at("unpaid"));
}
void read(const json& j, CardsDiscarded& p) { p.cards = j.at("cards").get<std::vector<CardName>>(); }
void read(const json& j, TerritoryControlTaken& p) { p.territory = space_from(j.at("territory")); }
void read(const json& j, TroopFled& p) { p.space = space_from(j.at("space")); }
void read(const json& j, Voided& p) {
  p.target = j.at("target").get<Seq>();
  p.reason = j.at("reason").get<std::string>();
  p.by = j.at("by").get<std::string>();
}
void read(const json& j, BackupTo& p) {
  p.target = j.at("target").get<Seq>();
  p.reason = j.at("reason").get<std::string>();
  p.by = j.at("by").get<std::string>();
  if (j.contains("signature")) p.signature = bytes_of_hex(j.at("signature").get<std::string>(), "signature");
}

// Sets `out` to the payload alternative named `type` read from j; false when
// no alternative has that name.
template <std::size_t... I>
bool read_payload(std::string_view type, const json& j, Payload& out, std::index_sequence<I...>) {
  auto one = [&]<std::size_t K>(std::integral_constant<std::size_t, K>) {
    if (payload_name(Payload(std::in_place_index<K>)) != type) return false;
    read(j, out.emplace<K>());
    return true;
  };
  return (one(std::integral_constant<std::size_t, I>{}) || ...);
}

}  // namespace

json event_json(const Event& ev) {
  json out = {{"game", ev.game},
              {"seq", ev.seq},
              {"turn", ev.turn},
              {"phase", to_string(ev.phase)},
              {"seat", seat_json(ev.seat)},
              {"type", payload_name(ev.payload)},
              {"payload", std::visit(ToJson{}, ev.payload)}};
  if (ev.recorded_at_ms != 0) out["recorded_at_ms"] = ev.recorded_at_ms;  // 0: not recorded
  return out;
}

Expected<Event> event_from_json(const json& j) {
  try {
    Event ev;
    ev.game = j.at("game").get<GameId>();
    ev.seq = j.at("seq").get<Seq>();
    ev.turn = j.at("turn").get<std::uint16_t>();
    const auto phase_name = j.at("phase").get<std::string>();
    const auto phase = phase_from_string(phase_name);
    if (!phase) throw BadField{"phase '" + phase_name + "' is unknown"};
    ev.phase = *phase;
    ev.seat = seat_from(j.at("seat"));
    if (j.contains("recorded_at_ms")) ev.recorded_at_ms = j.at("recorded_at_ms").get<std::int64_t>();
    const auto type = j.at("type").get<std::string>();
    if (!read_payload(type, j.at("payload"), ev.payload, std::make_index_sequence<std::variant_size_v<Payload>>{})) {
      throw BadField{"type '" + type + "' is not an event this warlog knows"};
    }
    return ev;
  } catch (const BadField& e) {
    return make_error(ErrorCode::InvalidArgument, "event JSON: " + e.what);
  } catch (const json::exception& e) {
    return make_error(ErrorCode::InvalidArgument, std::string("event JSON: ") + e.what());
  }
}

}  // namespace warlog::replay
