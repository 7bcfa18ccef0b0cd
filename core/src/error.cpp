#include "warlog/core/error.hpp"

namespace warlog {

const char* to_string(ErrorCode code) noexcept {
  switch (code) {
    case ErrorCode::NotFound: return "not found";
    case ErrorCode::InvalidArgument: return "invalid argument";
    case ErrorCode::DataLoss: return "data loss";
    case ErrorCode::Conflict: return "conflict";
    case ErrorCode::Unsupported: return "unsupported";
    case ErrorCode::ResourceExhausted: return "resource exhausted";
    case ErrorCode::IoError: return "I/O error";
    case ErrorCode::Internal: return "internal error";
  }
  return "unknown error";
}

}  // namespace warlog
