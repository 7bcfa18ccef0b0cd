#pragma once
// The command line of warlog-viewer, checked before any window exists: a bad
// argument, a missing store or an unknown game is one line and exit code 2,
// even without a display.

#include <QString>
#include <QStringList>

#include <optional>
#include <string>
#include <utility>

#include "warlog/replay/replay.hpp"

namespace warlog::viewer {

inline constexpr int kExitUsage = 2;

struct LaunchOptions {
  std::string store;
  std::optional<core::GameId> game;
  std::optional<core::Seq> seq;
  std::optional<std::string> compare_ruleset;  // --compare-ruleset TOML: open in compare mode
  std::optional<std::string> compare_catalog;  // --compare-catalog CSV
  std::optional<std::string> tab;              // --tab battlefield|state|charts|compare
  std::optional<std::pair<int, int>> size;     // --size WxH: the window's size in pixels (screenshots)
  bool help = false;  // print help_text() and exit 0
};

// `args` as QCoreApplication would see them (program name first).
// Errors: InvalidArgument, the message says what and suggests --help.
[[nodiscard]] Expected<LaunchOptions> parse_launch_arguments(const QStringList& args);
[[nodiscard]] QString launch_help_text();

// Opens an existing store for the viewer: never creates one (read-only
// first), then read-write when its data file is writable, so that disputes
// and rulings can be recorded; the viewer writes nothing else (no
// snapshots). Errors: NotFound "cannot open store 'PATH': ..."; the facade's.
[[nodiscard]] Expected<replay::Archive> open_store_for_viewing(const std::string& path);

// Opens the store (open_store_for_viewing) and checks that the game and the event exist.
// Errors: NotFound "cannot open store 'PATH': ...", "game N does not exist",
// "game N has no event M ..."; the facade's otherwise.
[[nodiscard]] Expected<replay::Archive> open_for_launch(const LaunchOptions& options);

}  // namespace warlog::viewer
