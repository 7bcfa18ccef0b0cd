#pragma once
// A consistent forger (the tamper suite's "resealed" edits): reads one game
// of a closed store as its canonical events and annotations, lets an edit
// change them as it likes, and writes the game back with everything a
// reader could check recomputed from the bytes alone: every tag and block S,
// the record's count, head and identity, the identity-index entry (keyed by
// the new head, as import keys it), every A(n) and the annotation count and
// head. What no forger can recompute is a signature by a key they do not
// hold. Written from docs/architecture.md › "Store format 2", not from the
// store's code (block_edit.hpp has the block layout).

#include <string>
#include <vector>

#include "store/block_edit.hpp"
#include "store/tamper_store.hpp"
#include "warlog/events/annotation_codec.hpp"
#include "warlog/events/codec.hpp"
#include "warlog/store/game_meta.hpp"

namespace warlog::store::tamper {

struct GameBytes {
  std::vector<std::string> events;       // canonical, in seq order
  std::vector<std::string> annotations;  // canonical, in chain order
  GameMeta record;
};

inline GameBytes read_game(const fs::path& dir, core::GameId game) {
  GameBytes g;
  const std::string prefix = std::string(view(game_key(game)));
  for (const auto& r : records_of(dir, kDbEvents)) {
    if (r.key.compare(0, 8, prefix) != 0) continue;
    for (auto& e : test::TestBlock::parse(r.value).events) g.events.push_back(std::move(e));
  }
  for (const auto& r : records_of(dir, kDbAnnotations)) {
    if (r.key.compare(0, 8, prefix) == 0) g.annotations.push_back(r.value.substr(32));
  }
  for (const auto& r : records_of(dir, kDbGames)) {
    if (r.key == prefix) g.record = decode_game_meta(r.value).value();
  }
  return g;
}

// The deletions of every record of `game` (blocks, annotations, index entries).
inline std::vector<Change> deletions_of(const fs::path& dir, core::GameId game) {
  std::vector<Change> out;
  const std::string prefix = std::string(view(game_key(game)));
  for (const auto& r : records_of(dir, kDbEvents)) {
    if (r.key.compare(0, 8, prefix) == 0) out.push_back({kDbEvents, r.key, std::nullopt});
  }
  for (const auto& r : records_of(dir, kDbAnnotations)) {
    if (r.key.compare(0, 8, prefix) == 0) out.push_back({kDbAnnotations, r.key, std::nullopt});
  }
  for (const auto& r : records_of(dir, kDbIdentity)) {
    if (r.value == prefix) out.push_back({kDbIdentity, r.key, std::nullopt});
  }
  return out;
}

// The changes that replace `game` (whose records `deletions` removes) with
// `edited`, consistently.
inline std::vector<Change> reseal(std::vector<Change> deletions, core::GameId game, const GameBytes& edited) {
  std::vector<Change> out = std::move(deletions);
  const std::string prefix = std::string(view(game_key(game)));
  // Blocks: event 0 alone, then 64 a block.
  core::Digest s = test::chain_start();
  for (core::Seq first = 0; first < edited.events.size(); first = first == 0 ? 1 : first + 64) {
    test::TestBlock b;
    const core::Seq end = first == 0 ? 1 : std::min<core::Seq>(first + 64, edited.events.size());
    b.events.assign(edited.events.begin() + static_cast<std::ptrdiff_t>(first),
                    edited.events.begin() + static_cast<std::ptrdiff_t>(end));
    b.retag(first);
    b.rehash(s);
    s = b.s;
    out.push_back({kDbEvents, std::string(view(event_key(game, first))), b.value()});
  }
  GameMeta meta = edited.record;
  meta.event_count = edited.events.size();
  meta.head = s;
  if (!edited.events.empty()) meta.identity = game_identity(edited.events.front());
  core::Digest a = annotation_chain_start(meta.identity);
  for (std::size_t n = 0; n < edited.annotations.size(); ++n) {
    // An annotation about an event the edit removed is moved to the last
    // one (verify refuses an annotation naming no event); one the edit
    // itself pointed past the end is left so.
    std::string bytes = edited.annotations[n];
    if (auto at = events::decode_annotation(bytes);
        at && at->seq >= meta.event_count && at->seq < edited.record.event_count && meta.event_count > 0) {
      bytes = events::encode_annotation(meta.event_count - 1, at->value);
    }
    a = annotation_chain_next(a, bytes);
    out.push_back({kDbAnnotations, std::string(view(annotation_key(game, n))), std::string(a.begin(), a.end()) + bytes});
  }
  meta.annotation_count = edited.annotations.size();
  meta.annotation_head = a;
  out.push_back({kDbGames, prefix, encode_game_meta(meta)});
  out.push_back({kDbIdentity, std::string(s.begin(), s.end()), prefix});
  return out;
}
inline std::vector<Change> reseal(const fs::path& dir, core::GameId game, const GameBytes& edited) {
  return reseal(deletions_of(dir, game), game, edited);
}

// An event re-encoded at another seq (its header names its seq).
inline std::string at_seq(const std::string& canonical, core::Seq seq) {
  return events::encode_event(events::decode_event(canonical).value(), seq);
}

}  // namespace warlog::store::tamper
