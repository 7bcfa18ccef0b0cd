#include "figures_charts.hpp"

#include <QChart>
#include <QChartView>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPen>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>

#include "battlefield_view.hpp"
#include "event_text.hpp"

namespace warlog::viewer {

namespace {

constexpr std::size_t kMaxPoints = 1500;

QChart* make_chart(const QString& title) {
  auto* chart = new QChart;
  chart->setTitle(title);
  QFont f = chart->titleFont();
  f.setBold(true);
  f.setPointSizeF(f.pointSizeF() + 1);
  chart->setTitleFont(f);
  chart->legend()->setAlignment(Qt::AlignRight);
  chart->setMargins(QMargins(4, 4, 4, 4));
  chart->setAnimationOptions(QChart::NoAnimation);
  return chart;
}

QChartView* view_of(QChart* chart) {
  auto* view = new QChartView(chart);
  view->setRenderHint(QPainter::Antialiasing);
  view->setMinimumHeight(160);
  return view;
}

}  // namespace

FiguresCharts::FiguresCharts(QWidget* parent) : QWidget(parent) {
  morale_ = make_chart(tr("Morale total"));
  provisions_ = make_chart(tr("Provisions: supply (solid) and cost (dashed)"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(view_of(morale_), 1);
  layout->addWidget(view_of(provisions_), 1);
  morale_mark_.chart = morale_;
  provision_mark_.chart = provisions_;
}

void FiguresCharts::clear() {
  for (Marked* m : {&morale_mark_, &provision_mark_}) {
    m->chart->removeAllSeries();
    for (QAbstractAxis* a : m->chart->axes()) {
      m->chart->removeAxis(a);
      delete a;
    }
    m->marker = nullptr;
    m->x = m->y = nullptr;
  }
}

void FiguresCharts::set_turns(const std::vector<replay::TurnFigures>& turns, const std::vector<core::SeatSetup>& seats) {
  clear();
  const int last_turn = turns.empty() ? 1 : std::max<int>(1, turns.back().turn);
  int morale_max = 1;
  int provision_max = 1;
  for (core::Seat seat = 0; seat < core::kSeatCount; ++seat) {
    const QString name = QString::fromStdString(seat_name(seats, seat));
    auto* morale = new QLineSeries;
    auto* supply = new QLineSeries;
    auto* cost = new QLineSeries;
    morale->setName(name);
    supply->setName(tr("%1 supply").arg(name));
    cost->setName(tr("%1 cost").arg(name));
    // A long game is drawn from at most kMaxPoints turns (every k-th, and
    // the last): a line has no more pixels than that.
    const std::size_t every = std::max<std::size_t>(1, (turns.size() + kMaxPoints - 1) / kMaxPoints);
    for (std::size_t i = 0; i < turns.size(); ++i) {
      if (i % every != 0 && i + 1 != turns.size()) continue;
      const replay::TurnFigures& t = turns[i];
      const replay::SeatFigures& f = t.seats[seat];
      morale->append(t.turn, f.morale_total);
      supply->append(t.turn, f.provision_supply);
      cost->append(t.turn, f.provision_cost);
      morale_max = std::max(morale_max, f.morale_total);
      provision_max = std::max({provision_max, f.provision_supply, f.provision_cost});
    }
    const QColor c = seat_colour(seat);
    morale->setPen(QPen(c, 2.5));
    supply->setPen(QPen(c, 2.5));
    cost->setPen(QPen(c, 2, Qt::DashLine));
    for (QLineSeries* s : {morale, supply, cost}) s->setPointsVisible(turns.size() <= 60);
    morale_->addSeries(morale);
    provisions_->addSeries(supply);
    provisions_->addSeries(cost);
  }
  auto axes = [&](Marked& m, int y_max, const QString& y_title) {
    m.x = new QValueAxis;
    m.x->setRange(0.5, last_turn + 0.5);
    m.x->setTickType(QValueAxis::TicksDynamic);
    m.x->setTickAnchor(1);
    m.x->setTickInterval(std::max(1, last_turn / 12));
    m.x->setLabelFormat(QStringLiteral("%d"));
    m.x->setTitleText(tr("Turn"));
    m.y = new QValueAxis;
    m.y->setRange(0, y_max + 1);
    m.y->applyNiceNumbers();  // round ticks: 0, 5, 10, 15
    m.y->setLabelFormat(QStringLiteral("%d"));
    m.y->setTitleText(y_title);
    m.chart->addAxis(m.x, Qt::AlignBottom);
    m.chart->addAxis(m.y, Qt::AlignLeft);
    for (QAbstractSeries* s : m.chart->series()) {
      s->attachAxis(m.x);
      s->attachAxis(m.y);
    }
    // The current turn: a vertical line, left out of the legend.
    m.marker = new QLineSeries;
    m.marker->setName(tr("current turn"));
    m.marker->setPen(QPen(QColor(0xf5, 0x9e, 0x0b), 2));
    m.chart->addSeries(m.marker);
    m.marker->attachAxis(m.x);
    m.marker->attachAxis(m.y);
    for (QLegendMarker* lm : m.chart->legend()->markers(m.marker)) lm->setVisible(false);
  };
  axes(morale_mark_, morale_max, tr("Morale"));
  axes(provision_mark_, provision_max, tr("Provisions"));
  place_marker(morale_mark_);
  place_marker(provision_mark_);
}

void FiguresCharts::set_current_turn(int turn) {
  current_turn_ = turn;
  place_marker(morale_mark_);
  place_marker(provision_mark_);
}

void FiguresCharts::place_marker(Marked& m) {
  if (!m.marker || !m.y) return;
  if (current_turn_ <= 0) {
    m.marker->clear();
    return;
  }
  m.marker->replace(QList<QPointF>{{static_cast<qreal>(current_turn_), m.y->min()},
                                   {static_cast<qreal>(current_turn_), m.y->max()}});
}

}  // namespace warlog::viewer
