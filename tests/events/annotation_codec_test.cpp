// Annotations (disputes, rulings, signatures) round-trip through their
// canonical Cap'n Proto encoding with the seq they concern, other encodings
// of the same value are refused, and hostile bytes are errors, never crashes.

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
  s.signed_at_ms = 1'774'180'800'000;
  s.key_id = {1, 2, 3, 4, 5, 6, 7, 8};
  s.identity[0] = 0x35;
  s.annotation_count = 3;
  s.annotation_head[31] = 0xCC;
  return s;
}

void expect_round_trip(const core::Annotation& a, core::Seq seq = 27) {
  const std::string bytes = encode_annotation(seq, a);
  EXPECT_EQ(bytes.size() % 8, 0u);
  auto back = decode_annotation(bytes);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(*back, (core::AnnotationAt{seq, a}));
  EXPECT_EQ(encode_annotation(seq, back->value), bytes) << "one value, one encoding";
}

TEST(AnnotationCodec, EveryKindRoundTrips) {
  expect_round_trip(raised());
  expect_round_trip(ruled(std::nullopt));
  expect_round_trip(ruled(core::Expectation{"MUS-a.draw", true}));
  expect_round_trip(ruled(core::Expectation{"ATT-3.priority", false}));
  auto reopened = ruled(std::nullopt);
  reopened.status = core::DisputeStatus::Open;
  expect_round_trip(reopened);
  expect_round_trip(signed_(), 69'999);
  expect_round_trip(core::DisputeRaised{}, 0);  // every default
  auto judged = ruled(std::nullopt);
  judged.signature = core::RulingSignature{1'774'180'800'123, {9, 8, 7, 6, 5, 4, 3, 2}, {}, {}};
  judged.signature->public_key[5] = 0x11;
  judged.signature->signature[63] = 0x22;
  expect_round_trip(judged, 122);
}

TEST(AnnotationCodec, TheSeqIsPartOfTheBytes) {
  EXPECT_NE(encode_annotation(1, raised()), encode_annotation(2, raised()));
}

TEST(AnnotationCodec, ANonCanonicalEncodingOfTheSameValueIsDataLoss) {
  // The message with a trailing word still reads as the value but is not its
  // canonical bytes, so it may not be stored (a chain hash or signature over
  // it would be over another byte string); nor may a value cut mid-word.
  const std::string bytes = encode_annotation(4, raised());
  auto trailing = decode_annotation(bytes + std::string(8, '\0'));
  ASSERT_FALSE(trailing);
  EXPECT_EQ(trailing.error().code, ErrorCode::DataLoss);
  EXPECT_NE(trailing.error().message.find("canonical"), std::string::npos) << trailing.error().message;
  auto odd = decode_annotation(bytes.substr(0, bytes.size() - 3));
  ASSERT_FALSE(odd);
  EXPECT_NE(odd.error().message.find("8-byte words"), std::string::npos) << odd.error().message;
}

TEST(AnnotationCodec, ValuesStartAtAnyAddress) {
  // LMDB values are only 2-byte aligned: decode from an odd offset.
  const std::string bytes = encode_annotation(5, signed_());
  std::string shifted = "x" + bytes;
  auto back = decode_annotation(std::string_view(shifted).substr(1));
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(*back, (core::AnnotationAt{5, signed_()}));
}

TEST(AnnotationCodec, DamagedBytesAreDataLoss) {
  const std::string bytes = encode_annotation(0, raised());
  for (const std::string& bad : {std::string{}, bytes.substr(0, bytes.size() / 2), std::string(40, '\xff'),
                                 bytes + std::string(8, '\0')}) {
    auto r = decode_annotation(bad);
    ASSERT_FALSE(r) << "decoded " << bad.size() << " bytes";
    EXPECT_EQ(r.error().code, ErrorCode::DataLoss) << r.error().message;
  }
}

TEST(AnnotationCodec, EveryTruncationFails) {
  const std::string bytes = encode_annotation(3, signed_());
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
  std::ofstream(path("in.bin"), std::ios::binary) << encode_annotation(122, raised());
  const std::string cmd = "capnp convert flat:text " + schema() + " Annotation < " + path("in.bin") + " > " +
                          path("out.txt");
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  const std::string text = slurp(path("out.txt"));
  EXPECT_NE(text.find("claim = \"Bruno drew three cards\""), std::string::npos) << text;
  EXPECT_NE(text.find("kind = rule"), std::string::npos) << text;
  EXPECT_NE(text.find("seq = 122"), std::string::npos) << text;
}

TEST_F(StockCapnp, AKeyOfTheWrongSizeIsDataLoss) {
  // A signature whose public key is 3 bytes must not read as a key padded with zeros.
  std::ofstream(path("in.txt")) << "(gameSigned = (signer = \"A\", publicKey = \"abc\", eventCount = 1))\n";
  const std::string cmd = "capnp convert text:canonical " + schema() + " Annotation < " + path("in.txt") + " > " +
                          path("out.bin");
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  auto r = decode_annotation(slurp(path("out.bin")));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::DataLoss);
  EXPECT_NE(r.error().message.find("publicKey is 3 bytes"), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace warlog::events
