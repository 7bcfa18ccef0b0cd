// Annotations (disputes, rulings, signatures) round-trip through their packed
// Cap'n Proto encoding, and hostile bytes are errors, never crashes.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "warlog/events/annotation_codec.hpp"

namespace warlog::events {
namespace {

core::DisputeRaised raised() {
  return {"Bruno drew three cards", "Alice",
          {{core::Citation::Kind::Rule, "MUS-a.draw"}, {core::Citation::Kind::Text, "rulings R-010"}},
          "2026-03-20T10:00:00Z"};
}

core::DisputeRuled ruled(std::optional<core::Expectation> e) {
  core::DisputeRuled r;
  r.dispute = 7;
  r.status = core::DisputeStatus::Resolved;
  r.ruling = "Two cards per Muster Phase.\nThe third is a violation.";
  r.ruled_by = "Judge Carla";
  r.citations = {{core::Citation::Kind::Rule, "MUS-a.draw"}};
  r.expectation = std::move(e);
  r.ruled_at = "2026-03-21T09:30:00Z";
  return r;
}

core::GameSigned signed_() {
  core::GameSigned s;
  s.signer = "Alice";
  for (std::size_t i = 0; i < s.public_key.size(); ++i) s.public_key[i] = static_cast<std::uint8_t>(i + 1);
  s.event_count = 70'000;
  for (std::size_t i = 0; i < s.head.size(); ++i) s.head[i] = static_cast<std::uint8_t>(0xA0 + i);
  for (std::size_t i = 0; i < s.signature.size(); ++i) s.signature[i] = static_cast<std::uint8_t>(255 - i);
  s.signed_at = "2026-03-22T12:00:00Z";
  return s;
}

void expect_round_trip(const core::Annotation& a) {
  const std::string bytes = encode_annotation(a);
  auto back = decode_annotation(bytes);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(*back, a);
}

TEST(AnnotationCodec, EveryKindRoundTrips) {
  expect_round_trip(raised());
  expect_round_trip(ruled(std::nullopt));
  expect_round_trip(ruled(core::Expectation{"MUS-a.draw", true}));
  expect_round_trip(ruled(core::Expectation{"ATT-3.priority", false}));
  auto reopened = ruled(std::nullopt);
  reopened.status = core::DisputeStatus::Open;
  expect_round_trip(reopened);
  expect_round_trip(signed_());
  expect_round_trip(core::DisputeRaised{});  // every default
}

TEST(AnnotationCodec, ValuesStartAtAnyAddress) {
  // LMDB values are only 2-byte aligned: decode from an odd offset.
  const std::string bytes = encode_annotation(signed_());
  std::string shifted = "x" + bytes;
  auto back = decode_annotation(std::string_view(shifted).substr(1));
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(*back, core::Annotation(signed_()));
}

TEST(AnnotationCodec, DamagedBytesAreDataLoss) {
  const std::string bytes = encode_annotation(raised());
  for (const std::string& bad : {std::string{}, bytes.substr(0, bytes.size() / 2), std::string(40, '\xff'),
                                 bytes + std::string(8, '\0')}) {
    auto r = decode_annotation(bad);
    ASSERT_FALSE(r) << "decoded " << bad.size() << " bytes";
    EXPECT_EQ(r.error().code, ErrorCode::DataLoss) << r.error().message;
  }
}

TEST(AnnotationCodec, EveryTruncationFails) {
  const std::string bytes = encode_annotation(signed_());
  for (std::size_t cut = 1; cut < bytes.size(); ++cut) {
    auto r = decode_annotation(std::string_view(bytes).substr(0, bytes.size() - cut));
    EXPECT_FALSE(r) << "a message cut by " << cut << " bytes decoded";
  }
}

// The stock tool, from the schema file: it reads what warlog writes, and what
// it writes with a key of the wrong size is refused by warlog.
class StockCapnp : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::system("capnp --version > /dev/null 2>&1") != 0) GTEST_SKIP() << "capnp tool absent";
    char tmpl[] = "/tmp/warlog-annot-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }
  static std::string schema() { return std::string(WARLOG_SOURCE_DIR) + "/events/schema/annotation.capnp"; }
  std::string path(const char* name) const { return (dir_ / name).string(); }
  static std::string slurp(const std::string& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  std::filesystem::path dir_;
};

TEST_F(StockCapnp, DecodesWhatWarlogWrites) {
  std::ofstream(path("in.bin"), std::ios::binary) << encode_annotation(raised());
  const std::string cmd = "capnp convert packed:text " + schema() + " Annotation < " + path("in.bin") + " > " +
                          path("out.txt");
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  const std::string text = slurp(path("out.txt"));
  EXPECT_NE(text.find("claim = \"Bruno drew three cards\""), std::string::npos) << text;
  EXPECT_NE(text.find("kind = rule"), std::string::npos) << text;
}

TEST_F(StockCapnp, AKeyOfTheWrongSizeIsDataLoss) {
  // A signature whose public key is 3 bytes must not read as a key padded with zeros.
  std::ofstream(path("in.txt")) << "(gameSigned = (signer = \"A\", publicKey = \"abc\", eventCount = 1))\n";
  const std::string cmd = "capnp convert text:packed " + schema() + " Annotation < " + path("in.txt") + " > " +
                          path("out.bin");
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  auto r = decode_annotation(slurp(path("out.bin")));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::DataLoss);
  EXPECT_NE(r.error().message.find("publicKey is 3 bytes"), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace warlog::events
