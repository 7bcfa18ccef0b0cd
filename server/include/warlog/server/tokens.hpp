#pragma once
// Who may do what on a server (docs/server.md › 5): tokens of 32 random
// bytes, shown once when issued, kept as BLAKE2b-256 hashes in
// STORE/serve-tokens (mode 0600; one token a line: hash, role, game, issued
// at). `warlog serve token issue|list|revoke` edit the file beside a running
// server, which reads it again whenever it changes (TokenTable::refresh).

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "warlog/core/error.hpp"
#include "warlog/core/hash.hpp"
#include "warlog/core/event.hpp"

namespace warlog::server {

enum class Role : std::uint8_t {
  Table,   // appends to its game only, reads that game
  Judge,   // reads every game, appends to any (voids, backups), previews a backup
  Public,  // the public view of every game: no hands, no deck order, a turn behind
};
[[nodiscard]] std::string_view to_string(Role r) noexcept;  // "table", "judge", "public"
[[nodiscard]] std::optional<Role> role_from_string(std::string_view s) noexcept;

struct TokenEntry {
  core::Digest hash{};
  Role role = Role::Public;
  core::GameId game = 0;  // a table token's game; 0 for the others
  std::int64_t issued_ms = 0;
  // The first 12 hex digits of the hash: what list shows and revoke takes.
  [[nodiscard]] std::string id() const;
};

inline constexpr const char* kTokenFile = "serve-tokens";

// A new token: its text (64 hex digits, shown once; only its hash is kept)
// and entry, appended to the store's token file. Errors: InvalidArgument (a
// table token without a game, another role with one), IoError.
struct IssuedToken {
  std::string token;
  TokenEntry entry;
};
[[nodiscard]] Expected<IssuedToken> issue_token(const std::filesystem::path& store, Role role, core::GameId game);
// Every token of the store, in the order issued (none: an empty list).
// Errors: DataLoss for a line that does not parse, IoError.
[[nodiscard]] Expected<std::vector<TokenEntry>> list_tokens(const std::filesystem::path& store);
// Removes the token whose id() is `id`. Errors: NotFound, IoError.
[[nodiscard]] Expected<TokenEntry> revoke_token(const std::filesystem::path& store, std::string_view id);

// The running server's copy of the token file. Not thread-safe: the event
// loop's own.
class TokenTable {
 public:
  explicit TokenTable(std::filesystem::path store);
  // Reads the file again when it changed (inode, size or mtime) since the
  // last read. Errors: as list_tokens (the table then keeps no token: a file
  // it cannot read admits nobody).
  Expected<void> refresh();
  // The entry of a presented token's text, nullopt when it is not (or no
  // longer) a token of this store.
  [[nodiscard]] std::optional<TokenEntry> find(std::string_view token) const;
  // Whether the token with this hash is still there (a follow stream's
  // check each second).
  [[nodiscard]] bool holds(const core::Digest& hash) const;

 private:
  std::filesystem::path file_;
  std::vector<TokenEntry> entries_;
  struct Stamp {
    std::uint64_t ino = 0, size = 0;
    std::int64_t mtime_ns = -1;
    friend bool operator==(const Stamp&, const Stamp&) = default;
  } stamp_{};
};

}  // namespace warlog::server
