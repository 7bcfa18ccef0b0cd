// server::serve (server.hpp): the owner lock, the writer, the event loop.

#include <arpa/inet.h>
#include <signal.h>

#include <fmt/format.h>
#include <kj/async-io.h>
#include <kj/async-unix.h>
#include <kj/compat/http.h>
#include <kj/compat/tls.h>

#include <optional>

#include "http.hpp"
#include "warlog/replay/replay.hpp"
#include "warlog/server/server.hpp"
#include "writer.hpp"

namespace warlog::server {

namespace {

struct HostPort {
  std::string host;
  std::uint16_t port = 0;
};

std::optional<HostPort> split(const std::string& address) {
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

}  // namespace

bool is_loopback(const std::string& address) {
  const auto hp = split(address);
  if (!hp) return false;
  if (hp->host == "localhost") return true;
  in_addr v4{};
  if (::inet_pton(AF_INET, hp->host.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  if (::inet_pton(AF_INET6, hp->host.c_str(), &v6) == 1) return IN6_IS_ADDR_LOOPBACK(&v6);
  return false;
}

Expected<void> serve(const ServeOptions& options) {
  const auto hp = split(options.http);
  if (!hp) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("--http takes HOST:PORT (127.0.0.1:8080; port 0 picks one), not '{}'", options.http));
  }
  if (!is_loopback(options.http) && !options.tls.on()) {
    if (!options.insecure_lan) {
      return make_error(ErrorCode::InvalidArgument,
                        fmt::format("--http {} is off loopback without TLS: tokens would cross the network in clear; "
                                    "give --tls DIR (warlog serve cert makes it), or --insecure-lan to serve a trusted "
                                    "LAN in clear anyway",
                                    options.http));
    }
    if (options.on_warning) {
      options.on_warning(fmt::format("warning: serving {} without TLS (--insecure-lan): anyone on the network can "
                                     "read the tokens and the games",
                                     options.http));
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
    Writer writer(*archive);
    Http http(options, *archive, writer, io.provider->getTimer());
    kj::HttpServerSettings settings;
    settings.headerTimeout = options.limits.idle.count() * kj::MILLISECONDS;
    settings.pipelineTimeout = options.limits.idle.count() * kj::MILLISECONDS;
    kj::HttpServer server(io.provider->getTimer(), http.header_table(), http, settings);
    auto address = io.provider->getNetwork().parseAddress(hp->host.c_str(), hp->port).wait(io.waitScope);
    auto listener = address->listen();
    const std::string host = hp->host.find(':') != std::string::npos ? "[" + hp->host + "]" : hp->host;
    if (options.on_listening) options.on_listening(fmt::format("{}:{}", host, listener->getPort()));
    kj::Maybe<kj::TlsContext&> secure;
    KJ_IF_MAYBE(t, tls) secure = **t;
    auto accepting = http.accept(*listener, server, secure).then([]() -> int { return 0; });
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
