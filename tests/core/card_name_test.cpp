// Cards as interned ids (core::CardName) and the flat CardPile: one name,
// one id, on any thread; order is the name's whatever order names were
// first seen in, so state text and digests do not depend on it.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

#include "warlog/core/card_name.hpp"
#include "warlog/core/catalog.hpp"
#include "warlog/core/state.hpp"

namespace warlog::core {
namespace {

TEST(CardName, OneNameOneIdAndTheTextComesBack) {
  const CardName a("CardNameTest Alder Sentry");
  const CardName b(std::string("CardNameTest Alder Sentry"));
  const CardName c("CardNameTest Birch Sentry");
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.id(), b.id());
  EXPECT_NE(a, c);
  EXPECT_EQ(a.str(), "CardNameTest Alder Sentry");
  EXPECT_EQ(a, "CardNameTest Alder Sentry");
  EXPECT_EQ(fmt::format("[{}]", a), "[CardNameTest Alder Sentry]");
}

TEST(CardName, TheEmptyNameIsIdZeroAndDefault) {
  EXPECT_TRUE(CardName().empty());
  EXPECT_EQ(CardName("").id(), 0u);
  EXPECT_EQ(CardName(), CardName(""));
  EXPECT_FALSE(CardName("CardNameTest x").empty());
}

TEST(CardName, OrderIsTheNamesNotTheOrderOfInterning) {
  // Interned z first: its id is lower, yet it sorts after a.
  const CardName z("CardNameTest zz last");
  const CardName a("CardNameTest aa first");
  ASSERT_LT(z.id(), a.id());
  EXPECT_LT(a, z);
  EXPECT_GT(z, a);
  EXPECT_LT(a, std::string_view("CardNameTest b"));
}

TEST(CardName, NamesWithAnEmbeddedNulAreDistinct) {
  const CardName a(std::string_view("CardNameTest\0a", 14));
  const CardName b(std::string_view("CardNameTest\0b", 14));
  EXPECT_NE(a, b);
  EXPECT_EQ(a.size(), 14u);
}

TEST(CardName, ThreadsInterningTheSameNamesAgreeOnTheirIds) {
  constexpr int kThreads = 4;
  constexpr int kNames = 2000;
  std::vector<std::vector<std::uint32_t>> ids(kThreads, std::vector<std::uint32_t>(kNames));
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      // Each thread walks the names in its own order.
      for (int k = 0; k < kNames; ++k) {
        const int i = (t % 2 == 0) ? k : kNames - 1 - k;
        const CardName n("CardNameTest thread " + std::to_string(i));
        ids[t][i] = n.id();
        if (n.str() != "CardNameTest thread " + std::to_string(i)) ids[t][i] = 0;
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int i = 0; i < kNames; ++i) {
    ASSERT_NE(ids[0][i], 0u) << i;
    for (int t = 1; t < kThreads; ++t) ASSERT_EQ(ids[t][i], ids[0][i]) << "thread " << t << " name " << i;
  }
  std::vector<std::uint32_t> sorted = ids[0];
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end()) << "two names share an id";
}

TEST(CardPile, IteratesInNameOrderWhateverTheInsertionOrder) {
  CardPile pile;
  pile.emplace(CardName("CardNameTest pile c"), 1);
  pile.emplace(CardName("CardNameTest pile a"), 2);
  pile[CardName("CardNameTest pile b")] += 3;
  std::vector<std::string> order;
  for (const auto& [card, n] : pile) order.push_back(card.str() + ":" + std::to_string(n));
  EXPECT_EQ(order, (std::vector<std::string>{"CardNameTest pile a:2", "CardNameTest pile b:3", "CardNameTest pile c:1"}));
  EXPECT_FALSE(pile.emplace(CardName("CardNameTest pile a"), 9).second);
  EXPECT_EQ(pile.at(CardName("CardNameTest pile a")), 2);
  EXPECT_EQ(pile.erase(CardName("CardNameTest pile b")), 1u);
  EXPECT_EQ(pile.count(CardName("CardNameTest pile b")), 0u);
  EXPECT_THROW((void)pile.at(CardName("CardNameTest pile b")), std::out_of_range);
}

TEST(CardPile, EqualPilesCompareEqualWhateverTheInsertionOrder) {
  CardPile one{{"CardNameTest eq x", 1}, {"CardNameTest eq y", 2}};
  CardPile two;
  two.emplace("CardNameTest eq y", 2);
  two.emplace("CardNameTest eq x", 1);
  EXPECT_EQ(one, two);
  two[CardName("CardNameTest eq y")] = 3;
  EXPECT_NE(one, two);
}

TEST(CardName, TheCatalogFindsACardByIdWhetherItsNameWasInternedBeforeOrAfter) {
  const CardName before("CardNameTest Catalog Early");
  std::vector<Card> cards(2);
  cards[0].name = "CardNameTest Catalog Early";
  cards[1].name = "CardNameTest Catalog Late";
  const Catalog catalog(std::move(cards));
  const CardName after("CardNameTest Catalog Late");
  ASSERT_NE(catalog.find(before), nullptr);
  EXPECT_EQ(catalog.find(before)->name, "CardNameTest Catalog Early");
  ASSERT_NE(catalog.find(after), nullptr);
  EXPECT_EQ(catalog.find(after)->name, "CardNameTest Catalog Late");
  EXPECT_EQ(catalog.find(CardName("CardNameTest Catalog Absent")), nullptr);
  EXPECT_EQ(catalog.find(CardName()), nullptr);
  // A copy indexes the same ids.
  const Catalog copy = catalog;
  EXPECT_EQ(copy.find(after)->name, "CardNameTest Catalog Late");
}

}  // namespace
}  // namespace warlog::core
