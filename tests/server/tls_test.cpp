// `warlog serve --tls DIR` on loopback (docs/server.md › 4-5): the
// certificates `warlog serve cert --host 127.0.0.1` makes, a KJ TLS client
// that trusts the venue's CA records as plain HTTP does; a client that does
// not trust it, and plain HTTP to the TLS port, get no answer and write
// nothing; a handshake counts against --max-connections and ends within
// --idle-seconds; off loopback TLS needs no --insecure-lan; a missing, readable or
// wrong key is one line and exit 2. Every test starts its own server and
// stops it (ServedStore).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <kj/async-io.h>
#include <kj/compat/tls.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <nlohmann/json.hpp>

#include "cli/cli_run.hpp"
#include "sample_lines.hpp"
#include "served_store.hpp"
#include "temp_dir.hpp"

namespace warlog::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::StartsWith;

// What a TLS request got: the reply, or why there was none (the handshake's
// or the connection's failure).
struct TlsReply {
  HttpReply reply;
  std::string error;
};

kj::Promise<void> read_reply(kj::AsyncIoStream& stream, std::string& raw) {
  auto buffer = kj::heapArray<char>(16384);
  char* at = buffer.begin();
  const std::size_t size = buffer.size();
  return stream.tryRead(at, 1, size).then([&stream, &raw, buffer = kj::mv(buffer)](std::size_t n) -> kj::Promise<void> {
    if (n == 0) return kj::READY_NOW;
    raw.append(buffer.begin(), n);
    if (reply_complete(raw)) return kj::READY_NOW;
    return read_reply(stream, raw);
  });
}

// One request over TLS to 127.0.0.1:port, as a phone that trusts `ca_pem`
// (empty: only the system's trust store, which does not hold a venue's CA).
TlsReply https(int port, const std::string& ca_pem, const std::string& method, const std::string& target,
               const std::string& token = "", const std::string& body = "") {
  TlsReply out;
  auto io = kj::setupAsyncIo();
  std::optional<kj::TlsCertificate> ca;
  kj::TlsContext::Options options;
  if (!ca_pem.empty()) {
    ca.emplace(kj::StringPtr(ca_pem.c_str(), ca_pem.size()));
    options.useSystemTrustStore = false;
    options.trustedCertificates = kj::arrayPtr(&*ca, 1);
  }
  kj::TlsContext tls(kj::mv(options));
  const std::string request = request_text(method, target, token, body);
  std::string raw;
  auto exchange = io.provider->getNetwork()
                      .parseAddress("127.0.0.1", static_cast<unsigned>(port))
                      .then([](kj::Own<kj::NetworkAddress> a) { return a->connect().attach(kj::mv(a)); })
                      .then([&tls](kj::Own<kj::AsyncIoStream> s) { return tls.wrapClient(kj::mv(s), "127.0.0.1"); })
                      .then([&request, &raw](kj::Own<kj::AsyncIoStream> s) {
                        auto& stream = *s;
                        return stream.write(request.data(), request.size())
                            .then([&stream, &raw] { return read_reply(stream, raw); })
                            .attach(kj::mv(s));
                      });
  auto bounded = io.provider->getTimer().timeoutAfter(20 * kj::SECONDS, kj::mv(exchange));
  KJ_IF_MAYBE(e, kj::runCatchingExceptions([&] { bounded.wait(io.waitScope); })) {
    out.error = e->getDescription().cStr();
  }
  out.reply = parse_reply(raw);
  return out;
}

// An answer without its recorded times (they differ between two servers).
json timeless(json j) {
  if (j.is_object()) j.erase("recorded_at_ms");
  if (j.is_structured()) {
    for (auto& v : j) v = timeless(v);
  }
  return j;
}

class ServeTls : public ::testing::Test {
 protected:
  void SetUp() override {
    lines_ = serve_tutorial(dir_, false);
    table1_ = issue_token(dir_.store(), "table", 1);
    judge_ = issue_token(dir_.store(), "judge");
    const CliResult cert = run_warlog("serve cert --host 127.0.0.1 --out '" + tls_.string() + "'");
    ASSERT_EQ(cert.code, 0) << cert.err;
    const std::string label = "CA SHA-256 fingerprint: ";
    const auto at = cert.out.find(label);
    ASSERT_NE(at, std::string::npos) << cert.out;
    fingerprint_ = cert.out.substr(at + label.size(), cert.out.find('\n', at) - at - label.size());
    ca_pem_ = slurp(tls_ / "ca.crt");
    // Another venue's CA and server certificate, for the client and the key that do not belong.
    ASSERT_EQ(run_warlog("serve cert --host 127.0.0.1 --out '" + other_.string() + "'").code, 0);
  }

