// The tamper suite, structural edits ("Trust the store" › Done means): in a
// copy of the sample store (tamper_store.hpp), records deleted, swapped,
// appended and the tail truncated, first as an editor who recomputes
// nothing (verify must say BROKEN), then resealed, every tag, S, head,
// count, index key and A(n) recomputed (tamper_reseal.hpp): then verify
// must say INVALID, stale or VANISHED for the game a trusted key signed,
// and "unsigned" for the unsigned one (the documented limit: no check can
// tell a consistent rewrite of a game nobody signed).

#include <gtest/gtest.h>

#include <functional>
#include <set>
#include <variant>

#include <fmt/format.h>

#include "store/tamper_reseal.hpp"
#include "warlog/events/annotation_codec.hpp"

namespace warlog::store::tamper {
namespace {

using Verdicts = std::set<Verdict>;

std::string names(const Verdicts& vs) {
  std::string out;
  for (Verdict v : vs) out += std::string(out.empty() ? "" : "|") + name_of(v);
  return out;
}

class TamperStructural : public ::testing::Test {
 protected:
  const core::GameId signed_ = sample_store().signed_game;
  const core::GameId unsigned_ = sample_store().disputed_game;

  std::vector<Record> of(const char* db, core::GameId game) {
    std::vector<Record> out;
    for (auto& r : records_of(copy_.store(), db)) {
      if (owner_of(db, r) == game) out.push_back(std::move(r));
    }
    return out;
  }
  // Applies `changes` (undoing the previous edit first), asks verify about
  // `game` and expects one of `want`; then audit and export must refuse or
  // read what the pristine store holds.
  // `reads`: also expect export to refuse or read the pristine events (an
  // edit that breaks the chain). A resealed store is consistent: reading
  // verbs read it as it is, and only verify's signature check tells.
  void expect(const std::string& what, const std::vector<Change>& changes, core::GameId game, const Verdicts& want,
              bool reads = true) {
    editor_.apply(changes);
    const Outcome o = copy_.verify(game);
    EXPECT_TRUE(want.contains(o.verdict)) << what << ": game " << game << " is " << name_of(o.verdict)
                                          << ", want " << names(want) << ": " << o.text;
    ++tried_;
    auto archive = replay::Archive::open(copy_.store().string(), replay::Archive::Mode::ReadOnly);
    if (!archive || !reads) return;
    if (auto events = archive->events(game); events) {
      EXPECT_EQ(*events, sample_store().events.at(game)) << what << ": export read altered events without an error";
    }
  }
  // A resealed edit of `game`'s canonical events and annotations.
  void resealed(const std::string& what, core::GameId game, const std::function<void(GameBytes&)>& edit,
                const Verdicts& want) {
    editor_.restore();
    GameBytes g = read_game(copy_.store(), game);
    edit(g);
    expect(what + " (resealed)", reseal(copy_.store(), game, g), game, want, false);
  }
  // The canonical bytes of annotation n of a game, decoded.
  static core::AnnotationAt annotation(const GameBytes& g, std::size_t n) {
    return events::decode_annotation(g.annotations.at(n)).value();
  }

