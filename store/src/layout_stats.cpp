// Reader::layout_stats: what the events database holds (bench/, docs/performance.md).

#include "block.hpp"
#include "shared.hpp"
#include "warlog/store/keys.hpp"
#include "warlog/store/reader.hpp"

namespace warlog::store {

Expected<Reader::LayoutStats> Reader::layout_stats() const {
  const detail::Shared& s = *shared_;
  auto cursor = lmdb::Cursor::open(txn_, s.dbi.events);
  if (!cursor) return detail::fail(s, "opening an events cursor", cursor.error());
  LayoutStats out;
  detail::AlignedBody aligned;
  for (auto e = cursor->get(MDB_FIRST);; e = cursor->get(MDB_NEXT)) {
    if (!e) return detail::fail(s, "reading events", e.error());
    if (!*e) break;
    const std::string_view value = cursor->value();
    ++out.blocks;
    out.key_bytes += cursor->key().size();
    out.value_bytes += value.size();
    const auto parts = parse_event_key(cursor->key());
    auto b = parts ? detail::parse_block(value, parts->seq) : Expected<detail::BlockView>(tl::unexpect, Error{});
    auto body = b ? aligned.decode(*b, parts->seq) : Expected<std::string_view>(tl::unexpect, Error{});
    if (!body) {
      ++out.unreadable;
      continue;
    }
    out.events += b->n;
    out.header_bytes += detail::kBlockHeaderBytes + b->tags.size();
    out.stored_body_bytes += b->body.size();
    out.raw_body_bytes += body->size();
    if (b->codec == detail::kCodecZstd) {
      ++out.compressed_blocks;
      out.compressed_stored_bytes += b->body.size();
      out.compressed_raw_bytes += body->size();
    }
  }
  return out;
}

}  // namespace warlog::store
