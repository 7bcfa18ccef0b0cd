#include "launch.hpp"

#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
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
      "Ctrl+D first divergence in compare mode. A store another process writes shows its new games and events as they come.\n"
      "Ctrl+R: the record bar under the timeline records a line of notation into the game shown, as\n"
      "`warlog record` does (Escape: back to the timeline; docs/recording.md).\n"
      "Qt's own options (-platform ...) are not taken here: set QT_QPA_PLATFORM instead."));
  // Not addHelpOption(): its --help-all offers Qt's options, which are not taken.
  parser.addOption(help_option());
  parser.addPositionalArgument(QStringLiteral("STORE"), QStringLiteral("The store directory (see `warlog import`)."));
  parser.addOption(game_option());
  parser.addOption(seq_option());
  parser.addOption(compare_ruleset_option());
  parser.addOption(compare_catalog_option());
  parser.addOption(tab_option());
  parser.addOption(size_option());
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
  if (positional.size() != 1) return make_error(ErrorCode::InvalidArgument, "expected one STORE path (try --help)");
  out.store = positional.front().toStdString();
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

Expected<replay::Archive> open_for_launch(const LaunchOptions& options) {
  auto archive = open_store_for_viewing(options.store);
  if (!archive) return archive;
  if (options.game) {
    auto summary = archive->game(*options.game);
    if (!summary) return tl::unexpected(summary.error());
    // Seqs run 0..events-1 in a game's stream.
    if (options.seq && *options.seq >= summary->events) {
      return make_error(ErrorCode::NotFound, fmt::format("game {} has no event {} (its events are 0..{})",
                                                         *options.game, *options.seq,
                                                         summary->events == 0 ? 0 : summary->events - 1));
    }
  }
  return archive;
}

}  // namespace warlog::viewer
