// core::AnnotationAt <-> canonical Cap'n Proto (schema/annotation.capnp).
// Every exception Cap'n Proto throws for bad input stops here and becomes an
// Error.

#include "warlog/events/annotation_codec.hpp"

#include <capnp/any.h>
#include <capnp/message.h>
#include <capnp/serialize-packed.h>
#include <capnp/serialize.h>
#include <kj/io.h>
#include <kj/exception.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>

#include "bounds.hpp"
#include "warlog/events/framing.hpp"
#include "schema/annotation.capnp.h"

namespace warlog::events {

namespace {

namespace ca = ::warlog::capnp_annotation;

struct DecodeFailure {
  ErrorCode code = ErrorCode::DataLoss;
  std::string message;
};

// An annotation is small prose; these bound a hostile value's cost (see the
// reasoning beside codec.cpp's limits: packed bytes can claim far more words
// than they hold, and a decode reads the message twice). The deepest legal
// path is three pointers (Annotation > disputeRuled > citations > Citation).
constexpr std::uint64_t kTraversalLimitWords = kMaxAnnotationBytes / sizeof(capnp::word) * 8;
constexpr int kNestingLimit = 8;

capnp::Data::Reader data_of(const auto& bytes) {
  return capnp::Data::Reader(bytes.data(), bytes.size());
}

template <std::size_t N>
std::array<std::uint8_t, N> fixed(capnp::Data::Reader r, const char* field) {
  if (r.size() != N) {
    throw DecodeFailure{ErrorCode::DataLoss, std::string(field) + " is " + std::to_string(r.size()) +
                                                 " bytes, expected " + std::to_string(N)};
  }
  std::array<std::uint8_t, N> out{};
  std::copy(r.begin(), r.end(), out.begin());
  return out;
}

std::string text(capnp::Text::Reader t) { return std::string(t.cStr(), t.size()); }

// --- Writing ------------------------------------------------------------------
void write_citations(capnp::List<ca::Citation>::Builder out, const std::vector<core::Citation>& in) {
  for (unsigned i = 0; i < in.size(); ++i) {
    out[i].setKind(in[i].kind == core::Citation::Kind::Rule ? ca::Citation::Kind::RULE
                                                            : ca::Citation::Kind::TEXT);
    out[i].setText(in[i].text);
  }
}

struct Writer {
  mutable ca::Annotation::Builder b;  // builders are handles; init*() is non-const
  void operator()(const core::DisputeRaised& d) const {
    auto o = b.initDisputeRaised();
    o.setClaim(d.claim);
    o.setRaisedBy(d.raised_by);
    write_citations(o.initCitations(static_cast<unsigned>(d.citations.size())), d.citations);
    o.setCreatedAt(d.created_at);
  }
  void operator()(const core::DisputeRuled& d) const {
    auto o = b.initDisputeRuled();
    o.setDispute(d.dispute);
    o.setStatus(d.status == core::DisputeStatus::Resolved ? ca::DisputeRuled::Status::RESOLVED
                                                          : ca::DisputeRuled::Status::OPEN);
    o.setRuling(d.ruling);
    o.setRuledBy(d.ruled_by);
    write_citations(o.initCitations(static_cast<unsigned>(d.citations.size())), d.citations);
    if (d.expectation) {
      auto e = o.initExpectation();
      e.setRuleId(d.expectation->rule_id);
      e.setPresent(d.expectation->present);
    }
    o.setRuledAt(d.ruled_at);
    if (d.signature) {
      auto sig = o.initJudgeSignature();
      sig.setSignedAtMs(d.signature->signed_at_ms);
      sig.setKeyId(data_of(d.signature->key_id));
      sig.setPublicKey(data_of(d.signature->public_key));
      sig.setSignature(data_of(d.signature->signature));
    }
  }
  void operator()(const core::GameSigned& s) const {
    auto o = b.initGameSigned();
    o.setSigner(s.signer);
    o.setPublicKey(data_of(s.public_key));
    o.setEventCount(s.event_count);
    o.setHead(data_of(s.head));
    o.setSignature(data_of(s.signature));
    o.setSignedAtMs(s.signed_at_ms);
    o.setKeyId(data_of(s.key_id));
    o.setIdentity(data_of(s.identity));
    o.setAnnotationCount(s.annotation_count);
    o.setAnnotationHead(data_of(s.annotation_head));
  }
  void operator()(const core::Migrated& m) const {
    auto o = b.initMigrated();
    o.setFormat1Head(data_of(m.format1_head));
    o.setEventCount(m.event_count);
    auto keys = o.initSignerKeys(static_cast<unsigned>(m.signer_keys.size()));
    for (unsigned i = 0; i < keys.size(); ++i) keys.set(i, data_of(m.signer_keys[i]));
    auto names = o.initSigners(static_cast<unsigned>(m.signers.size()));
    for (unsigned i = 0; i < names.size(); ++i) names.set(i, m.signers[i]);
    o.setMigratedAt(m.migrated_at);
  }
};

// --- Reading ------------------------------------------------------------------
std::vector<core::Citation> read_citations(capnp::List<ca::Citation>::Reader in) {
  std::vector<core::Citation> out;
  out.reserve(in.size());
  for (auto c : in) {
    core::Citation::Kind kind = core::Citation::Kind::Text;
    switch (c.getKind()) {
      case ca::Citation::Kind::RULE: kind = core::Citation::Kind::Rule; break;
      case ca::Citation::Kind::TEXT: kind = core::Citation::Kind::Text; break;
      default:
        throw DecodeFailure{ErrorCode::Unsupported,
                            "citation kind " + std::to_string(static_cast<unsigned>(c.getKind())) +
                                " is newer than this warlog"};
    }
    out.push_back(core::Citation{kind, text(c.getText())});
  }
  return out;
}

// format1: a value format 1 wrote, whose GameSigned has none of format 2's
// signed fields (key id, identity, annotation head: left zero).
core::Annotation read(ca::Annotation::Reader r, bool format1 = false) {
  switch (r.which()) {
    case ca::Annotation::DISPUTE_RAISED: {
      auto d = r.getDisputeRaised();
      return core::DisputeRaised{text(d.getClaim()), text(d.getRaisedBy()),
                                 read_citations(d.getCitations()), text(d.getCreatedAt())};
    }
    case ca::Annotation::DISPUTE_RULED: {
      auto d = r.getDisputeRuled();
      core::DisputeRuled out;
      out.dispute = d.getDispute();
      switch (d.getStatus()) {
        case ca::DisputeRuled::Status::OPEN: out.status = core::DisputeStatus::Open; break;
        case ca::DisputeRuled::Status::RESOLVED: out.status = core::DisputeStatus::Resolved; break;
        default:
          throw DecodeFailure{ErrorCode::Unsupported, "a dispute status newer than this warlog"};
      }
      out.ruling = text(d.getRuling());
      out.ruled_by = text(d.getRuledBy());
      out.citations = read_citations(d.getCitations());
      if (d.hasExpectation()) {
        auto e = d.getExpectation();
        out.expectation = core::Expectation{text(e.getRuleId()), e.getPresent()};
      }
      out.ruled_at = text(d.getRuledAt());
      if (d.hasJudgeSignature()) {
        auto sig = d.getJudgeSignature();
        out.signature = core::RulingSignature{
            sig.getSignedAtMs(), fixed<8>(sig.getKeyId(), "judgeSignature.keyId"),
            fixed<32>(sig.getPublicKey(), "judgeSignature.publicKey"),
            fixed<64>(sig.getSignature(), "judgeSignature.signature")};
      }
      return out;
    }
    case ca::Annotation::GAME_SIGNED: {
      auto s = r.getGameSigned();
      core::GameSigned out;
      out.signer = text(s.getSigner());
      out.public_key = fixed<32>(s.getPublicKey(), "gameSigned.publicKey");
      out.event_count = s.getEventCount();
      out.head = fixed<32>(s.getHead(), "gameSigned.head");
      out.signature = fixed<64>(s.getSignature(), "gameSigned.signature");
      out.signed_at_ms = s.getSignedAtMs();
      if (format1) return out;
      out.key_id = fixed<8>(s.getKeyId(), "gameSigned.keyId");
      out.identity = fixed<32>(s.getIdentity(), "gameSigned.identity");
      out.annotation_count = s.getAnnotationCount();
      out.annotation_head = fixed<32>(s.getAnnotationHead(), "gameSigned.annotationHead");
      return out;
    }
    case ca::Annotation::MIGRATED: {
      auto m = r.getMigrated();
      core::Migrated out;
      out.format1_head = fixed<32>(m.getFormat1Head(), "migrated.format1Head");
      out.event_count = m.getEventCount();
      for (auto k : m.getSignerKeys()) out.signer_keys.push_back(fixed<32>(k, "migrated.signerKeys"));
      for (auto n : m.getSigners()) out.signers.push_back(text(n));
      if (out.signers.size() != out.signer_keys.size()) {
        throw DecodeFailure{ErrorCode::DataLoss, "migrated: signers and signerKeys differ in length"};
      }
      out.migrated_at = m.getMigratedAt();
      return out;
    }
  }
  throw DecodeFailure{ErrorCode::Unsupported,
                      "annotation kind " + std::to_string(static_cast<unsigned>(r.which())) +
                          " is newer than this warlog"};
}

std::string one_line(kj::StringPtr s) {
  std::string out(s.cStr(), s.size());
  std::replace_if(out.begin(), out.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
  return out;
}

}  // namespace

std::string encode_annotation(core::Seq seq, const core::Annotation& a) {
  capnp::MallocMessageBuilder message;
  auto root = message.initRoot<ca::Annotation>();
  root.setSeq(seq);
  std::visit(Writer{root}, a);
  const kj::Array<capnp::word> words = capnp::AnyStruct::Reader(root.asReader()).canonicalize();
  const auto bytes = words.asBytes();
  return std::string(reinterpret_cast<const char*>(bytes.begin()), bytes.size());
}

Expected<core::AnnotationAt> decode_annotation(std::string_view bytes) {
  if (bytes.empty()) return make_error(ErrorCode::DataLoss, "annotation bytes are empty");
  // The store refuses to write one over the limit (store/annotations.cpp).
  if (bytes.size() > kMaxAnnotationBytes) {
    return make_error(ErrorCode::DataLoss, "annotation of " + std::to_string(bytes.size()) +
                                               " bytes is too large: the limit is " +
                                               std::to_string(kMaxAnnotationBytes) + " bytes");
  }
  if (bytes.size() % sizeof(capnp::word) != 0) {
    return make_error(ErrorCode::DataLoss, "annotation of " + std::to_string(bytes.size()) +
                                               " bytes is not a whole number of 8-byte words");
  }
  try {
    // LMDB values are only 2-byte aligned: Cap'n Proto reads a word-aligned copy.
    kj::Array<capnp::word> words = kj::heapArray<capnp::word>(bytes.size() / sizeof(capnp::word));
    std::memcpy(words.begin(), bytes.data(), bytes.size());
    capnp::ReaderOptions options;
    options.traversalLimitInWords = kTraversalLimitWords;
    options.nestingLimit = kNestingLimit;
    const kj::ArrayPtr<const capnp::word> segments[1] = {words.asPtr()};
    capnp::SegmentArrayMessageReader message(kj::arrayPtr(segments, 1), options);
    detail::check_whole_message(message);
    // One encoding per value, so the chain hash is a hash of the annotation
    // and a signature over it means one thing; isCanonical also refuses
    // trailing words.
    if (!message.isCanonical()) {
      return make_error(ErrorCode::DataLoss, "annotation bytes (" + std::to_string(bytes.size()) +
                                                 ") are not in Cap'n Proto's canonical form");
    }
    auto root = message.getRoot<ca::Annotation>();
    return core::AnnotationAt{root.getSeq(), read(root)};
  } catch (const DecodeFailure& f) {
    return make_error(f.code, f.message);
  } catch (const kj::Exception& e) {
    return make_error(ErrorCode::DataLoss, "annotation bytes (" + std::to_string(bytes.size()) +
                                               ") are not a valid message: " + one_line(e.getDescription()));
  }
}

std::string encode_annotation_format1(const core::Annotation& a) {
  capnp::MallocMessageBuilder message;
  std::visit(Writer{message.initRoot<ca::Annotation>()}, a);
  kj::VectorOutputStream out;
  capnp::writePackedMessage(out, message);
  const auto bytes = out.getArray();
  return std::string(reinterpret_cast<const char*>(bytes.begin()), bytes.size());
}

Expected<core::Annotation> decode_annotation_format1(std::string_view packed) {
  if (packed.size() > kMaxAnnotationBytes) {
    return make_error(ErrorCode::DataLoss, "a format-1 annotation of " + std::to_string(packed.size()) +
                                               " bytes is over the limit of " + std::to_string(kMaxAnnotationBytes));
  }
  auto unpacked = unpack_message(packed);
  if (!unpacked) return tl::unexpected(unpacked.error());
  try {
    kj::Array<capnp::word> words = kj::heapArray<capnp::word>(unpacked->size() / sizeof(capnp::word));
    std::memcpy(words.begin(), unpacked->data(), words.size() * sizeof(capnp::word));
    capnp::ReaderOptions options;
    options.traversalLimitInWords = kTraversalLimitWords;
    options.nestingLimit = kNestingLimit;
    capnp::FlatArrayMessageReader message(words.asPtr(), options);
    detail::check_whole_message(message);
    return read(message.getRoot<ca::Annotation>(), /*format1=*/true);
  } catch (const DecodeFailure& f) {
    return make_error(f.code, f.message);
  } catch (const kj::Exception& e) {
    return make_error(ErrorCode::DataLoss, "a format-1 annotation is not a valid message: " + one_line(e.getDescription()));
  }
}

}  // namespace warlog::events
