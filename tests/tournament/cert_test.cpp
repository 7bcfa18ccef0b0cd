// serve cert: a venue's CA and server certificate that openssl verifies,
// the host in subjectAltName, keys 0600, and a CA key never overwritten.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>

#include "cli/cli_run.hpp"
#include "temp_dir.hpp"
#include "warlog/tournament/cert.hpp"

namespace warlog::tournament {
namespace {

using ::testing::HasSubstr;
using warlog::testing::run_warlog_command;
using warlog::testing::slurp;

unsigned mode_of(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
  return st.st_mode & 0777;
}

TEST(Cert, TheServerCertificateVerifiesAgainstTheCaAndNamesTheHost) {
  warlog::testing::TempDir dir;
  CertRequest req{{"tables.local", "192.168.4.1"}, (dir.path() / "tls").string()};
  auto made = make_certificates(req);
  ASSERT_TRUE(made.has_value()) << made.error().message;
  EXPECT_TRUE(made->ca_created);

  auto verified = run_warlog_command("openssl verify -CAfile '" + made->ca_cert + "' '" + made->server_cert + "'");
  EXPECT_EQ(verified.code, 0) << verified.err;
  EXPECT_THAT(verified.out, HasSubstr(": OK"));

  auto text = run_warlog_command("openssl x509 -noout -ext subjectAltName,extendedKeyUsage -in '" + made->server_cert + "'");
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr("DNS:tables.local"));
  EXPECT_THAT(text.out, HasSubstr("IP Address:192.168.4.1"));
  EXPECT_THAT(text.out, HasSubstr("TLS Web Server Authentication"));

  auto fp = run_warlog_command("openssl x509 -noout -fingerprint -sha256 -in '" + made->ca_cert + "'");
  ASSERT_EQ(fp.code, 0) << fp.err;
  EXPECT_THAT(fp.out, HasSubstr(made->ca_fingerprint));
  EXPECT_EQ(made->ca_fingerprint.size(), 32U * 3 - 1);

  EXPECT_EQ(mode_of(made->ca_key), 0600U);
  EXPECT_EQ(mode_of(made->server_key), 0600U);
  EXPECT_EQ(mode_of(req.dir), 0700U);
}

TEST(Cert, ASecondRunKeepsTheCaKeyAndIssuesANewServerCertificateFromIt) {
  warlog::testing::TempDir dir;
  const std::string out = (dir.path() / "tls").string();
  auto first = make_certificates({{"10.0.0.2"}, out});
  ASSERT_TRUE(first.has_value()) << first.error().message;
  const std::string ca_key = slurp(first->ca_key);
  const std::string server_cert = slurp(first->server_cert);

  auto second = make_certificates({{"10.0.0.3"}, out});
  ASSERT_TRUE(second.has_value()) << second.error().message;
  EXPECT_FALSE(second->ca_created);
  EXPECT_EQ(slurp(second->ca_key), ca_key);
  EXPECT_EQ(second->ca_fingerprint, first->ca_fingerprint);
  EXPECT_NE(slurp(second->server_cert), server_cert);
  auto verified = run_warlog_command("openssl verify -CAfile '" + second->ca_cert + "' '" + second->server_cert + "'");
  EXPECT_EQ(verified.code, 0) << verified.err;
}

TEST(Cert, ACaKeyWithoutItsCertificateIsNeverReplaced) {
  warlog::testing::TempDir dir;
  const std::string out = (dir.path() / "tls").string();
  ASSERT_TRUE(make_certificates({{"venue"}, out}).has_value());
  std::filesystem::remove(dir.path() / "tls" / "ca.crt");
  const std::string key = slurp(dir.path() / "tls" / "ca.key");
  auto again = make_certificates({{"venue"}, out});
  ASSERT_FALSE(again.has_value());
  EXPECT_THAT(again.error().message, HasSubstr("holds ca.key without ca.crt: warlog never replaces a CA's key"));
  EXPECT_EQ(slurp(dir.path() / "tls" / "ca.key"), key);
}

TEST(Cert, ACaKeyOthersMayReadIsRefused) {
  warlog::testing::TempDir dir;
  const std::string out = (dir.path() / "tls").string();
  ASSERT_TRUE(make_certificates({{"venue"}, out}).has_value());
  ::chmod((dir.path() / "tls" / "ca.key").c_str(), 0644);
  auto again = make_certificates({{"venue"}, out});
  ASSERT_FALSE(again.has_value());
  EXPECT_THAT(again.error().message, HasSubstr("chmod 600 it"));
}

TEST(Cert, AHostThatIsNeitherANameNorAnAddressIsRefused) {
  warlog::testing::TempDir dir;
  for (const char* bad : {"tables local", "", "a..b", "x/y"}) {
    auto r = make_certificates({{bad}, (dir.path() / "tls").string()});
    ASSERT_FALSE(r.has_value()) << bad;
    EXPECT_EQ(r.error().code, ErrorCode::InvalidArgument);
  }
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "tls"));
  auto none = make_certificates({{}, (dir.path() / "tls").string()});
  ASSERT_FALSE(none.has_value());
}

}  // namespace
}  // namespace warlog::tournament
