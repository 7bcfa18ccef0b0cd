#pragma once
// Morale and Provision supply / cost per seat over turns (Qt Charts), from
// the survey's per-turn figures, with the current turn marked.

#include <QWidget>

#include <vector>

#include "warlog/replay/survey.hpp"

class QChart;
class QChartView;
class QLineSeries;
class QValueAxis;

namespace warlog::viewer {

class FiguresCharts : public QWidget {
  Q_OBJECT

 public:
  explicit FiguresCharts(QWidget* parent = nullptr);

  void set_turns(const std::vector<replay::TurnFigures>& turns, const std::vector<core::SeatSetup>& seats);
  // Marks `turn` (0: no mark, the game is in setup).
  void set_current_turn(int turn);
  void clear();

  [[nodiscard]] QChart* morale_chart() const noexcept { return morale_; }
  [[nodiscard]] QChart* provision_chart() const noexcept { return provisions_; }
  [[nodiscard]] int current_turn() const noexcept { return current_turn_; }

 private:
  struct Marked {
    QChart* chart = nullptr;
    QLineSeries* marker = nullptr;
    QValueAxis* x = nullptr;
    QValueAxis* y = nullptr;
  };
  void place_marker(Marked& m);

  QChart* morale_ = nullptr;
  QChart* provisions_ = nullptr;
  Marked morale_mark_;
  Marked provision_mark_;
  int current_turn_ = 0;
};

}  // namespace warlog::viewer
