// Reader::chain_heads: the event chain's head after a prefix of the stored
// stream, recomputed from the stored events. The one place outside verify
// that knows how the event chain is computed, so that signatures (and the
// keyring's memory of signed heads) never hash events by hand.
//
// Format 1's chain: head(k) = BLAKE2b(head(k-1) ‖ stored bytes of event k-1),
// head(0) = 32 zero bytes (store.hpp). The format-2 event chain (segments,
// canonical bytes: docs/architecture.md › Store format 2 §1) replaces this
// body, and nothing else of the signature code.

#include <algorithm>

#include "warlog/store/reader.hpp"

namespace warlog::store {

Expected<std::map<core::Seq, core::Digest>> Reader::chain_heads(core::GameId game,
                                                                std::span<const core::Seq> counts) const {
  auto meta = this->game(game);
  if (!meta && meta.error().code == ErrorCode::NotFound) return tl::unexpected(meta.error());
  std::map<core::Seq, core::Digest> out;
  if (counts.empty()) return out;
  const core::Seq last = *std::max_element(counts.begin(), counts.end());
  auto wanted = [&](core::Seq k) { return std::find(counts.begin(), counts.end(), k) != counts.end(); };
  core::Digest running{};
  core::Seq hashed = 0;
  if (wanted(0)) out.emplace(0, running);
  // scan_raw stops at the first missing or misplaced key: the prefix it
  // reaches is all that can be vouched for. Its error is not ours: a count
  // it did not reach is simply absent.
  (void)scan_raw(game, 0, last, [&](core::Seq seq, std::string_view bytes) {
    if (seq != hashed) return false;
    running = core::chain_hash(running, bytes);
    ++hashed;
    if (wanted(hashed)) out.emplace(hashed, running);
    return true;
  });
  return out;
}

}  // namespace warlog::store
