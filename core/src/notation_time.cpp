// Recording times in the notation: `@16:04:31` before a line
// (docs/notation.md › Times). Civil dates by std::chrono's calendar.

#include <chrono>
#include <fmt/format.h>

#include "notation_lex.hpp"

namespace warlog::core::notation {

namespace {

using namespace std::chrono;

// Digits of exactly `n` characters at `s[at]`; advances `at`.
bool digits(std::string_view s, std::size_t& at, std::size_t n, int& out) {
  if (at + n > s.size()) return false;
  out = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const char c = s[at + i];
    if (c < '0' || c > '9') return false;
    out = out * 10 + (c - '0');
  }
  at += n;
  return true;
}

bool expect(std::string_view s, std::size_t& at, char c) {
  if (at >= s.size() || s[at] != c) return false;
  ++at;
  return true;
}

std::optional<year_month_day> iso_date(std::string_view s, std::size_t& at) {
  int y = 0, m = 0, d = 0;
  if (!digits(s, at, 4, y) || !expect(s, at, '-') || !digits(s, at, 2, m) || !expect(s, at, '-') ||
      !digits(s, at, 2, d)) {
    return std::nullopt;
  }
  const year_month_day ymd{year{y}, month{static_cast<unsigned>(m)}, day{static_cast<unsigned>(d)}};
  if (!ymd.ok()) return std::nullopt;
  return ymd;
}

// HH:MM:SS[.mmm] as ms into the day.
std::optional<std::int64_t> time_of_day(std::string_view s, std::size_t& at) {
  int h = 0, m = 0, sec = 0, ms = 0;
  if (!digits(s, at, 2, h) || !expect(s, at, ':') || !digits(s, at, 2, m) || !expect(s, at, ':') ||
      !digits(s, at, 2, sec)) {
    return std::nullopt;
  }
  if (at < s.size() && s[at] == '.' && (++at, !digits(s, at, 3, ms))) return std::nullopt;
  if (h > 23 || m > 59 || sec > 59) return std::nullopt;
  return ((std::int64_t{h} * 60 + m) * 60 + sec) * 1000 + ms;
}

std::int64_t day_ms(const year_month_day& ymd) {
  return std::int64_t{sys_days{ymd}.time_since_epoch().count()} * 86'400'000;
}

}  // namespace

std::optional<std::int64_t> parse_stamp(std::string_view text, std::string_view date, std::string& why) {
  std::size_t at = 0;
  if (text.size() > 8 && text[4] == '-') {
    why = "a UTC stamp such as @2026-03-14T16:04:31Z (milliseconds optional: .250)";
    const auto ymd = iso_date(text, at);
    if (!ymd || !expect(text, at, 'T')) return std::nullopt;
    const auto t = time_of_day(text, at);
    if (!t || !expect(text, at, 'Z') || at != text.size()) return std::nullopt;
    return day_ms(*ymd) + *t;
  }
  why = "a time such as @16:04:31 (milliseconds optional: .250)";
  const auto t = time_of_day(text, at);
  if (!t || at != text.size()) return std::nullopt;
  std::size_t d = 0;
  const auto ymd = iso_date(date, d);
  if (!ymd || d != date.size()) {
    why = "a full UTC stamp such as @2026-03-14T16:04:31Z: a time of day needs an ISO [Date \"2026-03-14\"]";
    return std::nullopt;
  }
  return day_ms(*ymd) + *t;
}

std::string format_stamp(std::int64_t ms, std::string_view date) {
  const std::int64_t days = ms >= 0 ? ms / 86'400'000 : (ms - 86'399'999) / 86'400'000;
  const std::int64_t in_day = ms - days * 86'400'000;
  const year_month_day ymd{sys_days{std::chrono::days{days}}};
  const auto h = in_day / 3'600'000, m = in_day / 60'000 % 60, s = in_day / 1000 % 60, milli = in_day % 1000;
  std::string out = fmt::format("{:02}:{:02}:{:02}", h, m, s);
  if (milli != 0) out += fmt::format(".{:03}", milli);
  std::size_t at = 0;
  const auto on = iso_date(date, at);
  if (on && at == date.size() && *on == ymd) return "@" + out;
  return fmt::format("@{:04}-{:02}-{:02}T{}Z", static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()),
                     static_cast<unsigned>(ymd.day()), out);
}

}  // namespace warlog::core::notation
