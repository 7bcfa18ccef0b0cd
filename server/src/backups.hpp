#pragma once
// `warlog serve --backup-every PERIOD DIR` (docs/server.md › The event's key
// and backups): a thread of its own wakes every period and, when the writer
// wrote since the last backup (or none was made yet), runs `warlog backup`
// into DIR/warlog-backup-YYYYMMDDTHHMMSSZ, then `warlog verify` on it, each
// in a process of its own (posix_spawn of the warlog binary). So a backup is
// what the verb makes, with its isolation (its reader is a forked child,
// and the server, which has other threads, never forks itself), and the
// writer and the event loop wait for none of it: LMDB's copy is one read
// transaction beside the writer. Every outcome is one line in the log; a
// failed backup or verify is logged loudly and serving goes on.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace warlog::server {

struct BackupPlan {
  std::string store;
  std::string program;  // the warlog binary
  std::chrono::seconds every{0};
  std::string dir;
  unsigned keep = 0;  // the newest N kept; 0: all
};

class Backups {
 public:
  // `writes`: a count that grows with every write (Writer::stats), read on
  // the backup thread; `log` is called there too.
  Backups(BackupPlan plan, std::function<std::uint64_t()> writes, std::function<void(const std::string&)> log);
  Backups(const Backups&) = delete;
  Backups& operator=(const Backups&) = delete;
  ~Backups();  // lets a running backup finish (its rename is the last step), then joins

 private:
  void loop();
  bool once();  // true: a backup was written (its verify may have failed: logged)

  BackupPlan plan_;
  std::function<std::uint64_t()> writes_;
  std::function<void(const std::string&)> log_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;  // last: started once the rest is built
};

}  // namespace warlog::server
