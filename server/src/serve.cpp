// server::serve (server.hpp): the owner lock, the writer, the event loop.

#include <arpa/inet.h>
#include <signal.h>

#include <fmt/format.h>
#include <kj/async-io.h>
#include <kj/async-unix.h>
#include <kj/compat/http.h>
#include <kj/compat/tls.h>

#include <optional>

#include "append_rate.hpp"
#include "backups.hpp"
#include "http.hpp"
#include "rpc.hpp"
#include "warlog/replay/replay.hpp"
#include "warlog/server/server.hpp"
#include "writer.hpp"

namespace warlog::server {

namespace {

// "HOST:PORT", an IPv6 host in brackets.
std::string bracketed(const std::string& host, unsigned port) {
  return fmt::format("{}:{}", host.find(':') != std::string::npos ? "[" + host + "]" : host, port);
}

// TLS 1.2 at least (every phone of the last years speaks it); the server
// asks no client for a certificate: the token says who it is.
kj::Own<kj::TlsContext> tls_context(const ServeOptions::Tls& t) {
  kj::TlsKeypair keypair{kj::TlsPrivateKey(kj::StringPtr(t.key_pem.c_str(), t.key_pem.size())),
                         kj::TlsCertificate(kj::StringPtr(t.cert_pem.c_str(), t.cert_pem.size()))};
  kj::TlsContext::Options o;
  o.useSystemTrustStore = false;
  o.minVersion = kj::TlsVersion::TLS_1_2;
  o.defaultKeypair = keypair;
  return kj::heap<kj::TlsContext>(kj::mv(o));
}

// A listener without TLS: refused off loopback unless --insecure-lan, which
// warns. `remedy` says how this listener gets TLS.
Expected<void> plain_off_loopback(std::string_view flag, const std::string& address, const ServeOptions& options,
                                  std::string_view remedy) {
  if (is_loopback(address)) return {};
  if (!options.insecure_lan) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("{} {} is off loopback without TLS: tokens would cross the network in clear; "
                                  "{}, or --insecure-lan to serve a trusted LAN in clear anyway",
                                  flag, address, remedy));
  }
  if (options.on_warning) {
    options.on_warning(fmt::format("warning: serving {} without TLS (--insecure-lan): anyone on the network can "
                                   "read the tokens and the games",
                                   address));
  }
  return {};
}

}  // namespace

std::optional<HostPort> split_host_port(const std::string& address) {
  const auto colon = address.rfind(':');
  if (colon == std::string::npos || colon == 0) return std::nullopt;
  HostPort hp;
  hp.host = address.substr(0, colon);
  if (hp.host.size() > 2 && hp.host.front() == '[' && hp.host.back() == ']') hp.host = hp.host.substr(1, hp.host.size() - 2);
  const std::string port = address.substr(colon + 1);
  if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  const unsigned long p = std::stoul(port);
  if (p > 65535) return std::nullopt;
  hp.port = static_cast<std::uint16_t>(p);
  return hp;
}

