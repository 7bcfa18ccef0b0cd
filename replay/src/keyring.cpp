// The keyring (keyring.hpp): trusted keys and remembered signed states, and
// the per-game trust verdict verify prints.

#include "warlog/replay/keyring.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "warlog/replay/signatures.hpp"
#include "warlog/store/reader.hpp"
#include "warlog/store/signature.hpp"
#include "warlog/store/store.hpp"

namespace warlog::replay {

namespace fs = std::filesystem;

namespace {

std::optional<core::KeyId> key_id_from_hex(std::string_view hex) {
  if (hex.size() != 16) return std::nullopt;
  core::KeyId id{};
  for (std::size_t i = 0; i < id.size(); ++i) {
    unsigned v = 0;
    auto r = std::from_chars(hex.data() + 2 * i, hex.data() + 2 * i + 2, v, 16);
    if (r.ec != std::errc{} || r.ptr != hex.data() + 2 * i + 2) return std::nullopt;
    id[i] = static_cast<std::uint8_t>(v);
  }
  return id;
}

template <class T>
bool number(std::string_view s, T& out) {
  auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return r.ec == std::errc{} && r.ptr == s.data() + s.size();
}

std::string trusted_by(const TrustedKey& k) {
  return fmt::format("trusted '{}' (key {})", k.name, store::key_id_hex(k.key_id));
}

// "by trusted 'Head Judge' (key ...)" or "by an unknown key ..."
std::string signer_of(const Keyring& keyring, const core::KeyId& id) {
  if (const TrustedKey* k = keyring.find(id)) return "by " + trusted_by(*k);
  return "by an unknown key " + store::key_id_hex(id);
}

}  // namespace

// --- The file ---------------------------------------------------------------------------
Expected<Keyring> Keyring::load(const fs::path& path) {
  Keyring k;
  k.path_ = path;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return k;
    return make_error(ErrorCode::IoError, fmt::format("cannot read keyring {}: {}", path.string(), std::strerror(errno)));
  }
  if ((st.st_mode & 022) != 0) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("keyring {} can be written by others (mode {:04o}), so it cannot say whom to "
                                  "trust: chmod 600 {}",
                                  path.string(), st.st_mode & 07777, path.string()));
  }
  std::ifstream in(path);
  if (!in) return make_error(ErrorCode::IoError, fmt::format("cannot read keyring {}", path.string()));
  std::size_t line_no = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    auto bad = [&](std::string_view why) {
      return make_error(ErrorCode::DataLoss, fmt::format("keyring {}:{}: {}", path.string(), line_no, why));
    };
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string kind;
    words >> kind;
    if (kind == "key") {
      std::string id_hex, pub_hex;
      words >> id_hex >> pub_hex;
      std::string name;
      std::getline(words, name);
      name.erase(0, name.find_first_not_of(' '));
      const auto id = key_id_from_hex(id_hex);
      const auto pub = core::digest_from_hex(pub_hex);
      if (!id || !pub || name.empty()) return bad("not \"key KEYID PUBLICKEY NAME\"");
      if (store::key_id_of(*pub) != *id) return bad("the key id is not the key's (the keyring was altered)");
      k.keys_.push_back(TrustedKey{name, *pub, *id});
    } else if (kind == "seen") {
      std::string identity, n, head, m, ahead, id_hex, at;
      words >> identity >> n >> head >> m >> ahead >> id_hex >> at;
      SignedState s;
      const auto i = core::digest_from_hex(identity);
      const auto h = core::digest_from_hex(head);
      const auto a = core::digest_from_hex(ahead);
      const auto id = key_id_from_hex(id_hex);
      if (!i || !h || !a || !id || !number(n, s.event_count) || !number(m, s.annotation_count) ||
          !number(at, s.signed_at_ms)) {
        return bad("not \"seen IDENTITY N HEAD M HEAD KEYID MS\"");
      }
      s.identity = *i;
      s.event_head = *h;
      s.annotation_head = *a;
      s.key_id = *id;
      k.seen_.push_back(s);
    } else {
      return bad(fmt::format("unknown entry '{}'", kind));
    }
  }
  return k;
}

