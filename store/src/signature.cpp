// Ed25519 signatures over a game: keys, key files, the signed messages,
// signing, and checking against the stored events and annotations
// (signature.hpp says what is signed).

#include "warlog/store/signature.hpp"

#include <fcntl.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <span>
#include <variant>

#include <fmt/format.h>

#include "warlog/events/annotation_codec.hpp"
#include "warlog/store/reader.hpp"
#include "warlog/store/store.hpp"

namespace warlog::store {

namespace fs = std::filesystem;

static_assert(crypto_sign_PUBLICKEYBYTES == 32 && crypto_sign_BYTES == 64 && crypto_sign_SEEDBYTES == 32);

namespace {

constexpr std::string_view kGameTag = "warlog.game-signature.2";
constexpr std::string_view kRulingTag = "warlog.ruling-signature.2";

void put_le(std::string& m, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) m.push_back(static_cast<char>(v >> (8 * i) & 0xFF));
}
template <std::size_t N>
void put_bytes(std::string& m, const std::array<std::uint8_t, N>& b) {
  m.append(reinterpret_cast<const char*>(b.data()), b.size());
}

// The prefix both messages share.
Expected<std::string> message_prefix(std::string_view tag, std::string_view signer, std::int64_t signed_at_ms,
                                     const core::KeyId& key_id, const core::Digest& identity) {
  if (signer.size() > 0xFFFF) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("a signer's name of {} bytes is too long (the limit is 65,535)", signer.size()));
  }
  std::string m(tag);
  put_le(m, signer.size(), 2);
  m.append(signer);
  put_le(m, static_cast<std::uint64_t>(signed_at_ms), 8);
  put_bytes(m, key_id);
  put_bytes(m, identity);
  return m;
}

Expected<void> init_sodium() {
  if (sodium_init() < 0) return make_error(ErrorCode::Internal, "libsodium failed to initialise");
  return {};
}

// The 64-byte libsodium secret key (seed ‖ public key), wiped on scope exit.
struct ExpandedKey {
  std::array<unsigned char, crypto_sign_SECRETKEYBYTES> bytes{};
  explicit ExpandedKey(const std::array<std::uint8_t, 32>& seed) {
    std::array<unsigned char, 32> pk{};
    crypto_sign_seed_keypair(pk.data(), bytes.data(), seed.data());
  }
  ExpandedKey(const ExpandedKey&) = delete;
  ExpandedKey& operator=(const ExpandedKey&) = delete;
  ~ExpandedKey() { sodium_memzero(bytes.data(), bytes.size()); }
};

std::string errno_text() { return std::strerror(errno); }

}  // namespace

// --- Keys -------------------------------------------------------------------------
KeyPair::~KeyPair() { sodium_memzero(seed.data(), seed.size()); }

Expected<KeyPair> generate_keypair() {
  if (auto ok = init_sodium(); !ok) return tl::unexpected(ok.error());
  std::array<std::uint8_t, 32> seed{};
  randombytes_buf(seed.data(), seed.size());
  KeyPair k = keypair_from_seed(seed);
  sodium_memzero(seed.data(), seed.size());
  return k;
}

KeyPair keypair_from_seed(const std::array<std::uint8_t, 32>& seed) {
  KeyPair k;
  k.seed = seed;
  std::array<unsigned char, crypto_sign_SECRETKEYBYTES> sk{};
  crypto_sign_seed_keypair(k.public_key.data(), sk.data(), seed.data());
  sodium_memzero(sk.data(), sk.size());
  return k;
}

std::string public_key_hex(const core::PublicKey& key) { return core::to_hex(key); }

Expected<void> write_key_file(const fs::path& path, const KeyPair& key) {
  // O_EXCL: never replace a file, not even one that appears between a check
  // and the open. The mode is set at creation, so the seed is never readable
  // by others, even for a moment.
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    if (errno == EEXIST) {
      return make_error(ErrorCode::Conflict,
                        fmt::format("{} exists; refusing to overwrite a key (choose another --out)", path.string()));
    }
    return make_error(ErrorCode::IoError, fmt::format("cannot create {}: {}", path.string(), errno_text()));
  }
  std::array<std::uint8_t, 32> seed_copy = key.seed;
  std::string text = fmt::format(
      "# warlog Ed25519 secret key: whoever holds this file can sign as you. Keep it private.\n"
      "seed {}\npublic {}\n",
      core::to_hex(seed_copy), public_key_hex(key.public_key));
  sodium_memzero(seed_copy.data(), seed_copy.size());
  std::size_t done = 0;
  bool ok = true;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ok = false;
      break;
    }
    done += static_cast<std::size_t>(n);
  }
  const std::string why = ok ? std::string{} : errno_text();
  ok = ::fsync(fd) == 0 && ok;
  ::close(fd);
  sodium_memzero(text.data(), text.size());
  if (!ok) {
    ::unlink(path.c_str());
    return make_error(ErrorCode::IoError, fmt::format("cannot write {}: {}", path.string(), why));
  }
  return {};
}

