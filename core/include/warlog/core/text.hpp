#pragma once
// Text that comes from outside (a notation file, a catalog, a ruleset, a
// client): what it may hold, and how much of it an error message shows.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace warlog::core {

// --- What text may hold -------------------------------------------------
// Every JSON output of the store encodes its strings as UTF-8, so one
// invalid byte in one title made them all fail: text is refused on the way
// in instead (the store's import and append, the notation's lexer).

// The byte offset of the first byte that is not part of well-formed UTF-8
// (Unicode 15, table 3-7: no overlong forms, no surrogates, nothing past
// U+10FFFF); nullopt when all of `s` is.
[[nodiscard]] std::optional<std::size_t> invalid_utf8_at(std::string_view s) noexcept;

struct TextFault {
  std::size_t offset = 0;  // byte offset of the offending character
  std::string reason;      // "invalid UTF-8 (byte 0xff)", "a control character (U+0000)"
};

// Valid UTF-8 holding no control character but tab and newline: no NUL, no
// other C0 control (CR, ESC, ...), no DEL, no C1 control (U+0080-U+009F).
// Tab and newline stay: the notation writes a newline as \n in free text,
// and a tab is harmless in every output. nullopt when `s` is fine.
[[nodiscard]] std::optional<TextFault> check_text(std::string_view s);

// --- What a message shows -------------------------------------------------

// How many characters of an offending value an error message quotes.
inline constexpr std::size_t kMaxQuotedChars = 80;

// `s` cut to at most `max_chars` characters (UTF-8 code points, never
// splitting one), with "..." appended when it was cut: a message shows the
// start of an offending value, never all of a hostile one. Control
// characters (tab and newline too) and invalid bytes are shown as \xHH, so
// a message stays one line of valid UTF-8.
[[nodiscard]] std::string clip_for_message(std::string_view s, std::size_t max_chars = kMaxQuotedChars);

}  // namespace warlog::core
