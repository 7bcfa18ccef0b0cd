// warlog-viewer's command line: bad input is one line and exit code 2.

#include <gtest/gtest.h>

#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QProcess>
#include <QProcessEnvironment>

#include <unistd.h>

#include <filesystem>

#include "launch.hpp"
#include "sample_store.hpp"

namespace warlog::viewer {
namespace {

QStringList args(std::initializer_list<const char*> rest) {
  QStringList out{QStringLiteral("warlog-viewer")};
  for (const char* a : rest) out << QString::fromUtf8(a);
  return out;
}

TEST(LaunchArguments, TakeAStoreAGameAndASeq) {
  const auto o = parse_launch_arguments(args({"/tmp/store", "--game", "3", "--seq", "17"}));
  ASSERT_TRUE(o) << o.error().message;
  EXPECT_EQ(o->store, "/tmp/store");
  EXPECT_EQ(o->game, 3u);
  EXPECT_EQ(o->seq, 17u);
  EXPECT_FALSE(o->help);
}

TEST(LaunchArguments, TakeCompareModeAViewAndASize) {
  const auto o = parse_launch_arguments(args({"/tmp/store", "--game", "1", "--compare-ruleset", "wip.toml",
                                              "--compare-catalog", "errata.csv", "--tab", "Charts", "--size",
                                              "1920x1080"}));
  ASSERT_TRUE(o) << o.error().message;
  EXPECT_EQ(o->compare_ruleset, "wip.toml");
  EXPECT_EQ(o->compare_catalog, "errata.csv");
  EXPECT_EQ(o->tab, "charts");
  ASSERT_TRUE(o->size);
  EXPECT_EQ(o->size->first, 1920);
  EXPECT_EQ(o->size->second, 1080);
}

TEST(LaunchArguments, HelpNeedsNoStore) {
  const auto o = parse_launch_arguments(args({"--help"}));
  ASSERT_TRUE(o);
  EXPECT_TRUE(o->help);
  EXPECT_TRUE(launch_help_text().contains(QStringLiteral("--seq")));
  EXPECT_TRUE(launch_help_text().startsWith(QStringLiteral("Usage: warlog-viewer")));
}

TEST(LaunchArguments, RejectBadInputWithOneLine) {
  for (const auto& bad : {args({"a", "b"}), args({"s", "--rules", "/nonexistent/rules"}), args({"s", "--game", "x"}), args({"s", "--seq", "1"}),
                          args({"s", "--game", "1", "--seq", "-4"}), args({"s", "--frobnicate"}),
                          args({"s", "--tab", "timeline"}), args({"s", "--size", "big"}),
                          args({"s", "--size", "1920x"})}) {
    const auto o = parse_launch_arguments(bad);
    ASSERT_FALSE(o) << bad.join(' ').toStdString();
    EXPECT_EQ(o.error().code, ErrorCode::InvalidArgument);
    EXPECT_EQ(o.error().message.find('\n'), std::string::npos) << o.error().message;
  }
}

// Issue 18: started with no store, the viewer opens $WARLOG_STORE or the
// most recent store that still exists, and asks otherwise.
TEST(LaunchArguments, AStoreIsOptionalAndRulesNamesAFolder) {
  const auto o = parse_launch_arguments(args({"--game", "2", "--rules", WARLOG_SOURCE_DIR}));
  ASSERT_TRUE(o) << o.error().message;
  EXPECT_TRUE(o->store.empty());
  EXPECT_EQ(o->rules, std::string(WARLOG_SOURCE_DIR));
  EXPECT_TRUE(launch_help_text().contains(QStringLiteral("--rules")));
  EXPECT_TRUE(launch_help_text().contains(QStringLiteral("[STORE]")));
}

TEST(DefaultStore, IsTheEnvironmentsElseTheMostRecentThatStillExists) {
  const QString samples = QString::fromStdString(warlog::testing::sample_store().dir.string());
  const QStringList recent{QStringLiteral("/nonexistent/gone"), samples, QStringLiteral("/tmp")};
  EXPECT_EQ(default_store(QStringLiteral("/from/env"), recent), "/from/env");
  EXPECT_EQ(default_store({}, recent), samples.toStdString()) << "the newest that still holds a data.mdb";
  EXPECT_EQ(default_store({}, {QStringLiteral("/nonexistent/gone"), QStringLiteral("/tmp")}), std::nullopt);
  EXPECT_NE(no_store_message().find("$WARLOG_STORE"), std::string::npos);
}

TEST(StoreFailureBox, SaysWhyAndOffersAnotherStore) {
  const auto box = store_failure_box(QStringLiteral("cannot open store '/x': not found"));
  EXPECT_EQ(box->text(), QStringLiteral("cannot open store '/x': not found"));
  EXPECT_NE(box->findChild<QPushButton*>(QStringLiteral("choose")), nullptr);
  EXPECT_NE(box->button(QMessageBox::Close), nullptr);
}

TEST(DialogsSeen, NeverUnderTheOffscreenPlatform) {
  // The suite runs offscreen: a dialog there would wait for nobody.
  ASSERT_TRUE(qEnvironmentVariable("QT_QPA_PLATFORM").startsWith(QLatin1String("offscreen")));
  EXPECT_FALSE(dialogs_seen());
  // A display a person sees, unless a script says nobody does.
  const QByteArray platform = qgetenv("QT_QPA_PLATFORM");
  const QByteArray display = qgetenv("DISPLAY");
  qputenv("QT_QPA_PLATFORM", "xcb");
  qputenv("DISPLAY", ":5");
  EXPECT_TRUE(dialogs_seen());
  qputenv("WARLOG_NO_DIALOGS", "1");
  EXPECT_FALSE(dialogs_seen());
  qunsetenv("WARLOG_NO_DIALOGS");
  qputenv("QT_QPA_PLATFORM", platform);
  if (display.isEmpty()) {
    qunsetenv("DISPLAY");
  } else {
    qputenv("DISPLAY", display);
  }
}

TEST(OpenForLaunch, AMissingStoreIsNotFoundAndNamesThePath) {
  LaunchOptions o;
  o.store = "/nonexistent/warlog-store";
  const auto a = open_for_launch(o);
  ASSERT_FALSE(a);
  EXPECT_EQ(a.error().code, ErrorCode::NotFound);
  EXPECT_NE(a.error().message.find("/nonexistent/warlog-store"), std::string::npos) << a.error().message;
}

TEST(OpenForLaunch, AnUnknownGameOrSeqIsNotFound) {
  LaunchOptions o;
  o.store = warlog::testing::sample_store().dir.string();
  o.game = 987654;
  {
    const auto a = open_for_launch(o);
    ASSERT_FALSE(a);
    EXPECT_EQ(a.error().code, ErrorCode::NotFound);
  }
  o.game = warlog::testing::sample_store().first_blood;
  o.seq = 1'000'000;
  {
    const auto a = open_for_launch(o);
    ASSERT_FALSE(a);
    EXPECT_EQ(a.error().code, ErrorCode::NotFound);
    EXPECT_NE(a.error().message.find("no event 1000000"), std::string::npos) << a.error().message;
  }
  o.seq = 3;
  EXPECT_TRUE(open_for_launch(o));
}

// The executable itself, for the exit codes a script sees.
struct ProcessRun {
  int exit_code = -1;
  QString out;
  QString err;
};

ProcessRun run_viewer(const QStringList& arguments, const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
  const QString exe = QStringLiteral(WARLOG_BINARY_DIR "/viewer/warlog-viewer");
  if (!QFileInfo::exists(exe)) return {};
  QProcess p;
  p.setProcessEnvironment(env);
  p.start(exe, arguments);
  if (!p.waitForFinished(30000)) {
    p.kill();
    p.waitForFinished();
    return {};
  }
  return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
          QString::fromUtf8(p.readAllStandardError())};
}

TEST(ViewerExecutable, AMissingStoreExitsTwoWithOneLine) {
  const ProcessRun r = run_viewer({QStringLiteral("/nonexistent/warlog-store")});
  EXPECT_EQ(r.exit_code, kExitUsage) << r.err.toStdString();
  EXPECT_TRUE(r.err.startsWith(QStringLiteral("warlog-viewer: cannot open store"))) << r.err.toStdString();
  EXPECT_EQ(r.err.count(QLatin1Char('\n')), 1) << r.err.toStdString();
}

TEST(ViewerExecutable, NoStoreAndNoneRememberedExitsTwoWithOneLine) {
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.remove(QStringLiteral("WARLOG_STORE"));
  // A settings folder of its own: no recent store remembered.
  const QString config = QString::fromStdString(
      (std::filesystem::temp_directory_path() / ("warlog-viewer-nostore-" + std::to_string(::getpid()))).string());
  env.insert(QStringLiteral("XDG_CONFIG_HOME"), config);
  const ProcessRun r = run_viewer({}, env);
  EXPECT_EQ(r.exit_code, kExitUsage) << r.err.toStdString();
  EXPECT_TRUE(r.err.startsWith(QStringLiteral("warlog-viewer: no STORE given"))) << r.err.toStdString();
  EXPECT_EQ(r.err.count(QLatin1Char('\n')), 1) << r.err.toStdString();
  std::filesystem::remove_all(config.toStdString());
}

TEST(ViewerExecutable, AnUnknownGameExitsTwo) {
  const ProcessRun r = run_viewer({QString::fromStdString(warlog::testing::sample_store().dir.string()),
                            QStringLiteral("--game"), QStringLiteral("987654")});
  EXPECT_EQ(r.exit_code, kExitUsage) << r.err.toStdString();
  EXPECT_TRUE(r.err.contains(QStringLiteral("987654"))) << r.err.toStdString();
}

// Qt alone would abort (exit 134) with a page about platform plugins.
TEST(ViewerExecutable, NoDisplayExitsTwoWithOneLine) {
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  for (const char* name : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"}) env.remove(QString::fromLatin1(name));
  const ProcessRun r = run_viewer({QString::fromStdString(warlog::testing::sample_store().dir.string())}, env);
  EXPECT_EQ(r.exit_code, kExitUsage) << r.err.toStdString();
  EXPECT_TRUE(r.err.startsWith(QStringLiteral("warlog-viewer: no display"))) << r.err.toStdString();
  EXPECT_EQ(r.err.count(QLatin1Char('\n')), 1) << r.err.toStdString();

  // --help needs no display.
  EXPECT_EQ(run_viewer({QStringLiteral("--help")}, env).exit_code, 0);
}

TEST(ViewerExecutable, HelpExitsZero) {
  const ProcessRun r = run_viewer({QStringLiteral("--help")});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(r.out.contains(QStringLiteral("STORE")));
}

}  // namespace
}  // namespace warlog::viewer
