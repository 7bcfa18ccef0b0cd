// warlog-viewer STORE [--game ID] [--seq N]: opens a store's games, at a
// moment when asked. Arguments and the store are checked before QApplication
// exists (it needs a display), so bad input fails with one line, exit code 2.

#include <QApplication>
#include <QSettings>
#include <QTabWidget>

#include <cstdio>

#include "game_list_model.hpp"
#include "launch.hpp"
#include "main_window.hpp"
#include "main_window_parts.hpp"

namespace {

int fail(const std::string& message) {
  std::fprintf(stderr, "warlog-viewer: %s\n", message.c_str());
  return warlog::viewer::kExitUsage;
}

}  // namespace

int main(int argc, char* argv[]) {
  using namespace warlog;
  QCoreApplication::setApplicationName(QStringLiteral("warlog-viewer"));
  QCoreApplication::setOrganizationName(QStringLiteral("warlog"));

  QStringList args;
  for (int i = 0; i < argc; ++i) args << QString::fromLocal8Bit(argv[i]);
  auto options = viewer::parse_launch_arguments(args);
  if (!options) return fail(options.error().message);
  if (options->help) {
    std::fputs(viewer::launch_help_text().toLocal8Bit().constData(), stdout);
    return 0;
  }
  if (options->rules) viewer::set_rules_folder(*options->rules);
  if (options->store.empty()) {
    // No STORE: $WARLOG_STORE, else the most recent store opened.
    const QStringList recent = QSettings().value(QStringLiteral("recentStores")).toStringList();
    if (auto found = viewer::default_store(qEnvironmentVariable("WARLOG_STORE"), recent)) options->store = *found;
  }
  Expected<replay::Archive> archive = options->store.empty()
                                          ? make_error(ErrorCode::InvalidArgument, viewer::no_store_message())
                                          : viewer::open_store_for_viewing(options->store);
  // Where nobody would see a dialog (no display, offscreen, a script), a
  // store that cannot be opened is one line and exit 2; a bad --game or
  // --seq always is (another store would not have it either).
  const bool dialogs = viewer::dialogs_seen();
  if (!archive && !dialogs) return fail(archive.error().message);
  if (archive) {
    if (auto ok = viewer::check_launch_game(*archive, *options); !ok) return fail(ok.error().message);
  }
  // Without a display Qt aborts (exit 134) with a page about platform
  // plugins; one line and exit 2 instead, like every other error here.
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY") &&
      qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")) {
    return fail("no display to open a window on: run it in a desktop session, under xvfb-run, or set "
                "QT_QPA_PLATFORM=offscreen");
  }

  replay::AuditOptions candidate;
  QString candidate_label;
  if (options->compare_ruleset) {
    auto r = core::load_ruleset(*options->compare_ruleset);
    if (!r) return fail(r.error().message);
    candidate.ruleset = std::move(*r);
    candidate_label = QString::fromStdString(*options->compare_ruleset).section(QLatin1Char('/'), -1);
  }
  if (options->compare_catalog) {
    auto c = core::load_catalog(*options->compare_catalog);
    if (!c) return fail(c.error().message);
    candidate.catalog = std::move(*c);
    if (!candidate_label.isEmpty()) candidate_label += QStringLiteral(" + ");
    candidate_label += QString::fromStdString(*options->compare_catalog).section(QLatin1Char('/'), -1);
  }

  QApplication app(argc, argv);
  // A store that cannot be opened, or none found: a dialog says why and
  // offers to choose another (the line on stderr too, for a terminal).
  while (!archive) {
    std::fprintf(stderr, "warlog-viewer: %s\n", archive.error().message.c_str());
    const QString chosen = viewer::ask_for_store(QString::fromStdString(archive.error().message));
    if (chosen.isEmpty()) return viewer::kExitUsage;
    options->store = chosen.toStdString();
    archive = viewer::open_store_for_viewing(options->store);
    if (archive) {
      if (auto ok = viewer::check_launch_game(*archive, *options); !ok) return fail(ok.error().message);
    }
  }
  viewer::MainWindow window(std::make_shared<replay::Archive>(std::move(*archive)));
  if (auto listed = window.load_games(); !listed) return fail(listed.error().message);
  std::optional<core::GameId> game = options->game;
  if (!game && !window.game_list_model()->games().empty()) game = window.game_list_model()->games().front().id;
  if (game) {
    if (auto opened = window.open_game(*game); !opened) return fail(opened.error().message);
  }
  if (options->seq && window.session()) window.session()->go_to(*options->seq);
  if ((candidate.ruleset || candidate.catalog) && window.session()) {
    if (auto compared = window.compare_with(candidate, candidate_label); !compared) return fail(compared.error().message);
    window.view_tabs()->setCurrentWidget(window.compare_page());
  }
  if (options->tab) {
    const QStringList tabs{QStringLiteral("battlefield"), QStringLiteral("state"), QStringLiteral("charts"),
                           QStringLiteral("compare")};
    window.view_tabs()->setCurrentIndex(static_cast<int>(tabs.indexOf(QString::fromStdString(*options->tab))));
  }
  if (options->size) window.resize(options->size->first, options->size->second);
  window.show();
  return QApplication::exec();
}
