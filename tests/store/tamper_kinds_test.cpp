// The tamper suite, byte by byte ("Trust the store" › Done means): in a copy
// of the sample store (tamper_store.hpp), every kind of record has bytes
// flipped, one position at a time: game records, event blocks, catalog and
// ruleset blobs, dispute and ruling annotations, signature annotations, and
// the identity index, keys included (a flipped key byte moves the record).
// 2,000 positions per kind, spread over all its bytes, and every byte of
// the short signed game; `scripts/soak tamper` runs every byte of every
// kind (WARLOG_TAMPER=all). Each time verify must not pass the game the
// record belongs to, and for a sample of positions audit and export must
// refuse or read exactly what the pristine store gives.

#include <gtest/gtest.h>

#include <chrono>
#include <iostream>
#include <map>
#include <variant>

#include <fmt/format.h>

#include "store/tamper_store.hpp"
#include "warlog/events/annotation_codec.hpp"

namespace warlog::store::tamper {
namespace {

constexpr std::size_t kPositions = 2000;
constexpr std::size_t kAuditEvery = 97;  // a sample of positions also audits and exports

struct Tally {
  std::size_t tried = 0, caught = 0, audited = 0;
  std::map<Verdict, std::size_t> verdicts;
  double seconds = 0;
};

void print(const char* kind, const Tally& r) {
  std::string v;
  for (const auto& [verdict, n] : r.verdicts) v += fmt::format(" {} {}", name_of(verdict), n);
  std::cout << fmt::format("tamper {}: {} positions, {} caught ({}); audit/export sampled {}; {:.1f} s\n", kind,
                           r.tried, r.caught, v.substr(std::min<std::size_t>(v.size(), 1)), r.audited, r.seconds);
}

// Audit and export of `game` either refuse or give exactly the pristine
// store's answer: never a silent read of altered bytes.
void expect_no_silent_read(const TamperCopy& copy, core::GameId game, const std::string& where) {
  auto archive = replay::Archive::open(copy.store().string(), replay::Archive::Mode::ReadOnly);
  if (!archive) return;  // refused whole: nothing read
  if (auto events = archive->events(game); events) {
    EXPECT_EQ(*events, sample_store().events.at(game)) << where << ": export read altered events without an error";
  }
  if (auto audit = archive->audit(game); audit) {
    EXPECT_EQ(audit->digest(), sample_store().audit_digest.at(game))
        << where << ": audit folded altered events without an error";
  }
}

// Flips each position of `records` (of `db`) in turn and asks verify about
// owners[i], the game record i belongs to.
Tally flip_each(TamperCopy& copy, const char* db, const std::vector<Record>& records,
              const std::vector<core::GameId>& owners, std::size_t count, bool keys) {
  Tally run;
  const auto start = std::chrono::steady_clock::now();
  Editor editor(copy.store());
  const auto positions = spread(records, count, keys);
  for (std::size_t i = 0; i < positions.size(); ++i) {
    const Position& p = positions[i];
    const Record& r = records[p.record];
    editor.apply(flip(db, r, p));
    const core::GameId game = owners[p.record];
    const Outcome o = copy.verify(game);
    ++run.tried;
    ++run.verdicts[o.verdict];
    const std::string where = fmt::format("{} record {} ({} bytes), {} byte {} ^ 0x{:02x}, game {}", db, p.record,
                                          r.value.size(), p.in_key ? "key" : "value", p.byte, p.mask, game);
    if (passes(o.verdict)) {
      ADD_FAILURE() << where << ": verify passed (" << name_of(o.verdict) << "): " << o.text;
    } else {
      ++run.caught;
    }
    if (i % kAuditEvery == 0) {
      expect_no_silent_read(copy, game, where);
      ++run.audited;
    }
  }
  editor.restore();
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

std::vector<core::GameId> owners(const char* db, const std::vector<Record>& records) {
  std::vector<core::GameId> out;
  for (const auto& r : records) out.push_back(owner_of(db, r));
  return out;
}

class TamperKinds : public ::testing::Test {
 protected:
  void SetUp() override {
    for (core::GameId g : sample_store().games) {
      ASSERT_TRUE(passes(copy_.verify(g).verdict)) << "game " << g << ": " << copy_.verify(g).text;
    }
    ASSERT_EQ(copy_.verify(sample_store().signed_game).verdict, Verdict::Trusted);
    ASSERT_EQ(copy_.verify(sample_store().disputed_game).verdict, Verdict::Unsigned);
  }
  void TearDown() override {
    for (core::GameId g : sample_store().games) {
      EXPECT_TRUE(passes(copy_.verify(g).verdict)) << "game " << g << " was restored";
    }
  }
  // The annotations of one kind (the variant's index).
  std::vector<Record> annotations_where(const std::function<bool(const core::Annotation&)>& pick) {
    std::vector<Record> out;
    for (auto& r : records_of(copy_.store(), kDbAnnotations)) {
      auto a = events::decode_annotation(std::string_view(r.value).substr(32));
      if (a && pick(a->value)) out.push_back(std::move(r));
    }
    return out;
  }
  TamperCopy copy_;
};

TEST_F(TamperKinds, GameRecords) {
  const auto records = records_of(copy_.store(), kDbGames);
  ASSERT_EQ(records.size(), sample_store().games.size());
  const Tally r = flip_each(copy_, kDbGames, records, owners(kDbGames, records), positions_wanted(kPositions), true);
  print("game records", r);
  EXPECT_EQ(r.caught, r.tried);
}

TEST_F(TamperKinds, EventBlocks) {
  const auto records = records_of(copy_.store(), kDbEvents);
  const Tally r = flip_each(copy_, kDbEvents, records, owners(kDbEvents, records), positions_wanted(kPositions), true);
  print("event blocks", r);
  EXPECT_EQ(r.caught, r.tried);
}

TEST_F(TamperKinds, CatalogAndRulesetBlobs) {
  const auto records = records_of(copy_.store(), kDbBlobs);
  ASSERT_GE(records.size(), 2u);
  // Each blob is verified through a game that names it (the signed one first).
  std::vector<core::GameId> by;
  for (const auto& r : records) {
    core::GameId found = 0;
    for (const auto& [g, events] : sample_store().events) {
      const auto& created = std::get<core::GameCreated>(events.front().payload);
      for (auto [kind, hex] : {std::pair{BlobKind::Catalog, &created.catalog_hash},
                               std::pair{BlobKind::Ruleset, &created.ruleset_hash}}) {
        if (view(blob_key(kind, *core::digest_from_hex(*hex))) == r.key && (found == 0 || g == sample_store().signed_game)) {
          found = g;
        }
      }
    }
    ASSERT_NE(found, 0u) << "a blob no game names";
    by.push_back(found);
  }
  const Tally r = flip_each(copy_, kDbBlobs, records, by, positions_wanted(kPositions), true);
  print("catalog and ruleset blobs", r);
  EXPECT_EQ(r.caught, r.tried);
}

TEST_F(TamperKinds, DisputeAndRulingAnnotations) {
  const auto records = annotations_where([](const core::Annotation& a) {
    return std::holds_alternative<core::DisputeRaised>(a) || std::holds_alternative<core::DisputeRuled>(a);
  });
  ASSERT_EQ(records.size(), 5u) << "3 disputes, 2 rulings";
  const Tally r =
      flip_each(copy_, kDbAnnotations, records, owners(kDbAnnotations, records), positions_wanted(kPositions), true);
  print("dispute and ruling annotations", r);
  EXPECT_EQ(r.caught, r.tried);
}

TEST_F(TamperKinds, SignatureAnnotations) {
  const auto records =
      annotations_where([](const core::Annotation& a) { return std::holds_alternative<core::GameSigned>(a); });
  ASSERT_EQ(records.size(), 1u);
  const Tally r =
      flip_each(copy_, kDbAnnotations, records, owners(kDbAnnotations, records), positions_wanted(kPositions), true);
  print("signature annotations", r);
  EXPECT_EQ(r.caught, r.tried);
}

TEST_F(TamperKinds, IdentityIndex) {
  const auto records = records_of(copy_.store(), kDbIdentity);
  ASSERT_EQ(records.size(), sample_store().games.size());
  const Tally r =
      flip_each(copy_, kDbIdentity, records, owners(kDbIdentity, records), positions_wanted(kPositions), true);
  print("identity index", r);
  EXPECT_EQ(r.caught, r.tried);
}

// Every byte of every record of the short signed game: its record, blocks,
// annotations (disputes, the signed ruling, the signature) and index entry.
TEST_F(TamperKinds, EveryByteOfTheShortSignedGame) {
  const core::GameId g = sample_store().signed_game;
  Tally all;
  for (const char* db : {kDbGames, kDbEvents, kDbAnnotations, kDbIdentity}) {
    std::vector<Record> mine;
    for (auto& r : records_of(copy_.store(), db)) {
      if (owner_of(db, r) == g) mine.push_back(std::move(r));
    }
    ASSERT_FALSE(mine.empty()) << db;
    const Tally r = flip_each(copy_, db, mine, owners(db, mine), 0, true);
    all.tried += r.tried;
    all.caught += r.caught;
    all.audited += r.audited;
    all.seconds += r.seconds;
    for (const auto& [v, n] : r.verdicts) all.verdicts[v] += n;
  }
  print("every byte of the short signed game", all);
  EXPECT_EQ(all.caught, all.tried);
  EXPECT_GT(all.tried, 2000u);
}

}  // namespace
}  // namespace warlog::store::tamper
