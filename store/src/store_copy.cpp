// A consistent compacted copy of a store (warlog backup) and the facts of
// its map.

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string_view>

#include "shared.hpp"
#include "warlog/store/store.hpp"

namespace warlog::store {

namespace fs = std::filesystem;

Expected<void> Store::copy_compact(const fs::path& dir) const {
  const detail::Shared& s = *shared_;
  if (const int rc = mdb_env_copy2(s.env.handle(), dir.c_str(), MDB_CP_COMPACT); rc != 0) {
    return detail::fail(s, fmt::format("copying to {}", dir.string()), rc);
  }
  // mdb_env_copy2 closes the file without flushing it.
  const fs::path file = dir / "data.mdb";
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0 || ::fsync(fd) != 0) {
    const int err = errno;
    if (fd >= 0) ::close(fd);
    return make_error(ErrorCode::IoError, fmt::format("cannot flush {}: {}", file.string(), std::strerror(err)));
  }
  ::close(fd);
  return {};
}

// LMDB's me_mapaddr is only the address asked for (MDB_FIXEDMAP), null
// otherwise, so the map is found where the kernel lists it: the mapping of
// this store's data.mdb in /proc/self/maps.
Store::MapExtent Store::map_extent() const noexcept {
  MapExtent m;
  auto st = shared_->env.stat();
  if (!st) return m;
  std::error_code ec;
  const std::string file = fs::canonical(shared_->path / "data.mdb", ec).string();
  if (ec) return m;
  std::FILE* maps = std::fopen("/proc/self/maps", "re");
  if (maps == nullptr) return m;
  char line[4096];
  while (std::fgets(line, sizeof line, maps) != nullptr) {
    std::string_view l(line);
    if (!l.empty() && l.back() == '\n') l.remove_suffix(1);
    if (l.size() < file.size() || l.substr(l.size() - file.size()) != file) continue;
    unsigned long long from = 0, to = 0;
    if (std::sscanf(line, "%llx-%llx", &from, &to) != 2) continue;
    m.base = reinterpret_cast<const void*>(static_cast<std::uintptr_t>(from));
    m.bytes = static_cast<std::size_t>(to - from);
    m.page_size = st->ms_psize;
    break;
  }
  std::fclose(maps);
  return m;
}

}  // namespace warlog::store