Expected<KeyPair> read_key_file(const fs::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return make_error(ErrorCode::NotFound, fmt::format("no key file {}", path.string()));
    return make_error(ErrorCode::IoError, fmt::format("cannot read {}: {}", path.string(), errno_text()));
  }
  if ((st.st_mode & 077) != 0) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("{} can be read by others (mode {:04o}); a secret key must not be: "
                                  "chmod 600 {}",
                                  path.string(), st.st_mode & 07777, path.string()));
  }
  std::ifstream in(path);
  if (!in) return make_error(ErrorCode::IoError, fmt::format("cannot read {}", path.string()));
  std::optional<core::Digest> seed, pub;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("seed ", 0) == 0) seed = core::digest_from_hex(line.substr(5));
    if (line.rfind("public ", 0) == 0) pub = core::digest_from_hex(line.substr(7));
    sodium_memzero(line.data(), line.size());
  }
  if (!seed || !pub) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("{} is not a warlog key file (made by warlog keygen)", path.string()));
  }
  KeyPair k = keypair_from_seed(*seed);
  sodium_memzero(seed->data(), seed->size());
  if (k.public_key != *pub) {
    return make_error(ErrorCode::DataLoss,
                      fmt::format("{}: the public key does not belong to the seed; the file is damaged", path.string()));
  }
  return k;
}

// --- Key ids and public key files -------------------------------------------------
core::KeyId key_id_of(const core::PublicKey& key) {
  const core::Digest d = core::blake2b(std::string_view(reinterpret_cast<const char*>(key.data()), key.size()));
  core::KeyId id{};
  std::copy_n(d.begin(), id.size(), id.begin());
  return id;
}

std::string key_id_hex(const core::KeyId& id) {
  std::string out;
  for (std::uint8_t b : id) out += fmt::format("{:02x}", b);
  return out;
}

Expected<void> write_public_key_file(const fs::path& path, const core::PublicKey& key) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    if (errno == EEXIST) return make_error(ErrorCode::Conflict, fmt::format("{} exists; refusing to overwrite it", path.string()));
    return make_error(ErrorCode::IoError, fmt::format("cannot create {}: {}", path.string(), errno_text()));
  }
  const std::string text = fmt::format("# warlog Ed25519 public key {}: give it to whoever checks your signatures\npublic {}\n",
                                       key_id_hex(key_id_of(key)), public_key_hex(key));
  const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) && ::fsync(fd) == 0;
  const std::string why = ok ? std::string{} : errno_text();
  ::close(fd);
  if (!ok) {
    ::unlink(path.c_str());
    return make_error(ErrorCode::IoError, fmt::format("cannot write {}: {}", path.string(), why));
  }
  return {};
}

Expected<core::PublicKey> read_public_key(const fs::path& path) {
  std::ifstream in(path);
  if (!in) {
    if (!fs::exists(path)) return make_error(ErrorCode::NotFound, fmt::format("no key file {}", path.string()));
    return make_error(ErrorCode::IoError, fmt::format("cannot read {}", path.string()));
  }
  std::optional<core::Digest> pub;
  bool secret = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("seed ", 0) == 0) secret = true;
    if (line.rfind("public ", 0) == 0) pub = core::digest_from_hex(line.substr(7));
    sodium_memzero(line.data(), line.size());
  }
  if (secret) {
    // A secret key file: read as signing reads it, so a damaged one is refused.
    auto k = read_key_file(path);
    if (!k) return tl::unexpected(k.error());
    return k->public_key;
  }
  if (!pub) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("{} is not a warlog key file or public key file (warlog keygen)", path.string()));
  }
  return *pub;
}

// --- Signing ----------------------------------------------------------------------
Expected<std::string> signed_message(const core::GameSigned& s) {
  auto m = message_prefix(kGameTag, s.signer, s.signed_at_ms, s.key_id, s.identity);
  if (!m) return m;
  put_le(*m, s.event_count, 8);
  put_bytes(*m, s.head);
  put_le(*m, s.annotation_count, 8);
  put_bytes(*m, s.annotation_head);
  return m;
}

Expected<std::string> ruling_message(const core::DisputeRuled& ruling, core::Seq seq, const core::Digest& identity,
                                     std::int64_t signed_at_ms, const core::KeyId& key_id) {
  auto m = message_prefix(kRulingTag, ruling.ruled_by, signed_at_ms, key_id, identity);
  if (!m) return m;
  core::DisputeRuled bare = ruling;
  bare.signature.reset();
  *m += events::encode_annotation(seq, bare);
  return m;
}