  TamperCopy copy_;
  Editor editor_{copy_.store()};
  std::size_t tried_ = 0;
};

const Verdicts kBroken{Verdict::Broken};
const Verdicts kCaughtSigned{Verdict::Invalid, Verdict::Stale, Verdict::Vanished};

// --- Unsealed: nothing recomputed --------------------------------------------------------

TEST_F(TamperStructural, DeletedRecordsAreBroken) {
  for (core::GameId g : {signed_, unsigned_}) {
    const auto blocks = of(kDbEvents, g);
    ASSERT_GE(blocks.size(), 2u);
    expect("the first block deleted", {{kDbEvents, blocks.front().key, std::nullopt}}, g, kBroken);
    expect("a middle block deleted", {{kDbEvents, blocks[1].key, std::nullopt}}, g, kBroken);
    expect("the last block deleted", {{kDbEvents, blocks.back().key, std::nullopt}}, g, kBroken);
    expect("the game record deleted", {{kDbGames, std::string(view(game_key(g))), std::nullopt}}, g, kBroken);
    expect("the identity-index entry deleted", {{kDbIdentity, of(kDbIdentity, g).front().key, std::nullopt}}, g,
           kBroken);
    const auto notes = of(kDbAnnotations, g);
    ASSERT_GE(notes.size(), 2u);
    expect("the first annotation deleted", {{kDbAnnotations, notes.front().key, std::nullopt}}, g, kBroken);
    expect("the last annotation deleted", {{kDbAnnotations, notes.back().key, std::nullopt}}, g, kBroken);
  }
  // The signature is the signed game's last annotation; each blob is named by every sample game.
  for (const auto& blob : records_of(copy_.store(), kDbBlobs)) {
    expect("a blob deleted", {{kDbBlobs, blob.key, std::nullopt}}, signed_, kBroken);
  }
  EXPECT_EQ(tried_, 16u);
}

TEST_F(TamperStructural, SwappedRecordsAreBroken) {
  const auto sb = of(kDbEvents, signed_), ub = of(kDbEvents, unsigned_);
  ASSERT_GE(ub.size(), 3u);
  expect("two blocks of one game swapped", {{kDbEvents, ub[1].key, ub[2].value}, {kDbEvents, ub[2].key, ub[1].value}},
         unsigned_, kBroken);
  expect("block 1 swapped across games", {{kDbEvents, sb[1].key, ub[1].value}, {kDbEvents, ub[1].key, sb[1].value}},
         signed_, kBroken);
  expect("block 1 swapped across games", {{kDbEvents, sb[1].key, ub[1].value}, {kDbEvents, ub[1].key, sb[1].value}},
         unsigned_, kBroken);
  for (core::GameId g : {signed_, unsigned_}) {
    const auto n = of(kDbAnnotations, g);
    expect("two annotations swapped", {{kDbAnnotations, n[0].key, n[1].value}, {kDbAnnotations, n[1].key, n[0].value}},
           g, kBroken);
  }
  const auto sr = of(kDbGames, signed_).front(), ur = of(kDbGames, unsigned_).front();
  const std::vector<Change> records{{kDbGames, sr.key, ur.value}, {kDbGames, ur.key, sr.value}};
  expect("two games' records swapped", records, signed_, kBroken);
  expect("two games' records swapped", records, unsigned_, kBroken);
  const auto si = of(kDbIdentity, signed_).front(), ui = of(kDbIdentity, unsigned_).front();
  const std::vector<Change> index{{kDbIdentity, si.key, ui.value}, {kDbIdentity, ui.key, si.value}};
  expect("two games' index entries swapped", index, signed_, kBroken);
  expect("two games' index entries swapped", index, unsigned_, kBroken);
  // Whole games swapped (record, blocks, annotations and index under each
  // other's id): a consistent store in which each game is itself under
  // another local id. A signature names the game's identity, never its id.
  std::vector<Change> whole;
  for (const char* db : {kDbGames, kDbEvents, kDbAnnotations}) {
    for (const auto& [from, to] : {std::pair{signed_, unsigned_}, std::pair{unsigned_, signed_}}) {
      for (const auto& r : of(db, from)) whole.push_back({db, r.key, std::nullopt});
    }
  }
  for (const char* db : {kDbGames, kDbEvents, kDbAnnotations}) {
    for (const auto& [from, to] : {std::pair{signed_, unsigned_}, std::pair{unsigned_, signed_}}) {
      for (const auto& r : of(db, from)) {
        std::string key = r.key;
        put_be64(key.data(), to);
        whole.push_back({db, key, r.value});
      }
    }
  }
  whole.push_back({kDbIdentity, si.key, ui.value});
  whole.push_back({kDbIdentity, ui.key, si.value});
  expect("two whole games swapped: the signed game under the other id", whole, unsigned_, {Verdict::Trusted},
         false);
  expect("two whole games swapped: the unsigned game under the other id", whole, signed_, {Verdict::Unsigned},
         false);
}

TEST_F(TamperStructural, AppendedRecordsAreBroken) {
  for (core::GameId g : {signed_, unsigned_}) {
    const auto blocks = of(kDbEvents, g);
    const auto last = test::TestBlock::parse(blocks.back().value);
    const auto first = parse_event_key(blocks.back().key)->seq;
    expect("a block appended after the head", {{kDbEvents, std::string(view(event_key(g, first + 64))), blocks[1].value}},
           g, kBroken);
    const auto notes = of(kDbAnnotations, g);
    expect("an annotation appended (a copy of the first)",
           {{kDbAnnotations, std::string(view(annotation_key(g, notes.size()))), notes.front().value}}, g, kBroken);
    expect("an annotation appended (a copy of the last)",
           {{kDbAnnotations, std::string(view(annotation_key(g, notes.size()))), notes.back().value}}, g, kBroken);
    ASSERT_LT(last.events.size(), 64u) << "the last block is the open tail";
  }
}

TEST_F(TamperStructural, ATruncatedTailIsBroken) {
  for (core::GameId g : {signed_, unsigned_}) {
    const auto last = of(kDbEvents, g).back();
    test::TestBlock b = test::TestBlock::parse(last.value);
    const core::Seq first = parse_event_key(last.key)->seq;
    b.events.pop_back();
    expect("the last event cut off", {{kDbEvents, last.key, b.value()}}, g, kBroken);
    b.retag(first);
    expect("the last event cut off, tags recomputed", {{kDbEvents, last.key, b.value()}}, g, kBroken);
    expect("the last block's value cut short", {{kDbEvents, last.key, last.value.substr(0, last.value.size() - 9)}},
           g, kBroken);
  }
}

// --- Resealed: every hash, tag, head, count and index key recomputed ------------------------

TEST_F(TamperStructural, ResealedEventEditsAreInvalidWhenSignedAndUnsignedOtherwise) {
  const std::map<core::GameId, Verdicts> want{{signed_, kCaughtSigned}, {unsigned_, {Verdict::Unsigned}}};
  for (core::GameId g : {signed_, unsigned_}) {
    const Verdicts& w = want.at(g);
    resealed("nothing changed", g, [](GameBytes&) {}, {g == signed_ ? Verdict::Trusted : Verdict::Unsigned});
    resealed("an event deleted", g, [](GameBytes& b) {
      b.events.erase(b.events.begin() + 10);
      for (core::Seq s = 10; s < b.events.size(); ++s) b.events[s] = at_seq(b.events[s], s);
    }, w);
    resealed("two events swapped", g, [](GameBytes& b) {
      std::swap(b.events[7], b.events[8]);
      b.events[7] = at_seq(b.events[7], 7);
      b.events[8] = at_seq(b.events[8], 8);
    }, w);
    resealed("an event appended", g, [](GameBytes& b) { b.events.push_back(at_seq(b.events.back(), b.events.size())); },
             w);
    resealed("the tail truncated", g, [](GameBytes& b) { b.events.resize(b.events.size() - 3); }, w);
    resealed("an event's turn changed", g, [](GameBytes& b) {
      auto ev = events::decode_event(b.events[12]).value();
      ev.turn = static_cast<std::uint16_t>(ev.turn + 1);
      b.events[12] = events::encode_event(ev, 12);
    }, w);
  }
  // The signed game's GameCreated rewritten: a new identity, so its
  // signature names another game (INVALID).
  resealed("GameCreated's title changed", signed_, [](GameBytes& b) {
    auto ev = events::decode_event(b.events[0]).value();
    std::get<core::GameCreated>(ev.payload).title += " (forged)";
    b.events[0] = events::encode_event(ev, 0);
  }, {Verdict::Invalid});
}

TEST_F(TamperStructural, ResealedAnnotationEditsAreInvalidOrStaleWhenSignedAndUnsignedOtherwise) {
  // The signed game: dispute 0 at n 0, dispute 1 at n 1, the signed ruling at n 2, the signature at n 3.
  {
    const GameBytes g = read_game(copy_.store(), signed_);
    ASSERT_EQ(g.annotations.size(), 4u);
    ASSERT_TRUE(std::holds_alternative<core::GameSigned>(annotation(g, 3).value));
    ASSERT_TRUE(std::holds_alternative<core::DisputeRuled>(annotation(g, 2).value));
  }
  resealed("a dispute deleted", signed_, [](GameBytes& b) { b.annotations.erase(b.annotations.begin() + 1); },
           {Verdict::Invalid});
  resealed("two disputes swapped", signed_, [](GameBytes& b) { std::swap(b.annotations[0], b.annotations[1]); },
           {Verdict::Invalid});
  resealed("the signed ruling's text changed", signed_, [](GameBytes& b) {
    auto a = annotation(b, 2);
    std::get<core::DisputeRuled>(a.value).ruling = "the draw is void";
    b.annotations[2] = events::encode_annotation(a.seq, a.value);
  }, {Verdict::Invalid});
  resealed("a dispute appended after the signature", signed_,
           [](GameBytes& b) { b.annotations.push_back(b.annotations[1]); }, {Verdict::Stale});
  // A copy of the signature replayed later in the chain: it says it follows
  // 3 annotations, and it is the 5th.
  resealed("the signature duplicated", signed_, [](GameBytes& b) { b.annotations.push_back(b.annotations[3]); },
           {Verdict::Invalid});
  resealed("the signer's name changed", signed_, [](GameBytes& b) {
    auto a = annotation(b, 3);
    std::get<core::GameSigned>(a.value).signer = "Someone Else";
    b.annotations[3] = events::encode_annotation(a.seq, a.value);
  }, {Verdict::Invalid});
  // The signature removed: only the keyring's memory of the signed state
  // tells. The history it signed is all here, so it is "stale" (signature
  // removed), not VANISHED (before the fix: "unsigned: consistent").
  resealed("the signature removed", signed_, [](GameBytes& b) { b.annotations.pop_back(); }, {Verdict::Stale});
  resealed("the signature removed, an event appended", signed_, [](GameBytes& b) {
    b.annotations.pop_back();
    b.events.push_back(at_seq(b.events.back(), b.events.size()));
  }, {Verdict::Stale});
  resealed("a dispute and the signature removed", signed_,
           [](GameBytes& b) { b.annotations.erase(b.annotations.begin() + 1); b.annotations.pop_back(); },
           {Verdict::Vanished});
  // The unsigned game: a dispute at n 0 and its ruling at n 1.
  resealed("its ruling deleted", unsigned_, [](GameBytes& b) { b.annotations.pop_back(); }, {Verdict::Unsigned});
  resealed("its ruling's text changed", unsigned_, [](GameBytes& b) {
    auto a = annotation(b, 1);
    std::get<core::DisputeRuled>(a.value).ruling = "the draw is void";
    b.annotations[1] = events::encode_annotation(a.seq, a.value);
  }, {Verdict::Unsigned});
  resealed("a dispute appended", unsigned_, [](GameBytes& b) { b.annotations.push_back(b.annotations[0]); },
           {Verdict::Unsigned});
}

// GameCreated resealed with a value this build does not know (a seat's
// allegiance enumerant, as "a newer warlog" would write): verify passes the
// chain (it counts the event as unknown) and the signature check used to
// fail with "not known to this build" (exit 2), not say INVALID (found by
// the tamper suite's every-byte run: 4 of 27,552 resealed event bytes).
TEST_F(TamperStructural, AResealedGameCreatedThisBuildCannotReadIsStillInvalid) {
  const GameBytes pristine = read_game(copy_.store(), signed_);
  std::optional<std::string> unknown;
  for (std::size_t i = 0; i < pristine.events[0].size() && !unknown; ++i) {
    std::string e = pristine.events[0];
    e[i] = static_cast<char>(e[i] ^ 0x01);
    if (auto ev = events::decode_event(e); !ev && ev.error().code == ErrorCode::Unsupported) unknown = e;
  }
  ASSERT_TRUE(unknown) << "no single bit of GameCreated gives a value this build does not know";
  resealed("GameCreated with an unknown enumerant", signed_, [&](GameBytes& b) { b.events[0] = *unknown; },
           {Verdict::Invalid});
}

// A forger who re-signs their rewrite with a key of their own, under the
// Head Judge's name: never "trusted"; the keyring's memory says VANISHED,
// and without it verify names an unknown key.
TEST_F(TamperStructural, AResealedGameReSignedByAnotherKeyIsNeverTrusted) {
  editor_.restore();
  GameBytes g = read_game(copy_.store(), signed_);
  g.events.resize(g.events.size() - 1);
  g.annotations.pop_back();
  editor_.apply(reseal(copy_.store(), signed_, g));
  {
    auto archive = replay::Archive::open(copy_.store().string(), replay::Archive::Mode::ReadWrite);
    ASSERT_TRUE(archive);
    ASSERT_TRUE(replay::sign_game(*archive, signed_, sample_store().forger, "Head Judge", kSignedAt + 1));
  }
  const Outcome o = copy_.verify(signed_);
  EXPECT_EQ(o.verdict, Verdict::Vanished) << o.text;
  EXPECT_NE(o.text.find("valid signature by an unknown key"), std::string::npos) << o.text;
  replay::Keyring no_memory = replay::Keyring::load(copy_.dir.path() / "fresh-keyring").value();
  ASSERT_TRUE(no_memory.add("Head Judge", sample_store().head_judge.public_key));
  EXPECT_EQ(verify_game(copy_.store(), signed_, no_memory).verdict, Verdict::Unknown);
}

// The honest limit: with no memory of the signed state, removing the
// signature with the rest resealed leaves a game nobody attests.
TEST_F(TamperStructural, WithoutTheKeyringsMemoryARemovedSignatureLeavesItUnsigned) {
  resealed("the signature removed", signed_, [](GameBytes& b) { b.annotations.pop_back(); }, {Verdict::Stale});
  replay::Keyring no_memory = replay::Keyring::load(copy_.dir.path() / "fresh-keyring").value();
  ASSERT_TRUE(no_memory.add("Head Judge", sample_store().head_judge.public_key));
  EXPECT_EQ(verify_game(copy_.store(), signed_, no_memory).verdict, Verdict::Unsigned);
}

}  // namespace
}  // namespace warlog::store::tamper