  [[nodiscard]] std::vector<std::string> tls_flag() const { return {"--tls", tls_.string()}; }
  [[nodiscard]] std::uint64_t next_seq(int port) const {
    const TlsReply r = https(port, ca_pem_, "GET", "/api/games/1/events", judge_);
    EXPECT_EQ(r.reply.status, 200) << r.error << r.reply.body;
    return r.reply.status == 200 ? json::parse(r.reply.body)["next_seq"].get<std::uint64_t>() : 0;
  }
  // `warlog serve STORE --tls DIR`, which must refuse to start (bounded: a
  // server that started after all is killed, and the test fails on its code).
  [[nodiscard]] CliResult refused_start(const fs::path& dir) const {
    return run_warlog("serve '" + dir_.store() + "' --http 127.0.0.1:0 --tls '" + dir.string() + "'",
                      "timeout -s KILL 30");
  }

  TempDir dir_;
  fs::path tls_ = dir_.path() / "tls";
  fs::path other_ = dir_.path() / "other-venue";
  SampleLines lines_;
  std::string table1_, judge_, fingerprint_, ca_pem_;
};

TEST_F(ServeTls, ATrustedClientRecordsALineAndGetsTheAnswerPlainHttpGives) {
  // The same store twice: one copy served in clear, the other over TLS.
  TempDir plain_dir;
  fs::copy(dir_.store(), plain_dir.store(), fs::copy_options::recursive);
  ServedStore plain(plain_dir.store());
  ServedStore secure(dir_.store(), tls_flag());
  EXPECT_THAT(secure.first_line(), StartsWith("warlog serve: listening on https://127.0.0.1:"));
  const std::string ca_line = secure.read_line(std::chrono::seconds(10));
  EXPECT_THAT(ca_line, HasSubstr((tls_ / "ca.crt").string()));
  EXPECT_THAT(ca_line, HasSubstr("CA SHA-256 fingerprint " + fingerprint_));

  const std::uint64_t e = next_seq(secure.port());
  const HttpReply over_http = http(plain.port(), "POST", "/api/games/1/lines", table1_, line_body(e, "Turn 1"));
  const TlsReply over_tls = https(secure.port(), ca_pem_, "POST", "/api/games/1/lines", table1_, line_body(e, "Turn 1"));
  ASSERT_EQ(over_tls.reply.status, 200) << over_tls.error << over_tls.reply.body;
  ASSERT_EQ(over_http.status, 200) << over_http.body;
  EXPECT_EQ(json::parse(over_tls.reply.body)["status"], "ok");
  EXPECT_EQ(timeless(json::parse(over_tls.reply.body)), timeless(json::parse(over_http.body)));
  EXPECT_EQ(header(over_tls.reply, "content-security-policy"), "default-src 'self'");
  EXPECT_EQ(next_seq(secure.port()), e + 1);
  // The page itself comes over TLS too.
  const TlsReply page = https(secure.port(), ca_pem_, "GET", "/");
  EXPECT_EQ(page.reply.status, 200) << page.error;
  EXPECT_EQ(secure.stop(SIGTERM), 0) << secure.err();
}

TEST_F(ServeTls, AClientThatDoesNotTrustTheCaFailsTheHandshakeAndWritesNothing) {
  ServedStore served(dir_.store(), tls_flag());
  const std::uint64_t e = next_seq(served.port());
  const std::string other_ca = slurp(other_ / "ca.crt");
  for (const std::string& trusted : {other_ca, std::string()}) {  // another venue's CA; the system's store only
    const TlsReply r = https(served.port(), trusted, "POST", "/api/games/1/lines", table1_, line_body(e, "Turn 1"));
    EXPECT_EQ(r.reply.status, 0) << r.reply.body;
    EXPECT_THAT(r.error, HasSubstr("certificate")) << r.error;
  }
  // Nothing written, and the server still answers the clients that trust it.
  EXPECT_EQ(next_seq(served.port()), e);
  const TlsReply ok = https(served.port(), ca_pem_, "POST", "/api/games/1/lines", table1_, line_body(e, "Turn 1"));
  EXPECT_EQ(ok.reply.status, 200) << ok.error << ok.reply.body;
  EXPECT_EQ(served.stop(SIGTERM), 0) << served.err();
}

TEST_F(ServeTls, PlainHttpToTheTlsPortGetsNoAnswerAndWritesNothing) {
  ServedStore served(dir_.store(), tls_flag());
  const std::uint64_t e = next_seq(served.port());
  const HttpReply r = http(served.port(), "POST", "/api/games/1/lines", table1_, line_body(e, "Turn 1"),
                           std::chrono::seconds(10));
  EXPECT_EQ(r.status, 0) << r.body;
  EXPECT_EQ(http(served.port(), "GET", "/", "", "", std::chrono::seconds(10)).status, 0);
  EXPECT_EQ(next_seq(served.port()), e);
  EXPECT_EQ(served.stop(SIGTERM), 0) << served.err();
}

