// find_damaged_page: LMDB 0.9's on-disk page layout, read with bounds
// checks. The layout (lmdb's mdb.c, 64-bit build):
//   page header (16 bytes): pgno u64, pad u16, flags u16, lower u16, upper u16
//                           (an overflow page has a u32 page count at 12)
//   node pointers: u16 offsets from the page start, (lower - 16) / 2 of them
//   node (8 bytes + key + data): lo u16, hi u16, flags u16, ksize u16; a
//     branch node's child is lo | hi << 16 | flags << 32; a leaf's data size
//     is lo | hi << 16; F_BIGDATA: the data is an overflow page number;
//     F_SUBDATA: the data is a named database's MDB_db
//   meta (at 16 of pages 0 and 1): magic u32, version u32, address, mapsize,
//     two MDB_db (free list, main; 48 bytes each: pad u32 = page size in the
//     first, flags u16, depth u16, 3 page counts, entries, root), last_pg, txnid

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>

#include "warlog/store/page_walk.hpp"

namespace warlog::store {

namespace {

constexpr std::size_t kHeader = 16;
constexpr std::uint16_t kBranch = 0x01, kLeaf = 0x02, kOverflow = 0x04, kMeta = 0x08;
constexpr std::uint16_t kIgnoredFlags = 0x10 | 0x4000 | 0x8000;  // dirty, loose, keep: in memory only
constexpr std::uint16_t kBigData = 0x01, kSubData = 0x02, kDupData = 0x04;
constexpr std::uint32_t kMagic = 0xBEEFC0DE;
constexpr std::uint64_t kNoRoot = ~std::uint64_t{0};
constexpr int kMaxDepth = 32;  // LMDB's cursor stack

template <class T>
T load(const std::vector<unsigned char>& page, std::size_t at) {
  T v{};
  std::memcpy(&v, page.data() + at, sizeof v);
  return v;
}

struct Tree {
  std::uint16_t depth = 0;
  std::uint64_t root = kNoRoot;
};

Tree tree_at(const std::vector<unsigned char>& bytes, std::size_t at) {
  return Tree{load<std::uint16_t>(bytes, at + 6), load<std::uint64_t>(bytes, at + 40)};
}

class Walker {
 public:
  Walker(int fd, std::size_t page_size, std::uint64_t last) : fd_(fd), psize_(page_size), last_(last) {}

  // The first damaged page under `t`, or nullopt; IoError when pread fails.
  Expected<std::optional<DamagedPage>> walk(const Tree& t) {
    if (t.root == kNoRoot) return std::nullopt;
    return page(t.root, 0, t.depth);
  }

 private:
  Expected<std::optional<DamagedPage>> page(std::uint64_t pgno, int level, int depth) {
    auto bad = [&](std::string what) -> Expected<std::optional<DamagedPage>> {
      return std::optional<DamagedPage>(DamagedPage{pgno, std::move(what)});
    };
    if (level >= kMaxDepth) return bad("the tree is deeper than LMDB walks");
    if (!seen_.insert(pgno).second) return bad("it is reached twice (a cycle or a shared page)");
    std::vector<unsigned char> p(psize_);
    if (auto r = read(pgno, p); !r) return tl::unexpected(r.error());
    const auto self = load<std::uint64_t>(p, 0);
    const auto flags = static_cast<std::uint16_t>(load<std::uint16_t>(p, 10) & ~kIgnoredFlags);
    const auto lower = load<std::uint16_t>(p, 12);
    const auto upper = load<std::uint16_t>(p, 14);
    if (self != pgno) return bad(fmt::format("its header names page {}", self));
    const bool branch = level + 1 < depth;
    if (flags != (branch ? kBranch : kLeaf)) {
      return bad(fmt::format("its flags are {:#x}, not a {} page", flags, branch ? "branch" : "leaf"));
    }
    if (lower < kHeader || lower > upper || upper > psize_ || (lower - kHeader) % 2 != 0) {
      return bad(fmt::format("its lower {} and upper {} do not fit a page of {}", lower, upper, psize_));
    }
    const std::size_t keys = (lower - kHeader) / 2;
    if (keys == 0) return bad("it holds no node");
    for (std::size_t i = 0; i < keys; ++i) {
      const std::size_t at = load<std::uint16_t>(p, kHeader + 2 * i);
      if (at < upper || at + 8 > psize_) return bad(fmt::format("node {} at offset {} is outside its nodes", i, at));
      const auto lo = load<std::uint16_t>(p, at), hi = load<std::uint16_t>(p, at + 2);
      const auto nflags = load<std::uint16_t>(p, at + 4), ksize = load<std::uint16_t>(p, at + 6);
      if (at + 8 + ksize > psize_) return bad(fmt::format("node {}'s key runs past the page", i));
      if (branch) {
        const std::uint64_t child = lo | std::uint64_t{hi} << 16 | std::uint64_t{nflags} << 32;
        if (child < 2 || child > last_) return bad(fmt::format("node {} points to page {}, past the last", i, child));
        auto sub = page(child, level + 1, depth);
        if (!sub || *sub) return sub;
        continue;
      }
      const std::size_t data = at + 8 + ksize;
      const std::size_t dsize = lo | std::size_t{hi} << 16;
      if (nflags & kBigData) {
        if (data + 8 > psize_) return bad(fmt::format("node {}'s overflow page number runs past the page", i));
        if (auto o = overflow(load<std::uint64_t>(p, data)); !o || *o) return o;
        continue;
      }
      if (data + dsize > psize_) return bad(fmt::format("node {}'s value of {} bytes runs past the page", i, dsize));
      if ((nflags & kSubData) && !(nflags & kDupData)) {
        if (dsize < 48) return bad(fmt::format("node {}'s database record is {} bytes", i, dsize));
        auto sub = walk(tree_at(p, data));
        if (!sub || *sub) return sub;
      }
    }
    return std::nullopt;
  }

