#pragma once
// Lays a game's snapshots in the user's cache on a worker thread, so that a
// game opened here for the first time (a store from elsewhere brings none)
// seeks fast from then on, and the window stays live meanwhile. A resource:
// one build, owned by the window; destroying it stops the build and waits
// (what was written stays; each snapshot is whole).
//
// The worker calls replay::build_snapshots, which is safe beside seeks on
// the GUI thread: the Archive is shared and thread-safe, each side has its
// own read transactions, and the cache serialises its writes.

#include <QObject>
#include <QThread>

#include <atomic>
#include <memory>

#include "warlog/replay/seek.hpp"

namespace warlog::viewer {

class SnapshotBuilder : public QObject {
  Q_OBJECT

 public:
  // Starts building at once. `every` as replay::build_snapshots.
  SnapshotBuilder(std::shared_ptr<const replay::Archive> archive, core::GameId game,
                  core::Seq every = replay::kDefaultSnapshotEvery, QObject* parent = nullptr);
  ~SnapshotBuilder() override;

  [[nodiscard]] core::GameId game() const noexcept { return game_; }

 signals:
  // From the worker, delivered on the owner's thread (queued).
  void progress(quint64 done, quint64 total);
  // Once, when the build ends: how it went, for the status bar.
  void finished(bool ok, const QString& message);

 private:
  core::GameId game_ = 0;
  std::atomic<bool> stop_{false};
  std::unique_ptr<QThread> thread_;
};

}  // namespace warlog::viewer
