// Spaces and enumerations between core and the schema.

#include <cstdint>
#include <string>

#include "convert.hpp"

namespace warlog::events::detail {

namespace {

// The codec converts enumerants by ordinal, so both sides must keep one order.
// Core may reorder nothing either: the ordinals are on disk.
template <class S, class C>
constexpr bool same(S s, C c) {
  return static_cast<unsigned>(s) == static_cast<unsigned>(c);
}

static_assert(same(cs::Phase::SETUP, core::Phase::Setup) &&
              same(cs::Phase::MUSTER, core::Phase::Muster) &&
              same(cs::Phase::WARFARE, core::Phase::Warfare) &&
              same(cs::Phase::ATTRITION, core::Phase::Attrition) &&
              same(cs::Phase::END, core::Phase::End));
static_assert(same(cs::Allegiance::CLAW_EMPIRE, core::Allegiance::ClawEmpire) &&
              same(cs::Allegiance::PAW_COALITION, core::Allegiance::PawCoalition) &&
              same(cs::Allegiance::WEALD, core::Allegiance::Weald) &&
              same(cs::Allegiance::HIRELINGS, core::Allegiance::Hirelings));
static_assert(same(cs::Victory::SUPREMACY, core::Victory::Supremacy) &&
              same(cs::Victory::ATTRITION, core::Victory::Attrition) &&
              same(cs::Victory::CONCESSION, core::Victory::Concession) &&
              same(cs::Victory::UNFINISHED, core::Victory::Unfinished));
static_assert(same(cs::ChargeMode::NORMAL, core::ChargeMode::Normal) &&
              same(cs::ChargeMode::BURROW, core::ChargeMode::Burrow) &&
              same(cs::ChargeMode::CARD, core::ChargeMode::Card));
static_assert(same(cs::Recovery::PAY, core::Recovery::Pay) &&
              same(cs::Recovery::RESHUFFLE, core::Recovery::Reshuffle));

template <class S, class C>
S to(C v) noexcept {
  return static_cast<S>(static_cast<std::uint16_t>(v));
}

// A raw value past the last known enumerant was written by a newer build (the
// schema only appends enumerants), so it is Unsupported rather than DataLoss.
// Checking before the cast keeps an out-of-range value out of the core enum.
template <class C, class S>
C from(S v, S last, const char* field) {
  const auto raw = static_cast<std::uint16_t>(v);
  if (raw > static_cast<std::uint16_t>(last)) {
    throw DecodeFailure{ErrorCode::Unsupported, std::string("event field ") + field +
                                                    " has value " + std::to_string(raw) +
                                                    ", which is not known to this build"};
  }
  return static_cast<C>(raw);
}

}  // namespace

void write_space(cs::Space::Builder b, core::Space s) {
  b.setCol(s.col);
  b.setRow(s.row);
}

core::Space read_space(cs::Space::Reader r) { return core::Space{r.getCol(), r.getRow()}; }

cs::Phase to_schema(core::Phase v) noexcept { return to<cs::Phase>(v); }
cs::Allegiance to_schema(core::Allegiance v) noexcept { return to<cs::Allegiance>(v); }
cs::Victory to_schema(core::Victory v) noexcept { return to<cs::Victory>(v); }
cs::ChargeMode to_schema(core::ChargeMode v) noexcept { return to<cs::ChargeMode>(v); }
cs::Recovery to_schema(core::Recovery v) noexcept { return to<cs::Recovery>(v); }

core::Phase from_schema(cs::Phase v, const char* field) {
  return from<core::Phase>(v, cs::Phase::END, field);
}
core::Allegiance from_schema(cs::Allegiance v, const char* field) {
  return from<core::Allegiance>(v, cs::Allegiance::HIRELINGS, field);
}
core::Victory from_schema(cs::Victory v, const char* field) {
  return from<core::Victory>(v, cs::Victory::UNFINISHED, field);
}
core::ChargeMode from_schema(cs::ChargeMode v, const char* field) {
  return from<core::ChargeMode>(v, cs::ChargeMode::CARD, field);
}
core::Recovery from_schema(cs::Recovery v, const char* field) {
  return from<core::Recovery>(v, cs::Recovery::RESHUFFLE, field);
}

}  // namespace warlog::events::detail
