#pragma once
// The command line of warlog-viewer, checked before any window exists: a bad
// argument, a missing store or an unknown game is one line and exit code 2,
// even without a display.

#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "warlog/replay/replay.hpp"

class QMessageBox;

namespace warlog::viewer {

inline constexpr int kExitUsage = 2;

struct LaunchOptions {
  std::string store;  // empty: none given (default_store)
  std::optional<core::GameId> game;
  std::optional<core::Seq> seq;
  std::optional<std::string> compare_ruleset;  // --compare-ruleset TOML: open in compare mode
  std::optional<std::string> compare_catalog;  // --compare-catalog CSV
  std::optional<std::string> tab;              // --tab battlefield|state|charts|compare
  std::optional<std::pair<int, int>> size;     // --size WxH: the window's size in pixels (screenshots)
  std::optional<std::string> rules;            // --rules DIR: the rules documents (set_rules_folder)
  bool help = false;  // print help_text() and exit 0
};

// The store to open when none is given: `env_store` ($WARLOG_STORE) when
// set, else the first of `recent` (File › Recent stores, newest first) that
// still holds a store (its data.mdb); nullopt when neither names one.
[[nodiscard]] std::optional<std::string> default_store(const QString& env_store, const QStringList& recent);
// What is said when no store is given and none is found.
[[nodiscard]] std::string no_store_message();
// Whether a person can see a window here: a display, a Qt platform other
// than offscreen or minimal, and no WARLOG_NO_DIALOGS (scripts under Xvfb). Then a store that cannot be opened is a dialog
// (as well as the line on stderr), not a line alone.
[[nodiscard]] bool dialogs_seen();
// The dialog for a store that cannot be opened (or none given): why, and a
// "Choose a store…" button (object name "choose") beside Close.
[[nodiscard]] std::unique_ptr<QMessageBox> store_failure_box(const QString& why);
// Shows store_failure_box and, if asked, a folder chooser: the folder
// chosen, or empty when closed. Needs a QApplication.
[[nodiscard]] QString ask_for_store(const QString& why);

// `args` as QCoreApplication would see them (program name first).
// Errors: InvalidArgument, the message says what and suggests --help.
[[nodiscard]] Expected<LaunchOptions> parse_launch_arguments(const QStringList& args);
[[nodiscard]] QString launch_help_text();

// Opens an existing store for the viewer: never creates one (read-only
// first), then read-write when its data file is writable, so that disputes
// and rulings can be recorded; the viewer writes nothing else (no
// snapshots). Errors: NotFound "cannot open store 'PATH': ..."; the facade's.
[[nodiscard]] Expected<replay::Archive> open_store_for_viewing(const std::string& path);

// That the game and event asked for exist in the store. Errors: NotFound
// "game N does not exist", "game N has no event M (its events are 0..K)".
[[nodiscard]] Expected<void> check_launch_game(const replay::Archive& archive, const LaunchOptions& options);

// Opens the store (open_store_for_viewing) and checks that the game and the event exist.
// Errors: NotFound "cannot open store 'PATH': ...", "game N does not exist",
// "game N has no event M ..."; the facade's otherwise.
[[nodiscard]] Expected<replay::Archive> open_for_launch(const LaunchOptions& options);

}  // namespace warlog::viewer
