#pragma once
// `warlog serve` (docs/server.md): one process owns the store (the owner
// lock, store/owner_lock.hpp), a writer thread commits every table's lines
// through one replay::Recorder per game, and KJ's HTTP server on the event
// loop thread answers the web recorder (web/, embedded) and the JSON API;
// Cap'n Proto RPC (--rpc) answers warlog's own clients on the same loop.

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "warlog/core/error.hpp"
#include "warlog/store/signature.hpp"

namespace warlog::server {

// Each limit is a flag of `warlog serve`; each is tested by exceeding it.
struct Limits {
  std::size_t request_bytes = 64 * 1024;  // a request's body: 413 past it
  std::size_t connections = 256;          // open at once: 503 past it
  double appends_per_second = 10;         // per token, a token bucket: 429 past it
  double append_burst = 20;
  std::chrono::milliseconds idle{5 * 60 * 1000};  // a connection with no request in that long is closed
};

struct ServeOptions {
  std::string store;
  std::string http = "127.0.0.1:0";  // HOST:PORT; port 0 picks one
  std::string rpc;                   // HOST:PORT of Cap'n Proto RPC (docs/server.md › 3); empty: none; port 0 picks one
  bool insecure_lan = false;         // serve off loopback without TLS (warns at every start)
  // TLS on the HTTP listener (--tls DIR, read by tournament::load_server_tls):
  // the server's certificate and its key, PEM. Empty: plain HTTP.
  struct Tls {
    std::string cert_pem, key_pem;
    [[nodiscard]] bool on() const noexcept { return !cert_pem.empty(); }
  } tls;
  Limits limits;
  std::uint16_t public_turns_behind = 1;  // the public view's delay, in turns
  // The version in the `schema` field of the answers that name one (the
  // overview): the CLI's kJsonSchemaVersion, which main() passes in.
  int json_schema_version = 0;
  // Called once listening, with the address actually bound ("127.0.0.1:41234").
  std::function<void(const std::string&)> on_listening;
  // Called before on_listening, with the RPC address bound, when rpc is set.
  std::function<void(const std::string&)> on_rpc_listening;
  // A line for the operator (stderr): a warning at start, a signature, a backup.
  std::function<void(const std::string&)> on_warning;
  // --- The event's key and backups (docs/server.md › The event's key and backups)
  std::optional<store::KeyPair> sign_key;  // --sign-as KEYFILE: signs a game when it ends, after a backup or ruling
  std::string signer;                      // --signer NAME, the name `warlog trust add` gives the key
  std::chrono::seconds backup_every{0};    // --backup-every PERIOD DIR; 0: no backups
  std::string backup_dir;
  unsigned backup_keep = 0;  // --backup-keep N: the newest N kept; 0: every one
  std::string program;       // the warlog binary a backup runs (`warlog backup`, then `warlog verify`)
};

// "30s", "10m", "2h": a whole number of seconds, minutes or hours, at least
// 1 s and at most 24 h. Errors: InvalidArgument, one line naming the text.
[[nodiscard]] Expected<std::chrono::seconds> parse_period(std::string_view text);

// Serves until SIGINT or SIGTERM. Errors: the owner lock's Conflict (a
// server or a local writer holds the store), an address that cannot be
// bound or is off loopback with neither TLS nor --insecure-lan
// (InvalidArgument), a certificate or key KJ's TLS does not take
// (InvalidArgument), the store's.
[[nodiscard]] Expected<void> serve(const ServeOptions& options);

// "HOST:PORT" (an IPv6 host in brackets) split; nullopt for anything else.
struct HostPort {
  std::string host;
  std::uint16_t port = 0;
};
[[nodiscard]] std::optional<HostPort> split_host_port(const std::string& address);

// Whether HOST of "HOST:PORT" is a loopback address (127.0.0.0/8, ::1,
// localhost).
[[nodiscard]] bool is_loopback(const std::string& address);

}  // namespace warlog::server
