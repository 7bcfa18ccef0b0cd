// Ed25519 signatures over a game's stream: keys, key files, signing, and
// checking against the stored bytes (signature.hpp says what is signed).

#include "warlog/store/signature.hpp"

#include <fcntl.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "warlog/store/reader.hpp"
#include "warlog/store/store.hpp"

namespace warlog::store {

namespace fs = std::filesystem;

static_assert(crypto_sign_PUBLICKEYBYTES == 32 && crypto_sign_BYTES == 64 && crypto_sign_SEEDBYTES == 32);

namespace {

constexpr std::string_view kMessageTag = "warlog.game-signature.1";

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

// --- Signing ----------------------------------------------------------------------
std::string signed_message(core::GameId game, core::Seq event_count, const core::Digest& head) {
  std::string m(kMessageTag);
  char be[8];
  put_be64(be, game);
  m.append(be, 8);
  put_be64(be, event_count);
  m.append(be, 8);
  m.append(reinterpret_cast<const char*>(head.data()), head.size());
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
                                     const std::string& signer, const std::string& signed_at) {
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
    s.event_count = meta->event_count;
    s.head = meta->head;  // verify has just recomputed it from the stored bytes
  }
  s.signer = signer;
  s.public_key = key.public_key;
  s.signature = sign_message(key, signed_message(game, s.event_count, s.head));
  s.signed_at = signed_at;
  const core::Seq seq = s.event_count - 1;
  auto n = store.append_annotation(game, seq, s);
  if (!n) return tl::unexpected(n.error());
  return AnnotationRecord{game, seq, *n, std::move(s)};
}

// --- Checking ---------------------------------------------------------------------
const core::GameSigned& SignatureCheck::signature() const { return std::get<core::GameSigned>(record.value); }

Expected<std::vector<SignatureCheck>> check_signatures(const Reader& reader, core::GameId game) {
  auto meta = reader.game(game);
  if (!meta) return tl::unexpected(meta.error());
  auto records = reader.annotations(game);
  if (!records) return tl::unexpected(records.error());

  std::vector<SignatureCheck> out;
  std::map<core::Seq, core::Digest> head_at;  // signed count -> the head recomputed from the stored bytes
  for (auto& r : *records) {
    if (!std::holds_alternative<core::GameSigned>(r.value)) continue;
    head_at.emplace(std::get<core::GameSigned>(r.value).event_count, core::Digest{});
    out.push_back(SignatureCheck{std::move(r), SignatureCheck::Status::Invalid, 0, {}});
  }
  if (out.empty()) return out;

  // The head at each signed count, recomputed by the reader from the stored
  // blocks (each checked against the chain as it is read).
  core::Seq hashed = 0;  // the largest count whose head could be read
  std::string damage;
  for (auto& [count, head] : head_at) {
    if (count == 0 || count > meta->event_count) continue;
    auto h = reader.head_at(game, count);
    if (!h) {
      damage = h.error().message;
      break;
    }
    head = *h;
    hashed = count;
  }

  for (SignatureCheck& c : out) {
    const core::GameSigned& s = c.signature();
    auto invalid = [&c](std::string why) {
      c.status = SignatureCheck::Status::Invalid;
      c.detail = "INVALID: " + std::move(why);
    };
    if (!signature_matches(s.public_key, signed_message(game, s.event_count, s.head), s.signature)) {
      invalid("the signature does not match its public key (the record was altered)");
    } else if (s.event_count > meta->event_count) {
      invalid(fmt::format("it signed {} events; the game has {} (events were removed)", s.event_count,
                          meta->event_count));
    } else if (s.event_count > hashed) {
      invalid(fmt::format("the signed events cannot be read back: {}", damage));
    } else if (head_at.at(s.event_count) != s.head) {
      invalid(fmt::format("events 0..{} are not what was signed (run verify for the first changed one)",
                          s.event_count - 1));
    } else if (s.event_count < meta->event_count) {
      c.status = SignatureCheck::Status::Stale;
      c.events_since = meta->event_count - s.event_count;
      c.detail = fmt::format("stale: game has {} event{} since", c.events_since, c.events_since == 1 ? "" : "s");
    } else {
      c.status = SignatureCheck::Status::Valid;
      c.detail = "valid";
    }
  }
  return out;
}

}  // namespace warlog::store
