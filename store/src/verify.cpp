// verify: checks one game's record, index, blocks, tags, chain and blobs,
// and names the first broken link (docs/architecture.md › "Store format 2" › 4).

#include <algorithm>
#include <iterator>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <sodium.h>

#include "block.hpp"
#include "shared.hpp"
#include "warlog/events/codec.hpp"
#include "warlog/store/keys.hpp"
#include "warlog/store/reader.hpp"

namespace warlog::store {

using Kind = BrokenLink::Kind;

namespace {

std::string_view digest_view(const core::Digest& d) {
  return {reinterpret_cast<const char*>(d.data()), d.size()};
}

// Whether the identity index holds game at `key`.
Expected<bool> indexed_at(const detail::Shared& s, MDB_txn* txn, std::string_view key, core::GameId game) {
  auto v = lmdb::get(txn, s.dbi.identity, key);
  if (!v) return detail::fail(s, "reading the identity index", v.error());
  return *v && (*v)->size() == 8 && get_be64((*v)->data()) == game;
}

// The keys of the identity-index entries that name game. An imported game's
// key is the head of the stream as imported, which an append since moved on
// from, so the record cannot name it: verify looks for it by value.
Expected<std::vector<std::string>> index_keys_naming(const detail::Shared& s, MDB_txn* txn, core::GameId game) {
  auto cursor = lmdb::Cursor::open(txn, s.dbi.identity);
  if (!cursor) return detail::fail(s, "opening an identity cursor", cursor.error());
  std::vector<std::string> out;
  for (auto e = cursor->get(MDB_FIRST);; e = cursor->get(MDB_NEXT)) {
    if (!e) return detail::fail(s, "reading the identity index", e.error());
    if (!*e) return out;
    const auto v = cursor->value();
    if (v.size() == 8 && get_be64(v.data()) == game) out.emplace_back(cursor->key());
  }
}

}  // namespace

Expected<VerifyReport> Reader::verify(core::GameId game) const { return verify(game, EventFn{}, {}); }

Expected<VerifyReport> Reader::verify(core::GameId game, const EventFn& fn) const { return verify(game, fn, {}); }

Expected<VerifyReport> Reader::verify(core::GameId game, const EventFn& fn, std::span<const core::Digest> walked) const {
  const detail::Shared& s = *shared_;
  VerifyReport report;
  report.game = game;
  auto broken = [&](core::Seq seq, Kind kind, std::string what) -> Expected<VerifyReport> {
    report.broken = BrokenLink{game, seq, kind, std::move(what), {}};
    return report;
  };

  auto meta = record(game);
  if (!meta) {
    // Events or annotations with no record: a deleted record hides no game.
    const auto gkey = game_key(game);
    auto rec = lmdb::get(txn_, s.dbi.games, view(gkey));
    if (!rec) return detail::fail(s, "reading the game record", rec.error());
    if (!*rec) {
      auto missing = detail::missing_record(s, txn_, game);
      if (!missing) return tl::unexpected(missing.error());
      if (missing->code == ErrorCode::NotFound) return tl::unexpected(*missing);
      return broken(0, Kind::Orphan, missing->message);
    }
  }
  // A record a newer warlog wrote (Unsupported) is not damage: not for verify to judge.
  if (!meta && meta.error().code == ErrorCode::Unsupported) return tl::unexpected(meta.error());
  if (!meta) return broken(0, Kind::BadMetadata, meta.error().message);

  // The identity index must point back: under the identity (a game created
  // live), the head (imported, nothing appended since), or else under the
  // head after some count, the stream as imported before later appends.
  // Found by value, that key is matched against every prefix head below: any
  // key passed before (found by the tamper suite: an altered key, or two
  // games' entries swapped).
  bool keyed = false;
  for (const core::Digest* d : {&meta->identity, &meta->head}) {
    auto at = indexed_at(s, txn_, digest_view(*d), game);
    if (!at) return tl::unexpected(at.error());
    keyed = keyed || *at;
  }
  std::vector<std::string> index_keys;
  if (!keyed) {
    auto keys = index_keys_naming(s, txn_, game);
    if (!keys) return tl::unexpected(keys.error());
    index_keys = std::move(*keys);
  }
  const bool match_prefixes = !keyed && !index_keys.empty();

  auto cursor = lmdb::Cursor::open(txn_, s.dbi.events);
  if (!cursor) return detail::fail(s, "opening an events cursor", cursor.error());
  const auto start = event_key(game, 0);
  detail::AlignedBody aligned;
  core::Digest prev = detail::chain_start();
  core::Seq expected = 0;  // the next block's first seq
  bool partial = false;    // the block before was not full: nothing may follow it
  std::optional<core::GameCreated> created;
  // What fn is given: a block's events, held until its tags and S hold.
  bool giving = static_cast<bool>(fn);
  std::vector<core::Event> held;
  detail::PagesBehind behind(s.pages);
  for (auto e = cursor->get(MDB_SET_RANGE, view(start));; e = cursor->get(MDB_NEXT)) {
    if (!e) return detail::fail(s, "reading events", e.error());
    if (!*e) break;
    const std::string_view key = cursor->key();
    const std::string_view value = cursor->value();
    if (key.size() < 8 || get_be64(key.data()) != game) break;  // past this game's keys
    const auto parts = parse_event_key(key);
    if (!parts) {
      return broken(expected, Kind::BadKey, fmt::format("a key of {} bytes (not 16) after seq {}", key.size(), expected));
    }
    const core::Seq first = parts->seq;
    if (first != expected || partial) {
      return broken(expected, Kind::Gap,
                    partial ? fmt::format("a block at seq {} follows a block that is not full", first)
                            : fmt::format("the block at seq {} is missing: the next stored block is at seq {}",
                                          expected, first));
    }
    auto b = detail::parse_block(value, first);
    if (!b) return broken(first, Kind::Undecodable, b.error().message);
    const core::Seq end = first + b->n;
    const std::string range = b->n == 1 ? fmt::format("seq {}", first) : fmt::format("seq {}..{}", first, end - 1);
    auto decoded = aligned.decode(*b, first);
    if (!decoded) return broken(first, Kind::Undecodable, decoded.error().message);
    const std::string_view body = *decoded;
    // S first: a block this machine walked whole before, at this place in
    // this chain, is the same bytes (S is BLAKE2b over the chain before it
    // and its body), so its events need no second whole-message walk.
    const core::Digest at = core::chain_hash(prev, body);
    const std::size_t block_index = report.blocks.size();
    const bool known = block_index < walked.size() && walked[block_index] == at && at == b->s;
    const events::Walk walk = known ? events::Walk::Known : events::Walk::Whole;
    detail::BodyReader in(body);
    std::optional<core::Seq> bad_tag;
    held.clear();
    std::optional<Error> unknown;  // the block's first event of a kind this build does not know
    // Only a block wholly within the record's count is given (one beyond it
    // is a count mismatch, reported below).
    const bool hold = giving && end <= meta->event_count;
    crypto_generichash_state prefix{};  // S over the body so far: the head after each event
    std::size_t hashed = 0;
    if (match_prefixes) {
      crypto_generichash_init(&prefix, nullptr, 0, 32);
      crypto_generichash_update(&prefix, prev.data(), prev.size());
    }
    for (core::Seq seq = first;; ++seq) {
      auto next = in.next();
      if (!next) return broken(seq, Kind::Undecodable, fmt::format("the block at {}: {}", range, next.error().message));
      if (!*next) {
        if (seq != end) {
          return broken(seq, Kind::Undecodable,
                        fmt::format("the block at {} counts {} events, its body holds {}", range, b->n, seq - first));
        }
        break;
      }
      if (seq == end) {
        return broken(seq, Kind::Undecodable, fmt::format("the block at {} holds more events than its {}", range, b->n));
      }
      const std::string_view bytes = **next;
      if (match_prefixes && !keyed) {
        const std::size_t upto = static_cast<std::size_t>(bytes.data() + bytes.size() - body.data());
        crypto_generichash_update(&prefix, reinterpret_cast<const unsigned char*>(body.data()) + hashed, upto - hashed);
        hashed = upto;
        crypto_generichash_state copy = prefix;
        core::Digest head{};
        crypto_generichash_final(&copy, head.data(), head.size());
        keyed = std::find(index_keys.begin(), index_keys.end(), digest_view(head)) != index_keys.end();
      }
      if (!bad_tag && detail::event_tag(seq, bytes) != b->tag(seq - first)) bad_tag = seq;
      if (bad_tag) continue;  // reported below, once the block's body has been walked
      auto ev = events::decode_event(bytes, walk);
      if (!ev && ev.error().code == ErrorCode::Unsupported) {
        ++report.unknown_payloads;  // written by a newer warlog; its tag and block still check
        if (hold && !unknown) {
          unknown = Error{ErrorCode::Unsupported, fmt::format("game {}, seq {}: {}", game, seq, ev.error().message)};
        }
      } else if (!ev) {
        return broken(seq, Kind::Undecodable, fmt::format("the event does not decode: {}", ev.error().message));
      } else {
        if (ev->seq != seq) {
          return broken(seq, Kind::HeaderMismatch, fmt::format("the header says seq {} (moved or reordered)", ev->seq));
        }
        const bool is_created = std::holds_alternative<core::GameCreated>(ev->payload);
        if (is_created != (seq == 0)) {
          return broken(seq, Kind::Undecodable,
                        seq == 0 ? std::string("event 0 is not GameCreated") : std::string("a second GameCreated"));
        }
        if (is_created) created = std::get<core::GameCreated>(ev->payload);
        if (hold && !unknown) {
          ev->game = game;
          held.push_back(std::move(*ev));
        }
      }
      if (seq == 0 && game_identity(bytes) != meta->identity) {
        return broken(0, Kind::IdentityMismatch, "event 0 does not hash to the identity in the game record");
      }
    }
    if (bad_tag) {
      return broken(*bad_tag, Kind::TagMismatch,
                    fmt::format("event {}'s tag does not hold: the first altered event", *bad_tag));
    }
    if (at != b->s) {
      return broken(first, Kind::ChainMismatch,
                    fmt::format("the chain breaks in the block at {}: every tag holds, so the block (or one "
                                "before it) was altered and its tags recomputed",
                                range));
    }
    report.events_checked = end;
    report.blocks.push_back(at);
    if (known) report.events_known += b->n;
    // The last block of the count ends at the record's head, or is not given.
    if (hold && (end < meta->event_count || at == meta->head)) {
      for (const core::Event& ev : held) {
        ++report.events_given;
        if (!fn(ev)) {
          giving = false;
          break;
        }
      }
      // Said only once the block held: an unknown kind in an altered block is damage.
      if (unknown) {
        report.not_given = std::move(unknown);
        giving = false;
      }
    } else {
      giving = false;
    }
    behind.read(value, b->n);
    prev = at;
    partial = end != detail::segment_end(first);
    expected = end;
  }

  if (expected != meta->event_count) {
    return broken(expected, Kind::CountMismatch,
                  expected < meta->event_count
                      ? fmt::format("event {} is missing: the stream ends there, the record counts {}", expected,
                                    meta->event_count)
                      : fmt::format("{} events are stored, the record counts {}", expected, meta->event_count));
  }
  if (prev != meta->head) {
    return broken(expected - 1, Kind::HeadMismatch,
                  "the last block does not end at the head in the game record: the record or the last block was "
                  "altered");
  }

  if (!keyed) {
    return broken(0, Kind::IdentityMismatch,
                  index_keys.empty()
                      ? std::string("no identity-index entry points at this game")
                      : std::string("the identity-index entry naming this game is under a key that is neither its "
                                    "identity nor its chain's head after any count (the key was altered, or another "
                                    "game's entry moved here)"));
  }

  if (created) {
    for (auto [kind, hex] : {std::pair{BlobKind::Catalog, &created->catalog_hash},
                             std::pair{BlobKind::Ruleset, &created->ruleset_hash}}) {
      const char* what = kind == BlobKind::Catalog ? "catalog" : "ruleset";
      const auto digest = core::digest_from_hex(*hex);
      if (!digest) return broken(0, Kind::BlobMismatch, fmt::format("GameCreated names no valid {} hash", what));
      auto blob = get_blob(kind, *digest);
      if (!blob) return broken(0, Kind::BlobMismatch, blob.error().message);
    }
  }
  // The annotation chain (annotations.cpp).
  auto annotations = verify_annotations(*meta, report.annotations_checked);
  if (!annotations) return tl::unexpected(annotations.error());
  report.broken = std::move(*annotations);
  if (report.broken) return report;
  // The record's migrated flag is derived from the chain: it must agree with
  // a Migrated record in it (the flag is outside every hash).
  auto all = this->annotations(game);
  if (!all) return broken(0, Kind::BadAnnotation, all.error().message);
  const bool recorded = std::any_of(all->begin(), all->end(), [](const AnnotationRecord& a) {
    return std::holds_alternative<core::Migrated>(a.value);
  });
  if (recorded != meta->migrated()) {
    return broken(0, Kind::BadMetadata,
                  recorded ? "the annotation chain records a migration from format 1, but the game record "
                             "does not say so (record altered?)"
                           : "the game record says the game was migrated from format 1, but its annotation "
                             "chain holds no migration record (record altered?)");
  }
  return report;
}

Expected<std::vector<core::GameId>> Reader::orphan_games() const {
  const detail::Shared& s = *shared_;
  auto events = detail::ids_in(s, txn_, s.dbi.events, "events");
  if (!events) return tl::unexpected(events.error());
  auto annotated = detail::ids_in(s, txn_, s.dbi.annotations, "annotations");
  if (!annotated) return tl::unexpected(annotated.error());
  std::vector<core::GameId> ids;
  std::set_union(events->begin(), events->end(), annotated->begin(), annotated->end(), std::back_inserter(ids));
  std::vector<core::GameId> out;
  for (const core::GameId game : ids) {
    const auto gkey = game_key(game);
    auto rec = lmdb::get(txn_, s.dbi.games, view(gkey));
    if (!rec) return detail::fail(s, "reading a game record", rec.error());
    if (!*rec) out.push_back(game);
    if (*rec) detail::note_read(s, **rec, detail::MappedPages::kSeekEvents);
  }
  return out;
}

namespace detail {

Expected<std::vector<core::GameId>> ids_in(const Shared& s, MDB_txn* txn, MDB_dbi dbi, std::string_view what) {
  auto cursor = lmdb::Cursor::open(txn, dbi);
  if (!cursor) return fail(s, fmt::format("opening a cursor over {}", what), cursor.error());
  std::vector<core::GameId> out;
  for (auto e = cursor->get(MDB_FIRST);;) {
    if (!e) return fail(s, fmt::format("reading {}", what), e.error());
    if (!*e) break;
    const auto key = cursor->key();
    if (key.size() < 8) {
      e = cursor->get(MDB_NEXT);
      continue;
    }
    const core::GameId game = get_be64(key.data());
    out.push_back(game);
    // One seek a game, each a page of its own: counted as what it maps in.
    note_read(s, key, MappedPages::kSeekEvents);
    if (game == UINT64_MAX) break;
    const auto next = game_key(game + 1);
    e = cursor->get(MDB_SET_RANGE, view(next));
  }
  return out;
}

Expected<Error> missing_record(const Shared& s, MDB_txn* txn, core::GameId id) {
  // Whether dbi holds a key of this game: one seek.
  auto holds = [&](MDB_dbi dbi, std::string_view db) -> Expected<bool> {
    auto cursor = lmdb::Cursor::open(txn, dbi);
    if (!cursor) return fail(s, fmt::format("opening a cursor over {}", db), cursor.error());
    const auto gkey = game_key(id);
    auto e = cursor->get(MDB_SET_RANGE, view(gkey));
    if (!e) return fail(s, fmt::format("reading {}", db), e.error());
    return *e && cursor->key().size() >= 8 && get_be64(cursor->key().data()) == id;
  };
  auto events = holds(s.dbi.events, "events");
  if (!events) return tl::unexpected(events.error());
  auto annotations = holds(s.dbi.annotations, "annotations");
  if (!annotations) return tl::unexpected(annotations.error());
  if (!*events && !*annotations) return Error{ErrorCode::NotFound, fmt::format("game {} does not exist", id)};
  const char* what = *events && *annotations ? "events and annotations (disputes, rulings, signatures)"
                     : *events               ? "events"
                                             : "annotations (disputes, rulings or signatures)";
  return Error{ErrorCode::DataLoss,
               fmt::format("game {}: {} with no game record (the record was deleted or lost): restore the store "
                           "from a copy",
                           id, what)};
}

}  // namespace detail

}  // namespace warlog::store
