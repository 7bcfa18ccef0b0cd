// Is data.mdb whole? LMDB maps the file and dies of SIGBUS on the first read
// of a page past its end, so Store::open asks before any tree is read.
//
// The newest meta page counts last_pgno + 1 pages, but a file may end short
// of that and be sound: a page a transaction allocated at the end and freed
// again before its commit (a big delete: `warlog snapshot --drop`) is never
// written, only put on the freelist. So a short file is refused only when
// a page past its end is not free: the freelist is read here with pread,
// never through the map, checking every page before reading it.
//
// This reads LMDB's on-disk format (liblmdb 0.9, data version 1, 64-bit):
// the page header, the meta page, branch and leaf nodes and overflow pages
// of the free database, whose keys are txnids and values ID lists (a count,
// then page numbers). Anything it does not recognise proves nothing, and the
// file is refused as before.

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "file_pages.hpp"

namespace warlog::store::detail {

namespace {

// Offsets in LMDB's structures (mdb.c: MDB_page, MDB_meta, MDB_db, MDB_node).
constexpr std::size_t kPageHeader = 16;  // PAGEHDRSZ: pgno u64, pad u16, flags u16, lower u16, upper u16
constexpr std::uint16_t kBranch = 0x01, kLeaf = 0x02, kOverflow = 0x04;
constexpr std::uint16_t kBigData = 0x01;  // F_BIGDATA: the value is on overflow pages
constexpr std::uint32_t kMagic = 0xBEEFC0DE;
constexpr std::size_t kMetaMagic = kPageHeader + 0;
constexpr std::size_t kMetaFreeDepth = kPageHeader + 24 + 6;    // mm_dbs[FREE_DBI].md_depth
constexpr std::size_t kMetaFreeRoot = kPageHeader + 24 + 40;    // mm_dbs[FREE_DBI].md_root
constexpr std::size_t kMetaLastPage = kPageHeader + 24 + 96;    // mm_last_pg
constexpr std::size_t kMetaTxnid = kPageHeader + 24 + 96 + 8;   // mm_txnid
constexpr std::uint64_t kNoPage = ~std::uint64_t{0};            // P_INVALID: an empty tree
constexpr unsigned kMaxDepth = 32;

template <class T>
T load(const std::string& page, std::size_t at) {
  T v{};
  std::memcpy(&v, page.data() + at, sizeof v);  // LMDB stores host order
  return v;
}

// Reads pages with pread, refusing any at or past `present`.
class PageFile {
 public:
  PageFile(int fd, std::size_t psize, std::uint64_t present) : fd_(fd), psize_(psize), present_(present) {}

  // `count` pages from `pgno`; nullopt when one is missing or unreadable.
  std::optional<std::string> read(std::uint64_t pgno, std::uint64_t count = 1) {
    if (count == 0 || pgno >= present_ || count > present_ - pgno) return std::nullopt;
    std::string out(count * psize_, '\0');
    std::size_t done = 0;
    while (done < out.size()) {
      const auto n = ::pread(fd_, out.data() + done, out.size() - done, static_cast<off_t>(pgno * psize_ + done));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return std::nullopt;
      done += static_cast<std::size_t>(n);
    }
    return out;
  }
  [[nodiscard]] std::size_t psize() const { return psize_; }

 private:
  int fd_;
  std::size_t psize_;
  std::uint64_t present_;
};

// Collects the page numbers in the free database's ID lists. false: the tree
// reaches a missing page or is not what LMDB writes.
class FreeListReader {
 public:
  FreeListReader(PageFile& file, std::uint64_t last_pgno) : file_(file), last_(last_pgno) {}

  bool walk(std::uint64_t pgno, unsigned depth) {
    if (depth > kMaxDepth || ++visited_ > last_ + 1) return false;
    auto page = file_.read(pgno);
    if (!page || load<std::uint64_t>(*page, 0) != pgno) return false;
    const auto flags = load<std::uint16_t>(*page, 10);
    const auto lower = load<std::uint16_t>(*page, 12);
    if (lower < kPageHeader || lower > page->size()) return false;
    const std::size_t keys = (lower - kPageHeader) / 2;
    for (std::size_t i = 0; i < keys; ++i) {
      const auto at = load<std::uint16_t>(*page, kPageHeader + 2 * i);
      if (at < lower || at + 8u > page->size()) return false;
      const auto lo = load<std::uint16_t>(*page, at);
      const auto hi = load<std::uint16_t>(*page, at + 2);
      const auto node_flags = load<std::uint16_t>(*page, at + 4);
      const auto ksize = load<std::uint16_t>(*page, at + 6);
      const std::size_t data = at + 8u + ksize;
      if (flags & kBranch) {
        const std::uint64_t child = lo | std::uint64_t{hi} << 16 | std::uint64_t{node_flags} << 32;
        if (!walk(child, depth + 1)) return false;
      } else if (flags & kLeaf) {
        const std::size_t size = lo | std::size_t{hi} << 16;
        if (!(node_flags & kBigData)) {
          if (data + size > page->size() || !ids(page->substr(data, size))) return false;
          continue;
        }
        if (data + 8 > page->size() || !overflow(load<std::uint64_t>(*page, data), size)) return false;
      } else {
        return false;
      }
    }
    return true;
  }