bool is_loopback(const std::string& address) {
  const auto hp = split_host_port(address);
  if (!hp) return false;
  if (hp->host == "localhost") return true;
  in_addr v4{};
  if (::inet_pton(AF_INET, hp->host.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  if (::inet_pton(AF_INET6, hp->host.c_str(), &v6) == 1) return IN6_IS_ADDR_LOOPBACK(&v6);
  return false;
}

Expected<std::chrono::seconds> parse_period(std::string_view text) {
  auto refused = [text] {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("--backup-every takes a period, a whole number and s, m or h from 1s to 24h (30s, "
                                  "10m, 2h), then a directory; not '{}'",
                                  text));
  };
  const std::string_view number = text.substr(0, text.empty() ? 0 : text.size() - 1);
  if (number.empty() || number.size() > 7 || number.find_first_not_of("0123456789") != std::string_view::npos) {
    return refused();
  }
  const std::uint64_t n = std::stoull(std::string(number));
  const char unit = text.back();
  const std::uint64_t s = unit == 's' ? n : unit == 'm' ? n * 60 : unit == 'h' ? n * 3600 : 0;
  if (s < 1 || s > 24 * 3600) return refused();
  return std::chrono::seconds(s);
}

Expected<void> serve(const ServeOptions& options) {
  const auto hp = split_host_port(options.http);
  if (!hp) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("--http takes HOST:PORT (127.0.0.1:8080; port 0 picks one), not '{}'", options.http));
  }
  if (!options.tls.on()) {
    if (auto refused = plain_off_loopback("--http", options.http, options, "give --tls DIR (warlog serve cert makes it)");
        !refused) {
      return refused;
    }
  }
  std::optional<HostPort> rpc_hp;
  if (!options.rpc.empty()) {
    rpc_hp = split_host_port(options.rpc);
    if (!rpc_hp) {
      return make_error(ErrorCode::InvalidArgument,
                        fmt::format("--rpc takes HOST:PORT (127.0.0.1:8081; port 0 picks one), not '{}'", options.rpc));
    }
    // RPC has no TLS yet (kj/compat/tls.h): once it has, wrap its listener
    // (TlsContext::wrapPort) and let a TLS listener past this check.
    if (auto refused = plain_off_loopback("--rpc", options.rpc, options, "RPC has no TLS yet: keep --rpc on loopback");
        !refused) {
      return refused;
    }
  }
  // The context is made before the store is owned: a key KJ does not take stops here.
  kj::Maybe<kj::Own<kj::TlsContext>> tls;
  if (options.tls.on()) {
    KJ_IF_MAYBE(e, kj::runCatchingExceptions([&] { tls = tls_context(options.tls); })) {
      return make_error(ErrorCode::InvalidArgument,
                        fmt::format("--tls: KJ's TLS does not take the certificate or key: {}",
                                    e->getDescription().cStr()));
    }
  }
  auto archive = replay::Archive::open(options.store, replay::Archive::Mode::Serve);
  if (!archive) return tl::unexpected(archive.error());

  // Signals are taken before the writer thread starts, so it inherits the mask.
  kj::UnixEventPort::captureSignal(SIGINT);
  kj::UnixEventPort::captureSignal(SIGTERM);
  std::optional<Error> failed;
  KJ_IF_MAYBE(e, kj::runCatchingExceptions([&] {
    auto io = kj::setupAsyncIo();
    // The event's key and backups (docs/server.md › The event's key and backups).
    std::optional<Signing> signing;
    if (options.sign_key) signing = Signing{*options.sign_key, options.signer, options.on_warning};
    auto say = [&](const std::string& line) {
      if (options.on_warning) options.on_warning(line);
    };
    say(signing ? fmt::format("signing as '{}' (key {}) when a game ends and after each backup or ruling",
                              options.signer, store::key_id_hex(store::key_id_of(signing->key.public_key)))
                : std::string("nothing is signed: no --sign-as KEYFILE --signer NAME"));
    Writer writer(*archive, std::move(signing));
    AppendRate rate(options.limits, io.provider->getTimer());
    std::optional<Backups> backups;
    if (options.backup_every.count() > 0) {
      say(fmt::format("backing up every {} s to {} ({}), each verified", options.backup_every.count(),
                      options.backup_dir,
                      options.backup_keep ? fmt::format("the newest {} kept", options.backup_keep) : "every one kept"));
      backups.emplace(BackupPlan{options.store, options.program, options.backup_every, options.backup_dir,
                                 options.backup_keep},
                      [&writer] {
                        const WriterStats s = writer.stats();
                        return s.commits + s.annotations;
                      }, say);
    }
    Http http(options, *archive, writer, io.provider->getTimer(), rate);
    kj::HttpServerSettings settings;
    settings.headerTimeout = options.limits.idle.count() * kj::MILLISECONDS;
    settings.pipelineTimeout = options.limits.idle.count() * kj::MILLISECONDS;
    kj::HttpServer server(io.provider->getTimer(), http.header_table(), http, settings);
    auto address = io.provider->getNetwork().parseAddress(hp->host.c_str(), hp->port).wait(io.waitScope);
    auto listener = address->listen();
    // Cap'n Proto RPC (docs/server.md › 3): the same loop, writer, tokens and rate.
    kj::Own<Rpc> rpc;
    kj::Own<kj::ConnectionReceiver> rpc_listener;
    kj::Promise<void> rpc_accepting = kj::NEVER_DONE;
    if (rpc_hp) {
      rpc = kj::heap<Rpc>(options, *archive, writer, rate, [&http](core::GameId game) { http.notify(game); });
      rpc_listener = io.provider->getNetwork().parseAddress(rpc_hp->host.c_str(), rpc_hp->port).wait(io.waitScope)->listen();
      rpc_accepting = rpc->accept(*rpc_listener);
      if (options.on_rpc_listening) options.on_rpc_listening(bracketed(rpc_hp->host, rpc_listener->getPort()));
    }
    if (options.on_listening) options.on_listening(bracketed(hp->host, listener->getPort()));
    kj::Maybe<kj::TlsContext&> secure;
    KJ_IF_MAYBE(t, tls) secure = **t;
    auto accepting =
        http.accept(*listener, server, secure).exclusiveJoin(kj::mv(rpc_accepting)).then([]() -> int { return 0; });
    auto stop = io.unixEventPort.onSignal(SIGINT)
                    .exclusiveJoin(io.unixEventPort.onSignal(SIGTERM))
                    .then([](siginfo_t) { return 0; });
    (void)stop.exclusiveJoin(kj::mv(accepting)).wait(io.waitScope);
    // Stopping: no new request; the writer answers what is queued (503) and stops.
  })) {
    failed = Error{ErrorCode::IoError, fmt::format("warlog serve: {}", e->getDescription().cStr())};
  }
  if (failed) return tl::unexpected(*failed);
  return {};
}

}  // namespace warlog::server