core::Signature sign_message(const KeyPair& key, std::string_view message) {
  const ExpandedKey sk(key.seed);
  core::Signature sig{};
  crypto_sign_detached(sig.data(), nullptr, reinterpret_cast<const unsigned char*>(message.data()), message.size(),
                       sk.bytes.data());
  return sig;
}

bool signature_matches(const core::PublicKey& key, std::string_view message,
                       const core::Signature& signature) noexcept {
  return crypto_sign_verify_detached(signature.data(), reinterpret_cast<const unsigned char*>(message.data()),
                                     message.size(), key.data()) == 0;
}

Expected<AnnotationRecord> sign_game(Store& store, core::GameId game, const KeyPair& key,
                                     const std::string& signer, std::int64_t signed_at_ms) {
  if (auto ok = init_sodium(); !ok) return tl::unexpected(ok.error());
  if (signer.empty()) return make_error(ErrorCode::InvalidArgument, "a signature needs the signer's name");
  core::GameSigned s;
  {
    // The reader ends before the write: an open reader would stop the map growing.
    auto reader = store.reader();
    if (!reader) return tl::unexpected(reader.error());
    auto report = reader->verify(game);
    if (!report) return tl::unexpected(report.error());
    if (report->broken) {
      return make_error(ErrorCode::DataLoss, fmt::format("game {} does not verify, so it is not signed: {}", game,
                                                         report->broken->to_string()));
    }
    auto meta = reader->game(game);
    if (!meta) return tl::unexpected(meta.error());
    const core::Seq count = meta->event_count;
    auto heads = reader->chain_heads(game, std::span(&count, 1));
    if (!heads) return tl::unexpected(heads.error());
    if (!heads->contains(count)) {
      return make_error(ErrorCode::DataLoss, fmt::format("game {}: its {} events cannot be read back", game, count));
    }
    s.identity = meta->identity;
    s.event_count = count;
    s.head = heads->at(count);
    // verify has just recomputed both from the stored annotations.
    s.annotation_count = meta->annotation_count;
    s.annotation_head = meta->annotation_head;
  }
  s.signer = signer;
  s.public_key = key.public_key;
  s.key_id = key_id_of(key.public_key);
  s.signed_at_ms = signed_at_ms;
  auto message = signed_message(s);
  if (!message) return tl::unexpected(message.error());
  s.signature = sign_message(key, *message);
  const core::Seq seq = s.event_count - 1;
  auto n = store.append_annotation(game, seq, s, s.annotation_count);
  if (!n) return tl::unexpected(n.error());
  return AnnotationRecord{game, *n, seq, std::move(s), {}};
}

Expected<void> sign_ruling(core::DisputeRuled& ruling, core::Seq seq, const core::Digest& identity,
                           const KeyPair& key, std::int64_t signed_at_ms) {
  if (auto ok = init_sodium(); !ok) return tl::unexpected(ok.error());
  core::RulingSignature sig;
  sig.signed_at_ms = signed_at_ms;
  sig.public_key = key.public_key;
  sig.key_id = key_id_of(key.public_key);
  auto message = ruling_message(ruling, seq, identity, signed_at_ms, sig.key_id);
  if (!message) return tl::unexpected(message.error());
  sig.signature = sign_message(key, *message);
  ruling.signature = sig;
  return {};
}

// --- Checking ---------------------------------------------------------------------
const core::GameSigned& SignatureCheck::signature() const { return std::get<core::GameSigned>(record.value); }
const core::RulingSignature& RulingSignatureCheck::signature() const {
  return *std::get<core::DisputeRuled>(record.value).signature;
}