Expected<void> Keyring::save() const {
  std::error_code ec;
  if (path_.has_parent_path() && !fs::exists(path_.parent_path(), ec)) {
    fs::create_directories(path_.parent_path(), ec);
    if (ec) {
      return make_error(ErrorCode::IoError,
                        fmt::format("cannot create {}: {}", path_.parent_path().string(), ec.message()));
    }
    fs::permissions(path_.parent_path(), fs::perms::owner_all, ec);
  }
  std::string text =
      "# warlog keyring: the keys you trust (warlog trust) and the signed states verify has seen.\n"
      "# key KEYID PUBLICKEY NAME / seen IDENTITY EVENTS HEAD ANNOTATIONS HEAD KEYID SIGNEDATMS\n";
  for (const auto& key : keys_) {
    text += fmt::format("key {} {} {}\n", store::key_id_hex(key.key_id), store::public_key_hex(key.public_key), key.name);
  }
  for (const auto& s : seen_) {
    text += fmt::format("seen {} {} {} {} {} {} {}\n", core::to_hex(s.identity), s.event_count,
                        core::to_hex(s.event_head), s.annotation_count, core::to_hex(s.annotation_head),
                        store::key_id_hex(s.key_id), s.signed_at_ms);
  }
  // A temporary file renamed over the keyring: a crash leaves the old or the new one.
  const fs::path tmp = path_.string() + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return make_error(ErrorCode::IoError, fmt::format("cannot write {}: {}", tmp.string(), std::strerror(errno)));
  const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) && ::fsync(fd) == 0;
  const std::string why = ok ? std::string{} : std::strerror(errno);
  ::close(fd);
  if (!ok || ::rename(tmp.c_str(), path_.c_str()) != 0) {
    ::unlink(tmp.c_str());
    return make_error(ErrorCode::IoError, fmt::format("cannot write keyring {}: {}", path_.string(),
                                                      ok ? std::strerror(errno) : why));
  }
  return {};
}

const TrustedKey* Keyring::find(const core::KeyId& id) const noexcept {
  for (const auto& k : keys_) {
    if (k.key_id == id) return &k;
  }
  return nullptr;
}

Expected<TrustedKey> Keyring::add(const std::string& name, const core::PublicKey& key) {
  if (name.empty() || name.find_first_not_of(' ') == std::string::npos || name.find_first_of("\r\n") != std::string::npos ||
      name.front() == ' ') {
    return make_error(ErrorCode::InvalidArgument, "a trusted key needs a name of one line, not starting with a space");
  }
  const core::KeyId id = store::key_id_of(key);
  for (const auto& k : keys_) {
    if (k.key_id == id) {
      return make_error(ErrorCode::Conflict, fmt::format("key {} is already trusted as '{}'", store::key_id_hex(id), k.name));
    }
    if (k.name == name) {
      return make_error(ErrorCode::Conflict, fmt::format("'{}' already names key {}; remove it first or choose another name",
                                                         name, store::key_id_hex(k.key_id)));
    }
  }
  keys_.push_back(TrustedKey{name, key, id});
  return keys_.back();
}

Expected<TrustedKey> Keyring::remove(std::string_view name_or_key_id) {
  const auto id = key_id_from_hex(name_or_key_id);
  auto it = std::find_if(keys_.begin(), keys_.end(),
                         [&](const TrustedKey& k) { return k.name == name_or_key_id || (id && k.key_id == *id); });
  if (it == keys_.end()) {
    return make_error(ErrorCode::NotFound, fmt::format("no trusted key named or with key id '{}'", name_or_key_id));
  }
  TrustedKey out = *it;
  keys_.erase(it);
  return out;
}

bool Keyring::remember(const SignedState& state) {
  const bool known = std::any_of(seen_.begin(), seen_.end(), [&](const SignedState& s) {
    return s.identity == state.identity && s.event_count == state.event_count && s.event_head == state.event_head &&
           s.annotation_count == state.annotation_count && s.annotation_head == state.annotation_head &&
           s.key_id == state.key_id;
  });
  if (!known) seen_.push_back(state);
  return !known;
}

