#pragma once
// Store format 2's block layout read and written by the tests themselves (an
// independent reading of docs/architecture.md › "Store format 2" › 3, not
// the store's code), so that a test can damage a block the way a disk or a
// forger would: flip a byte, recompute the tags, recompute S, or not. A
// compressed block (codec 1) is read decompressed and written compressed
// again, so an edit of its events goes through zstd as a forger's would.

#include <sodium.h>
#include <zstd.h>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "warlog/core/hash.hpp"
#include "warlog/store/keys.hpp"
#include "warlog/store/lmdb.hpp"

namespace warlog::store::test {

// The first seq of the block (segment) holding seq: 0, then 1, 65, 129, ...
inline core::Seq block_first(core::Seq seq) { return seq == 0 ? 0 : (seq - 1) / 64 * 64 + 1; }

inline core::Digest chain_start() { return core::blake2b("warlog.event-chain.2"); }

inline std::uint64_t tag_of(core::Seq seq, std::string_view canonical) {
  unsigned char be[8];
  for (int i = 7; i >= 0; --i, seq >>= 8) be[i] = static_cast<unsigned char>(seq & 0xFF);
  crypto_generichash_state st;
  crypto_generichash_init(&st, nullptr, 0, 16);
  crypto_generichash_update(&st, be, 8);
  crypto_generichash_update(&st, reinterpret_cast<const unsigned char*>(canonical.data()), canonical.size());
  unsigned char out[16];
  crypto_generichash_final(&st, out, 16);
  std::uint64_t t = 0;
  std::memcpy(&t, out, 8);
  return t;
}

// The check a codec-1 body ends with: SipHash-2-4 (crypto_shorthash) of the
// frame under the first 16 bytes of BLAKE2b-256("warlog.zstd-frame-check.1"),
// u64 LE.
inline std::string frame_check(std::string_view frame) {
  const core::Digest key = core::blake2b("warlog.zstd-frame-check.1");
  unsigned char out[crypto_shorthash_BYTES];
  crypto_shorthash(out, reinterpret_cast<const unsigned char*>(frame.data()), frame.size(), key.data());
  return std::string(reinterpret_cast<const char*>(out), sizeof out);
}
// A zstd frame of `body` and its check: a codec-1 stored body.
inline std::string zstd_body(std::string_view body, int level = 3) {
  std::string z(ZSTD_compressBound(body.size()), '\0');
  const std::size_t n = ZSTD_compress(z.data(), z.size(), body.data(), body.size(), level);
  if (ZSTD_isError(n)) throw std::runtime_error("zstd");
  z.resize(n);
  return z + frame_check(z);
}

struct TestBlock {
  std::uint8_t version = 1;
  std::uint8_t codec = 0;
  core::Digest s{};
  std::vector<std::uint64_t> tags;
  std::vector<std::string> events;  // canonical bytes

  static TestBlock parse(std::string_view v) {
    if (v.size() < 40) throw std::runtime_error("short block");
    TestBlock b;
    b.version = static_cast<std::uint8_t>(v[0]);
    b.codec = static_cast<std::uint8_t>(v[1]);
    const std::size_t n = static_cast<unsigned char>(v[2]) | static_cast<std::size_t>(static_cast<unsigned char>(v[3])) << 8;
    std::memcpy(b.s.data(), v.data() + 8, 32);
    for (std::size_t i = 0; i < n; ++i) {
      std::uint64_t t = 0;
      std::memcpy(&t, v.data() + 40 + 8 * i, 8);
      b.tags.push_back(t);
    }
    std::string_view body = v.substr(40 + 8 * n);
    std::string unpacked;
    if (b.codec == 1) {
      std::size_t raw = 0;
      for (int i = 3; i >= 0; --i) raw = raw << 8 | static_cast<unsigned char>(v[4 + static_cast<std::size_t>(i)]);
      unpacked.resize(raw);
      if (body.size() < 8) throw std::runtime_error("a zstd body without its check");
      const std::size_t got = ZSTD_decompress(unpacked.data(), raw, body.data(), body.size() - 8);
      if (ZSTD_isError(got) || got != raw) throw std::runtime_error("a zstd body that does not decode");
      body = unpacked;
    }
    while (!body.empty()) {
      std::uint32_t len = 0;
      for (int i = 3; i >= 0; --i) len = len << 8 | static_cast<unsigned char>(body[static_cast<std::size_t>(i)]);
      b.events.emplace_back(body.substr(4, len));
      body.remove_prefix(4 + len);
    }
    return b;
  }

  [[nodiscard]] std::string body() const {
    std::string out;
    for (const auto& e : events) {
      for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>(e.size() >> (8 * i) & 0xFF));
      out += e;
    }
    return out;
  }
  // n is the number of tags (as a forger might leave it).
  [[nodiscard]] std::string value() const {
    std::string out;
    out.push_back(static_cast<char>(version));
    out.push_back(static_cast<char>(codec));
    out.push_back(static_cast<char>(tags.size() & 0xFF));
    out.push_back(static_cast<char>(tags.size() >> 8));
    const std::string b = body();
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>(b.size() >> (8 * i) & 0xFF));
    out.append(reinterpret_cast<const char*>(s.data()), 32);
    for (const auto t : tags) out.append(reinterpret_cast<const char*>(&t), 8);
    return out + stored(b);
  }
  // The body as the block stores it: zstd-compressed for codec 1.
  [[nodiscard]] std::string stored(const std::string& b) const { return codec == 1 ? zstd_body(b) : b; }
  void retag(core::Seq first) {
    tags.clear();
    for (std::size_t i = 0; i < events.size(); ++i) tags.push_back(tag_of(first + i, events[i]));
  }
  void rehash(const core::Digest& prev) { s = core::chain_hash(prev, body()); }
};

inline TestBlock read_block(MDB_txn* txn, MDB_dbi dbi, core::GameId game, core::Seq first) {
  const auto key = event_key(game, first);
  auto v = lmdb::get(txn, dbi, view(key));
  if (!v || !*v) throw std::runtime_error("block missing");
  return TestBlock::parse(**v);
}

inline void write_block(MDB_txn* txn, MDB_dbi dbi, core::GameId game, core::Seq first, const TestBlock& b) {
  const auto key = event_key(game, first);
  auto r = lmdb::put(txn, dbi, view(key), b.value(), 0);
  if (!r || !*r) throw std::runtime_error("block put failed");
}

// The canonical bytes of one event, by seq.
inline std::string raw_event(MDB_txn* txn, MDB_dbi dbi, core::GameId game, core::Seq seq) {
  const core::Seq first = block_first(seq);
  return read_block(txn, dbi, game, first).events.at(seq - first);
}

}  // namespace warlog::store::test
