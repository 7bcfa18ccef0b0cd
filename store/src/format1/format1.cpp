// Format 1, read and checked as format 1's verify and check_signatures did.

#include "format1.hpp"

#include <fmt/format.h>
#include <sodium.h>

#include <map>
#include <optional>
#include <utility>

#include "warlog/events/annotation_codec.hpp"
#include "warlog/events/format1.hpp"
#include "warlog/store/lmdb.hpp"

namespace warlog::store::format1 {

namespace fs = std::filesystem;

struct Reader1::Impl {
  fs::path path;
  lmdb::Env env;
  lmdb::Txn txn;
  MDB_dbi games = 0, events = 0, identity = 0, blobs = 0, annotations = 0;
};

namespace {

Error lmdb_failure(const fs::path& p, std::string_view doing, int rc) {
  return Error{rc == MDB_CORRUPTED || rc == MDB_INVALID ? ErrorCode::DataLoss : ErrorCode::IoError,
               fmt::format("store {}: {}: {}", p.string(), doing, lmdb::strerror(rc))};
}

// The version-1 games value: u8 1 · u64 id · u64 count · 32 head · 32 identity · strings...
struct Meta1 {
  core::GameId id = 0;
  core::Seq event_count = 0;
  core::Digest head{};
  core::Digest identity{};
  std::string title;
};

std::optional<Meta1> decode_meta1(std::string_view b) {
  if (b.size() < 1 + 8 + 8 + 32 + 32 + 4 || b[0] != 1) return std::nullopt;
  Meta1 m;
  m.id = get_be64(b.data() + 1);
  m.event_count = get_be64(b.data() + 9);
  for (std::size_t i = 0; i < 32; ++i) {
    m.head[i] = static_cast<std::uint8_t>(b[17 + i]);
    m.identity[i] = static_cast<std::uint8_t>(b[49 + i]);
  }
  std::uint32_t n = 0;
  for (std::size_t i = 81; i < 85; ++i) n = n << 8 | static_cast<unsigned char>(b[i]);
  if (b.size() < 85 + n) return std::nullopt;
  m.title = std::string(b.substr(85, n));
  return m;
}

std::string signed_message1(core::GameId game, core::Seq count, const core::Digest& head) {
  std::string m = "warlog.game-signature.1";
  char b[8];
  put_be64(b, game);
  m.append(b, 8);
  put_be64(b, count);
  m.append(b, 8);
  m.append(reinterpret_cast<const char*>(head.data()), head.size());
  return m;
}

bool signature_valid1(const core::GameSigned& s, core::GameId game) {
  const std::string m = signed_message1(game, s.event_count, s.head);
  return crypto_sign_verify_detached(s.signature.data(), reinterpret_cast<const unsigned char*>(m.data()), m.size(),
                                     s.public_key.data()) == 0;
}

}  // namespace

Reader1::Reader1(std::unique_ptr<Impl> impl) noexcept : impl_(std::move(impl)) {}
Reader1::Reader1(Reader1&&) noexcept = default;
Reader1& Reader1::operator=(Reader1&&) noexcept = default;
Reader1::~Reader1() = default;  // the txn (declared after the env) ends first

Expected<Reader1> Reader1::open(const fs::path& dir) {
  std::error_code ec;
  if (!fs::exists(dir / "data.mdb", ec)) {
    return make_error(ErrorCode::NotFound, fmt::format("no warlog store at {}", dir.string()));
  }
  auto impl = std::make_unique<Impl>();
  impl->path = dir;
  auto env = lmdb::Env::create();
  if (!env) return tl::unexpected(lmdb_failure(dir, "creating the environment", env.error()));
  impl->env = std::move(*env);
  if (auto r = impl->env.set_maxdbs(16); !r) return tl::unexpected(lmdb_failure(dir, "setting maxdbs", r.error()));
  if (auto r = impl->env.open(dir.c_str(), MDB_RDONLY | MDB_NOTLS, 0644); !r) {
    return tl::unexpected(lmdb_failure(dir, "opening", r.error()));
  }
  auto txn = lmdb::Txn::begin(impl->env.handle(), nullptr, MDB_RDONLY);
  if (!txn) return tl::unexpected(lmdb_failure(dir, "beginning a read transaction", txn.error()));
  impl->txn = std::move(*txn);
  MDB_dbi meta = 0;
  auto found = lmdb::dbi_open(impl->txn.handle(), kDbMeta, 0, meta);
  if (!found || !*found) return make_error(ErrorCode::InvalidArgument, fmt::format("{} is not a warlog store", dir.string()));
  auto v = lmdb::get(impl->txn.handle(), meta, kFormatKey);
  std::uint32_t format = 0;
  if (v && *v && (*v)->size() == 4) {
    for (char c : **v) format = format << 8 | static_cast<unsigned char>(c);
  }
  if (format != 1) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("store {} has format {}, not 1: there is nothing to migrate", dir.string(), format));
  }
  const std::pair<const char*, MDB_dbi*> all[] = {{kDbGames, &impl->games},
                                                  {kDbEvents, &impl->events},
                                                  {kDbIdentity, &impl->identity},
                                                  {kDbBlobs, &impl->blobs},
                                                  {kDbAnnotations, &impl->annotations}};
  for (auto [name, out] : all) {
    auto f = lmdb::dbi_open(impl->txn.handle(), name, 0, *out);
    if (!f || !*f) {
      return make_error(ErrorCode::DataLoss, fmt::format("format-1 store {} lacks the {} database", dir.string(), name));
    }
  }
  return Reader1(std::move(impl));
}