Expected<fs::path> keyring_path(const std::string& flag) {
  if (!flag.empty()) return fs::path(flag);
  if (const char* env = std::getenv("WARLOG_KEYRING"); env != nullptr && *env != '\0') return fs::path(env);
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg != nullptr && *xdg != '\0') {
    return fs::path(xdg) / "warlog" / "keyring";
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    return fs::path(home) / ".config" / "warlog" / "keyring";
  }
  return make_error(ErrorCode::InvalidArgument, "no keyring: give --keyring PATH (neither XDG_CONFIG_HOME nor HOME is set)");
}

Expected<void> check_keyring_outside(const fs::path& keyring, const fs::path& store) {
  std::error_code ec;
  const fs::path k = fs::weakly_canonical(fs::absolute(keyring), ec);
  const fs::path s = fs::weakly_canonical(fs::absolute(store), ec);
  const fs::path rel = k.lexically_relative(s);
  if (!rel.empty() && *rel.begin() != "..") {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("keyring {} is inside the store {}: whoever can write the store could write whom "
                                  "you trust; keep it elsewhere (--keyring, WARLOG_KEYRING)",
                                  keyring.string(), store.string()));
  }
  return {};
}

// --- The verdict -------------------------------------------------------------------------
std::string attestation_line(const GameTrust& trust, bool chain_ok) {
  if (!chain_ok) {
    return trust.verdict == GameTrust::Verdict::Unsigned ? std::string("unsigned: nobody attests it") : trust.line;
  }
  if (trust.failed() && !trust.line.starts_with("INVALID")) {
    return "REFUSED (a signed state or ruling does not hold, below): " + trust.line;
  }
  return trust.line;
}

