// One QApplication for the whole test program, on the offscreen platform,
// made before any test runs (gtest_main owns main()).

#include <gtest/gtest.h>

#include <QApplication>
#include <QTemporaryDir>

#include <memory>
#include <stdexcept>

namespace {

class QtEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    // Settings (recent stores, layout) go to a directory of this process's
    // own, not the user's and not one shared with the other test processes
    // ctest runs at the same time (a shared one let a live-follow test's
    // store become the most recent while another test read the list).
    if (!settings_.isValid()) throw std::runtime_error("no temporary directory for the test settings");
    qputenv("XDG_CONFIG_HOME", settings_.path().toLocal8Bit());
    // So do the seek snapshots (and their key, under XDG_CONFIG_HOME): the
    // sessions on the shared sample store open the default cache. Tests
    // that lay snapshots give each store copy its own (StoreCopy).
    qputenv("WARLOG_CACHE_DIR", (settings_.path() + QStringLiteral("/snapshot-cache")).toLocal8Bit());
    app_ = std::make_unique<QApplication>(argc_, argv_);
    QCoreApplication::setOrganizationName(QStringLiteral("warlog-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("test_viewer"));
  }
  void TearDown() override { app_.reset(); }

 private:
  int argc_ = 1;
  char name_[16] = "test_viewer";
  char* argv_[2] = {name_, nullptr};
  QTemporaryDir settings_;
  std::unique_ptr<QApplication> app_;
};

[[maybe_unused]] ::testing::Environment* const kQtEnvironment =
    ::testing::AddGlobalTestEnvironment(new QtEnvironment);

}  // namespace
