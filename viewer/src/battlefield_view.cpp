#include "battlefield_view.hpp"

#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QPainter>
#include <QResizeEvent>

#include <algorithm>

#include "event_text.hpp"
#include "warlog/replay/board.hpp"

namespace warlog::viewer {

namespace {

constexpr qreal kLabel = 22;  // room for the column letters and row numbers

QPointF origin_of(core::Space sp) {
  return {kLabel + sp.col * (BattlefieldView::kCardWidth + BattlefieldView::kGap),
          kLabel + sp.row * (BattlefieldView::kCardHeight + BattlefieldView::kGap)};
}

// One card: painted whole, text elided to the card's width.
class CardItem : public QGraphicsItem {
 public:
  CardItem(std::optional<TroopFace> troop, std::optional<TerritoryFace> territory, QString owner)
      : troop_(std::move(troop)), territory_(std::move(territory)), owner_(std::move(owner)) {}

  [[nodiscard]] QRectF boundingRect() const override {
    return {0, 0, BattlefieldView::kCardWidth, BattlefieldView::kCardHeight};
  }

  void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override {
    p->setRenderHint(QPainter::Antialiasing);
    const QRectF r = boundingRect().adjusted(1.5, 1.5, -1.5, -1.5);
    QFont base = p->font();
    base.setPixelSize(13);
    QFont bold = base;
    bold.setBold(true);
    QFont small = base;
    small.setPixelSize(11);
    if (troop_) {
      const QColor c = seat_colour(troop_->seat);
      p->setPen(QPen(c, 3));
      p->setBrush(c.lighter(185));
      p->drawRoundedRect(r, 7, 7);
      const QRectF inner = r.adjusted(8, 5, -8, -5);
      p->setPen(Qt::black);
      p->setFont(bold);
      const QFontMetricsF bm(bold);
      p->drawText(QRectF(inner.left(), inner.top(), inner.width(), 18), Qt::AlignLeft | Qt::AlignVCenter,
                  bm.elidedText(troop_->name, Qt::ElideRight, inner.width()));
      p->setFont(small);
      const QFontMetricsF sm(small);
      p->setPen(QColor(0x33, 0x33, 0x33));
      p->drawText(QRectF(inner.left(), inner.top() + 18, inner.width(), 15), Qt::AlignLeft | Qt::AlignVCenter,
                  sm.elidedText(owner_, Qt::ElideRight, inner.width()));
      p->setFont(base);
      p->setPen(Qt::black);
      const qreal y = inner.top() + 36;
      p->drawText(QRectF(inner.left(), y, inner.width(), 18), Qt::AlignLeft | Qt::AlignVCenter,
                  QObject::tr("Vigor %1").arg(troop_->vigor));
      p->drawText(QRectF(inner.left(), y, inner.width(), 18), Qt::AlignRight | Qt::AlignVCenter,
                  QObject::tr("Morale %1").arg(troop_->morale));
      // Vitality: a pip per point, spent ones hollow and red.
      p->drawText(QRectF(inner.left(), y + 19, 60, 16), Qt::AlignLeft | Qt::AlignVCenter, QObject::tr("Vitality"));
      const int left = std::max(0, troop_->vitality - troop_->damage);
      for (int i = 0; i < troop_->vitality && i < 8; ++i) {
        const QRectF pip(inner.left() + 58 + i * 13, y + 22, 10, 10);
        if (i < left) {
          p->setPen(QPen(Qt::black, 1));
          p->setBrush(QColor(0x2e, 0x7d, 0x32));
        } else {
          p->setPen(QPen(QColor(0xc6, 0x28, 0x28), 1.5));
          p->setBrush(Qt::white);
        }
        p->drawEllipse(pip);
      }
      p->setPen(Qt::black);
      p->setBrush(Qt::NoBrush);
      p->drawText(QRectF(inner.left(), y + 19, inner.width(), 16), Qt::AlignRight | Qt::AlignVCenter,
                  QStringLiteral("%1/%2").arg(left).arg(troop_->vitality));
      // Badges along the bottom.
      p->setFont(small);
      qreal x = inner.left();
      const qreal by = inner.bottom() - 16;
      for (const QString& b : troop_->badges) {
        const qreal w = sm.horizontalAdvance(b) + 10;
        if (x + w > inner.right()) break;
        p->setPen(Qt::NoPen);
        p->setBrush(replay::alarming_badge(b.toStdString()) ? QColor(0xc6, 0x28, 0x28) : QColor(0x45, 0x45, 0x45));
        p->drawRoundedRect(QRectF(x, by, w, 15), 4, 4);
        p->setPen(Qt::white);
        p->drawText(QRectF(x, by, w, 15), Qt::AlignCenter, b);
        x += w + 4;
      }
      return;
    }
    if (territory_) {
      p->setPen(QPen(QColor(0x79, 0x55, 0x48), 2, Qt::DashLine));
      p->setBrush(QColor(0xef, 0xe6, 0xd2));
      p->drawRoundedRect(r, 7, 7);
      const QRectF inner = r.adjusted(8, 6, -8, -6);
      p->setPen(Qt::black);
      p->setFont(bold);
      p->drawText(QRectF(inner.left(), inner.top(), inner.width(), 18), Qt::AlignLeft | Qt::AlignVCenter,
                  QFontMetricsF(bold).elidedText(territory_->name, Qt::ElideRight, inner.width()));
      p->setFont(small);
      p->drawText(QRectF(inner.left(), inner.top() + 18, inner.width(), 15), Qt::AlignLeft | Qt::AlignVCenter,
                  QObject::tr("Territory"));
      p->setFont(base);
      p->drawText(QRectF(inner.left(), inner.top() + 40, inner.width(), 18), Qt::AlignLeft | Qt::AlignVCenter,
                  QObject::tr("Threshold %1/%2").arg(territory_->beneath).arg(territory_->threshold));
      p->setFont(small);
      QString control = owner_.isEmpty() ? QObject::tr("uncontrolled") : QObject::tr("held by %1").arg(owner_);
      if (territory_->final_turn) control += QObject::tr(" · final turn");
      p->drawText(QRectF(inner.left(), inner.top() + 62, inner.width(), 16), Qt::AlignLeft | Qt::AlignVCenter,
                  QFontMetricsF(small).elidedText(control, Qt::ElideRight, inner.width()));
    }
  }