Expected<std::vector<core::GameId>> Reader1::game_ids() const {
  auto cursor = lmdb::Cursor::open(impl_->txn.handle(), impl_->games);
  if (!cursor) return tl::unexpected(lmdb_failure(impl_->path, "opening a games cursor", cursor.error()));
  std::vector<core::GameId> out;
  for (auto e = cursor->get(MDB_FIRST); e && *e; e = cursor->get(MDB_NEXT)) {
    if (cursor->key().size() != 8) return make_error(ErrorCode::DataLoss, "a format-1 games key is not 8 bytes");
    out.push_back(get_be64(cursor->key().data()));
  }
  return out;
}

Expected<Game> Reader1::game(core::GameId id) const {
  MDB_txn* txn = impl_->txn.handle();
  auto broken = [&](std::string why) { return make_error(ErrorCode::DataLoss, fmt::format("game {}: {}", id, why)); };
  const auto gkey = game_key(id);
  auto raw = lmdb::get(txn, impl_->games, view(gkey));
  if (!raw || !*raw) return make_error(ErrorCode::NotFound, fmt::format("game {} does not exist", id));
  const auto meta = decode_meta1(**raw);
  if (!meta || meta->id != id) return broken("its format-1 metadata does not decode");
  Game g;
  g.id = id;
  g.title = meta->title;
  g.head = meta->head;
  const std::string_view id_key(reinterpret_cast<const char*>(meta->identity.data()), meta->identity.size());
  auto indexed = lmdb::get(txn, impl_->identity, id_key);
  if (!indexed || !*indexed || (*indexed)->size() != 8 || get_be64((*indexed)->data()) != id) {
    return broken("the identity index does not point back at this game");
  }

  // The chain, and the head after each count (for the signatures).
  std::map<core::Seq, core::Digest> head_after;
  auto cursor = lmdb::Cursor::open(txn, impl_->events);
  if (!cursor) return tl::unexpected(lmdb_failure(impl_->path, "opening an events cursor", cursor.error()));
  core::Digest running{};
  core::Seq expected = 0;
  const auto start = event_key(id, 0);
  for (auto e = cursor->get(MDB_SET_RANGE, view(start)); e && *e; e = cursor->get(MDB_NEXT)) {
    const auto key = cursor->key();
    if (key.size() < 8 || get_be64(key.data()) != id) break;
    const auto parts = parse_event_key(key);
    if (!parts || parts->seq != expected) return broken(fmt::format("event {} is missing", expected));
    const auto bytes = cursor->value();
    auto header = events::format1::decode_header(bytes);
    if (!header) return broken(fmt::format("seq {}: {}", expected, header.error().message));
    if (header->game != id || header->seq != expected) return broken(fmt::format("seq {}: the header names another place", expected));
    if (header->prev_hash != running) return broken(fmt::format("seq {}: prev_hash does not chain", expected));
    auto ev = events::format1::decode_event(bytes);
    if (!ev) return broken(fmt::format("seq {}: {}", expected, ev.error().message));
    running = core::chain_hash(running, bytes);
    g.events.push_back(std::move(*ev));
    ++expected;
    head_after[expected] = running;
  }
  if (expected != meta->event_count) return broken(fmt::format("{} events are stored, the metadata counts {}", expected, meta->event_count));
  if (running != meta->head) return broken("the last event does not hash to the head in the metadata");

  // Annotations: key game ‖ seq ‖ n u32, value packed Annotation.
  auto acur = lmdb::Cursor::open(txn, impl_->annotations);
  if (!acur) return tl::unexpected(lmdb_failure(impl_->path, "opening an annotations cursor", acur.error()));
  for (auto e = acur->get(MDB_SET_RANGE, view(gkey)); e && *e; e = acur->get(MDB_NEXT)) {
    const auto key = acur->key();
    if (key.size() < 8 || get_be64(key.data()) != id) break;
    if (key.size() != 20) return broken("an annotation key is not 20 bytes");
    std::uint32_t n = 0;
    for (std::size_t i = 16; i < 20; ++i) n = n << 8 | static_cast<unsigned char>(key[i]);
    auto value = events::decode_annotation_format1(acur->value());
    if (!value) return broken(fmt::format("annotation {}:{}:{}: {}", id, get_be64(key.data() + 8), n, value.error().message));
    g.annotations.push_back(Annotation{get_be64(key.data() + 8), n, std::move(*value)});
  }
  for (const auto& a : g.annotations) {
    const auto* s = std::get_if<core::GameSigned>(&a.value);
    if (s == nullptr) continue;
    const auto at = head_after.find(s->event_count);
    if (!signature_valid1(*s, id) || at == head_after.end() || at->second != s->head) {
      return broken(fmt::format("the format-1 signature by {} does not verify (INVALID)", s->signer));
    }
    if (s->event_count == expected) g.valid_signatures.push_back(*s);  // stale ones are not carried as signed
  }
  return g;
}

Expected<std::vector<Blob>> Reader1::blobs() const {
  auto cursor = lmdb::Cursor::open(impl_->txn.handle(), impl_->blobs);
  if (!cursor) return tl::unexpected(lmdb_failure(impl_->path, "opening a blobs cursor", cursor.error()));
  std::vector<Blob> out;
  for (auto e = cursor->get(MDB_FIRST); e && *e; e = cursor->get(MDB_NEXT)) {
    const auto key = cursor->key();
    if (key.size() != 33 || (key[0] != 1 && key[0] != 2)) return make_error(ErrorCode::DataLoss, "a format-1 blob key is malformed");
    const auto bytes = cursor->value();
    core::Digest want{};
    for (std::size_t i = 0; i < 32; ++i) want[i] = static_cast<std::uint8_t>(key[1 + i]);
    if (core::blake2b(bytes) != want) {
      return make_error(ErrorCode::DataLoss, fmt::format("the format-1 blob {} does not hash to its name", core::to_hex(want).substr(0, 16)));
    }
    out.push_back(Blob{static_cast<BlobKind>(key[0]), std::string(bytes)});
  }
  return out;
}

}  // namespace warlog::store::format1
