#pragma once
// Bytes <-> core::AnnotationAt: an annotation and the seq it concerns, as
// one Cap'n Proto message in canonical form (capnp::canonicalize: one
// segment, pre-order, no segment table; schema:
// events/schema/annotation.capnp). Canonical, so that the annotation chain
// and signatures hash the value rather than one of its encodings, and a
// field added later with its default changes no stored byte. The input is
// copied into a word-aligned buffer before it is read, so LMDB values can be
// passed straight in.

#include <string>
#include <string_view>

#include "warlog/core/annotation.hpp"
#include "warlog/core/error.hpp"

namespace warlog::events {

// The canonical bytes (a multiple of 8). Never fails for a valid annotation.
[[nodiscard]] std::string encode_annotation(core::Seq seq, const core::Annotation& a);

// Errors: DataLoss for bytes that are not one valid message in canonical
// form (truncated, garbage, trailing words, another encoding of a value, a
// key or signature of the wrong size); Unsupported for an annotation kind or
// enumerant this build does not know.
[[nodiscard]] Expected<core::AnnotationAt> decode_annotation(std::string_view bytes);

// A format-1 value (one packed message, no seq): what `warlog migrate`
// reads from a format-1 store (store/src/format1/). Errors as above.
[[nodiscard]] Expected<core::Annotation> decode_annotation_format1(std::string_view packed);
// The same in reverse, for tests that forge a format-1 store's annotations.
[[nodiscard]] std::string encode_annotation_format1(const core::Annotation& a);

// The largest annotation the store accepts, in encoded bytes: a claim or a
// ruling is prose, not a document.
inline constexpr std::size_t kMaxAnnotationBytes = 64 * 1024;

}  // namespace warlog::events
