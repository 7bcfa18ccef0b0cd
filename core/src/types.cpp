#include "warlog/core/types.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace warlog::core {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

}  // namespace

std::string_view to_string(Phase p) noexcept {
  switch (p) {
    case Phase::Setup: return "setup";
    case Phase::Muster: return "muster";
    case Phase::Warfare: return "warfare";
    case Phase::Attrition: return "attrition";
    case Phase::End: return "end";
  }
  return "?";
}

std::optional<Phase> phase_from_string(std::string_view s) noexcept {
  const std::string l = lower(s);
  for (Phase p : {Phase::Setup, Phase::Muster, Phase::Warfare, Phase::Attrition, Phase::End}) {
    if (l == to_string(p)) return p;
  }
  return std::nullopt;
}

std::string_view to_string(Allegiance a) noexcept {
  switch (a) {
    case Allegiance::ClawEmpire: return "Claw Empire";
    case Allegiance::PawCoalition: return "Paw Coalition";
    case Allegiance::Weald: return "The Weald";
    case Allegiance::Hirelings: return "Hirelings";
  }
  return "?";
}

std::optional<Allegiance> allegiance_from_string(std::string_view s) noexcept {
  struct Alias {
    std::string_view name;
    Allegiance a;
  };
  static constexpr std::array<Alias, 12> kAliases{{
      {"claw empire", Allegiance::ClawEmpire},   {"claw", Allegiance::ClawEmpire},
      {"clawempire", Allegiance::ClawEmpire},    {"paw coalition", Allegiance::PawCoalition},
      {"paw", Allegiance::PawCoalition},         {"pawcoalition", Allegiance::PawCoalition},
      {"the weald", Allegiance::Weald},          {"weald", Allegiance::Weald},
      {"hirelings", Allegiance::Hirelings},      {"hireling", Allegiance::Hirelings},
      {"the hirelings", Allegiance::Hirelings},  {"theweald", Allegiance::Weald},
  }};
  const std::string l = lower(s);
  for (const auto& alias : kAliases) {
    if (l == alias.name) return alias.a;
  }
  return std::nullopt;
}

std::string to_string(Space s) {
  if (!s.valid() || s.col >= 26) return "-";
  std::string out(1, static_cast<char>('a' + s.col));
  out += std::to_string(s.row + 1);
  return out;
}

std::optional<Space> space_from_string(std::string_view s) noexcept {
  if (s.size() < 2 || s.size() > 3) return std::nullopt;
  const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(s[0])));
  if (c < 'a' || c > 'z') return std::nullopt;
  int row = 0;
  for (char d : s.substr(1)) {
    if (d < '0' || d > '9') return std::nullopt;
    row = row * 10 + (d - '0');
  }
  if (row < 1 || row > 99) return std::nullopt;
  return Space{static_cast<std::int8_t>(c - 'a'), static_cast<std::int8_t>(row - 1)};
}

}  // namespace warlog::core