Expected<GameTrust> assess_game(const Archive& archive, core::GameId id, const Keyring& keyring) {
  GameTrust t;
  auto reader = archive.store().reader();
  if (!reader) return tl::unexpected(reader.error());
  auto meta = reader->record(id);  // not game(): the signatures do not need GameCreated decoded
  if (!meta) return tl::unexpected(meta.error());
  auto checks = store::check_signatures(*reader, id);
  if (!checks) return tl::unexpected(checks.error());
  auto rulings = store::check_ruling_signatures(*reader, id);
  if (!rulings) return tl::unexpected(rulings.error());

  using Status = store::SignatureCheck::Status;
  const store::SignatureCheck* invalid = nullptr;
  const store::SignatureCheck* trusted = nullptr;
  const store::SignatureCheck* unknown = nullptr;
  const store::SignatureCheck* stale = nullptr;
  for (const auto& c : *checks) {
    const auto& s = c.signature();
    t.notes.push_back(fmt::format("- {}", signature_line(c)));
    if (c.status == Status::Invalid && invalid == nullptr) invalid = &c;
    if (c.status == Status::Valid) (keyring.find(s.key_id) != nullptr ? trusted : unknown) = &c;
    if (c.status == Status::Stale) stale = &c;
    if (c.status != Status::Invalid && keyring.find(s.key_id) != nullptr) {
      t.to_remember.push_back(SignedState{s.identity, s.event_count, s.head, s.annotation_count, s.annotation_head,
                                          s.key_id, s.signed_at_ms});
    }
  }
  auto self_declared = [&](const store::SignatureCheck& c) {
    const auto& s = c.signature();
    const TrustedKey* k = keyring.find(s.key_id);
    if (k != nullptr && k->name != s.signer) return fmt::format(", self-declared '{}': NOT the keyring's name", s.signer);
    return fmt::format(", self-declared '{}'", s.signer);
  };
  if (invalid != nullptr) {
    t.verdict = GameTrust::Verdict::Invalid;
    t.line = fmt::format("{} (signature {}{})", invalid->detail, signer_of(keyring, invalid->signature().key_id),
                         self_declared(*invalid));
  } else if (trusted != nullptr) {
    t.verdict = GameTrust::Verdict::Trusted;
    t.line = fmt::format("valid, signed by {}{}", trusted_by(*keyring.find(trusted->signature().key_id)),
                         self_declared(*trusted));
  } else if (unknown != nullptr) {
    t.verdict = GameTrust::Verdict::Unknown;
    t.line = fmt::format("valid signature by an unknown key {}{} (warlog trust add NAME KEYFILE trusts it)",
                         store::key_id_hex(unknown->signature().key_id), self_declared(*unknown));
  } else if (stale != nullptr) {
    t.verdict = GameTrust::Verdict::Stale;
    t.line = fmt::format("{} (signed {}{})", stale->detail, signer_of(keyring, stale->signature().key_id),
                         self_declared(*stale));
  } else {
    t.verdict = GameTrust::Verdict::Unsigned;
    t.line = "unsigned: consistent, nobody attests it";
  }

  for (const auto& r : *rulings) {
    const auto& ruled = std::get<core::DisputeRuled>(r.record.value);
    t.bad_ruling = t.bad_ruling || !r.valid;
    t.notes.push_back(fmt::format("- the ruling on dispute {}:{}:{} (annotation #{}) signed {}, as '{}': {}", id,
                                  r.record.seq, ruled.dispute, r.record.n, signer_of(keyring, r.signature().key_id),
                                  ruled.ruled_by, r.detail));
  }

  // The keyring's memory: every state it saw signed must still be a prefix
  // of this game's two chains.
  std::vector<const SignedState*> mine;
  std::vector<core::Seq> counts;
  for (const auto& s : keyring.seen()) {
    if (s.identity != meta->identity) continue;
    mine.push_back(&s);
    counts.push_back(s.event_count);
  }
  if (!mine.empty()) {
    auto heads = reader->chain_heads(id, counts);
    if (!heads) return tl::unexpected(heads.error());
    auto records = reader->annotations(id);
    if (!records) return tl::unexpected(records.error());
    const core::Digest start = store::annotation_chain_start(meta->identity);
    for (const SignedState* s : mine) {
      const auto h = heads->find(s->event_count);
      const bool events_here = h != heads->end() && h->second == s->event_head;
      const bool annotations_here =
          s->annotation_count <= records->size() &&
          (s->annotation_count == 0 ? start : (*records)[s->annotation_count - 1].chain) == s->annotation_head;
      if (events_here && annotations_here) {
        // Still here, but is its signature? A forger who removes it (and
        // reseals the annotation chain) leaves the signed history intact and
        // nobody attesting it: without this, verify said "unsigned:
        // consistent" (or named only the forger's own key) for a game the
        // keyring saw a trusted key sign (found by the tamper suite).
        const bool signature_here = std::any_of(checks->begin(), checks->end(), [&](const store::SignatureCheck& c) {
          const auto& g = c.signature();
          return c.status != Status::Invalid && g.key_id == s->key_id && g.event_count == s->event_count &&
                 g.head == s->event_head && g.annotation_count == s->annotation_count &&
                 g.annotation_head == s->annotation_head;
        });
        if (signature_here || keyring.find(s->key_id) == nullptr) continue;
        t.notes.push_back(fmt::format("WITHDRAWN: the keyring saw {} events and {} annotations signed {} at {}; that "
                                      "signature is no longer in the store",
                                      s->event_count, s->annotation_count, signer_of(keyring, s->key_id),
                                      iso_utc(s->signed_at_ms)));
        if (t.verdict == GameTrust::Verdict::Unsigned || t.verdict == GameTrust::Verdict::Unknown) {
          t.verdict = GameTrust::Verdict::Stale;
          t.line = fmt::format("stale: the state the keyring saw signed {} ({} events, {} annotations) is here, but "
                               "its signature was removed; {} events and {} annotations since",
                               signer_of(keyring, s->key_id), s->event_count, s->annotation_count,
                               meta->event_count - s->event_count, records->size() - s->annotation_count);
        }
        continue;
      }
      t.vanished = true;
      t.notes.push_back(fmt::format(
          "VANISHED: the state signed {} at {} ({} events, {} annotations) is no longer in this game: {} "
          "removed or rewritten",
          signer_of(keyring, s->key_id), iso_utc(s->signed_at_ms), s->event_count, s->annotation_count,
          events_here ? "annotations were" : "events were"));
    }
  }
  return t;
}

}  // namespace warlog::replay
