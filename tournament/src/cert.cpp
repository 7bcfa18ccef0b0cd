// warlog serve cert: OpenSSL's X509 API (libssl-dev), the library kj-tls
// links too. Every OpenSSL object is held by a unique_ptr with its free
// function, so an early return leaks nothing.

#include "warlog/tournament/cert.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>

#include <fmt/format.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

namespace fs = std::filesystem;

namespace warlog::tournament {

namespace {

template <auto Free>
struct Deleter {
  template <class T>
  void operator()(T* p) const noexcept {
    Free(p);
  }
};
using Key = std::unique_ptr<EVP_PKEY, Deleter<EVP_PKEY_free>>;
using Cert = std::unique_ptr<X509, Deleter<X509_free>>;
using Bio = std::unique_ptr<BIO, Deleter<BIO_free_all>>;
using Bn = std::unique_ptr<BIGNUM, Deleter<BN_free>>;
using Ext = std::unique_ptr<X509_EXTENSION, Deleter<X509_EXTENSION_free>>;

constexpr long kCaDays = 5 * 365;
constexpr long kServerDays = 397;

Error ssl_error(std::string_view what) {
  const unsigned long e = ERR_get_error();
  char buf[256] = "unknown error";
  if (e != 0) ERR_error_string_n(e, buf, sizeof buf);
  ERR_clear_error();
  return Error{ErrorCode::Internal, fmt::format("{}: {}", what, buf)};
}

bool is_ip(const std::string& h) {
  unsigned char buf[16];
  return ::inet_pton(AF_INET, h.c_str(), buf) == 1 || ::inet_pton(AF_INET6, h.c_str(), buf) == 1;
}

bool is_dns_name(std::string_view h) {
  if (h.empty() || h.size() > 253 || h.front() == '.' || h.back() == '.') return false;
  std::size_t label = 0;
  for (char c : h) {
    if (c == '.') {
      if (label == 0) return false;
      label = 0;
      continue;
    }
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
    if (!ok || ++label > 63) return false;
  }
  return true;
}

Expected<Key> new_key() {
  Key k(EVP_EC_gen("P-256"));
  if (!k) return tl::unexpected(ssl_error("making a P-256 key"));
  return k;
}

Expected<void> add_ext(X509* cert, X509* issuer, int nid, const std::string& value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
  Ext ext(X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str()));
  if (!ext || X509_add_ext(cert, ext.get(), -1) != 1) {
    return tl::unexpected(ssl_error(fmt::format("the extension {}", value)));
  }
  return {};
}

// A certificate for `key`'s public half, named CN=`cn`, signed by
// issuer_key (self-signed when issuer is null).
Expected<Cert> new_cert(EVP_PKEY* key, const std::string& cn, long days, X509* issuer, EVP_PKEY* issuer_key,
                        const std::vector<std::pair<int, std::string>>& exts) {
  Cert cert(X509_new());
  if (!cert) return tl::unexpected(ssl_error("X509_new"));
  X509_set_version(cert.get(), 2);  // v3
  Bn serial(BN_new());
  if (!serial || BN_rand(serial.get(), 127, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY) != 1 ||
      BN_to_ASN1_INTEGER(serial.get(), X509_get_serialNumber(cert.get())) == nullptr) {
    return tl::unexpected(ssl_error("a serial number"));
  }
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -60 * 60);  // an hour's grace for a phone's clock
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), days * 24 * 60 * 60);
  X509_set_pubkey(cert.get(), key);
  X509_NAME* name = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(name, "O", MBSTRING_UTF8, reinterpret_cast<const unsigned char*>("warlog"), -1, -1, 0);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, reinterpret_cast<const unsigned char*>(cn.c_str()), -1, -1, 0);
  X509_set_issuer_name(cert.get(), issuer != nullptr ? X509_get_subject_name(issuer) : name);
  X509* signer = issuer != nullptr ? issuer : cert.get();
  for (const auto& [nid, value] : exts) {
    if (auto ok = add_ext(cert.get(), signer, nid, value); !ok) return tl::unexpected(ok.error());
  }
  if (X509_sign(cert.get(), issuer_key != nullptr ? issuer_key : key, EVP_sha256()) == 0) {
    return tl::unexpected(ssl_error("signing the certificate"));
  }
  return cert;
}

// PEM bytes of a key or certificate.
template <class Write>
Expected<std::string> pem(Write write) {
  Bio bio(BIO_new(BIO_s_mem()));
  if (!bio || write(bio.get()) != 1) return tl::unexpected(ssl_error("writing PEM"));
  char* data = nullptr;
  const long n = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<std::size_t>(n));
}

