#pragma once
// Errors that cross a boundary (file, store, decode). Game-rule problems are
// never errors: they are Findings (finding.hpp).

#include <string>
#include <utility>

#include <tl/expected.hpp>

namespace warlog {

// A closed set: callers switch on it; the CLI maps it to exit codes.
enum class ErrorCode {
  NotFound,         // a game, file, key or card that does not exist
  InvalidArgument,  // malformed input: notation, CSV, TOML, options
  DataLoss,         // corrupt or truncated bytes, a broken hash chain
  Conflict,         // a stale expected sequence, a duplicate import
  Unsupported,      // a newer store format, an unknown payload kind
  ResourceExhausted,// map or disk full, an oversized event
  IoError,          // the operating system said no
  Internal,         // a bug in warlog
};

[[nodiscard]] const char* to_string(ErrorCode code) noexcept;

struct Error {
  ErrorCode code = ErrorCode::Internal;
  std::string message;  // one line, for a person; says what and where
};

template <class T>
using Expected = tl::expected<T, Error>;

[[nodiscard]] inline tl::unexpected<Error> make_error(ErrorCode code, std::string message) {
  return tl::unexpected<Error>(Error{code, std::move(message)});
}

}  // namespace warlog
