#pragma once
// Reading a store of format 1 (the layout before docs/architecture.md ›
// "Store format 2"), for `warlog migrate` only: one packed event per key
// (game ‖ seq), each header's prevHash = BLAKE2b(prevHash_{n-1} ‖ stored
// bytes_{n-1}) from 32 zero bytes, the head in a version-1 games value,
// annotations under game ‖ seq ‖ n u32, signatures over
// "warlog.game-signature.1" ‖ game u64 BE ‖ count u64 BE ‖ head. Nothing
// here writes; nothing but migrate reads with it.

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "warlog/core/annotation.hpp"
#include "warlog/core/error.hpp"
#include "warlog/core/event.hpp"
#include "warlog/core/hash.hpp"
#include "warlog/store/keys.hpp"

namespace warlog::store::format1 {

struct Annotation {
  core::Seq seq = 0;
  std::uint32_t n = 0;
  core::Annotation value;
};

// One format-1 game, read and checked with format 1's rules.
struct Game {
  core::GameId id = 0;
  std::string title;
  core::Digest head{};  // format 1's chain hash of the last event
  std::vector<core::Event> events;
  std::vector<Annotation> annotations;  // in key order (seq, n)
  std::vector<core::GameSigned> valid_signatures;  // those valid at `head` (not stale, not invalid)
};

struct Blob {
  BlobKind kind = BlobKind::Catalog;
  std::string bytes;
};

class Reader1 {
 public:
  // Opens the environment at dir read-only. Errors: NotFound for no store;
  // InvalidArgument when it is not format 1 (names the format it has).
  [[nodiscard]] static Expected<Reader1> open(const std::filesystem::path& dir);
  Reader1(Reader1&&) noexcept;
  Reader1& operator=(Reader1&&) noexcept;
  ~Reader1();

  [[nodiscard]] Expected<std::vector<core::GameId>> game_ids() const;
  // The game with every check format-1 verify made: the value decodes, the
  // identity index points back, keys follow with no gap, each event decodes
  // and its header names its game and seq, each prevHash chains, count and
  // head match; and each GameSigned is checked against the chain. DataLoss
  // "game G: ..." for the first failure.
  [[nodiscard]] Expected<Game> game(core::GameId id) const;
  [[nodiscard]] Expected<std::vector<Blob>> blobs() const;

 private:
  struct Impl;
  explicit Reader1(std::unique_ptr<Impl> impl) noexcept;
  std::unique_ptr<Impl> impl_;
};

}  // namespace warlog::store::format1
