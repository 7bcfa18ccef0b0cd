// MainWindow: compare mode (the game under two rulesets or catalogs, side
// by side) and disputes (list, jump, add at the current event, rule).

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDialog>
#include <QDialogButtonBox>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>

#include <fmt/format.h>

#include <algorithm>

#include "battlefield_view.hpp"
#include "changes_model.hpp"
#include "dispute_export.hpp"
#include "disputes_model.hpp"
#include "event_text.hpp"
#include "figures_charts.hpp"
#include "findings_model.hpp"
#include "game_list_model.hpp"
#include "main_window.hpp"
#include "state_model.hpp"
#include "timeline_model.hpp"
#include "warlog/replay/disputes.hpp"
#include "warlog/replay/visibility.hpp"

namespace warlog::viewer {

namespace {

std::vector<std::string> split_citations(const QString& text) {
  std::vector<std::string> out;
  for (const QString& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
    const QString t = part.trimmed();
    if (!t.isEmpty()) out.push_back(t.toStdString());
  }
  return out;
}

// The same disputes with the same rulings (a dispute's records only grow).
bool same_disputes(const std::vector<replay::Dispute>& a, const std::vector<replay::Dispute>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const replay::Dispute& x, const replay::Dispute& y) {
    return x.id == y.id && x.rulings.size() == y.rulings.size();
  });
}

std::string now_utc() { return QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString(); }

// A small form: one line edit per label; empty when cancelled.
std::optional<QStringList> ask_form(QWidget* parent, const QString& title, const QStringList& labels) {
  QDialog dialog(parent);
  dialog.setWindowTitle(title);
  auto* form = new QFormLayout(&dialog);
  std::vector<QLineEdit*> edits;
  for (const QString& label : labels) {
    auto* edit = new QLineEdit;
    edit->setMinimumWidth(360);
    form->addRow(label, edit);
    edits.push_back(edit);
  }
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
  QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
  form->addRow(buttons);
  if (dialog.exec() != QDialog::Accepted) return std::nullopt;
  QStringList out;
  for (QLineEdit* e : edits) out << e->text();
  return out;
}

}  // namespace

Expected<void> MainWindow::compare_with(const replay::AuditOptions& candidate, const QString& label) {
  if (!session_) return make_error(ErrorCode::InvalidArgument, "no game open");
  auto opened = GameSession::open(archive_, session_->game().id, candidate);
  if (!opened) return tl::unexpected(opened.error());
  replay::RuleDiffOptions options;
  options.candidate = candidate;
  auto diff = replay::rule_diff(*archive_, session_->game().id, options);
  if (!diff) return tl::unexpected(diff.error());
  candidate_ = std::move(*opened);
  connect(candidate_.get(), &GameSession::failed, this, &MainWindow::show_error);
  candidate_options_ = candidate;
  candidate_label_ = label;
  diff_ = std::move(*diff);

  // The events to mark: the first divergence and every finding that differs.
  std::vector<core::Seq> marks;
  if (diff_->first) marks.push_back(diff_->first->seq);
  for (const auto& f : diff_->added) marks.push_back(f.finding.seq);
  for (const auto& f : diff_->removed) marks.push_back(f.finding.seq);
  timeline_->set_divergent(std::move(marks));

  QString summary;
  if (!diff_->changed()) {
    summary = tr("Under %1 this game folds the same at every event.").arg(label);
  } else {
    const replay::Divergence& d = *diff_->first;
    summary = tr("Under %1 the game first diverges at seq %2 (turn %3, %4). Findings: %5 added, %6 removed. "
                 "Outcome: %7 → %8. Marked events are shaded in the timeline.")
                  .arg(label)
                  .arg(d.seq)
                  .arg(d.turn)
                  .arg(QString::fromStdString(d.event))
                  .arg(diff_->added.size())
                  .arg(diff_->removed.size())
                  .arg(QString::fromStdString(replay::describe(diff_->base, diff_->game)),
                       QString::fromStdString(replay::describe(diff_->candidate, diff_->game)));
  }
  compare_summary_->setText(summary);
  compare_rows_->set_titles(tr("Recorded (%1)").arg(QString::fromStdString(session_->ruleset().name)),
                            tr("Candidate (%1)").arg(label));
  compare_base_charts_->set_turns(session_->turns(), session_->game().seats);
  compare_candidate_charts_->set_turns(candidate_->turns(), session_->game().seats);
  // The game list's Candidate column: every game, diffed while idle.
  games_->set_comparing(true);
  game_view_->setColumnHidden(GameListModel::Candidate, false);
  diff_next_ = 0;
  diff_timer_->start();
  on_moved(session_->seq());
  return {};
}

