#include "main_window_parts.hpp"

#include <QFont>
#include <QHeaderView>
#include <QVBoxLayout>

#include <filesystem>

#include "changes_model.hpp"
#include "findings_model.hpp"
#include "state_model.hpp"
#include "warlog/replay/rests_on.hpp"
#include "warlog/replay/rule_diff.hpp"
#include "warlog/replay/rule_text.hpp"

namespace warlog::viewer {

namespace {

QString str(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

}  // namespace

QWidget* titled(const QString& title, QWidget* body, QLabel** heading_out) {
  auto* pane = new QWidget;
  auto* layout = new QVBoxLayout(pane);
  layout->setContentsMargins(4, 4, 4, 0);
  layout->setSpacing(2);
  auto* heading = new QLabel(title);
  QFont f = heading->font();
  f.setBold(true);
  heading->setFont(f);
  layout->addWidget(heading);
  layout->addWidget(body, 1);
  if (heading_out) *heading_out = heading;
  return pane;
}

QTableView* make_table() {
  auto* view = new QTableView;
  view->setSelectionBehavior(QAbstractItemView::SelectRows);
  view->setSelectionMode(QAbstractItemView::SingleSelection);
  view->setAlternatingRowColors(true);
  view->setWordWrap(false);
  view->verticalHeader()->hide();
  view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
  view->horizontalHeader()->setHighlightSections(false);
  view->horizontalHeader()->setStretchLastSection(true);
  // Tab leaves the table (it does not walk its cells and wrap onto the next
  // row: in the game list that silently opened another game).
  view->setTabKeyNavigation(false);
  return view;
}

QTreeView* make_state_tree(StateModel* model) {
  auto* view = new QTreeView;
  view->setModel(model);
  view->setUniformRowHeights(true);
  view->setAlternatingRowColors(true);
  view->header()->setSectionResizeMode(QHeaderView::Interactive);
  view->header()->setStretchLastSection(true);
  const QFontMetrics fm = view->fontMetrics();
  view->setColumnWidth(StateModel::Item, fm.horizontalAdvance(QStringLiteral("Provisions (supply / cost)")) + 60);
  view->setColumnWidth(StateModel::Value, fm.horizontalAdvance(QStringLiteral("Rebel Captain Moss")) + 16);
  view->setColumnWidth(StateModel::Owner, fm.horizontalAdvance(QStringLiteral("Bruno Bruno")) + 8);
  view->setColumnWidth(StateModel::Condition, fm.horizontalAdvance(QStringLiteral("Vitality 3/3 · Morale 0")) + 16);
  // A section is a heading: its title may span the row.
  QObject::connect(model, &QAbstractItemModel::modelReset, view, [view, model] {
    for (int s = 0; s < model->rowCount(); ++s) view->setFirstColumnSpanned(s, {}, true);
    view->expandAll();
  });
  return view;
}

void stretch_message(QTableView* view) {
  view->horizontalHeader()->setStretchLastSection(false);
  view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  view->horizontalHeader()->setSectionResizeMode(FindingsModel::Message, QHeaderView::Stretch);
}

void two_value_columns(QTableView* view) {
  QHeaderView* h = view->horizontalHeader();
  h->setStretchLastSection(false);
  h->setSectionResizeMode(QHeaderView::ResizeToContents);
  h->setSectionResizeMode(ChangesModel::Before, QHeaderView::Stretch);
  h->setSectionResizeMode(ChangesModel::After, QHeaderView::Stretch);
}

std::vector<core::Seq> finding_seqs(const replay::FindingList& findings) {
  std::vector<core::Seq> out;
  out.reserve(findings.size());
  for (std::size_t i = 0; i < findings.size(); ++i) out.push_back(findings.seq(i));
  return out;
}

GameListModel::Facts facts_of(const replay::GameSummary& game, const core::GameState& s, std::size_t findings,
                              std::size_t violations, const replay::RestsOn* rests) {
  GameListModel::Facts facts;
  facts.result = replay::describe(replay::outcome_of(s), game);
  if (rests != nullptr && !rests->result.empty()) {
    facts.result += " (rests on " + replay::violations_text(rests->result) + ")";
  }
  facts.findings = static_cast<int>(findings);
  facts.violations = static_cast<int>(violations);
  return facts;
}

namespace {

std::optional<std::filesystem::path>& given_rules_folder() {
  static std::optional<std::filesystem::path> folder;
  return folder;
}

}  // namespace

void set_rules_folder(std::filesystem::path folder) { given_rules_folder() = std::move(folder); }

const std::optional<std::filesystem::path>& rules_folder_given() { return given_rules_folder(); }

QString rule_text_html(std::string_view rule_id) {
  const core::Rule* rule = core::find_rule(rule_id);
  if (!rule) return QObject::tr("Rule %1 is not in this engine's rules register.").arg(str(rule_id).toHtmlEscaped());
  QString basis;
  switch (rule->basis) {
    case core::Basis::Written: basis = QObject::tr("written"); break;
    case core::Basis::Assumed: basis = QObject::tr("assumed: rests on an unpublished page"); break;
    case core::Basis::Warlog: basis = QObject::tr("warlog: a rule of the log itself, on no rules page"); break;
  }
  QString html = QStringLiteral("<b>%1</b> · %2 · %3 (%4)<br>%5")
                     .arg(str(rule->id).toHtmlEscaped(), str(rule->citation).toHtmlEscaped(),
                          str(core::to_string(rule->severity)), basis, str(rule->summary).toHtmlEscaped());
  if (!rule->option.empty()) html += QObject::tr("<br><i>Ruleset option:</i> %1").arg(str(rule->option).toHtmlEscaped());
  if (!rule->ruling.empty()) html += QObject::tr(" · <i>ruling</i> %1").arg(str(rule->ruling).toHtmlEscaped());
  // The section's own words, read from the rules documents (never copied
  // into warlog); the folder is looked for once per process.
  static const Expected<std::filesystem::path> folder = replay::find_rules_folder(given_rules_folder());
  const auto section = replay::rule_section(*rule, folder);
  if (section) {
    html += QObject::tr("<p><i>%1, lines %2–%3:</i></p>")
                .arg(str(section->document).toHtmlEscaped())
                .arg(section->lines.first)
                .arg(section->lines.last);
    html += QStringLiteral("<blockquote style=\"white-space: pre-wrap\">%1</blockquote>")
                .arg(str(section->text).trimmed().toHtmlEscaped());
  } else {
    html += QObject::tr("<p><i>The rule's own words cannot be shown: %1</i></p>")
                .arg(str(section.error().message).toHtmlEscaped());
  }
  return html;
}

}  // namespace warlog::viewer
