#pragma once
// A guarded walk over the pages of data.mdb: LMDB keeps no page checksums,
// so this checks what it can, structure. Reads the file with pread, never
// maps it, and bounds every offset it follows: a damaged page cannot fault it.
// For naming the page near which a reader died (replay/isolate.hpp), not for
// proving a store sound: a page whose header is intact but whose values are
// damaged passes (the hash chain covers the values).

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "warlog/core/error.hpp"

namespace warlog::store {

struct DamagedPage {
  std::uint64_t page = 0;  // page number: its offset in data.mdb / the page size
  std::string what;        // "its header names page 0", "lower 9000 past its end", ...
};

// Walks the B-trees of the newest meta page (the main database, each named
// database in it, then the free list) from their roots and returns the first
// page that is not what its parent says: a header naming another page,
// flags of another kind, node offsets outside the page, a child page past
// the last page, a page reached twice. nullopt when every reachable page
// checks. Errors: IoError; DataLoss when neither meta page is an LMDB meta page.
[[nodiscard]] Expected<std::optional<DamagedPage>> find_damaged_page(const std::filesystem::path& store_dir);

}  // namespace warlog::store