  [[nodiscard]] const std::set<std::uint64_t>& free() const { return free_; }

 private:
  bool overflow(std::uint64_t pgno, std::size_t size) {
    const std::size_t psize = file_.psize();
    const std::uint64_t count = (kPageHeader + size + psize - 1) / psize;
    if (count > last_ + 1) return false;
    auto pages = file_.read(pgno, count);
    if (!pages || !(load<std::uint16_t>(*pages, 10) & kOverflow)) return false;
    return ids(pages->substr(kPageHeader, size));
  }

  // An ID list: a count, then that many page numbers.
  bool ids(const std::string& value) {
    if (value.size() < 8) return false;
    const auto n = load<std::uint64_t>(value, 0);
    if (n > (value.size() - 8) / 8) return false;
    for (std::uint64_t i = 0; i < n; ++i) free_.insert(load<std::uint64_t>(value, 8 + 8 * i));
    return true;
  }

  PageFile& file_;
  std::uint64_t last_;
  std::uint64_t visited_ = 0;
  std::set<std::uint64_t> free_;
};

}  // namespace

Expected<void> check_pages_present(const Shared& s, MDB_txn* txn) {
  auto st = s.env.stat();
  if (!st) return fail(s, "reading the page size", st.error());
  const std::size_t psize = st->ms_psize;
  int fd = -1;
  if (const int rc = mdb_env_get_fd(s.env.handle(), &fd); rc != 0) return fail(s, "reading the data file", rc);

  // The meta page of this read txn's snapshot: its free pages stay free while
  // the txn lives, even if another process commits meanwhile. Another
  // process may since have written that meta page over (the two alternate),
  // then the newest stands in: last_pgno only grows, and a file that holds
  // the newest snapshot's pages holds this one's.
  PageFile metas(fd, psize, 2);
  std::optional<std::string> mine, newest;
  for (std::uint64_t m = 0; m < 2; ++m) {
    auto p = metas.read(m);
    if (!p || load<std::uint32_t>(*p, kMetaMagic) != kMagic) continue;
    const auto txnid = load<std::uint64_t>(*p, kMetaTxnid);
    if (!newest || txnid > load<std::uint64_t>(*newest, kMetaTxnid)) newest = p;
    if (txnid == mdb_txn_id(txn)) mine = std::move(p);
  }
  if (!newest) return make_error(ErrorCode::DataLoss, fmt::format("{}: data.mdb is not an LMDB file", s.path.string()));
  // The size only after the meta pages: LMDB writes a commit's pages (growing
  // the file) before its meta page, so a size read now holds every page the
  // metas just read name. Read first, a writer committing in between made a
  // sound file look short (1 audit in 100 under ConcurrentGrowth).
  std::error_code ec;
  const auto file = s.path / "data.mdb";
  const std::uintmax_t have = std::filesystem::file_size(file, ec);
  if (ec) {
    return make_error(ErrorCode::IoError, fmt::format("cannot read the size of {}: {}", file.string(), ec.message()));
  }
  const std::uint64_t present = have / psize;  // a partial last page counts as missing
  if (present > load<std::uint64_t>(*newest, kMetaLastPage)) return {};
  const std::string& meta = mine ? *mine : *newest;
  const auto last = load<std::uint64_t>(meta, kMetaLastPage);
  if (present > last) return {};

  // Short: every page from the end of the file on must be free.
  PageFile pages(fd, psize, present);
  FreeListReader reader(pages, last);
  const auto root = load<std::uint64_t>(meta, kMetaFreeRoot);
  const bool read = root != kNoPage && load<std::uint16_t>(meta, kMetaFreeDepth) <= kMaxDepth && reader.walk(root, 1);
  std::uint64_t in_use = last;  // the last page a tree may read; pages 0 and 1 are the metas
  if (read) {
    while (in_use >= present && in_use > 1 && reader.free().contains(in_use)) --in_use;
  }
  if (in_use < present) return {};
  const std::uintmax_t need = (in_use + 1) * psize;
  return make_error(ErrorCode::DataLoss,
                    fmt::format("store {}: data.mdb is truncated: {} bytes, but its pages need {} ({} pages of {} "
                                "bytes); restore it from a copy",
                                s.path.string(), have, need, in_use + 1, psize));
}

}  // namespace warlog::store::detail
