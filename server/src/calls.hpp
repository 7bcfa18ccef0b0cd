#pragma once
// "Call a judge" (docs/server.md › 7): a table's call, raised from its page
// or by its token, answered ("on my way") and cleared by a judge. Server
// state, not the game's: kept in STORE/serve-calls, replaced whole on every
// change (store_file.hpp) before the change is answered, so a call survives
// a restart, but never in the event stream or the annotation chain (why:
// docs/server.md › 7, "Call a judge"). Not thread-safe: the event loop's
// own; the file is written by the caller (on the writer thread).

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "warlog/core/error.hpp"
#include "warlog/core/event.hpp"

namespace warlog::server {

struct Call {
  core::GameId game = 0;
  std::int64_t raised_ms = 0;
  std::string raised_by;         // the role of the token that raised it: "table" or "judge"
  std::string note;              // what the table says, may be empty
  std::int64_t answered_ms = 0;  // a judge is on the way since; 0: not yet
  std::string answered_by;
  friend bool operator==(const Call&, const Call&) = default;
};

// {game, raised_ms, raised_by, note, answered_ms (null: not yet), answered_by}
[[nodiscard]] nlohmann::json call_json(const Call& c);

inline constexpr const char* kCallFile = "serve-calls";

class Calls {
 public:
  explicit Calls(const std::filesystem::path& store) : file_(store / kCallFile) {}

  // Reads the file (none: no call). Errors: DataLoss for one that does not
  // parse, IoError.
  [[nodiscard]] Expected<void> load();

  [[nodiscard]] const Call* find(core::GameId game) const;
  // A game's call raised; one already raised stays as it was (its time is
  // when the table first called).
  const Call& raise(core::GameId game, std::int64_t now_ms, std::string raised_by, std::string note);
  // The call answered by a judge; nullptr when the game has none.
  const Call* answer(core::GameId game, std::int64_t now_ms, std::string by);
  // False when the game has none.
  bool clear(core::GameId game);
  // Moves on every change of the game's call: what the overview's follow
  // stream compares.
  [[nodiscard]] std::uint64_t version(core::GameId game) const;

  // The file's bytes as the calls stand, and where they go.
  [[nodiscard]] std::string text() const;
  [[nodiscard]] const std::filesystem::path& file() const noexcept { return file_; }

 private:
  std::filesystem::path file_;
  std::map<core::GameId, Call> calls_;
  std::map<core::GameId, std::uint64_t> versions_;
};

}  // namespace warlog::server
