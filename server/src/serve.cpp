// server::serve (server.hpp): the owner lock, the writer, the event loop.

#include <arpa/inet.h>
#include <signal.h>

#include <fmt/format.h>
#include <kj/async-io.h>
#include <kj/async-unix.h>
#include <kj/compat/http.h>

#include <optional>

#include "backups.hpp"
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
  const auto hp = split(options.http);
  if (!hp) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("--http takes HOST:PORT (127.0.0.1:8080; port 0 picks one), not '{}'", options.http));
  }
  if (!is_loopback(options.http)) {
    if (!options.insecure_lan) {
      return make_error(ErrorCode::InvalidArgument,
                        fmt::format("--http {} is off loopback, and this build serves no TLS yet: tokens would cross "
                                    "the network in clear; give --insecure-lan to serve a trusted LAN anyway",
                                    options.http));
    }
    if (options.on_warning) {
      options.on_warning(fmt::format("warning: serving {} without TLS (--insecure-lan): anyone on the network can "
                                     "read the tokens and the games",
                                     options.http));
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
    Http http(options, *archive, writer, io.provider->getTimer());
    kj::HttpServerSettings settings;
    settings.headerTimeout = options.limits.idle.count() * kj::MILLISECONDS;
    settings.pipelineTimeout = options.limits.idle.count() * kj::MILLISECONDS;
    kj::HttpServer server(io.provider->getTimer(), http.header_table(), http, settings);
    auto address = io.provider->getNetwork().parseAddress(hp->host.c_str(), hp->port).wait(io.waitScope);
    auto listener = address->listen();
    const std::string host = hp->host.find(':') != std::string::npos ? "[" + hp->host + "]" : hp->host;
    if (options.on_listening) options.on_listening(fmt::format("{}:{}", host, listener->getPort()));
    auto accepting = http.accept(*listener, server).then([]() -> int { return 0; });
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
