// Reader::chain_heads: the event chain's head after a prefix of the stored
// stream, recomputed from the stored events. The one place outside verify
// that signatures (and the keyring's memory of signed heads) ask, so that
// they never hash events by hand.
//
// Format 2's chain (docs/architecture.md › Store format 2 §1): one scan from
// S(-1) recomputes every block's S from its body and stops at the first that
// does not hold; each head asked for is then S over the prefix of its block
// (Reader::head_at), whose stored predecessor that scan has just vouched for.

#include <algorithm>

#include "warlog/store/reader.hpp"

namespace warlog::store {

Expected<std::map<core::Seq, core::Digest>> Reader::chain_heads(core::GameId game,
                                                                std::span<const core::Seq> counts) const {
  auto meta = this->record(game);
  if (!meta && meta.error().code == ErrorCode::NotFound) return tl::unexpected(meta.error());
  std::map<core::Seq, core::Digest> out;
  if (counts.empty() || !meta) return out;
  const core::Seq last = std::min(*std::max_element(counts.begin(), counts.end()), meta->event_count);
  // How far the stored stream holds together from S(-1). A scan's error is
  // not ours: a count it did not reach is simply absent.
  core::Seq reached = 0;
  (void)scan_raw(game, 0, last, [&](core::Seq seq, std::string_view) {
    if (seq != reached) return false;
    ++reached;
    return true;
  });
  for (const core::Seq k : counts) {
    if (k == 0 || k > reached) continue;
    if (auto head = head_at(game, k)) out.emplace(k, *head);
  }
  return out;
}

}  // namespace warlog::store