TEST_F(ServeTls, AHandshakeCountsAgainstTheConnectionsAndEndsWithinTheIdleLimit) {
  ServedStore served(dir_.store(), {"--tls", tls_.string(), "--max-connections", "1", "--idle-seconds", "1"});
  // A connection that never starts its handshake holds the one place...
  const int stalled = connect_loopback(served.port());
  ASSERT_GE(stalled, 0);
  // ...so the next, over TLS, is answered 503 (inside TLS) and closed.
  const TlsReply over = https(served.port(), ca_pem_, "GET", "/api/games", judge_);
  EXPECT_EQ(over.reply.status, 503) << over.error << over.reply.body;
  EXPECT_EQ(header(over.reply, "content-security-policy"), "default-src 'self'");
  // The stalled one is closed after --idle-seconds, with nothing sent.
  const auto before = std::chrono::steady_clock::now();
  EXPECT_EQ(read_until_closed(stalled, std::chrono::seconds(10)), "");
  EXPECT_LT(std::chrono::steady_clock::now() - before, std::chrono::seconds(5));
  ::close(stalled);
  EXPECT_EQ(https(served.port(), ca_pem_, "GET", "/api/games", judge_).reply.status, 200);
  EXPECT_EQ(served.stop(SIGTERM), 0) << served.err();
}

TEST_F(ServeTls, OffLoopbackTlsStartsWithoutInsecureLanAndWarnsOfNothing) {
  ServedStore served(dir_.store(), tls_flag(), "0.0.0.0");
  EXPECT_THAT(served.first_line(), StartsWith("warlog serve: listening on https://0.0.0.0:"));
  // The test itself talks over loopback only (0.0.0.0 holds 127.0.0.1).
  EXPECT_EQ(https(served.port(), ca_pem_, "GET", "/api/games", judge_).reply.status, 200);
  EXPECT_EQ(served.stop(SIGTERM), 0);
  // Nothing but the start's notice that no key signs (ServeSigning.*): no warning, no TLS word.
  EXPECT_EQ(served.err(), "warlog serve: nothing is signed: no --sign-as KEYFILE --signer NAME\n");
  // Without TLS the refusal holds (ServeHttp.OffLoopbackItRefusesToStartUnlessInsecureLanWhichWarns).
  const CliResult refused = run_warlog("serve '" + dir_.store() + "' --http 0.0.0.0:0", "timeout -s KILL 30");
  EXPECT_EQ(refused.code, 2);
  EXPECT_THAT(refused.err, HasSubstr("off loopback without TLS"));
  EXPECT_THAT(refused.err, HasSubstr("--tls DIR"));
  EXPECT_EQ(count_lines(refused.err), 1u);
}

TEST_F(ServeTls, AMissingReadableOrWrongKeyIsRefusedInOneLineWithExit2) {
  const auto expect_refused = [&](const fs::path& dir, const std::string& says) {
    const CliResult r = refused_start(dir);
    EXPECT_EQ(r.code, 2) << says << ": " << r.err;
    EXPECT_THAT(r.err, HasSubstr(says));
    EXPECT_THAT(r.err, StartsWith("warlog: "));
    EXPECT_EQ(count_lines(r.err), 1u) << r.err;
    EXPECT_EQ(r.out, "") << "nothing served";
  };
  const auto venue = [&](const std::string& name) {
    const fs::path d = dir_.path() / name;
    fs::copy(tls_, d, fs::copy_options::recursive);
    return d;
  };
  expect_refused(dir_.path() / "nowhere", "no server.crt there: make the certificates with warlog serve cert");

  const fs::path no_key = venue("no-key");
  fs::remove(no_key / "server.key");
  expect_refused(no_key, "no server.key there");

  const fs::path readable = venue("readable");
  fs::permissions(readable / "server.key", fs::perms::group_read | fs::perms::others_read, fs::perm_options::add);
  expect_refused(readable, "server.key may be read by others (mode 644): chmod 600 it");

  const fs::path garbage = venue("garbage");
  std::ofstream(garbage / "server.key", std::ios::trunc) << "not a key\n";
  expect_refused(garbage, "server.key is not a PEM private key");

  const fs::path wrong_key = venue("wrong-key");
  fs::copy_file(other_ / "server.key", wrong_key / "server.key", fs::copy_options::overwrite_existing);
  expect_refused(wrong_key, "server.key is not the key of");

  const fs::path wrong_ca = venue("wrong-ca");
  fs::copy_file(other_ / "ca.crt", wrong_ca / "ca.crt", fs::copy_options::overwrite_existing);
  expect_refused(wrong_ca, "server.crt is not signed by");

  // None of them took the store: a server starts on it now.
  ServedStore served(dir_.store(), tls_flag());
  EXPECT_EQ(served.stop(SIGTERM), 0);
}

}  // namespace
}  // namespace warlog::testing
