// The tamper suite, snapshot cache entries ("Trust the store" › Done means):
// snapshots live in the reading user's cache (store/snapshot_cache.hpp),
// under an HMAC with a local key. Bytes of every entry of both of its
// databases (the snapshots and the by_game hints, keys included) are
// flipped one position at a time; a seek just past the snapshot must give
// exactly the state a fresh fold gives, and `verify --snapshots`
// (replay::check_snapshots) must never call an altered entry one that
// agrees. 2,000 positions in ctest, every byte under `scripts/soak tamper`.

#include <gtest/gtest.h>

#include <chrono>
#include <iostream>

#include <fmt/format.h>

#include "store/tamper_store.hpp"
#include "warlog/core/fold.hpp"
#include "warlog/replay/seek.hpp"

namespace warlog::store::tamper {
namespace {

constexpr core::Seq kEvery = 16;
constexpr std::size_t kCheckEvery = 10;  // verify --snapshots on a sample of positions

class TamperSnapshots : public ::testing::Test {
 protected:
  void SetUp() override {
    // The longest sample game: the most snapshots.
    for (const auto& [g, events] : sample_store().events) {
      if (game_ == 0 || events.size() > sample_store().events.at(game_).size()) game_ = g;
    }
    auto archive = open();
    ASSERT_TRUE(replay::build_snapshots(archive, game_, kEvery));
    auto catalog = archive.catalog_of(game_);
    auto ruleset = archive.ruleset_of(game_);
    ASSERT_TRUE(catalog && ruleset);
    const core::Context ctx{*catalog, *ruleset};
    core::GameState state;
    for (const core::Event& ev : sample_store().events.at(game_)) {
      std::vector<core::Finding> found;
      core::apply(ctx, state, ev, found);
      after_.push_back(state);
    }
    auto report = replay::check_snapshots(archive, game_, false);
    ASSERT_TRUE(report);
    agree_ = report->count(replay::SnapshotCheck::Status::Agrees);
    ASSERT_EQ(agree_, after_.size() / kEvery);
  }

  replay::Archive open() {
    auto a = replay::Archive::open(copy_.store().string(), replay::Archive::Mode::ReadOnly);
    if (!a) throw std::runtime_error(a.error().message);
    a->use_snapshot_cache(cache_dir().string(), (copy_.dir.path() / "config" / "local.key").string());
    return std::move(*a);
  }
  [[nodiscard]] fs::path cache_dir() const { return copy_.dir.path() / "cache"; }

  TamperCopy copy_;
  core::GameId game_ = 0;
  std::vector<core::GameState> after_;  // after_[i]: the fresh fold's state after event i
  std::size_t agree_ = 0;
};

TEST_F(TamperSnapshots, NoAlteredEntryChangesWhatASeekOrVerifyReturns) {
  const auto start = std::chrono::steady_clock::now();
  // Both databases' records as one list, each with the seq of its snapshot.
  std::vector<Record> records;
  std::vector<const char*> dbs;
  std::vector<core::Seq> seqs;
  const auto hints = records_of(cache_dir(), "by_game");
  ASSERT_EQ(hints.size(), agree_);
  for (const auto& h : hints) {
    ASSERT_EQ(h.key.size(), 72u) << "identity 32 ‖ seq 8 ‖ cache key 32";
    records.push_back(h);
    dbs.push_back("by_game");
    seqs.push_back(get_be64(h.key.data() + 32));
  }
  for (const auto& s : records_of(cache_dir(), "snapshots")) {
    const auto hint = std::find_if(hints.begin(), hints.end(), [&](const Record& h) { return h.key.substr(40) == s.key; });
    ASSERT_NE(hint, hints.end()) << "a snapshot no hint names";
    records.push_back(s);
    dbs.push_back("snapshots");
    seqs.push_back(get_be64(hint->key.data() + 32));
  }
  Editor editor(cache_dir());
  const auto positions = spread(records, positions_wanted(2000), true);
  std::size_t tried = 0, exact = 0, checked = 0, discarded = 0;
  for (std::size_t i = 0; i < positions.size(); ++i) {
    const Position& p = positions[i];
    editor.apply(flip(dbs[p.record], records[p.record], p));
    const core::Seq at = std::min<core::Seq>(seqs[p.record] + 5, after_.size() - 1);
    const std::string where = fmt::format("{} record {}, {} byte {} ^ 0x{:02x} (the snapshot at seq {})",
                                          dbs[p.record], p.record, p.in_key ? "key" : "value", p.byte, p.mask,
                                          seqs[p.record]);
    auto archive = open();
    replay::SeekOptions no_repair;
    no_repair.repair = false;  // the cache stays as the edit left it
    auto r = replay::seek(archive, game_, at, no_repair);
    ++tried;
    ASSERT_TRUE(r) << where << ": " << r.error().message;
    if (r->moment.state == after_[at]) {
      ++exact;
    } else {
      ADD_FAILURE() << where << ": the seek at " << at << " gave a state the fold does not";
    }
    discarded += r->discarded;
    if (i % kCheckEvery == 0) {
      ++checked;
      auto report = replay::check_snapshots(archive, game_, false);
      ASSERT_TRUE(report) << where << ": " << report.error().message;
      EXPECT_EQ(report->count(replay::SnapshotCheck::Status::Mismatch), 0u) << where;
      EXPECT_LE(report->count(replay::SnapshotCheck::Status::Agrees), agree_ - (p.in_key ? 0 : 1))
          << where << ": verify --snapshots calls the altered entry sound";
    }
  }
  editor.restore();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << fmt::format(
      "tamper snapshot cache entries: {} positions over {} entries, {} seeks exact ({} snapshots discarded); "
      "verify --snapshots sampled {}; {:.1f} s\n",
      tried, records.size(), exact, discarded, checked, seconds);
  EXPECT_EQ(exact, tried);
  EXPECT_GE(tried, 2000u);
}

}  // namespace
}  // namespace warlog::store::tamper
