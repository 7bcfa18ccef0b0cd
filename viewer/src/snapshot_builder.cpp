#include "snapshot_builder.hpp"

namespace warlog::viewer {

SnapshotBuilder::SnapshotBuilder(std::shared_ptr<const replay::Archive> archive, core::GameId game, core::Seq every,
                                 QObject* parent)
    : QObject(parent), game_(game) {
  // The worker holds the Archive: it stays open until the build ends.
  thread_.reset(QThread::create([this, archive = std::move(archive), game, every] {
    auto built = replay::build_snapshots(*archive, game, every, [this](core::Seq done, core::Seq total) {
      emit progress(done, total);
      return !stop_.load();
    });
    if (!built) {
      emit finished(false, tr("Snapshots not laid (seeks fold from the start): %1")
                               .arg(QString::fromStdString(built.error().message)));
    } else if (built->cancelled) {
      emit finished(false, tr("Snapshots stopped after %1 events").arg(built->events));
    } else {
      emit finished(true, tr("Snapshots laid: %1 over %2 events").arg(built->snapshots).arg(built->events));
    }
  }));
  thread_->start(QThread::LowPriority);
}

SnapshotBuilder::~SnapshotBuilder() {
  stop_ = true;
  if (thread_) thread_->wait();
}

}  // namespace warlog::viewer
