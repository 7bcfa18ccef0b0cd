// Tokens (tokens.hpp): one file, replaced whole (write, fsync, rename) under
// an flock of STORE/serve-tokens.lock, so two issuers never lose a line and
// the server never reads half a file.

#include "warlog/server/tokens.hpp"

#include "store_file.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstring>
#include <fmt/format.h>

namespace warlog::server {

namespace fs = std::filesystem;

std::string_view to_string(Role r) noexcept {
  switch (r) {
    case Role::Table: return "table";
    case Role::Judge: return "judge";
    case Role::Public: return "public";
  }
  return "?";
}

std::optional<Role> role_from_string(std::string_view s) noexcept {
  if (s == "table") return Role::Table;
  if (s == "judge") return Role::Judge;
  if (s == "public") return Role::Public;
  return std::nullopt;
}

std::string TokenEntry::id() const { return core::to_hex(hash).substr(0, 12); }

namespace {

Error io_error(const fs::path& p, std::string_view doing) {
  return Error{ErrorCode::IoError, fmt::format("{} {}: {}", doing, p.string(), std::strerror(errno))};
}

// Holds STORE/serve-tokens.lock exclusively while the file is rewritten.
class FileLock {
 public:
  static Expected<FileLock> take(const fs::path& store) {
    const fs::path p = store / "serve-tokens.lock";
    const int fd = ::open(p.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) return tl::unexpected(io_error(p, "cannot open"));
    while (::flock(fd, LOCK_EX) != 0) {
      if (errno != EINTR) {
        ::close(fd);
        return tl::unexpected(io_error(p, "cannot lock"));
      }
    }
    return FileLock(fd);
  }
  FileLock(FileLock&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
  FileLock& operator=(FileLock&&) = delete;
  ~FileLock() {
    if (fd_ >= 0) ::close(fd_);
  }

 private:
  explicit FileLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

Expected<std::vector<TokenEntry>> parse(const std::string& text, const fs::path& file) {
  std::vector<TokenEntry> out;
  std::istringstream in(text);
  std::size_t n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string hash, role;
    TokenEntry e;
    words >> hash >> role >> e.game >> e.issued_ms;
    const auto digest = core::digest_from_hex(hash);
    const auto r = role_from_string(role);
    if (!words || !digest || !r) {
      return make_error(ErrorCode::DataLoss, fmt::format("{}:{}: not a token line (HASH ROLE GAME ISSUED_MS)",
                                                         file.string(), n));
    }
    e.hash = *digest;
    e.role = *r;
    out.push_back(e);
  }
  return out;
}

Expected<void> write_file(const fs::path& file, const std::vector<TokenEntry>& entries) {
  std::string text = "# warlog serve tokens: BLAKE2b-256 of the token, role, game, issued (ms UTC)\n";
  for (const TokenEntry& e : entries) {
    text += fmt::format("{} {} {} {}\n", core::to_hex(e.hash), to_string(e.role), e.game, e.issued_ms);
  }
  return replace_file(file, text);
}

Expected<std::string> random_token() {
  unsigned char bytes[32];
  std::size_t got = 0;
  while (got < sizeof bytes) {
    const ssize_t n = ::getrandom(bytes + got, sizeof bytes - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return make_error(ErrorCode::IoError, fmt::format("getrandom: {}", std::strerror(errno)));
    got += static_cast<std::size_t>(n);
  }
  std::string out;
  for (unsigned char b : bytes) out += fmt::format("{:02x}", b);
  return out;
}

}  // namespace

Expected<IssuedToken> issue_token(const fs::path& store, Role role, core::GameId game) {
  if (role == Role::Table && game == 0) {
    return make_error(ErrorCode::InvalidArgument, "a table token needs its game: --game N");
  }
  if (role != Role::Table && game != 0) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("a {} token is for every game: --game is for table tokens", to_string(role)));
  }
  auto lock = FileLock::take(store);
  if (!lock) return tl::unexpected(lock.error());
  auto entries = list_tokens(store);
  if (!entries) return tl::unexpected(entries.error());
  auto token = random_token();
  if (!token) return tl::unexpected(token.error());
  TokenEntry e;
  e.hash = core::blake2b(*token);
  e.role = role;
  e.game = game;
  e.issued_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                    std::chrono::system_clock::now().time_since_epoch())
                    .count();
  entries->push_back(e);
  if (auto w = write_file(store / kTokenFile, *entries); !w) return tl::unexpected(w.error());
  return IssuedToken{std::move(*token), e};
}

Expected<std::vector<TokenEntry>> list_tokens(const fs::path& store) {
  const fs::path file = store / kTokenFile;
  auto text = read_store_file(file);
  if (!text) return tl::unexpected(text.error());
  return parse(*text, file);
}

Expected<TokenEntry> revoke_token(const fs::path& store, std::string_view id) {
  auto lock = FileLock::take(store);
  if (!lock) return tl::unexpected(lock.error());
  auto entries = list_tokens(store);
  if (!entries) return tl::unexpected(entries.error());
  for (auto it = entries->begin(); it != entries->end(); ++it) {
    if (it->id() != id) continue;
    TokenEntry gone = *it;
    entries->erase(it);
    if (auto w = write_file(store / kTokenFile, *entries); !w) return tl::unexpected(w.error());
    return gone;
  }
  return make_error(ErrorCode::NotFound, fmt::format("no token {} in {} (warlog serve token list shows them)",
                                                     std::string(id), (store / kTokenFile).string()));
}

TokenTable::TokenTable(fs::path store) : file_(std::move(store) / kTokenFile) {}

Expected<void> TokenTable::refresh() {
  struct stat st {};
  Stamp now;
  if (::stat(file_.c_str(), &st) == 0) {
    now = Stamp{static_cast<std::uint64_t>(st.st_ino), static_cast<std::uint64_t>(st.st_size),
                static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec};
  }
  if (now == stamp_) return {};
  auto text = read_store_file(file_);
  auto parsed = text.and_then([&](const std::string& t) { return parse(t, file_); });
  if (!parsed) {
    entries_.clear();
    stamp_ = Stamp{};
    return tl::unexpected(parsed.error());
  }
  entries_ = std::move(*parsed);
  stamp_ = now;
  return {};
}

std::optional<TokenEntry> TokenTable::find(std::string_view token) const {
  if (token.size() != 64) return std::nullopt;
  const core::Digest h = core::blake2b(token);
  for (const TokenEntry& e : entries_) {
    if (e.hash == h) return e;
  }
  return std::nullopt;
}

bool TokenTable::holds(const core::Digest& hash) const {
  for (const TokenEntry& e : entries_) {
    if (e.hash == hash) return true;
  }
  return false;
}

}  // namespace warlog::server