void MainWindow::diff_some_games() {
  if (!archive_ || !candidate_options_ || !games_->comparing()) {
    diff_timer_->stop();
    return;
  }
  QElapsedTimer clock;
  clock.start();
  replay::RuleDiffOptions options;
  options.candidate = *candidate_options_;
  const auto& games = games_->games();
  while (diff_next_ < games.size() && clock.elapsed() < 12) {
    const replay::GameSummary& g = games[diff_next_++];
    if (games_->has_candidate_change(g.id)) continue;
    if (g.events > kIdleAuditMaxEvents) {
      games_->set_candidate_change(g.id, {replay::DiffClass::Undetermined,
                                          fmt::format("{} events: open the game to compare it", g.events), true});
      continue;
    }
    auto d = replay::rule_diff(*archive_, g.id, options);
    if (!d) {
      games_->set_candidate_change(g.id, {replay::DiffClass::Undetermined, d.error().message, true});
      continue;
    }
    std::string detail = d->changed() ? fmt::format("{} finding(s) added, {} removed; outcome: {} → {}", d->added.size(),
                                                    d->removed.size(), replay::describe(d->base, d->game),
                                                    replay::describe(d->candidate, d->game))
                                      : std::string("folds the same at every event");
    games_->set_candidate_change(g.id, {d->klass(), std::move(detail)});
  }
  if (diff_next_ >= games.size()) diff_timer_->stop();
}

void MainWindow::stop_comparing() {
  diff_timer_->stop();
  games_->set_comparing(false);
  game_view_->setColumnHidden(GameListModel::Candidate, true);
  compare_base_board_->clear_state();
  compare_candidate_board_->clear_state();
  compare_base_charts_->clear();
  compare_candidate_charts_->clear();
  candidate_.reset();
  candidate_options_.reset();
  diff_.reset();
  timeline_->set_divergent({});
  compare_rows_->set_changes({});
  compare_rows_->set_titles({}, {});
  if (session_) candidate_findings_->set_findings({}, session_->game().seats);
  compare_summary_->setText(tr("Not comparing."));
}

void MainWindow::show_compare() {
  if (!session_ || !candidate_) return;
  // The two boards at the same event, its spaces marked on both.
  const std::vector<core::Space> marked = marked_spaces(session_->findings_here());
  compare_base_board_->show_state(replay::view_of(session_->moment().state, perspective_, session_->ruleset()),
                                  session_->catalog(), session_->ruleset(), session_->game().seats, marked);
  compare_candidate_board_->show_state(
      replay::view_of(candidate_->moment().state, perspective_, candidate_->ruleset()), candidate_->catalog(),
      candidate_->ruleset(), session_->game().seats, marked);
  compare_base_charts_->set_current_turn(session_->moment().state.turn);
  compare_candidate_charts_->set_current_turn(candidate_->moment().state.turn);
  auto rows = side_by_side(session_->moment().state, session_->catalog(), session_->ruleset(),
                           candidate_->moment().state, candidate_->catalog(), candidate_->ruleset());
  if (only_differences_->isChecked()) std::erase_if(rows, [](const StateChange& c) { return !c.differs; });
  compare_rows_->set_changes(std::move(rows));
}

void MainWindow::ask_compare() {
  if (!session_) return;
  const QString path = QFileDialog::getOpenFileName(this, tr("Compare with a ruleset or card catalog"), {},
                                                    tr("Rulesets and catalogs (*.toml *.csv)"));
  if (path.isEmpty()) return;
  replay::AuditOptions candidate;
  if (path.endsWith(QStringLiteral(".csv"), Qt::CaseInsensitive)) {
    auto catalog = core::load_catalog(path.toStdString());
    if (!catalog) return show_error(QString::fromStdString(catalog.error().message));
    candidate.catalog = std::move(*catalog);
  } else {
    auto ruleset = core::load_ruleset(path.toStdString());
    if (!ruleset) return show_error(QString::fromStdString(ruleset.error().message));
    candidate.ruleset = std::move(*ruleset);
  }
  if (auto c = compare_with(candidate, QFileInfo(path).fileName()); !c) {
    show_error(QString::fromStdString(c.error().message));
    return;
  }
  view_tabs_->setCurrentWidget(compare_page_);
}