namespace {

std::string plural(std::uint64_t n, std::string_view what) {
  return fmt::format("{} {}{}", n, what, n == 1 ? "" : "s");
}

// Why the signature at records[i] is INVALID, or empty when it holds.
std::string invalid_because(const GameMeta& meta, const std::vector<AnnotationRecord>& records, std::size_t i,
                            const std::map<core::Seq, core::Digest>& heads) {
  const AnnotationRecord& r = records[i];
  const auto& s = std::get<core::GameSigned>(r.value);
  if (key_id_of(s.public_key) != s.key_id) return "its key id is not its public key's (the record was altered)";
  auto message = signed_message(s);
  if (!message || !signature_matches(s.public_key, *message, s.signature)) {
    return "the signature does not match its public key (the record was altered: signer, time, key or heads)";
  }
  if (s.identity != meta.identity) {
    return fmt::format("it signed another game (identity {}…), not this one", core::to_hex(s.identity).substr(0, 16));
  }
  if (s.annotation_count != r.n) {
    return fmt::format("it signed {} before it and is now annotation #{}: annotations before it were {}",
                       plural(s.annotation_count, "annotation"), r.n, s.annotation_count > r.n ? "removed" : "added");
  }
  // What the message does not cover, the signature's own record must not
  // vary: it stands at the last event it signed, and its bytes are the
  // encoding of what it says (a moved seq, or bits set outside every field,
  // resealed into the chain, passed as "trusted": found by the tamper suite).
  if (r.seq + 1 != s.event_count) {
    return fmt::format("it stands at seq {} but signed {} (the record was moved)", r.seq,
                       plural(s.event_count, "event"));
  }
  const core::Digest before = i == 0 ? annotation_chain_start(meta.identity) : records[i - 1].chain;
  if (annotation_chain_next(before, events::encode_annotation(r.seq, r.value)) != r.chain) {
    return "its stored bytes are not the encoding of what it says (bits outside its fields were set)";
  }
  if (before != s.annotation_head) {
    return "the annotations before it are not what was signed (a dispute or ruling was altered, removed or "
           "reordered)";
  }
  if (s.event_count > meta.event_count) {
    return fmt::format("it signed {}; the game has {} (events were removed)", plural(s.event_count, "event"),
                       meta.event_count);
  }
  const auto head = heads.find(s.event_count);
  if (head == heads.end()) return "the signed events cannot be read back (run verify)";
  if (head->second != s.head) {
    return fmt::format("events 0..{} are not what was signed (run verify for the first changed one)",
                       s.event_count - 1);
  }
  return {};
}

}  // namespace

Expected<std::vector<SignatureCheck>> check_signatures(const Reader& reader, core::GameId game) {
  // The record, not game(): nothing here needs GameCreated decoded, and a
  // forger who resealed an event 0 this build cannot decode (an enumerant
  // from "a newer warlog") made checking fail instead of INVALID (found by
  // the tamper suite).
  auto meta = reader.record(game);
  if (!meta) return tl::unexpected(meta.error());
  auto records = reader.annotations(game);
  if (!records) return tl::unexpected(records.error());

  std::vector<core::Seq> counts;
  for (const auto& r : *records) {
    if (const auto* s = std::get_if<core::GameSigned>(&r.value)) counts.push_back(s->event_count);
  }
  if (counts.empty()) return std::vector<SignatureCheck>{};
  auto heads = reader.chain_heads(game, counts);  // one pass over the stored events
  if (!heads) return tl::unexpected(heads.error());

  std::vector<SignatureCheck> out;
  std::uint64_t later = 0;  // annotations after the current one, signatures not counted
  for (std::size_t i = records->size(); i-- > 0;) {
    const AnnotationRecord& r = (*records)[i];
    if (!std::holds_alternative<core::GameSigned>(r.value)) {
      ++later;
      continue;
    }
    SignatureCheck c{r, SignatureCheck::Status::Invalid, 0, 0, {}};
    const auto& s = c.signature();
    if (auto why = invalid_because(*meta, *records, i, *heads); !why.empty()) {
      c.detail = "INVALID: " + why;
    } else if (s.event_count < meta->event_count || later > 0) {
      c.status = SignatureCheck::Status::Stale;
      c.events_since = meta->event_count - s.event_count;
      c.annotations_since = later;
      std::string since;
      if (c.events_since > 0) since = plural(c.events_since, "event");
      if (later > 0) since += (since.empty() ? "" : " and ") + plural(later, "annotation");
      c.detail = fmt::format("stale: {} since", since);
    } else {
      c.status = SignatureCheck::Status::Valid;
      c.detail = "valid";
    }
    out.push_back(std::move(c));
  }
  std::reverse(out.begin(), out.end());
  return out;
}

Expected<std::vector<RulingSignatureCheck>> check_ruling_signatures(const Reader& reader, core::GameId game) {
  auto meta = reader.record(game);
  if (!meta) return tl::unexpected(meta.error());
  auto records = reader.annotations(game);
  if (!records) return tl::unexpected(records.error());
  std::vector<RulingSignatureCheck> out;
  for (const auto& r : *records) {
    const auto* ruled = std::get_if<core::DisputeRuled>(&r.value);
    if (ruled == nullptr || !ruled->signature) continue;
    const core::RulingSignature& sig = *ruled->signature;
    RulingSignatureCheck c{r, false, {}};
    auto message = ruling_message(*ruled, r.seq, meta->identity, sig.signed_at_ms, sig.key_id);
    if (key_id_of(sig.public_key) != sig.key_id) {
      c.detail = "INVALID: its key id is not its public key's (the record was altered)";
    } else if (!message || !signature_matches(sig.public_key, *message, sig.signature)) {
      c.detail = "INVALID: the ruling is not what its judge signed (the record was altered)";
    } else {
      c.valid = true;
      c.detail = "valid";
    }
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace warlog::store