// Writes `bytes` to `path` with `mode`: exclusive (never over an existing
// file), or whole through a temporary renamed over it.
Expected<void> write_file(const fs::path& path, std::string_view bytes, mode_t mode, bool exclusive) {
  const fs::path target = exclusive ? path : fs::path(path.string() + fmt::format(".tmp-{}", ::getpid()));
  const int flags = O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | (exclusive ? O_EXCL : O_TRUNC);
  const int fd = ::open(target.c_str(), flags, mode);
  if (fd < 0) return make_error(ErrorCode::IoError, fmt::format("cannot create {}: {}", target.string(), std::strerror(errno)));
  (void)::fchmod(fd, mode);  // the umask may have taken bits away; 0600 stays 0600
  std::size_t done = 0;
  bool ok = true;
  while (ok && done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    ok = n > 0;
    if (ok) done += static_cast<std::size_t>(n);
  }
  ok = ok && ::fsync(fd) == 0;
  const int err = errno;
  ::close(fd);
  if (!ok) {
    ::unlink(target.c_str());
    return make_error(ErrorCode::IoError, fmt::format("cannot write {}: {}", target.string(), std::strerror(err)));
  }
  if (!exclusive && ::rename(target.c_str(), path.c_str()) != 0) {
    const int e = errno;
    ::unlink(target.c_str());
    return make_error(ErrorCode::IoError, fmt::format("cannot rename to {}: {}", path.string(), std::strerror(e)));
  }
  return {};
}

std::string fingerprint(X509* cert) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  X509_digest(cert, EVP_sha256(), md, &n);
  std::string out;
  for (unsigned int i = 0; i < n; ++i) out += fmt::format("{}{:02X}", i == 0 ? "" : ":", md[i]);
  return out;
}

Expected<Cert> load_cert(const fs::path& path) {
  Bio bio(BIO_new_file(path.c_str(), "r"));
  if (!bio) return make_error(ErrorCode::IoError, fmt::format("cannot read {}", path.string()));
  Cert c(PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr));
  if (!c) {
    ERR_clear_error();
    return make_error(ErrorCode::InvalidArgument, fmt::format("{} is not a PEM certificate", path.string()));
  }
  return c;
}

// A private key only its owner may read: one that group or others may read
// is refused, as its certificate could be anybody's.
Expected<Key> load_own_key(const fs::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    return make_error(ErrorCode::NotFound, fmt::format("cannot read {}: {}", path.string(), std::strerror(errno)));
  }
  if ((st.st_mode & 077) != 0) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("{} may be read by others (mode {:o}): chmod 600 it", path.string(), st.st_mode & 0777));
  }
  Key key;
  Bio bio(BIO_new_file(path.c_str(), "r"));
  if (bio) key.reset(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr));
  if (!key) {
    ERR_clear_error();
    return make_error(ErrorCode::InvalidArgument, fmt::format("{} is not a PEM private key", path.string()));
  }
  return key;
}

}  // namespace

Expected<ServerTls> load_server_tls(const std::string& dir_text) {
  const fs::path dir = dir_text;
  const fs::path cert_path = dir / "server.crt", key_path = dir / "server.key", ca_path = dir / "ca.crt";
  std::error_code ec;
  for (const fs::path& p : {cert_path, key_path, ca_path}) {
    if (!fs::exists(p, ec)) {
      return make_error(ErrorCode::NotFound,
                        fmt::format("--tls {}: no {} there: make the certificates with warlog serve cert --host NAME|IP "
                                    "--out {}",
                                    dir.string(), p.filename().string(), dir.string()));
    }
  }
  auto key = load_own_key(key_path);
  if (!key) return tl::unexpected(key.error());
  auto cert = load_cert(cert_path);
  if (!cert) return tl::unexpected(cert.error());
  auto ca = load_cert(ca_path);
  if (!ca) return tl::unexpected(ca.error());
  if (X509_check_private_key(cert->get(), key->get()) != 1) {
    ERR_clear_error();
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("{} is not the key of {}: run warlog serve cert again", key_path.string(),
                                  cert_path.string()));
  }
  // A server.crt of another CA would be refused by every device that trusts this ca.crt.
  if (X509_verify(cert->get(), X509_get0_pubkey(ca->get())) != 1) {
    ERR_clear_error();
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("{} is not signed by {}: run warlog serve cert again with this CA", cert_path.string(),
                                  ca_path.string()));
  }
  ServerTls out;
  auto cert_pem = pem([&](BIO* b) { return PEM_write_bio_X509(b, cert->get()); });
  if (!cert_pem) return tl::unexpected(cert_pem.error());
  auto key_pem = pem([&](BIO* b) { return PEM_write_bio_PrivateKey(b, key->get(), nullptr, nullptr, 0, nullptr, nullptr); });
  if (!key_pem) return tl::unexpected(key_pem.error());
  out.cert_pem = std::move(*cert_pem);
  out.key_pem = std::move(*key_pem);
  out.ca_cert = ca_path.string();
  out.ca_fingerprint = fingerprint(ca->get());
  return out;
}

Expected<std::string> certificate_fingerprint(const std::string& pem_path) {
  auto c = load_cert(pem_path);
  if (!c) return tl::unexpected(c.error());
  return fingerprint(c->get());
}

