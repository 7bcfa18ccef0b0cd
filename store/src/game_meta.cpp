#include "warlog/store/game_meta.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <optional>

#include "warlog/store/keys.hpp"

namespace warlog::store {

namespace {

void put_u32(std::string& out, std::uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>(v >> shift & 0xFF));
}
void put_u64(std::string& out, std::uint64_t v) {
  char b[8];
  put_be64(b, v);
  out.append(b, 8);
}
void put_str(std::string& out, std::string_view s) {
  put_u32(out, static_cast<std::uint32_t>(s.size()));
  out.append(s);
}
void put_digest(std::string& out, const core::Digest& d) {
  out.append(reinterpret_cast<const char*>(d.data()), d.size());
}

// Reads from the front of a byte view; every read reports a short input.
class ByteReader {
 public:
  explicit ByteReader(std::string_view b) : rest_(b) {}
  std::optional<std::string_view> take(std::size_t n) {
    if (rest_.size() < n) return std::nullopt;
    auto out = rest_.substr(0, n);
    rest_.remove_prefix(n);
    return out;
  }
  std::optional<std::uint8_t> u8() {
    auto b = take(1);
    if (!b) return std::nullopt;
    return static_cast<std::uint8_t>((*b)[0]);
  }
  std::optional<std::uint32_t> u32() {
    auto b = take(4);
    if (!b) return std::nullopt;
    std::uint32_t v = 0;
    for (char c : *b) v = v << 8 | static_cast<unsigned char>(c);
    return v;
  }
  std::optional<std::uint64_t> u64() {
    auto b = take(8);
    if (!b) return std::nullopt;
    return get_be64(b->data());
  }
  std::optional<std::string> str() {
    auto n = u32();
    if (!n) return std::nullopt;
    auto b = take(*n);
    if (!b) return std::nullopt;
    return std::string(*b);
  }
  bool digest(core::Digest& d) {
    auto b = take(d.size());
    if (!b) return false;
    for (std::size_t i = 0; i < d.size(); ++i) d[i] = static_cast<std::uint8_t>((*b)[i]);
    return true;
  }
  [[nodiscard]] bool empty() const { return rest_.empty(); }

 private:
  std::string_view rest_;
};

}  // namespace

std::string encode_game_meta(const GameMeta& m) {
  std::string out;
  out.reserve(128 + m.title.size() + m.date.size() + m.ruleset_hash.size() + m.catalog_hash.size());
  out.push_back(static_cast<char>(kGameMetaVersion));
  put_u64(out, m.id);
  put_u64(out, m.event_count);
  put_digest(out, m.head);
  put_digest(out, m.identity);
  put_str(out, m.title);
  put_str(out, m.date);
  put_str(out, m.ruleset_hash);
  put_str(out, m.catalog_hash);
  out.push_back(static_cast<char>(m.seats.size()));
  for (const auto& s : m.seats) {
    put_str(out, s.player);
    out.push_back(static_cast<char>(s.allegiance));
  }
  // The annotation chain (annotations.hpp).
  put_u64(out, m.annotation_count);
  put_digest(out, m.annotation_head);
  return out;
}

core::Digest game_identity(const core::GameCreated& g) {
  std::string out = "warlog.game-identity.1";
  for (const std::string* s : {&g.title, &g.date, &g.ruleset_hash, &g.catalog_hash}) {
    put_str(out, *s);
  }
  put_u32(out, static_cast<std::uint32_t>(g.seats.size()));
  for (const auto& seat : g.seats) {
    put_str(out, seat.player);
    out.push_back(static_cast<char>(seat.allegiance));
  }
  put_u32(out, static_cast<std::uint32_t>(g.territories.size()));
  for (const auto& t : g.territories) {
    put_str(out, t.card);
    out.push_back(static_cast<char>(t.space.col));
    out.push_back(static_cast<char>(t.space.row));
  }
  out.push_back(static_cast<char>(g.cols));
  out.push_back(static_cast<char>(g.rows));
  return core::blake2b(out);
}

Expected<GameMeta> decode_game_meta(std::string_view bytes) {
  auto corrupt = [&](std::string_view what) {
    return make_error(ErrorCode::DataLoss,
                      fmt::format("game metadata ({} bytes) is corrupt: {}", bytes.size(), what));
  };
  ByteReader in(bytes);
  const auto version = in.u8();
  if (!version) return corrupt("empty");
  if (*version > kGameMetaVersion) {
    return make_error(ErrorCode::Unsupported,
                      fmt::format("game metadata version {} is newer than this warlog reads ({})",
                                  *version, kGameMetaVersion));
  }
  if (*version == 0) return corrupt("version 0");
  GameMeta m;
  const auto id = in.u64();
  const auto count = in.u64();
  if (!id || !count) return corrupt("truncated header");
  m.id = *id;
  m.event_count = *count;
  if (!in.digest(m.head) || !in.digest(m.identity)) return corrupt("truncated hashes");
  for (std::string* s : {&m.title, &m.date, &m.ruleset_hash, &m.catalog_hash}) {
    auto v = in.str();
    if (!v) return corrupt("truncated string");
    *s = std::move(*v);
  }
  const auto seats = in.u8();
  if (!seats) return corrupt("truncated seat count");
  for (unsigned i = 0; i < *seats; ++i) {
    auto player = in.str();
    auto allegiance = in.u8();
    if (!player || !allegiance) return corrupt("truncated seat");
    if (*allegiance > static_cast<std::uint8_t>(core::Allegiance::Hirelings)) {
      return corrupt(fmt::format("unknown allegiance {}", *allegiance));
    }
    m.seats.push_back(
        core::SeatSetup{std::move(*player), static_cast<core::Allegiance>(*allegiance)});
  }
  // The annotation chain (annotations.hpp).
  const auto annotations = in.u64();
  if (!annotations || !in.digest(m.annotation_head)) return corrupt("truncated annotation chain");
  m.annotation_count = *annotations;
  if (!in.empty()) return corrupt("trailing bytes");
  return m;
}

}  // namespace warlog::store
