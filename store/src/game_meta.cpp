#include "warlog/store/game_meta.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <string>

#include "warlog/store/keys.hpp"

namespace warlog::store {

namespace {

void put_u64(std::string& out, std::uint64_t v) {
  char b[8];
  put_be64(b, v);
  out.append(b, 8);
}
void put_digest(std::string& out, const core::Digest& d) {
  out.append(reinterpret_cast<const char*>(d.data()), d.size());
}
void get_digest(const char* in, core::Digest& d) {
  for (std::size_t i = 0; i < d.size(); ++i) d[i] = static_cast<std::uint8_t>(in[i]);
}

core::Digest tagged(std::string_view tag, std::string_view bytes) {
  std::string in;
  in.reserve(tag.size() + bytes.size());
  in.append(tag);
  in.append(bytes);
  return core::blake2b(in);
}

}  // namespace

core::Digest game_identity(std::string_view canonical_event0) {
  return tagged("warlog.game-identity.2", canonical_event0);
}


std::string encode_game_meta(const GameMeta& m) {
  std::string out;
  out.reserve(kGameMetaBytes);
  out.push_back(static_cast<char>(kGameMetaVersion));
  put_u64(out, m.event_count);
  put_digest(out, m.head);
  put_u64(out, m.annotation_count);
  put_digest(out, m.annotation_head);
  put_digest(out, m.identity);
  out.push_back(static_cast<char>(m.flags));
  return out;
}

Expected<GameMeta> decode_game_meta(std::string_view bytes) {
  auto corrupt = [&](std::string_view what) {
    return make_error(ErrorCode::DataLoss,
                      fmt::format("the game record ({} bytes) is corrupt: {}", bytes.size(), what));
  };
  if (bytes.empty()) return corrupt("empty");
  const auto version = static_cast<std::uint8_t>(bytes[0]);
  if (version == 1) {
    return make_error(ErrorCode::Unsupported, "the game record is format 1's: run `warlog migrate`");
  }
  if (version > kGameMetaVersion) {
    return make_error(ErrorCode::Unsupported,
                      fmt::format("game record version {} is newer than this warlog reads ({})", version,
                                  kGameMetaVersion));
  }
  if (version != kGameMetaVersion) return corrupt(fmt::format("version {}", version));
  if (bytes.size() != kGameMetaBytes) {
    return corrupt(fmt::format("{} bytes, a version-2 record has {}", bytes.size(), kGameMetaBytes));
  }
  GameMeta m;
  const char* p = bytes.data() + 1;
  m.event_count = get_be64(p);
  get_digest(p + 8, m.head);
  m.annotation_count = get_be64(p + 40);
  get_digest(p + 48, m.annotation_head);
  get_digest(p + 80, m.identity);
  m.flags = static_cast<std::uint8_t>(p[112]);
  if ((m.flags & ~kGameMigrated) != 0) return corrupt(fmt::format("unknown flags {:#04x}", m.flags));
  if (m.event_count == 0) return corrupt("an event count of 0 (every game has its GameCreated)");
  return m;
}

}  // namespace warlog::store
