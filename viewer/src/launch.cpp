#include "launch.hpp"

#include <QCommandLineParser>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>

#include <fmt/format.h>

namespace warlog::viewer {

namespace {

const QCommandLineOption& help_option() {
  static const QCommandLineOption opt(QStringList{QStringLiteral("h"), QStringLiteral("help")},
                                      QStringLiteral("Displays this help."));
  return opt;
}

const QCommandLineOption& game_option() {
  static const QCommandLineOption opt(QStringLiteral("game"), QStringLiteral("Open game ID."), QStringLiteral("ID"));
  return opt;
}

const QCommandLineOption& compare_ruleset_option() {
  static const QCommandLineOption opt(QStringLiteral("compare-ruleset"),
                                      QStringLiteral("Compare mode: the game also under this ruleset TOML."),
                                      QStringLiteral("TOML"));
  return opt;
}

const QCommandLineOption& compare_catalog_option() {
  static const QCommandLineOption opt(QStringLiteral("compare-catalog"),
                                      QStringLiteral("Compare mode: the game also under this card catalog CSV."),
                                      QStringLiteral("CSV"));
  return opt;
}

const QCommandLineOption& tab_option() {
  static const QCommandLineOption opt(QStringLiteral("tab"),
                                      QStringLiteral("Show this view first: battlefield, state, charts or compare."),
                                      QStringLiteral("VIEW"));
  return opt;
}

const QCommandLineOption& size_option() {
  static const QCommandLineOption opt(QStringLiteral("size"), QStringLiteral("Window size in pixels, e.g. 1920x1080."),
                                      QStringLiteral("WxH"));
  return opt;
}

const QCommandLineOption& rules_option() {
  static const QCommandLineOption opt(QStringLiteral("rules"),
                                      QStringLiteral("The folder of the rules documents the rule pane quotes (default: "
                                                     "$WARLOG_RULES, else the folder this build was configured with)."),
                                      QStringLiteral("DIR"));
  return opt;
}

const QCommandLineOption& seq_option() {
  static const QCommandLineOption opt(QStringLiteral("seq"), QStringLiteral("Open at event N (needs --game)."),
                                      QStringLiteral("N"));
  return opt;
}

void describe(QCommandLineParser& parser) {
  parser.setApplicationDescription(QStringLiteral(
      "Replays the games of a warlog store: steps through events, shows the state and the findings.\n"
      "Keys: Left/Right step, PgUp/PgDn phase, Ctrl+PgUp/PgDn turn, Home/End, Ctrl+G go to seq,\n"
      "F3/Shift+F3 next/previous finding, Ctrl+F3 first finding (comparing: the candidate's too),\n"
      "Ctrl+D first divergence in compare mode, Ctrl+B the board before the current event, Ctrl+0..3 seen as\n"
      "the judge, seat 1, seat 2 or the public, Alt+1..5 the detail tabs, Alt+6 the rule's words, Esc back to\n"
      "the timeline, Ctrl+E export the dispute's report (HTML, Markdown, PDF).\n"
      "A store another process writes shows its new games and events as they come.\n"
      "Without STORE: $WARLOG_STORE, else the most recent store opened (File › Recent stores), else a\n"
      "dialog asks for one. A store that cannot be opened is a dialog where a window can be seen, and a line on stderr.\n"
      "Ctrl+R: the record bar under the timeline records a line of notation into the game shown, as\n"
      "`warlog record` does (Escape: back to the timeline; docs/recording.md).\n"
      "Qt's own options (-platform ...) are not taken here: set QT_QPA_PLATFORM instead."));
  // Not addHelpOption(): its --help-all offers Qt's options, which are not taken.
  parser.addOption(help_option());
  parser.addPositionalArgument(QStringLiteral("STORE"),
                               QStringLiteral("The store directory (see `warlog import`); optional, see above."),
                               QStringLiteral("[STORE]"));
  parser.addOption(game_option());
  parser.addOption(seq_option());
  parser.addOption(compare_ruleset_option());
  parser.addOption(compare_catalog_option());
  parser.addOption(tab_option());
  parser.addOption(size_option());
  parser.addOption(rules_option());
}

std::optional<std::uint64_t> parse_number(const QString& text) {
  bool ok = false;
  const qulonglong n = text.toULongLong(&ok);
  if (!ok) return std::nullopt;
  return n;
}

}  // namespace

QString launch_help_text() {
  QCommandLineParser parser;
  describe(parser);
  // The parser names the program after QCoreApplication's argv[0], and
  // "<executable_name>" before one exists, which is the case in main().
  return parser.helpText().replace(QRegularExpression(QStringLiteral("^Usage: \\S+")),
                                   QStringLiteral("Usage: warlog-viewer"));
}

Expected<LaunchOptions> parse_launch_arguments(const QStringList& args) {
  QCommandLineParser parser;
  describe(parser);
  if (!parser.parse(args)) return make_error(ErrorCode::InvalidArgument, parser.errorText().toStdString() + " (try --help)");
  LaunchOptions out;
  if (parser.isSet(help_option())) {
    out.help = true;
    return out;
  }
  const QStringList positional = parser.positionalArguments();
  if (positional.size() > 1) return make_error(ErrorCode::InvalidArgument, "expected at most one STORE path (try --help)");
  if (!positional.isEmpty()) out.store = positional.front().toStdString();
  if (out.store.empty() && positional.size() == 1) return make_error(ErrorCode::InvalidArgument, "STORE is empty (try --help)");
  if (parser.isSet(rules_option())) {
    out.rules = parser.value(rules_option()).toStdString();
    if (!QFileInfo(parser.value(rules_option())).isDir()) {
      return make_error(ErrorCode::InvalidArgument,
                        "--rules expects the folder of the rules documents, and '" + *out.rules + "' is not a folder");
    }
  }
  if (parser.isSet(game_option())) {
    out.game = parse_number(parser.value(game_option()));
    if (!out.game) {
      return make_error(ErrorCode::InvalidArgument,
                        "--game expects a game id, got '" + parser.value(game_option()).toStdString() + "'");
    }
  }
  if (parser.isSet(seq_option())) {
    if (!out.game) return make_error(ErrorCode::InvalidArgument, "--seq needs --game");
    out.seq = parse_number(parser.value(seq_option()));
    if (!out.seq) {
      return make_error(ErrorCode::InvalidArgument,
                        "--seq expects an event number, got '" + parser.value(seq_option()).toStdString() + "'");
    }
  }
  if (parser.isSet(compare_ruleset_option())) out.compare_ruleset = parser.value(compare_ruleset_option()).toStdString();
  if (parser.isSet(compare_catalog_option())) out.compare_catalog = parser.value(compare_catalog_option()).toStdString();
  if (parser.isSet(tab_option())) {
    const QString tab = parser.value(tab_option()).toLower();
    static const QStringList tabs{QStringLiteral("battlefield"), QStringLiteral("state"), QStringLiteral("charts"),
                                  QStringLiteral("compare")};
    if (!tabs.contains(tab)) {
      return make_error(ErrorCode::InvalidArgument,
                        "--tab expects battlefield, state, charts or compare, got '" + tab.toStdString() + "'");
    }
    out.tab = tab.toStdString();
  }
  if (parser.isSet(size_option())) {
    static const QRegularExpression re(QStringLiteral("^(\\d{3,5})x(\\d{3,5})$"));
    const auto m = re.match(parser.value(size_option()));
    if (!m.hasMatch()) {
      return make_error(ErrorCode::InvalidArgument,
                        "--size expects WIDTHxHEIGHT, got '" + parser.value(size_option()).toStdString() + "'");
    }
    out.size = std::pair{m.captured(1).toInt(), m.captured(2).toInt()};
  }
  return out;
}

Expected<replay::Archive> open_store_for_viewing(const std::string& path) {
  auto archive = replay::Archive::open(path, replay::Archive::Mode::ReadOnly);
  if (!archive) return make_error(archive.error().code, fmt::format("cannot open store '{}': {}", path, archive.error().message));
  const QString data = QDir(QString::fromStdString(path)).filePath(QStringLiteral("data.mdb"));
  if (!QFileInfo(data).isWritable()) return archive;
  {
    replay::Archive closing = std::move(*archive);  // one environment per store per process
  }
  auto writable = replay::Archive::open(path, replay::Archive::Mode::ReadWrite);
  if (writable) return writable;
  // Lost a race for the files, or the lock file is not ours: read-only still works.
  return replay::Archive::open(path, replay::Archive::Mode::ReadOnly);
}

Expected<void> check_launch_game(const replay::Archive& archive, const LaunchOptions& options) {
  if (!options.game) return {};
  auto summary = archive.game(*options.game);
  if (!summary) return tl::unexpected(summary.error());
  // Seqs run 0..events-1 in a game's stream.
  if (options.seq && *options.seq >= summary->events) {
    return make_error(ErrorCode::NotFound, fmt::format("game {} has no event {} (its events are 0..{})", *options.game,
                                                       *options.seq, summary->events == 0 ? 0 : summary->events - 1));
  }
  return {};
}

Expected<replay::Archive> open_for_launch(const LaunchOptions& options) {
  auto archive = open_store_for_viewing(options.store);
  if (!archive) return archive;
  if (auto ok = check_launch_game(*archive, options); !ok) return tl::unexpected(ok.error());
  return archive;
}

std::optional<std::string> default_store(const QString& env_store, const QStringList& recent) {
  if (!env_store.isEmpty()) return env_store.toStdString();
  for (const QString& path : recent) {
    if (QFileInfo(QDir(path).filePath(QStringLiteral("data.mdb"))).isFile()) return path.toStdString();
  }
  return std::nullopt;
}

std::string no_store_message() {
  return "no STORE given, $WARLOG_STORE is not set and no recent store is remembered: give the store directory "
         "(warlog import writes one; try --help)";
}

bool dialogs_seen() {
  if (!qEnvironmentVariableIsEmpty("WARLOG_NO_DIALOGS")) return false;  // a script under Xvfb
  const QString platform = qEnvironmentVariable("QT_QPA_PLATFORM");
  if (platform.startsWith(QLatin1String("offscreen")) || platform.startsWith(QLatin1String("minimal"))) return false;
  return !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
}

std::unique_ptr<QMessageBox> store_failure_box(const QString& why) {
  auto box = std::make_unique<QMessageBox>(QMessageBox::Critical, QStringLiteral("warlog-viewer"), why);
  box->setInformativeText(QObject::tr("Choose a store directory (one that warlog import wrote) to open?"));
  box->addButton(QObject::tr("Choose a store…"), QMessageBox::AcceptRole)->setObjectName(QStringLiteral("choose"));
  box->addButton(QMessageBox::Close);
  return box;
}

QString ask_for_store(const QString& why) {
  const auto box = store_failure_box(why);
  box->exec();
  if (box->clickedButton() == nullptr || box->clickedButton()->objectName() != QLatin1String("choose")) return {};
  return QFileDialog::getExistingDirectory(nullptr, QObject::tr("Open a warlog store"), QDir::homePath());
}

}  // namespace warlog::viewer
