// Every item model passes QAbstractItemModelTester on the sample games, and
// maps what it is given to the rows and columns it promises.

#include <gtest/gtest.h>

#include <QFont>

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>

#include "battlefield_view.hpp"
#include "changes_model.hpp"
#include "disputes_model.hpp"
#include "figures_charts.hpp"
#include "findings_model.hpp"
#include "game_list_model.hpp"
#include "game_session.hpp"
#include "sample_store.hpp"
#include "state_model.hpp"
#include "timeline_model.hpp"
#include "event_text.hpp"

#include <QChart>
#include <QGraphicsScene>
#include <QLineSeries>

namespace warlog::viewer {
namespace {

using Tester = QAbstractItemModelTester;
constexpr auto kFatal = QAbstractItemModelTester::FailureReportingMode::Fatal;

// The sample game: its session, and its events (the sample is small; the
// viewer itself never holds a game's events).
struct FirstBlood {
  std::unique_ptr<GameSession> session;
  std::vector<core::Event> events;
  [[nodiscard]] const core::Catalog& catalog() const { return session->catalog(); }
  [[nodiscard]] const core::Ruleset& ruleset() const { return session->ruleset(); }
  [[nodiscard]] replay::Moment at(core::Seq seq) const {
    return replay::moment_at(core::Context{catalog(), ruleset()}, events, seq);
  }
};

FirstBlood first_blood() {
  auto s = GameSession::open(warlog::testing::shared_sample_archive(), warlog::testing::sample_store().first_blood);
  if (!s) throw std::runtime_error(s.error().message);
  FirstBlood fb;
  fb.session = std::move(*s);
  fb.events = fb.session->events(0, fb.session->event_count()).value();
  return fb;
}

std::vector<core::Seq> seqs_of(const replay::FindingList& findings) {
  std::vector<core::Seq> out;
  for (std::size_t i = 0; i < findings.size(); ++i) out.push_back(findings.seq(i));
  return out;
}

TEST(GameListModel, PassesTheModelTesterAndSortsThroughAProxy) {
  GameListModel model;
  Tester tester(&model, kFatal);
  QSortFilterProxyModel sorted;
  sorted.setSourceModel(&model);
  sorted.setSortRole(GameListModel::SortRole);
  Tester proxy_tester(&sorted, kFatal);

  auto archive = warlog::testing::open_sample_archive();
  auto games = archive.games();
  ASSERT_TRUE(games) << games.error().message;
  const auto n = games->size();
  model.set_games(std::move(*games));
  ASSERT_EQ(model.rowCount(), static_cast<int>(n));

  const int row = model.row_of(warlog::testing::sample_store().first_blood);
  ASSERT_GE(row, 0);
  EXPECT_EQ(model.index(row, GameListModel::Title).data().toString(), QStringLiteral("First blood at the Old Mill"));
  EXPECT_EQ(model.index(row, GameListModel::Date).data().toString(), QStringLiteral("2026-03-14"));
  EXPECT_EQ(model.index(row, GameListModel::Players).data().toString(),
            QStringLiteral("Alice (Claw Empire) vs Bruno (Paw Coalition)"));
  EXPECT_GT(model.index(row, GameListModel::Events).data().toULongLong(), 20u);

  sorted.sort(GameListModel::Events, Qt::DescendingOrder);
  for (int r = 1; r < sorted.rowCount(); ++r) {
    EXPECT_GE(sorted.index(r - 1, GameListModel::Events).data(GameListModel::SortRole).toULongLong(),
              sorted.index(r, GameListModel::Events).data(GameListModel::SortRole).toULongLong());
  }

  // Audit facts and disputes arrive later; new games are appended.
  const core::GameId id = warlog::testing::sample_store().first_blood;
  EXPECT_FALSE(model.has_facts(id));
  EXPECT_EQ(model.index(row, GameListModel::Findings).data(GameListModel::SortRole).toInt(), -1);
  model.set_facts(id, GameListModel::Facts{"no result after turn 2", 3, 1});
  EXPECT_TRUE(model.has_facts(id));
  EXPECT_EQ(model.index(row, GameListModel::Findings).data().toInt(), 3);
  EXPECT_EQ(model.index(row, GameListModel::Result).data().toString(), QStringLiteral("no result after turn 2"));
  model.set_disputes(id, 2);
  EXPECT_EQ(model.index(row, GameListModel::Disputes).data().toInt(), 2);
  replay::GameSummary extra;
  extra.id = 424242;
  extra.title = "Played later";
  EXPECT_EQ(model.add_games({extra, model.games().front()}), 1) << "games already listed are not added again";
  EXPECT_EQ(model.rowCount(), static_cast<int>(n) + 1);

  // The filter matches any column: a player's name.
  sorted.setFilterKeyColumn(-1);
  sorted.setFilterFixedString(QStringLiteral("bruno"));
  sorted.setFilterCaseSensitivity(Qt::CaseInsensitive);
  EXPECT_EQ(sorted.rowCount(), 1) << "only the tutorial game has a player named Bruno";
  sorted.setFilterFixedString(QStringLiteral("weald"));  // an allegiance: several games
  EXPECT_GT(sorted.rowCount(), 1);
  EXPECT_LT(sorted.rowCount(), static_cast<int>(n) + 1);
  sorted.setFilterFixedString(QStringLiteral("Played later"));
  EXPECT_EQ(sorted.rowCount(), 1);
}

TEST(TimelineModel, PassesTheModelTesterWhileTheCurrentEventMoves) {
  const FirstBlood fb = first_blood();
  TimelineModel model;
  Tester tester(&model, kFatal);
  int reads = 0;
  model.set_game(fb.session->spans(), fb.session->game().seats, seqs_of(fb.session->findings()),
                 [&](core::Seq from, core::Seq to) {
                   ++reads;
                   return fb.session->events(from, to);
                 });

  // Setup, Turn 1, Turn 2 (the sample ends in turn 2).
  ASSERT_GE(model.rowCount(), 3);
  EXPECT_EQ(model.index(0, 0).data().toString(), QStringLiteral("Before turn 1"));
  EXPECT_EQ(model.index(1, 0).data().toString(), QStringLiteral("Turn 1"));

  for (const core::Event& ev : fb.events) {
    model.set_current(ev.seq);
    const QModelIndex row = model.index_of_seq(ev.seq);
    ASSERT_TRUE(row.isValid());
    EXPECT_EQ(row.data(TimelineModel::KindRole).toInt(), static_cast<int>(TimelineModel::Kind::Event));
    EXPECT_EQ(row.data(TimelineModel::SeqRole).toULongLong(), ev.seq);
    EXPECT_TRUE(row.data(TimelineModel::IsCurrentRole).toBool());
    EXPECT_TRUE(row.parent().data(TimelineModel::IsCurrentRole).toBool());           // its phase
    EXPECT_TRUE(row.parent().parent().data(TimelineModel::IsCurrentRole).toBool());  // its turn
    EXPECT_EQ(row.data().toString().toStdString(), event_label(ev, fb.session->game().seats));
    if (ev.seq > 0) {
      EXPECT_FALSE(model.index_of_seq(ev.seq - 1).data(TimelineModel::IsCurrentRole).toBool());
    }
  }
  // The events were read a chunk at a time, not one by one.
  EXPECT_LE(reads, static_cast<int>(fb.events.size() / TimelineModel::kChunk) + 2);

  // The findings column counts every finding once, summed up the tree.
  int total = 0;
  for (int r = 0; r < model.rowCount(); ++r) total += model.index(r, 0).data(TimelineModel::FindingsRole).toInt();
  EXPECT_EQ(total, static_cast<int>(fb.session->findings().size()));
}

// Corrections (docs/warlog-rules.md › Corrections): a voided event and a
// superseded one are struck through, greyed, labelled, and say who and why.
TEST(TimelineModel, StrikesThroughVoidedAndSupersededEventsUnderTheModelTester) {
  const FirstBlood fb = first_blood();
  TimelineModel model;
  Tester tester(&model, kFatal);
  model.set_game(fb.session->spans(), fb.session->game().seats, seqs_of(fb.session->findings()),
                 [&](core::Seq from, core::Seq to) { return fb.session->events(from, to); });
  ASSERT_GE(fb.events.size(), 9u);
  model.set_struck({{8, "CardPlayed", core::Standing::Superseded, 40, "J. Ruiz", "appeal", false},
                    {6, "CardsDrawn", core::Standing::Voided, 7, "Ana", "wrong card typed", false}});
  const QModelIndex voided = model.index_of_seq(6);
  EXPECT_TRUE(voided.data(Qt::FontRole).value<QFont>().strikeOut());
  EXPECT_TRUE(voided.data().toString().endsWith(QStringLiteral("[voided]"))) << voided.data().toString().toStdString();
  EXPECT_EQ(voided.data(TimelineModel::StruckRole).toString(), QStringLiteral("voided at seq 7 by Ana: wrong card typed"));
  EXPECT_TRUE(voided.data(Qt::ToolTipRole).toString().contains(QStringLiteral("voided at seq 7 by Ana")));
  const QModelIndex superseded = model.index_of_seq(8);
  EXPECT_TRUE(superseded.data().toString().endsWith(QStringLiteral("[superseded]")));
  EXPECT_EQ(superseded.data(TimelineModel::StruckRole).toString(),
            QStringLiteral("superseded by the backup at seq 40 by J. Ruiz (unsigned): appeal"));
  const QModelIndex standing = model.index_of_seq(5);
  EXPECT_FALSE(standing.data(Qt::FontRole).value<QFont>().strikeOut());
  EXPECT_TRUE(standing.data(TimelineModel::StruckRole).toString().isEmpty());
  EXPECT_FALSE(standing.data().toString().contains(QStringLiteral("[voided]")));
  model.set_struck({});
  EXPECT_FALSE(model.index_of_seq(6).data(Qt::FontRole).value<QFont>().strikeOut());
}

TEST(TimelineModel, ReadsEventsOnlyForTheRowsAskedAndKeepsFewInMemory) {
  // An outline of a 1,000,000-event game: 4 phase parts of 25,000 events per turn.
  std::vector<replay::PhaseSpan> spans;
  for (core::Seq first = 0; first < 1'000'000; first += 25'000) {
    const auto turn = static_cast<std::uint16_t>(first / 100'000 + 1);
    spans.push_back(replay::PhaseSpan{first, first + 24'999, turn, core::Phase::Muster, 0, replay::SpanKind::Phase});
  }
  std::vector<std::pair<core::Seq, core::Seq>> asked;
  TimelineModel model;  // no tester here: it walks every row, which is the point not to do
  model.set_game(spans, {}, {999'999}, [&](core::Seq from, core::Seq to) -> Expected<std::vector<core::Event>> {
    asked.emplace_back(from, to);
    std::vector<core::Event> out;
    for (core::Seq s = from; s < to; ++s) {
      core::Event ev;
      ev.seq = s;
      ev.payload = core::TurnStarted{};
      out.push_back(ev);
    }
    return out;
  });
  EXPECT_EQ(model.rowCount(), 10);
  EXPECT_TRUE(asked.empty()) << "the outline alone needs no event";
  const QModelIndex last = model.index_of_seq(999'999);
  ASSERT_TRUE(last.isValid());
  EXPECT_EQ(model.rowCount(last.parent()), 25'000);
  EXPECT_TRUE(last.data().toString().startsWith(QStringLiteral("seq 999999")));
  ASSERT_EQ(asked.size(), 1u);
  EXPECT_EQ(asked.front().second, 1'000'000u);
  EXPECT_LE(asked.front().first, 999'999u);
  EXPECT_LE(asked.front().second - asked.front().first, TimelineModel::kChunk) << "one chunk, not the stream";
  EXPECT_EQ(last.data(TimelineModel::FindingsRole).toInt(), 1);
  for (core::Seq s = 0; s < 1'000'000; s += 5'000) (void)model.index_of_seq(s).data();
  EXPECT_LE(model.cached_chunks(), TimelineModel::kMaxChunks);
}

TEST(TimelineModel, ExtendsInPlaceWhenTheGameGrows) {
  std::vector<replay::PhaseSpan> spans{{0, 4, 0, core::Phase::Setup, core::kNoSeat, replay::SpanKind::Setup},
                                       {5, 6, 1, core::Phase::Setup, core::kNoSeat, replay::SpanKind::TurnStart}};
  TimelineModel model;
  Tester tester(&model, kFatal);
  auto source = [](core::Seq from, core::Seq to) -> Expected<std::vector<core::Event>> {
    std::vector<core::Event> out;
    for (core::Seq s = from; s < to; ++s) {
      core::Event ev;
      ev.seq = s;
      out.push_back(ev);
    }
    return out;
  };
  model.set_game(spans, {}, {}, source);
  model.set_current(6);
  const QPersistentModelIndex current = model.index_of_seq(6);
  ASSERT_EQ(model.rowCount(), 2);

  spans[1].last = 8;                                                                       // the open span grew
  spans.push_back({9, 12, 1, core::Phase::Muster, 0, replay::SpanKind::Phase});              // a new phase, same turn
  spans.push_back({13, 14, 2, core::Phase::Setup, core::kNoSeat, replay::SpanKind::TurnStart});  // a new turn
  model.extend(spans, {10});
  EXPECT_EQ(model.rowCount(), 3);
  EXPECT_EQ(model.rowCount(model.index(1, 0)), 2);
  EXPECT_EQ(model.rowCount(model.index(0, 0, model.index(1, 0))), 4);
  EXPECT_TRUE(current.isValid()) << "rows already shown keep their indexes";
  EXPECT_EQ(current.data(TimelineModel::SeqRole).toULongLong(), 6u);
  EXPECT_EQ(model.index_of_seq(14).data(TimelineModel::SeqRole).toULongLong(), 14u);
  EXPECT_EQ(model.index(1, 0).data(TimelineModel::FindingsRole).toInt(), 1);
}

TEST(TimelineModel, MarksDivergentEventsAndTheirGroups) {
  const FirstBlood fb = first_blood();
  TimelineModel model;
  Tester tester(&model, kFatal);
  model.set_game(fb.session->spans(), fb.session->game().seats, {},
                 [&](core::Seq from, core::Seq to) { return fb.session->events(from, to); });
  const core::Seq mark = fb.events.size() / 2;
  model.set_divergent({mark});
  const QModelIndex row = model.index_of_seq(mark);
  EXPECT_TRUE(row.data(TimelineModel::DivergentRole).toBool());
  EXPECT_TRUE(row.parent().data(TimelineModel::DivergentRole).toBool());
  EXPECT_FALSE(model.index_of_seq(mark - 1).data(TimelineModel::DivergentRole).toBool());
  EXPECT_FALSE(model.index(0, 0).data(TimelineModel::DivergentRole).toBool()) << "setup holds no mark";
  model.set_divergent({});
  EXPECT_FALSE(row.data(TimelineModel::DivergentRole).toBool());
}

TEST(StateModel, PassesTheModelTesterAtEveryMomentOfAGame) {
  const FirstBlood fb = first_blood();
  StateModel model;
  Tester tester(&model, kFatal);
  int troops_seen = 0;
  for (const core::Event& ev : fb.events) {
    const replay::Moment m = fb.at(ev.seq);
    model.set_state(m.state, fb.catalog(), fb.ruleset());
    ASSERT_EQ(model.rowCount(), StateModel::SectionCount);
    const QModelIndex field = model.find(StateModel::FirstSeatSection, QStringLiteral("Morale total"), StateModel::Value);
    ASSERT_TRUE(field.isValid());
    EXPECT_EQ(field.data(StateModel::RawValueRole).toInt(), core::morale_total(m.state, 0, fb.catalog()));
    const QModelIndex leading = model.find(StateModel::FirstSeatSection, QStringLiteral("Leading in Morale"), StateModel::Value);
    EXPECT_EQ(leading.data(StateModel::RawValueRole).toInt(), m.state.leader == 0 ? 1 : 0);
    troops_seen = std::max(troops_seen, model.rowCount(model.index(StateModel::BattlefieldSection, 0)));
  }
  EXPECT_GT(troops_seen, 0);

  model.clear();
  EXPECT_EQ(model.rowCount(), 0);
}

std::optional<core::Seq> lancer_played(const FirstBlood& fb) {
  for (const auto& ev : fb.events) {
    if (const auto* p = std::get_if<core::CardPlayed>(&ev.payload); p && p->card == "Ironclaw Lancer") return ev.seq;
  }
  return std::nullopt;
}

TEST(StateModel, ShowsTroopsWithSpaceCardOwnerAndBadges) {
  const FirstBlood fb = first_blood();
  // After Alice plays her Lancer on b1 in turn 1 it is still mustering.
  const auto played = lancer_played(fb);
  ASSERT_TRUE(played);
  StateModel model;
  model.set_state(fb.at(*played).state, fb.catalog(), fb.ruleset());
  const QModelIndex troop = model.find(StateModel::BattlefieldSection, QStringLiteral("b1"));
  ASSERT_TRUE(troop.isValid());
  auto cell = [&](int column) { return troop.siblingAtColumn(column).data().toString(); };
  EXPECT_EQ(cell(StateModel::Value), QStringLiteral("Ironclaw Lancer"));
  EXPECT_EQ(cell(StateModel::Owner), QStringLiteral("Alice"));
  EXPECT_TRUE(cell(StateModel::Condition).startsWith(QStringLiteral("Vitality 3/3"))) << cell(StateModel::Condition).toStdString();
  EXPECT_TRUE(cell(StateModel::Status).contains(QStringLiteral("mustering"))) << cell(StateModel::Status).toStdString();
}

// Control is derived from the Troops beside a Territory, never stored (the
// state had a controller field no fold ever set, so the viewer showed every
// Territory uncontrolled): a lone Lancer of Ana's beside the Old Mill on a2
// Controls it, and one of Bo's beside it too contests it.
TEST(BattlefieldFaces, ATerritoryShowsTheControlTheTroopsBesideItGive) {
  const FirstBlood fb = first_blood();
  core::GameState s = fb.at(0).state;
  for (auto& slot : s.grid) slot.reset();
  ASSERT_EQ(s.territories.size(), 1u);
  ASSERT_EQ(core::to_string(s.territories[0].space), "a2");
  s.at(*core::space_from_string("a1")) = core::Troop{"Ironclaw Lancer", 0};
  const auto alone = battlefield_faces(s, fb.catalog(), fb.ruleset());
  EXPECT_EQ(alone.territories.front().controller, 0);
  bool shown = false;
  for (const auto& sec : state_sections(s, fb.catalog(), fb.ruleset())) {
    for (const auto& row : sec.rows) {
      if (row.kind == StateModel::Kind::Territory) shown = row.seat == 0 && !row.cells[StateModel::Owner].isEmpty();
    }
  }
  EXPECT_TRUE(shown) << "the Territories section names its controller";
  s.at(*core::space_from_string("b2")) = core::Troop{"Paw Militia", 1};
  EXPECT_EQ(battlefield_faces(s, fb.catalog(), fb.ruleset()).territories.front().controller, core::kNoSeat);
}

TEST(BattlefieldFaces, DrawEachTroopAndTerritoryFromTheState) {
  const FirstBlood fb = first_blood();
  const auto played = lancer_played(fb);
  ASSERT_TRUE(played);
  const BattlefieldFaces faces = battlefield_faces(fb.at(*played).state, fb.catalog(), fb.ruleset());
  EXPECT_EQ(faces.cols, 5);
  EXPECT_EQ(faces.rows, 3);
  const auto lancer = std::find_if(faces.troops.begin(), faces.troops.end(),
                                   [](const TroopFace& t) { return core::to_string(t.space) == "b1"; });
  ASSERT_NE(lancer, faces.troops.end());
  EXPECT_EQ(lancer->name, QStringLiteral("Ironclaw Lancer"));
  EXPECT_EQ(lancer->seat, 0);
  EXPECT_EQ(lancer->vitality, fb.catalog().find("Ironclaw Lancer")->vitality);
  EXPECT_EQ(lancer->vigor, fb.catalog().find("Ironclaw Lancer")->vigor);
  EXPECT_EQ(lancer->damage, 0);
  EXPECT_TRUE(lancer->badges.contains(QStringLiteral("mustering")));
  ASSERT_EQ(faces.territories.size(), 1u);
  EXPECT_EQ(faces.territories.front().name, QStringLiteral("Old Mill"));
  EXPECT_EQ(core::to_string(faces.territories.front().space), "a2");
  EXPECT_GT(faces.territories.front().threshold, 0);

  // Damage shows at the end, where the fight has happened.
  const BattlefieldFaces end = battlefield_faces(fb.at(fb.events.size() - 1).state, fb.catalog(), fb.ruleset());
  int damage = 0;
  for (const auto& t : end.troops) damage += t.damage;
  int beneath = 0;
  for (const auto& t : end.territories) beneath += t.beneath;
  EXPECT_GT(damage + beneath, 0) << "first blood: a Troop is hurt or destroyed";

  BattlefieldView view;
  view.show_state(fb.at(*played).state, fb.catalog(), fb.ruleset(), fb.session->game().seats);
  EXPECT_EQ(view.faces().troops.size(), faces.troops.size());
  EXPECT_FALSE(view.scene()->items().isEmpty());
}

TEST(ChangesModel, ListsWhatTheEventChanged) {
  const FirstBlood fb = first_blood();
  ChangesModel model;
  Tester tester(&model, kFatal);
  std::optional<core::Seq> draw;
  for (const auto& ev : fb.events) {
    if (std::holds_alternative<core::CardsDrawn>(ev.payload) && ev.seat == 0) {
      draw = ev.seq;
      break;
    }
  }
  ASSERT_TRUE(draw);
  model.set_changes(state_changes(fb.at(*draw - 1).state, fb.at(*draw).state, fb.catalog(), fb.ruleset()));
  ASSERT_GT(model.rowCount(), 0);
  bool hand = false;
  for (int r = 0; r < model.rowCount(); ++r) {
    if (model.index(r, ChangesModel::Item).data().toString() == QStringLiteral("Hand") &&
        model.index(r, ChangesModel::Where).data().toString().contains(QStringLiteral("Alice"))) {
      hand = true;
      EXPECT_EQ(model.index(r, ChangesModel::Before).data().toString(), QStringLiteral("0"));
      // The hand as its cards, not a count alone (issue 18).
      EXPECT_TRUE(model.index(r, ChangesModel::After).data().toString().startsWith(QStringLiteral("2: ")))
          << model.index(r, ChangesModel::After).data().toString().toStdString();
      EXPECT_TRUE(model.index(r, ChangesModel::After).data().toString().contains(QStringLiteral("× ")));
    }
  }
  EXPECT_TRUE(hand) << "drawing two cards changes Alice's hand from 0 to 2";

  // A Troop entering the battlefield appears.
  const auto played = lancer_played(fb);
  ASSERT_TRUE(played);
  const auto entered = state_changes(fb.at(*played - 1).state, fb.at(*played).state, fb.catalog(), fb.ruleset());
  EXPECT_TRUE(std::any_of(entered.begin(), entered.end(), [](const StateChange& c) {
    return c.where == QStringLiteral("Battlefield") && c.item.contains(QStringLiteral("Ironclaw Lancer")) && c.before.isEmpty();
  }));
  // Nothing changes between a state and itself.
  EXPECT_TRUE(state_changes(fb.at(*played).state, fb.at(*played).state, fb.catalog(), fb.ruleset()).empty());
  model.set_changes({});
  EXPECT_EQ(model.rowCount(), 0);
}

TEST(DisputesModel, PassesTheModelTesterAndShowsTheRulingInForce) {
  DisputesModel model;
  Tester tester(&model, kFatal);
  replay::Dispute open;
  open.id = {1, 27, 0};
  open.raised.claim = "Bruno drew three";
  open.raised.raised_by = "Alice";
  replay::Dispute ruled = open;
  ruled.id = {1, 30, 0};
  ruled.rulings.push_back(core::DisputeRuled{0, core::DisputeStatus::Resolved, "two is the limit", "Judge Ada", {}, {}, "", {}});
  model.set_disputes({open, ruled});
  ASSERT_EQ(model.rowCount(), 2);
  EXPECT_EQ(model.index(0, DisputesModel::Id).data().toString(), QStringLiteral("1:27:0"));
  EXPECT_EQ(model.index(0, DisputesModel::Status).data().toString(), QStringLiteral("open"));
  EXPECT_EQ(model.index(1, DisputesModel::Status).data().toString(), QStringLiteral("resolved"));
  EXPECT_TRUE(model.index(1, DisputesModel::Ruling).data().toString().contains(QStringLiteral("two is the limit")));
  EXPECT_EQ(model.index(1, 0).data(DisputesModel::SeqRole).toULongLong(), 30u);
}

TEST(FiguresCharts, PlotsEachSeatPerTurnAndMarksTheCurrentTurn) {
  const FirstBlood fb = first_blood();
  FiguresCharts charts;
  charts.set_turns(fb.session->turns(), fb.session->game().seats);
  // A series per seat, plus the marker.
  EXPECT_EQ(charts.morale_chart()->series().size(), core::kSeatCount + 1);
  EXPECT_EQ(charts.provision_chart()->series().size(), 2 * core::kSeatCount + 1);
  auto* alice = qobject_cast<QLineSeries*>(charts.morale_chart()->series().front());
  ASSERT_NE(alice, nullptr);
  ASSERT_EQ(alice->count(), static_cast<int>(fb.session->turns().size()));
  EXPECT_EQ(alice->at(0).y(), fb.session->turns().front().seats[0].morale_total);
  charts.set_current_turn(2);
  auto* marker = qobject_cast<QLineSeries*>(charts.morale_chart()->series().back());
  ASSERT_NE(marker, nullptr);
  ASSERT_EQ(marker->count(), 2);
  EXPECT_EQ(marker->at(0).x(), 2.0);
  charts.set_current_turn(0);
  EXPECT_EQ(marker->count(), 0) << "no mark during setup";
}

TEST(FindingsModel, PassesTheModelTesterOnTheGamesAudit) {
  const FirstBlood fb = first_blood();
  const auto& findings = fb.session->findings();
  FindingsModel model;
  Tester tester(&model, kFatal);
  model.share_findings(fb.session->shared_findings(), fb.session->game().seats);
  ASSERT_EQ(model.rowCount(), static_cast<int>(findings.size()));
  ASSERT_GT(model.rowCount(), 0) << "the sample has a deliberate violation";

  // The deliberate violation: Bruno draws three cards in turn 2.
  int draw_row = -1;
  for (int r = 0; r < model.rowCount(); ++r) {
    if (model.index(r, 0).data(FindingsModel::RuleIdRole).toString() == QStringLiteral("MUS-a.draw")) draw_row = r;
  }
  ASSERT_GE(draw_row, 0);
  auto cell = [&](int column) { return model.index(draw_row, column).data().toString(); };
  EXPECT_EQ(cell(FindingsModel::Turn), QStringLiteral("2"));
  EXPECT_EQ(cell(FindingsModel::Seat), QStringLiteral("Bruno"));
  EXPECT_EQ(cell(FindingsModel::Severity), QStringLiteral("violation"));
  EXPECT_TRUE(cell(FindingsModel::Citation).contains(QStringLiteral("Muster Phase"))) << cell(FindingsModel::Citation).toStdString();
  EXPECT_FALSE(cell(FindingsModel::Message).isEmpty());
  EXPECT_TRUE(model.index(draw_row, FindingsModel::Rule).data(Qt::ToolTipRole).toString().contains(QStringLiteral("2 cards")));

  model.set_findings({}, {});
  EXPECT_EQ(model.rowCount(), 0);
}

// The session appends to the list it shares (live follow) without telling
// the model; the model keeps the rows it was given until shared again.
TEST(FindingsModel, ASharedListThatGrowsShowsNewRowsOnlyWhenSharedAgain) {
  auto list = std::make_shared<replay::FindingList>();
  const core::Finding f{3, "MUS-a.draw", core::Severity::Violation, core::Basis::Written, "drew 3"};
  list->push_back(f, 1, core::Phase::Muster, 0);
  FindingsModel model;
  Tester tester(&model, kFatal);
  const std::vector<core::SeatSetup> seats{{"Ana", core::Allegiance::ClawEmpire}, {"Bo", core::Allegiance::PawCoalition}};
  model.share_findings(list, seats);
  ASSERT_EQ(model.rowCount(), 1);

  core::Finding later = f;
  later.seq = 9;
  later.message = "drew 4";
  list->push_back(later, 2, core::Phase::Muster, 1);
  EXPECT_EQ(model.rowCount(), 1) << "rows appended behind the model's back are not its rows yet";

  model.share_findings(list, seats);
  ASSERT_EQ(model.rowCount(), 2);
  EXPECT_EQ(model.index(1, FindingsModel::Message).data().toString(), QStringLiteral("drew 4"));
  EXPECT_EQ(model.index(1, FindingsModel::Seat).data().toString(), QStringLiteral("Bo"));
  EXPECT_EQ(model.index(1, FindingsModel::Seq).data(FindingsModel::SortRole).toULongLong(), 9u);
}

// Each row says which event it concerns (when another than its own) and
// which violations it rests on; the model tester watches the rests_on
// arriving after the rows, as the session computes it after its survey.
TEST(FindingsModel, ShowsWhatEachFindingConcernsAndRestsOn) {
  auto list = std::make_shared<replay::FindingList>();
  const core::Finding move{88, "MUS-mustering.move", core::Severity::Violation, core::Basis::Written,
                           "moves while still mustering", 0, 88};
  const core::Finding owed{120, "ATT-3.discard", core::Severity::Violation, core::Basis::Written,
                           "Ana still owes 1 discard for unpaid cards", 0, 112};
  const core::Finding after{131, "LOG.result", core::Severity::Violation, core::Basis::Warlog,
                            "play goes on after the game was decided at event 112", core::kNoSeat, 131};
  list->push_back(move, 2, core::Phase::Muster, 0);
  list->push_back(owed, 2, core::Phase::Attrition, 1);
  list->push_back(after, 3, core::Phase::Muster, core::kNoSeat);
  const std::vector<core::SeatSetup> seats{{"Ana", core::Allegiance::ClawEmpire}, {"Bo", core::Allegiance::PawCoalition}};
  FindingsModel model;
  Tester tester(&model, kFatal);
  model.share_findings(list, seats);
  ASSERT_EQ(model.rowCount(), 3);
  EXPECT_EQ(model.index(0, FindingsModel::Concerns).data().toString(), QString()) << "it concerns its own event";
  EXPECT_EQ(model.index(1, FindingsModel::Concerns).data().toString(), QStringLiteral("seq 112"));
  EXPECT_EQ(model.index(1, 0).data(FindingsModel::ConcernsRole).toULongLong(), 112u);
  EXPECT_TRUE(model.index(1, FindingsModel::Message).data(Qt::ToolTipRole).toString().contains(
      QStringLiteral("Concerns the event at seq 112.")));
  EXPECT_EQ(model.index(2, FindingsModel::RestsOn).data().toString(), QString()) << "not computed yet";

  auto rests = std::make_shared<replay::RestsOn>();
  rests->findings = {{}, {}, {88}};
  rests->result = {88};
  model.set_rests_on(rests);
  EXPECT_EQ(model.index(0, FindingsModel::RestsOn).data().toString(), QString());
  EXPECT_EQ(model.index(2, FindingsModel::RestsOn).data().toString(), QStringLiteral("seq 88"));
  const QVariantList seqs = model.index(2, 0).data(FindingsModel::RestsOnRole).toList();
  ASSERT_EQ(seqs.size(), 1);
  EXPECT_EQ(seqs.front().toULongLong(), 88u);
  EXPECT_TRUE(model.index(2, FindingsModel::Rule).data(Qt::ToolTipRole).toString().contains(
      QStringLiteral("Rests on the violation at seq 88.")));
  EXPECT_EQ(model.index(2, FindingsModel::RestsOn).data(FindingsModel::SortRole).toULongLong(), 89u);
  EXPECT_EQ(model.index(0, FindingsModel::RestsOn).data(FindingsModel::SortRole).toULongLong(), 0u);

  // A slice (the findings at one event): row 0 is the list's row 2.
  FindingsModel here;
  Tester here_tester(&here, kFatal);
  here.set_findings({replay::LocatedFinding{after, 3, core::Phase::Muster, core::kNoSeat, {}}}, seats);
  here.set_rests_on(rests, 2);
  EXPECT_EQ(here.index(0, FindingsModel::RestsOn).data().toString(), QStringLiteral("seq 88"));
  here.set_rests_on(rests, 3);
  EXPECT_EQ(here.index(0, FindingsModel::RestsOn).data().toString(), QString()) << "past the end: nothing";
}

// The findings table's own sort (FindingsSortProxy, comparing rows in
// place) gives exactly the order the SortRole values give through a plain
// QSortFilterProxyModel, column by column, both ways.
TEST(FindingsModel, ItsSortProxyOrdersRowsAsTheSortRoleDoes) {
  auto list = std::make_shared<replay::FindingList>();
  const auto rules = core::all_rules();
  const char* const messages[] = {"Ironclaw Lancer fought while Lost", "a second Charge", "drew 3", "Ärger", "drew 3"};
  std::uint64_t x = 7;
  for (int i = 0; i < 300; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;  // a fixed pseudo-random walk
    const core::Rule& rule = rules[(x >> 33) % rules.size()];
    const core::Finding f{(x >> 20) % 97, rule.id, rule.severity, rule.basis, messages[(x >> 40) % 5]};
    const auto seat = static_cast<core::Seat>((x >> 50) % 3 == 2 ? core::kNoSeat : (x >> 50) % 3);
    list->push_back(f, static_cast<std::uint16_t>((x >> 24) % 12), static_cast<core::Phase>((x >> 28) % 4), seat);
  }
  const std::vector<core::SeatSetup> seats{{"Ana", core::Allegiance::ClawEmpire}, {"Bo", core::Allegiance::PawCoalition}};
  FindingsModel model;
  model.share_findings(list, seats);
  FindingsSortProxy ours;
  ours.setSourceModel(&model);
  Tester tester(&ours, kFatal);
  QSortFilterProxyModel plain;
  plain.setSourceModel(&model);
  plain.setSortRole(FindingsModel::SortRole);
  for (int column = 0; column < FindingsModel::ColumnCount; ++column) {
    for (const auto order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
      ours.sort(column, order);
      plain.sort(column, order);
      for (int r = 0; r < model.rowCount(); ++r) {
        ASSERT_EQ(ours.mapToSource(ours.index(r, 0)).row(), plain.mapToSource(plain.index(r, 0)).row())
            << "column " << column << ", row " << r << (order == Qt::AscendingOrder ? " ascending" : " descending");
      }
    }
  }
}

}  // namespace
}  // namespace warlog::viewer