 private:
  std::optional<TroopFace> troop_;
  std::optional<TerritoryFace> territory_;
  QString owner_;
};

}  // namespace

QColor seat_colour(core::Seat seat) {
  const std::string_view hex = replay::seat_colour_hex(seat);  // one palette for screen and paper
  return QColor(QString::fromLatin1(hex.data(), static_cast<qsizetype>(hex.size())));
}

BattlefieldFaces battlefield_faces(const core::GameState& s, const core::Catalog& catalog, const core::Ruleset& rules) {
  const replay::Board board = replay::board_of(s, catalog, rules);
  BattlefieldFaces out;
  out.cols = board.cols;
  out.rows = board.rows;
  for (const replay::BoardTroop& t : board.troops) {
    TroopFace f;
    f.space = t.space;
    f.name = QString::fromStdString(t.name);
    f.seat = t.seat;
    f.vigor = t.vigor;
    f.vitality = t.vitality;
    f.damage = t.damage;
    f.morale = t.morale;
    for (const std::string& b : t.badges) f.badges << QString::fromStdString(b);
    f.known = t.known;
    out.troops.push_back(std::move(f));
  }
  for (const replay::BoardTerritory& t : board.territories) {
    out.territories.push_back(
        TerritoryFace{t.space, QString::fromStdString(t.name), t.beneath, t.threshold, t.controller, t.final_turn});
  }
  return out;
}

BattlefieldView::BattlefieldView(QWidget* parent) : QGraphicsView(parent) {
  setScene(new QGraphicsScene(this));
  setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
  setBackgroundBrush(QColor(0xf6, 0xf4, 0xee));
  setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  setAlignment(Qt::AlignCenter);
}

void BattlefieldView::clear_state() {
  faces_ = {};
  marked_.clear();
  legend_.clear();
  scene()->clear();
}

void BattlefieldView::show_state(const core::GameState& state, const core::Catalog& catalog, const core::Ruleset& rules,
                                 std::vector<core::SeatSetup> seats, std::vector<core::Space> marked) {
  faces_ = battlefield_faces(state, catalog, rules);
  std::erase_if(marked, [&](core::Space sp) { return sp.col >= faces_.cols || sp.row >= faces_.rows; });
  marked_ = std::move(marked);
  QGraphicsScene* sc = scene();
  sc->clear();
  const qreal w = kLabel + faces_.cols * (kCardWidth + kGap);
  const qreal h = kLabel + faces_.rows * (kCardHeight + kGap);
  sc->setSceneRect(0, 0, w, h);
  QFont label_font = font();
  label_font.setPixelSize(13);
  label_font.setBold(true);
  for (int c = 0; c < faces_.cols; ++c) {
    auto* t = sc->addSimpleText(QString(QChar('a' + c)), label_font);
    t->setPos(origin_of({static_cast<std::int8_t>(c), 0}).x() + kCardWidth / 2 - 4, 2);
  }
  for (int r = 0; r < faces_.rows; ++r) {
    auto* t = sc->addSimpleText(QString::number(r + 1), label_font);
    t->setPos(5, origin_of({0, static_cast<std::int8_t>(r)}).y() + kCardHeight / 2 - 8);
  }
  // Empty spaces first, then Territories, then Troops on top.
  for (int r = 0; r < faces_.rows; ++r) {
    for (int c = 0; c < faces_.cols; ++c) {
      const QPointF o = origin_of({static_cast<std::int8_t>(c), static_cast<std::int8_t>(r)});
      sc->addRect(QRectF(o, QSizeF(kCardWidth, kCardHeight)).adjusted(1, 1, -1, -1), QPen(QColor(0xd0, 0xcc, 0xc0), 1, Qt::DotLine));
    }
  }
  auto seat_text = [&](core::Seat seat) {
    return seat == core::kNoSeat ? QString() : QString::fromStdString(seat_name(seats, seat));
  };
  for (const TerritoryFace& t : faces_.territories) {
    auto* item = new CardItem(std::nullopt, t, seat_text(t.controller));
    item->setPos(origin_of(t.space));
    sc->addItem(item);
  }
  for (const TroopFace& t : faces_.troops) {
    auto* item = new CardItem(t, std::nullopt, seat_text(t.seat));
    item->setPos(origin_of(t.space));
    item->setToolTip(QStringLiteral("%1 (%2)").arg(t.name, QString::fromStdString(core::to_string(t.space))));
    sc->addItem(item);
  }
  // What the event concerns, over everything: a frame, so a space emptied
  // by the event (a defeat, a move away) is marked too.
  for (const core::Space sp : marked_) {
    auto* frame = sc->addRect(QRectF(origin_of(sp), QSizeF(kCardWidth, kCardHeight)).adjusted(-3, -3, 3, 3),
                              QPen(QColor(0x22, 0x22, 0x22), 4, Qt::DashLine));
    frame->setZValue(10);
    frame->setToolTip(tr("%1: the current event or its findings concern it")
                          .arg(QString::fromStdString(core::to_string(sp))));
  }
  // The legend under the grid: each seat's colour and player.
  legend_.clear();
  QFont legend_font = font();
  legend_font.setPixelSize(12);
  qreal x = kLabel;
  const qreal y = h + 4;
  for (std::size_t i = 0; i < seats.size(); ++i) {
    const auto seat = static_cast<core::Seat>(i);
    const QString name = tr("Seat %1: %2").arg(i + 1).arg(seat_text(seat));
    legend_.push_back({name, seat_colour(seat)});
    sc->addRect(QRectF(x, y + 2, 12, 12), QPen(Qt::NoPen), QBrush(seat_colour(seat)));
    auto* text = sc->addSimpleText(name, legend_font);
    text->setPos(x + 16, y);
    x += 16 + text->boundingRect().width() + 18;
  }
  if (!seats.empty()) sc->setSceneRect(0, 0, std::max(w, x), h + 22);
  fit();
}

void BattlefieldView::resizeEvent(QResizeEvent* event) {
  QGraphicsView::resizeEvent(event);
  fit();
}

// Scales down to fit, never up past 1.25: the cards stay readable and sharp.
void BattlefieldView::fit() {
  const QRectF rect = scene()->sceneRect();
  if (rect.isEmpty() || viewport()->width() < 10) return;
  const qreal sx = (viewport()->width() - 8) / rect.width();
  const qreal sy = (viewport()->height() - 8) / rect.height();
  const qreal scale = std::min({sx, sy, 1.25});
  setTransform(QTransform::fromScale(scale, scale));
  centerOn(rect.center());
}

}  // namespace warlog::viewer
