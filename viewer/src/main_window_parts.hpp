#pragma once
// Small pieces the MainWindow files share: view factories and text.
// Internal to the viewer.

#include <QLabel>
#include <QString>
#include <QTableView>
#include <QTreeView>

#include <filesystem>
#include <optional>
#include <string_view>
#include <vector>

#include "game_list_model.hpp"
#include "warlog/replay/finding_list.hpp"
#include "warlog/replay/replay.hpp"

namespace warlog::viewer {

class StateModel;

// A pane: a small bold heading over a widget.
[[nodiscard]] QWidget* titled(const QString& title, QWidget* body, QLabel** heading_out = nullptr);
[[nodiscard]] QTableView* make_table();
// A state tree over `model`: sections span the row and open expanded.
[[nodiscard]] QTreeView* make_state_tree(StateModel* model);
// Findings tables: the message takes what is left; the citation is whole.
void stretch_message(QTableView* view);

// Changes and compare tables: where and what fit their text, the two values
// share the rest.
void two_value_columns(QTableView* view);

[[nodiscard]] std::vector<core::Seq> finding_seqs(const replay::FindingList& findings);
// What the game list shows of an audited game: its result from the final
// state (and the violations it rests on, when `rests` says), and its counts
// of findings and of violations among them.
[[nodiscard]] GameListModel::Facts facts_of(const replay::GameSummary& game, const core::GameState& final_state,
                                            std::size_t findings, std::size_t violations,
                                            const replay::RestsOn* rests = nullptr);
// The rule's id, citation, severity, basis and paraphrase (rules register),
// as rich text for the rule pane; a line saying so for an unknown id.
// The section's own words come from the rules folder: the one given here
// (warlog-viewer --rules DIR, before the first rule is shown), else
// replay::find_rules_folder's search.
[[nodiscard]] QString rule_text_html(std::string_view rule_id);
void set_rules_folder(std::filesystem::path folder);
// The folder --rules gave, if any (the report is read from the same).
[[nodiscard]] const std::optional<std::filesystem::path>& rules_folder_given();

}  // namespace warlog::viewer
