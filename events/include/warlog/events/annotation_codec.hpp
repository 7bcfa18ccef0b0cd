#pragma once
// Bytes <-> core::Annotation: the values of the `annotations` database, one
// packed Cap'n Proto message each (schema: events/schema/annotation.capnp).
// Like events, packed input is unpacked into word-aligned buffers before it
// is read, so LMDB values can be passed straight in.

#include <string>
#include <string_view>

#include "warlog/core/annotation.hpp"
#include "warlog/core/error.hpp"

namespace warlog::events {

// Never fails for a valid core::Annotation.
[[nodiscard]] std::string encode_annotation(const core::Annotation& a);

// Errors: DataLoss for bytes that are not one valid message (truncated,
// garbage, trailing bytes, a key or signature of the wrong size);
// Unsupported for an annotation kind or enumerant this build does not know.
[[nodiscard]] Expected<core::Annotation> decode_annotation(std::string_view bytes);

// The largest annotation the store accepts, in encoded bytes: a claim or a
// ruling is prose, not a document.
inline constexpr std::size_t kMaxAnnotationBytes = 64 * 1024;

}  // namespace warlog::events
