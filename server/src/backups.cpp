// server::Backups (backups.hpp).

#include "backups.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

extern char** environ;

namespace warlog::server {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kPrefix = "warlog-backup-";
constexpr std::string_view kUnverified = "-UNVERIFIED";

struct Ran {
  int code = -1;    // the exit code; -N: killed by signal N
  std::string out;  // stdout and stderr together
};

// `program args...` in a process of its own: stdin /dev/null, its output
// read here until it ends. Its own process group (a Ctrl-C at the server's
// terminal does not cut a copy short: the server lets it finish) and
// default signals (the server blocks SIGINT and SIGTERM in its threads, and
// a blocked mask would be inherited).
Ran run(const std::string& program, const std::vector<std::string>& args) {
  Ran ran;
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    ran.out = fmt::format("cannot make a pipe: {}", std::strerror(errno));
    return ran;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
  posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) sigaddset(&defaults, sig);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
  std::vector<std::string> strings{program};
  strings.insert(strings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& s : strings) argv.push_back(s.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, program.c_str(), &fa, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  ::close(fds[1]);
  if (rc != 0) {
    ::close(fds[0]);
    ran.out = fmt::format("cannot run {}: {}", program, std::strerror(rc));
    return ran;
  }
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n > 0) {
      ran.out.append(buf, static_cast<std::size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      break;
    }
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  ran.code = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
  return ran;
}

// The last non-empty line of `text`, or the line a verify names its failure in.
std::string last_line(const std::string& text) {
  std::istringstream in(text);
  std::string line, last;
  while (std::getline(in, line)) {
    if (!line.empty()) last = line;
  }
  return last.empty() ? std::string("(no output)") : last;
}

std::string verify_failure(const Ran& v) {
  std::istringstream in(v.out);
  std::string line;
  while (std::getline(in, line)) {
    for (const char* word : {"BROKEN", "INVALID", "REFUSED", "warlog:"}) {
      if (line.find(word) != std::string::npos) return line.substr(line.find_first_not_of(' '));
    }
  }
  return last_line(v.out);
}

std::string exit_words(int code) {
  return code >= 0 ? fmt::format("exit {}", code) : fmt::format("killed by signal {}", -code);
}

// "games: N" and "events: N" of the BACKUP file `warlog backup` writes.
std::pair<std::string, std::string> counts(const fs::path& backup) {
  std::ifstream in(backup / "BACKUP");
  std::string line, games = "?", events = "?";
  while (std::getline(in, line)) {
    if (line.starts_with("games: ")) games = line.substr(7);
    if (line.starts_with("events: ")) events = line.substr(8);
  }
  return {games, events};
}

std::string utc_stamp() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", &tm);
  return buf;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

Backups::Backups(BackupPlan plan, std::function<std::uint64_t()> writes, std::function<void(const std::string&)> log)
    : plan_(std::move(plan)), writes_(std::move(writes)), log_(std::move(log)), thread_([this] { loop(); }) {}

Backups::~Backups() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void Backups::loop() {
  // The first period always backs up (nothing is backed up by this server
  // yet); after that only when the writer wrote since the last one written
  // (a copy that failed is tried again every period).
  bool made = false;
  std::uint64_t made_at = 0;
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, plan_.every, [this] { return stopping_; })) {
    lock.unlock();
    const std::uint64_t writes = writes_();
    if (!made || writes != made_at) {
      if (once()) {
        made = true;
        made_at = writes;
      }
    }
    lock.lock();
  }
}

bool Backups::once() {
  const auto start = std::chrono::steady_clock::now();
  std::error_code ec;
  fs::create_directories(plan_.dir, ec);
  if (ec) {
    log_(fmt::format("BACKUP FAILED: cannot create {}: {}; serving goes on, the next try in {} s", plan_.dir,
                     ec.message(), plan_.every.count()));
    return false;
  }
  // Backups hold every hand: the folder is the server's user's alone.
  fs::permissions(plan_.dir, fs::perms::owner_all, fs::perm_options::replace, ec);
  const std::string stamp = utc_stamp();
  fs::path target = fs::path(plan_.dir) / fmt::format("{}{}", kPrefix, stamp);
  for (int n = 2; fs::exists(target, ec); ++n) target = fs::path(plan_.dir) / fmt::format("{}{}-{}", kPrefix, stamp, n);

  const Ran backup = run(plan_.program, {"backup", "--store", plan_.store, target.string()});
  if (backup.code != 0) {
    log_(fmt::format("BACKUP FAILED ({}): {}; serving goes on, the next try in {} s", exit_words(backup.code),
                     last_line(backup.out), plan_.every.count()));
    return false;
  }
  const double copy_s = seconds_since(start);
  const Ran verify = run(plan_.program, {"verify", "--store", target.string()});
  const auto [games, events] = counts(target);
  const auto bytes = fs::file_size(target / "data.mdb", ec);
  const std::string size =
      ec ? std::string("? KiB") : fmt::format("{:.1f} KiB", static_cast<double>(bytes) / 1024);
  const std::string verdict =
      verify.code == 0 ? std::string("verify ok")
                       : fmt::format("VERIFY FAILED ({}): {}", exit_words(verify.code), verify_failure(verify));
  if (verify.code != 0) {
    // Kept for a judge to look at, named so, and never counted as a backup to keep.
    fs::path renamed = target;
    renamed += kUnverified;
    fs::rename(target, renamed, ec);
    if (!ec) target = renamed;
  }
  log_(fmt::format("backup {}: {} game{}, {} events, {}, {}, in {:.2f} s (copy {:.2f} s)", target.string(), games,
                   games == "1" ? "" : "s", events, size, verdict, seconds_since(start), copy_s));
  // Only a backup that verified counts towards --backup-keep, and only then
  // are older ones removed: a store that starts failing verify never costs
  // a good backup (review of 6 December).
  if (plan_.keep > 0 && verify.code == 0) {
    std::vector<fs::path> old;
    for (const auto& e : fs::directory_iterator(plan_.dir, ec)) {
      const std::string name = e.path().filename().string();
      if (name.starts_with(kPrefix) && !name.ends_with(kUnverified) && fs::exists(e.path() / "BACKUP", ec)) {
        old.push_back(e.path());
      }
    }
    std::sort(old.begin(), old.end());
    for (std::size_t i = 0; i + plan_.keep < old.size(); ++i) fs::remove_all(old[i], ec);
  }
  return true;  // written; a failed verify was logged, and the same state is not copied again
}

}  // namespace warlog::server