void MainWindow::load_disputes() {
  if (!archive_ || !session_) return;
  auto disputes = replay::list_disputes(*archive_, session_->game().id);
  if (!disputes) {
    // Nothing of a broken chain, and nothing of the game shown before.
    disputes_->set_disputes({});
    detail_tabs_->setTabText(3, tr("Disputes (refused)"));
    show_error(QString::fromStdString(disputes.error().message));
    return;
  }
  const int count = static_cast<int>(disputes->size());
  // Live follow asks on every write: unchanged, the list (and the row the
  // judge selected) stays as it is.
  if (!same_disputes(disputes_->disputes(), *disputes)) disputes_->set_disputes(std::move(*disputes));
  games_->set_disputes(session_->game().id, count);
  detail_tabs_->setTabText(3, tr("Disputes (%1)").arg(count));
}

Expected<void> MainWindow::add_dispute(const QString& claim, const QString& raised_by, const QString& citations) {
  if (!session_ || session_->empty()) return make_error(ErrorCode::InvalidArgument, "no event to dispute");
  replay::NewDispute d;
  d.game = session_->game().id;
  d.seq = session_->seq();
  d.claim = claim.trimmed().toStdString();
  d.raised_by = raised_by.trimmed().toStdString();
  d.citations = split_citations(citations);
  d.created_at = now_utc();
  auto id = replay::add_dispute(*archive_, d);
  if (!id) return tl::unexpected(id.error());
  load_disputes();
  statusBar()->showMessage(tr("Dispute %1 recorded at seq %2.").arg(QString::fromStdString(replay::to_string(*id))).arg(d.seq), 5000);
  return {};
}

Expected<void> MainWindow::record_ruling(const replay::DisputeId& id, const Ruling& ruling) {
  if (!archive_) return make_error(ErrorCode::InvalidArgument, "no store open");
  if (ruling.text.trimmed().isEmpty()) return make_error(ErrorCode::InvalidArgument, "a ruling needs its words");
  replay::NewRuling r;
  // "Upheld: a Lost Troop cannot fight", as the README's CLI ruling reads.
  r.ruling = ((ruling.upheld ? tr("Upheld: ") : tr("Overruled: ")) + ruling.text.trimmed()).toStdString();
  r.ruled_by = ruling.ruled_by.trimmed().toStdString();
  for (const QString& c : ruling.citations) {
    if (core::find_rule(c.toStdString()) == nullptr) {
      return make_error(ErrorCode::InvalidArgument, "no such rule " + c.toStdString() + " (warlog rules lists them)");
    }
    r.citations.push_back(c.toStdString());
  }
  r.expectation = ruling.expectation;
  r.ruled_at = now_utc();
  r.supersede = true;  // a judge ruling again from the viewer means it (an appeal)
  auto done = replay::resolve_dispute(*archive_, id, r);
  if (!done) return tl::unexpected(done.error());
  load_disputes();
  return {};
}

void MainWindow::ask_add_dispute() {
  if (!session_ || session_->empty()) return;
  auto answers = ask_form(this, tr("Dispute at seq %1").arg(session_->seq()),
                          {tr("Claim"), tr("Raised by"), tr("Citations (rule ids or text, comma-separated)")});
  if (!answers) return;
  if (auto added = add_dispute((*answers)[0], (*answers)[1], (*answers)[2]); !added) {
    show_error(QString::fromStdString(added.error().message));
  }
}

