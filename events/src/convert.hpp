#pragma once
// Internal to warlog::events: core values <-> Cap'n Proto builders and
// readers. Only codec.cpp turns these into bytes and Expected results.

#include <cstdint>
#include <string>

#include "schema/warlog.capnp.h"
#include "warlog/core/error.hpp"
#include "warlog/core/event.hpp"

namespace warlog::events::detail {

namespace cs = ::warlog::capnp_schema;

// Thrown by the readers for input this build cannot represent (an unknown
// payload kind or enumerant); the codec boundary turns it into an Error, as it
// does the kj::Exception Cap'n Proto throws for malformed bytes. Both are
// "bad input" exceptions that never leave the events library.
struct DecodeFailure {
  ErrorCode code = ErrorCode::DataLoss;
  std::string message;
};

// --- Vocabulary ------------------------------------------------------------
void write_space(cs::Space::Builder b, core::Space s);
[[nodiscard]] core::Space read_space(cs::Space::Reader r);

// Enumerants share one order in core and in the schema (checked at compile
// time). Reading throws DecodeFailure (Unsupported) for an enumerant this
// build does not know; `field` names it in the message ("header.phase").
[[nodiscard]] cs::Phase to_schema(core::Phase v) noexcept;
[[nodiscard]] cs::Allegiance to_schema(core::Allegiance v) noexcept;
[[nodiscard]] cs::Victory to_schema(core::Victory v) noexcept;
[[nodiscard]] cs::ChargeMode to_schema(core::ChargeMode v) noexcept;
[[nodiscard]] cs::Recovery to_schema(core::Recovery v) noexcept;
[[nodiscard]] core::Phase from_schema(cs::Phase v, const char* field);
[[nodiscard]] core::Allegiance from_schema(cs::Allegiance v, const char* field);
[[nodiscard]] core::Victory from_schema(cs::Victory v, const char* field);
[[nodiscard]] core::ChargeMode from_schema(cs::ChargeMode v, const char* field);
[[nodiscard]] core::Recovery from_schema(cs::Recovery v, const char* field);

// --- Payloads --------------------------------------------------------------
void write_payload(cs::Event::Payload::Builder b, const core::Payload& p);
// Throws DecodeFailure (Unsupported) for a payload kind or enumerant this
// build does not know, and kj::Exception for malformed bytes.
[[nodiscard]] core::Payload read_payload(cs::Event::Payload::Reader r);

}  // namespace warlog::events::detail