  Expected<std::optional<DamagedPage>> overflow(std::uint64_t pgno) {
    auto bad = [&](std::string what) -> Expected<std::optional<DamagedPage>> {
      return std::optional<DamagedPage>(DamagedPage{pgno, std::move(what)});
    };
    if (pgno < 2 || pgno > last_) return bad("an overflow page past the last page");
    if (!seen_.insert(pgno).second) return bad("it is reached twice (a cycle or a shared page)");
    std::vector<unsigned char> p(psize_);
    if (auto r = read(pgno, p); !r) return tl::unexpected(r.error());
    const auto self = load<std::uint64_t>(p, 0);
    const auto flags = static_cast<std::uint16_t>(load<std::uint16_t>(p, 10) & ~kIgnoredFlags);
    const auto pages = load<std::uint32_t>(p, 12);
    if (self != pgno) return bad(fmt::format("its header names page {}", self));
    if (flags != kOverflow) return bad(fmt::format("its flags are {:#x}, not an overflow page", flags));
    if (pages == 0 || pgno + pages - 1 > last_) return bad(fmt::format("its {} pages run past the last page", pages));
    return std::nullopt;
  }

  Expected<void> read(std::uint64_t pgno, std::vector<unsigned char>& p) {
    const auto n = ::pread(fd_, p.data(), p.size(), static_cast<off_t>(pgno * psize_));
    if (n < 0) return make_error(ErrorCode::IoError, fmt::format("cannot read page {}: {}", pgno, std::strerror(errno)));
    // A short read (a page past the end) reads as zeros: its header then names page 0.
    if (static_cast<std::size_t>(n) < p.size()) std::memset(p.data() + n, 0, p.size() - static_cast<std::size_t>(n));
    return {};
  }

  int fd_;
  std::size_t psize_;
  std::uint64_t last_;
  std::unordered_set<std::uint64_t> seen_;
};

}  // namespace

Expected<std::optional<DamagedPage>> find_damaged_page(const std::filesystem::path& store_dir) {
  const auto file = store_dir / "data.mdb";
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return make_error(ErrorCode::IoError, fmt::format("cannot open {}: {}", file.string(), std::strerror(errno)));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};

  // Meta pages 0 and 1; LMDB uses the valid one with the larger txnid. The
  // page size is in the first meta's free-list record (pad).
  constexpr std::size_t kMetaBytes = kHeader + 136;
  std::vector<unsigned char> metas[2];
  std::size_t psize = 0;
  int newest = -1;
  std::uint64_t newest_txn = 0;
  for (int m = 0; m < 2; ++m) {
    metas[m].assign(kMetaBytes, 0);
    const off_t at = m == 0 ? 0 : static_cast<off_t>(psize);
    if (m == 1 && psize == 0) break;
    if (::pread(fd, metas[m].data(), kMetaBytes, at) != static_cast<ssize_t>(kMetaBytes)) continue;
    const auto flags = load<std::uint16_t>(metas[m], 10);
    if (!(flags & kMeta) || load<std::uint32_t>(metas[m], kHeader) != kMagic) continue;
    if (m == 0) {
      psize = load<std::uint32_t>(metas[m], kHeader + 24);
      if (psize < 512 || psize > 65536 || (psize & (psize - 1)) != 0) {
        return std::optional<DamagedPage>(DamagedPage{0, fmt::format("its page size {} is not LMDB's", psize)});
      }
    }
    const auto txn = load<std::uint64_t>(metas[m], kHeader + 128);
    if (newest < 0 || txn > newest_txn) newest = m, newest_txn = txn;
  }
  if (newest < 0 || psize == 0) {
    return make_error(ErrorCode::DataLoss, fmt::format("{} has no LMDB meta page", file.string()));
  }
  const auto& meta = metas[newest];
  const auto last = load<std::uint64_t>(meta, kHeader + 120);
  Walker w(fd, psize, last);
  const Tree free_list = tree_at(meta, kHeader + 24);
  const Tree main = tree_at(meta, kHeader + 72);
  for (const Tree& t : {main, free_list}) {
    if (t.root != kNoRoot && (t.root < 2 || t.root > last)) {
      return std::optional<DamagedPage>(
          DamagedPage{static_cast<std::uint64_t>(newest), fmt::format("its root page {} is past the last", t.root)});
    }
    auto found = w.walk(t);
    if (!found || *found) return found;
  }
  return std::nullopt;
}

}  // namespace warlog::store
