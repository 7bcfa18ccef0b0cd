#pragma once
// The battlefield drawn as cards on its grid (QGraphicsView): each Troop
// with its name, its seat's colour, Vigor, Vitality (damage shown as spent
// pips), Morale and status badges; each Territory with its count toward its
// Threshold. The faces are laid out by a pure function (tested on its own)
// from core's values; the view only paints them.

#include <QColor>
#include <QGraphicsView>
#include <QStringList>

#include <optional>
#include <vector>

#include "warlog/core/catalog.hpp"
#include "warlog/core/ruleset.hpp"
#include "warlog/core/state.hpp"

namespace warlog::viewer {

struct TroopFace {
  core::Space space;
  QString name;
  core::Seat seat = 0;
  int vigor = 0;
  int vitality = 0;  // printed
  int damage = 0;
  int morale = 0;    // as it counts now (0 while unprovisioned)
  QStringList badges;
  bool known = true;  // the card is in the catalog
};

struct TerritoryFace {
  core::Space space;
  QString name;
  int beneath = 0;
  int threshold = 0;
  core::Seat controller = core::kNoSeat;
  bool final_turn = false;  // its Threshold made this the final turn
};

struct BattlefieldFaces {
  int cols = 0;
  int rows = 0;
  std::vector<TroopFace> troops;
  std::vector<TerritoryFace> territories;
};

[[nodiscard]] BattlefieldFaces battlefield_faces(const core::GameState& state, const core::Catalog& catalog,
                                                const core::Ruleset& rules);

class BattlefieldView : public QGraphicsView {
  Q_OBJECT

 public:
  explicit BattlefieldView(QWidget* parent = nullptr);
  // `marked`: the spaces the current event and its findings concern, each
  // outlined in a thick dashed frame (not a seat's or a finding's colour).
  void show_state(const core::GameState& state, const core::Catalog& catalog, const core::Ruleset& rules,
                  std::vector<core::SeatSetup> seats, std::vector<core::Space> marked = {});
  void clear_state();
  [[nodiscard]] const BattlefieldFaces& faces() const noexcept { return faces_; }
  [[nodiscard]] const std::vector<core::Space>& marked() const noexcept { return marked_; }
  // The legend drawn under the grid: "Seat 1: Alice" and its colour, per seat.
  struct LegendEntry {
    QString text;
    QColor colour;
  };
  [[nodiscard]] const std::vector<LegendEntry>& legend() const noexcept { return legend_; }

  static constexpr qreal kCardWidth = 168;
  static constexpr qreal kCardHeight = 112;
  static constexpr qreal kGap = 10;

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void fit();
  BattlefieldFaces faces_;
  std::vector<core::Space> marked_;
  std::vector<LegendEntry> legend_;
};

// A seat's colour, the same in every view (battlefield, charts).
[[nodiscard]] QColor seat_colour(core::Seat seat);

}  // namespace warlog::viewer
