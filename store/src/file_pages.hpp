#pragma once
// Whether data.mdb holds every page LMDB may read (private to the store target).

#include "shared.hpp"

namespace warlog::store::detail {

// DataLoss "data.mdb is truncated: ..." when the file ends before a page the
// snapshot of read txn `txn` may read, that is a page up to its meta's
// last_pgno that is not on its freelist. Reads the file with pread only, so
// it runs before any tree is read through the map. Only the meta pages may
// have been read in `txn`.
[[nodiscard]] Expected<void> check_pages_present(const Shared& s, MDB_txn* txn);

}  // namespace warlog::store::detail
