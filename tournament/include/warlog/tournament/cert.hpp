#pragma once
// A venue's own certificate authority and the server's certificate, for an
// event without internet (docs/server.md § 5): `warlog serve cert`. ECDSA
// P-256 keys and SHA-256 signatures (what every phone's browser takes), the
// CA valid 5 years, the server's 397 days (the longest a browser accepts),
// the hosts in subjectAltName (DNS or IP).

#include <string>
#include <vector>

#include "warlog/core/error.hpp"

namespace warlog::tournament {

struct CertRequest {
  std::vector<std::string> hosts;  // names or IP addresses; the first is the subject's CN
  std::string dir;                 // where ca.key, ca.crt, server.key, server.crt go
};

struct CertResult {
  bool ca_created = false;       // false: the CA in dir was kept and used
  std::string ca_fingerprint;    // SHA-256 of the CA certificate's DER, "AB:CD:..." as phones show it
  std::string ca_cert, ca_key, server_cert, server_key;  // paths
};

// Makes the CA when dir holds none (ca.key created with O_EXCL, mode 0600:
// an existing CA key is never overwritten, only read), then a new server
// key (0600) and certificate signed by it, each written whole (a temporary
// renamed into place). dir is created 0700 when missing.
// Errors: InvalidArgument for a host that is neither a DNS name nor an IP
// address, or no host; InvalidArgument for a ca.key without its ca.crt (or
// the other way round), a ca.crt that does not match ca.key, or a ca.key
// that group or others may read ("chmod 600 it"); IoError.
[[nodiscard]] Expected<CertResult> make_certificates(const CertRequest& request);

// What `warlog serve --tls DIR` serves: the server.crt and server.key that
// `serve cert` wrote to DIR, checked before any connection is taken, and
// the fingerprint of DIR's ca.crt for the start line.
struct ServerTls {
  std::string cert_pem, key_pem;  // the server's certificate and its key, PEM
  std::string ca_cert;            // the path of ca.crt
  std::string ca_fingerprint;     // its SHA-256, "AB:CD:..."
};
// Errors: NotFound for a file DIR lacks (naming serve cert); InvalidArgument
// for a server.key that group or others may read ("chmod 600 it"), a file
// that is not PEM, a key that is not server.crt's, a server.crt that ca.crt
// did not sign.
[[nodiscard]] Expected<ServerTls> load_server_tls(const std::string& dir);

// The SHA-256 fingerprint of a PEM certificate file, "AB:CD:...".
[[nodiscard]] Expected<std::string> certificate_fingerprint(const std::string& pem_path);

}  // namespace warlog::tournament