void MainWindow::ask_ruling() {
  const QModelIndex current = disputes_view_->currentIndex();
  if (!current.isValid()) {
    show_error(tr("Select a dispute to rule on."));
    return;
  }
  const auto id = replay::parse_dispute_id(current.data(DisputesModel::DisputeIdRole).toString().toStdString());
  if (!id) return;
  QDialog dialog(this);
  dialog.setObjectName(QStringLiteral("rulingDialog"));
  dialog.setWindowTitle(tr("Ruling on dispute %1").arg(QString::fromStdString(replay::to_string(*id))));
  auto* form = new QFormLayout(&dialog);
  auto* verdict = new QComboBox;
  verdict->setObjectName(QStringLiteral("verdict"));
  verdict->addItems({tr("Upheld"), tr("Overruled")});
  form->addRow(tr("The claim is"), verdict);
  auto* words = new QLineEdit;
  words->setObjectName(QStringLiteral("ruling"));
  words->setMinimumWidth(360);
  form->addRow(tr("Ruling"), words);
  // The expected finding: one of the findings at the disputed event (or
  // their absence), as `resolve --expect` / `--expect-none` take it.
  auto* expect = new QComboBox;
  expect->setObjectName(QStringLiteral("expectation"));
  expect->addItem(tr("None (no regression test)"));
  std::vector<std::optional<core::Expectation>> expectations{std::nullopt};
  if (session_) {
    const auto& all = session_->findings();
    const std::size_t from = id->seq == 0 ? 0 : all.upper_bound(id->seq - 1);
    std::vector<std::string> ids;
    for (std::size_t i = from; i < all.upper_bound(id->seq); ++i) {
      const std::string rule(all.at(i).rule_id);
      if (std::find(ids.begin(), ids.end(), rule) == ids.end()) ids.push_back(rule);
    }
    for (const std::string& rule : ids) {
      expect->addItem(tr("The audit reports %1 at seq %2").arg(QString::fromStdString(rule)).arg(id->seq));
      expectations.push_back(core::Expectation{rule, true});
      expect->addItem(tr("The audit reports no %1 at seq %2").arg(QString::fromStdString(rule)).arg(id->seq));
      expectations.push_back(core::Expectation{rule, false});
    }
  }
  form->addRow(tr("Expected finding"), expect);
  auto* cites = new QListWidget;
  cites->setObjectName(QStringLiteral("citations"));
  cites->setSelectionMode(QAbstractItemView::MultiSelection);
  for (const core::Rule& rule : core::all_rules()) {
    auto* item = new QListWidgetItem(QStringLiteral("%1 — %2").arg(QString::fromUtf8(rule.id.data(), static_cast<qsizetype>(rule.id.size())),
                                                                 QString::fromUtf8(rule.citation.data(), static_cast<qsizetype>(rule.citation.size()))));
    item->setData(Qt::UserRole, QString::fromUtf8(rule.id.data(), static_cast<qsizetype>(rule.id.size())));
    cites->addItem(item);
  }
  form->addRow(tr("Citations"), cites);
  auto* by = new QLineEdit;
  by->setObjectName(QStringLiteral("ruledBy"));
  form->addRow(tr("Ruled by"), by);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
  QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
  form->addRow(buttons);
  if (dialog.exec() != QDialog::Accepted) return;
  Ruling r;
  r.upheld = verdict->currentIndex() == 0;
  r.text = words->text();
  r.ruled_by = by->text();
  for (const QListWidgetItem* item : cites->selectedItems()) r.citations << item->data(Qt::UserRole).toString();
  r.expectation = expectations.at(static_cast<std::size_t>(std::max(0, expect->currentIndex())));
  if (auto ruled = record_ruling(*id, r); !ruled) show_error(QString::fromStdString(ruled.error().message));
}

std::optional<replay::DisputeId> MainWindow::report_dispute() const {
  const QModelIndex current = disputes_view_->currentIndex();
  if (current.isValid()) {
    if (auto id = replay::parse_dispute_id(current.data(DisputesModel::DisputeIdRole).toString().toStdString())) return id;
  }
  if (!session_) return std::nullopt;
  for (const replay::Dispute& d : disputes_->disputes()) {
    if (d.id.seq == session_->seq()) return d.id;
  }
  return std::nullopt;
}

Expected<void> MainWindow::export_dispute_report_to(const QString& path) {
  const auto id = report_dispute();
  if (!id || !archive_) {
    const Error e{ErrorCode::NotFound, session_ ? fmt::format("no dispute at seq {}: select one in the Disputes tab",
                                                              session_->seq())
                                                : std::string("no game open")};
    show_error(QString::fromStdString(e.message));
    return tl::unexpected(e);
  }
  auto report = export_dispute_report(*archive_, *id, path);
  if (!report) {
    show_error(QString::fromStdString(report.error().message));
    return tl::unexpected(report.error());
  }
  statusBar()->showMessage(tr("Wrote %1 (%2)").arg(path, QString::fromStdString(report->title)), 10000);
  return {};
}

void MainWindow::ask_export_dispute_report() {
  const auto id = report_dispute();
  if (!id) {
    show_error(session_ ? tr("No dispute at seq %1: select one in the Disputes tab.").arg(session_->seq())
                        : tr("No game open."));
    return;
  }
  const QString suggested = QStringLiteral("dispute-%1.html").arg(QString::fromStdString(replay::to_string(*id)).replace(QLatin1Char(':'), QLatin1Char('-')));
  const QString path = QFileDialog::getSaveFileName(this, tr("Export dispute report"), suggested,
                                                    tr("HTML (*.html);;Markdown (*.md);;PDF (*.pdf)"));
  if (path.isEmpty()) return;
  (void)export_dispute_report_to(path);
}

}  // namespace warlog::viewer