Expected<CertResult> make_certificates(const CertRequest& req) {
  if (req.hosts.empty()) return make_error(ErrorCode::InvalidArgument, "give the server's host name or IP address with --host");
  std::string san;
  for (const std::string& h : req.hosts) {
    const bool ip = is_ip(h);
    if (!ip && !is_dns_name(h)) {
      return make_error(ErrorCode::InvalidArgument,
                        fmt::format("--host '{}' is neither a host name (letters, digits, '-' and '.') nor an IP address", h));
    }
    san += (san.empty() ? "" : ",") + std::string(ip ? "IP:" : "DNS:") + h;
  }
  const fs::path dir = req.dir;
  std::error_code ec;
  if (!fs::exists(dir, ec)) {
    fs::create_directories(dir, ec);
    if (ec) return make_error(ErrorCode::IoError, fmt::format("cannot create {}: {}", dir.string(), ec.message()));
    fs::permissions(dir, fs::perms::owner_all, ec);
  }
  CertResult out;
  out.ca_key = (dir / "ca.key").string();
  out.ca_cert = (dir / "ca.crt").string();
  out.server_key = (dir / "server.key").string();
  out.server_cert = (dir / "server.crt").string();

  Key ca_key;
  Cert ca_cert;
  const bool have_key = fs::exists(out.ca_key, ec);
  const bool have_cert = fs::exists(out.ca_cert, ec);
  if (have_key != have_cert) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("{} holds {} without {}: warlog never replaces a CA's key; move both away to make a new "
                                  "CA",
                                  dir.string(), have_key ? "ca.key" : "ca.crt", have_key ? "ca.crt" : "ca.key"));
  }
  if (have_key) {
    auto k = load_own_key(out.ca_key);
    if (!k) return tl::unexpected(k.error());
    ca_key = std::move(*k);
    auto c = load_cert(out.ca_cert);
    if (!c) return tl::unexpected(c.error());
    if (X509_check_private_key(c->get(), ca_key.get()) != 1) {
      ERR_clear_error();
      return make_error(ErrorCode::InvalidArgument, fmt::format("{} is not the certificate of {}", out.ca_cert, out.ca_key));
    }
    ca_cert = std::move(*c);
  } else {
    auto k = new_key();
    if (!k) return tl::unexpected(k.error());
    auto c = new_cert(k->get(), fmt::format("warlog venue CA ({})", req.hosts.front()), kCaDays, nullptr, nullptr,
                      {{NID_basic_constraints, "critical,CA:TRUE,pathlen:0"},
                       {NID_key_usage, "critical,keyCertSign,cRLSign"},
                       {NID_subject_key_identifier, "hash"}});
    if (!c) return tl::unexpected(c.error());
    auto key_pem = pem([&](BIO* b) { return PEM_write_bio_PrivateKey(b, k->get(), nullptr, nullptr, 0, nullptr, nullptr); });
    if (!key_pem) return tl::unexpected(key_pem.error());
    auto cert_pem = pem([&](BIO* b) { return PEM_write_bio_X509(b, c->get()); });
    if (!cert_pem) return tl::unexpected(cert_pem.error());
    // O_EXCL: if another run made a CA meanwhile, this one stops rather than replace it.
    if (auto w = write_file(out.ca_key, *key_pem, 0600, true); !w) return tl::unexpected(w.error());
    if (auto w = write_file(out.ca_cert, *cert_pem, 0644, false); !w) return tl::unexpected(w.error());
    ca_key = std::move(*k);
    ca_cert = std::move(*c);
    out.ca_created = true;
  }

  auto key = new_key();
  if (!key) return tl::unexpected(key.error());
  auto cert = new_cert(key->get(), req.hosts.front(), kServerDays, ca_cert.get(), ca_key.get(),
                       {{NID_basic_constraints, "critical,CA:FALSE"},
                        {NID_key_usage, "critical,digitalSignature"},
                        {NID_ext_key_usage, "serverAuth"},
                        {NID_subject_alt_name, san},
                        {NID_subject_key_identifier, "hash"},
                        {NID_authority_key_identifier, "keyid"}});
  if (!cert) return tl::unexpected(cert.error());
  auto key_pem = pem([&](BIO* b) { return PEM_write_bio_PrivateKey(b, key->get(), nullptr, nullptr, 0, nullptr, nullptr); });
  if (!key_pem) return tl::unexpected(key_pem.error());
  auto cert_pem = pem([&](BIO* b) { return PEM_write_bio_X509(b, cert->get()); });
  if (!cert_pem) return tl::unexpected(cert_pem.error());
  if (auto w = write_file(out.server_key, *key_pem, 0600, false); !w) return tl::unexpected(w.error());
  if (auto w = write_file(out.server_cert, *cert_pem, 0644, false); !w) return tl::unexpected(w.error());
  out.ca_fingerprint = fingerprint(ca_cert.get());
  return out;
}

}  // namespace warlog::tournament
