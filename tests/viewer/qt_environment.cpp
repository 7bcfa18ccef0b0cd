// One QApplication for the whole test program, on the offscreen platform,
// made before any test runs (gtest_main owns main()).

#include <gtest/gtest.h>

#include <QApplication>
#include <QStandardPaths>

#include <memory>

namespace {

class QtEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    // Settings (recent stores, layout) go to a test location, not the user's.
    QStandardPaths::setTestModeEnabled(true);
    app_ = std::make_unique<QApplication>(argc_, argv_);
    QCoreApplication::setOrganizationName(QStringLiteral("warlog-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("test_viewer"));
  }
  void TearDown() override { app_.reset(); }

 private:
  int argc_ = 1;
  char name_[16] = "test_viewer";
  char* argv_[2] = {name_, nullptr};
  std::unique_ptr<QApplication> app_;
};

[[maybe_unused]] ::testing::Environment* const kQtEnvironment =
    ::testing::AddGlobalTestEnvironment(new QtEnvironment);

}  // namespace
