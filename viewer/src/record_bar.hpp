#pragma once
// The record bar under the timeline (issue 16, "In the viewer"): one line of
// notation in, through the same replay::Recorder::enter call `warlog record`
// makes, its answer beside it. Completion is Recorder::complete, the
// candidates the terminal's Tab gives. The bar holds no rule logic; the
// window refreshes its session when the bar says the stream grew.
//
// The Recorder is opened lazily, on the Archive the window holds, for the
// game the window shows; it is dropped when another process appended (the
// window's follow saw more events than it knows), so the next line is
// parsed where the game stands.

#include <QWidget>

#include <functional>
#include <memory>
#include <optional>

#include "warlog/replay/recorder.hpp"

class QCheckBox;
class QCompleter;
class QLineEdit;
class QPlainTextEdit;
class QStringListModel;

namespace warlog::viewer {

class RecordBar : public QWidget {
  Q_OBJECT

 public:
  explicit RecordBar(QWidget* parent = nullptr);
  ~RecordBar() override;

  // The game lines go to. A null archive, a read-only store or `ended_at`
  // disable the bar, with a tooltip saying why.
  void set_game(std::shared_ptr<replay::Archive> archive, core::GameId game, std::optional<core::Seq> ended_at);
  void clear_game();  // no game open (the store closes)
  // The window's follow saw `count` events: a Recorder that knows fewer is
  // dropped and opened again on the next line or completion.
  void saw_events(core::Seq count);

  // Enters the line typed (Enter does it). With Strict, a line that breaks
  // a rule is held and confirm() asked; yes records it.
  void submit();
  // What completes the line typed so far: whole lines, for the completer.
  [[nodiscard]] QStringList completions(const QString& text);

  // Asked with the held line's findings; yes records it. A dialog unless set.
  void set_confirm(std::function<bool(const QString& findings)> confirm) { confirm_ = std::move(confirm); }

  // --- For the window and tests --------------------------------------------
  [[nodiscard]] QLineEdit* line_edit() const noexcept { return line_; }
  [[nodiscard]] QPlainTextEdit* answer() const noexcept { return answer_; }
  [[nodiscard]] QCheckBox* strict() const noexcept { return strict_; }
  [[nodiscard]] QCompleter* completer() const noexcept { return completer_; }
  [[nodiscard]] bool has_recorder() const noexcept { return recorder_.has_value(); }

 signals:
  // Events were appended (recorded here, or learnt in a conflict): the
  // window refreshes and goes to the last event.
  void stream_grew();
  void leave();  // Escape: focus back to the timeline

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  [[nodiscard]] bool ensure_recorder();
  void show_answer(const replay::LineOutcome& o, const QString& line);
  void update_enabled();
  void show_completions();

  std::shared_ptr<replay::Archive> archive_;
  core::GameId game_ = 0;
  std::optional<core::Seq> ended_at_;
  std::optional<replay::Recorder> recorder_;  // after archive_: refers to it
  std::function<bool(const QString&)> confirm_;

  QLineEdit* line_ = nullptr;
  QCheckBox* strict_ = nullptr;
  QPlainTextEdit* answer_ = nullptr;  // a finding's columns do not wrap: it scrolls
  QCompleter* completer_ = nullptr;
  QStringListModel* candidates_ = nullptr;
};

}  // namespace warlog::viewer
