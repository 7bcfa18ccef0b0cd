// run_isolated_work: a verb's whole store work in one forked child, its
// stderr relayed, a death by a fault signal named with the damaged page.

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <stdexcept>

#include "isolate_detail.hpp"
#include "warlog/replay/isolate.hpp"

namespace warlog::replay {

namespace {

// Set in the child: its stderr is the relay's pipe, the caller's a terminal.
bool g_relayed_terminal = false;
std::atomic<pid_t> g_work_child{0};

extern "C" void pass_on(int sig) {
  if (const pid_t child = g_work_child.load(); child > 0) ::kill(child, sig);
}

bool is_fault(int sig) { return sig == SIGSEGV || sig == SIGBUS || sig == SIGABRT || sig == SIGFPE || sig == SIGILL; }

// LMDB's own line before it aborts ("mdb.c:5921: Assertion 'IS_LEAF(mp)'
// failed in mdb_page_search_root()"): the death's one line replaces it.
bool is_lmdb_assertion(std::string_view line) {
  return line.find(": Assertion '") != std::string_view::npos && line.find("' failed in ") != std::string_view::npos;
}

void write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const auto n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // nowhere to write: the bytes are dropped, as stderr would
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

// Copies the child's stderr to ours as it comes (a progress line's \r
// too), holding only LMDB's assertion line; returns what was held.
std::string relay(int from) {
  std::string pending, held;
  char chunk[4096];
  for (;;) {
    const auto n = ::read(from, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    pending.append(chunk, static_cast<std::size_t>(n));
    std::size_t at = 0;
    for (std::size_t end; (end = pending.find_first_of("\n\r", at)) != std::string::npos; at = end + 1) {
      const std::string_view line(pending.data() + at, end + 1 - at);
      if (is_lmdb_assertion(line)) {
        held += line;
      } else {
        write_all(STDERR_FILENO, line);
      }
    }
    pending.erase(0, at);
    // A line still being written goes out now, unless it may be LMDB's.
    if (!pending.empty() && pending.find(": Assertion '") == std::string::npos) {
      write_all(STDERR_FILENO, pending);
      pending.clear();
    }
  }
  return held + pending;
}

struct SavedSignals {
  struct sigaction interrupt {}, quit {}, terminate {}, hangup {};
};

SavedSignals take_signals(pid_t child) {
  SavedSignals saved;
  g_work_child = child;
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  struct sigaction forward {};
  forward.sa_handler = pass_on;
  sigemptyset(&forward.sa_mask);
  ::sigaction(SIGINT, &ignore, &saved.interrupt);
  ::sigaction(SIGQUIT, &ignore, &saved.quit);
  ::sigaction(SIGTERM, &forward, &saved.terminate);
  ::sigaction(SIGHUP, &forward, &saved.hangup);
  return saved;
}

void give_back(const SavedSignals& saved) {
  ::sigaction(SIGINT, &saved.interrupt, nullptr);
  ::sigaction(SIGQUIT, &saved.quit, nullptr);
  ::sigaction(SIGTERM, &saved.terminate, nullptr);
  ::sigaction(SIGHUP, &saved.hangup, nullptr);
  g_work_child = 0;
}

[[noreturn]] void work_child(pid_t parent, int err_write, bool terminal, const std::function<int()>& work) {
  // Dies with warlog: a SIGKILL of the caller must not leave a writer behind.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(2);
  ::dup2(err_write, STDERR_FILENO);
  ::close(err_write);
  g_relayed_terminal = terminal;
  int code = 2;
  try {
    code = work();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "warlog: internal error: %s\n", e.what());
  }
  std::cout.flush();
  std::fflush(nullptr);
  ::_exit(code);
}

}  // namespace

bool stderr_is_terminal() noexcept { return g_relayed_terminal || ::isatty(STDERR_FILENO) == 1; }

WorkOutcome run_isolated_work(const std::string& store, const std::string& process, const std::function<int()>& work) {
  WorkOutcome out;
  if (isolation_disabled()) {
    out.exit_code = work();
    return out;
  }
  std::cout.flush();
  std::fflush(nullptr);  // nothing buffered is written twice
  int err[2];
  if (::pipe2(err, O_CLOEXEC) != 0) throw std::runtime_error(fmt::format("pipe: {}", std::strerror(errno)));
  const bool terminal = stderr_is_terminal();
  const pid_t parent = ::getpid();
  // Signals are blocked across fork so that one meant for the work cannot
  // reach the caller before it knows the child to pass it to.
  sigset_t all, before;
  sigfillset(&all);
  ::sigprocmask(SIG_BLOCK, &all, &before);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::sigprocmask(SIG_SETMASK, &before, nullptr);
    ::close(err[0]);
    work_child(parent, err[1], terminal, work);
  }
  ::close(err[1]);
  if (pid < 0) {
    const int e = errno;
    ::sigprocmask(SIG_SETMASK, &before, nullptr);
    ::close(err[0]);
    throw std::runtime_error(fmt::format("cannot start the process that opens the store: {}", std::strerror(e)));
  }
  const SavedSignals saved = take_signals(pid);
  ::sigprocmask(SIG_SETMASK, &before, nullptr);
  const std::string held = relay(err[0]);
  ::close(err[0]);
  const int status = detail::wait_for(pid);
  give_back(saved);
  if (WIFEXITED(status)) {
    write_all(STDERR_FILENO, held);  // not LMDB's last words after all
    out.exit_code = WEXITSTATUS(status);
    return out;
  }
  const int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  out.exit_code = 2;
  if (!is_fault(sig)) {
    out.passed_signal = sig;
    out.exit_code = 128 + sig;
    return out;
  }
  LostGame death;
  death.signal = sig;
  death.process = process;
  if (const auto found = detail::walk_in_child(store)) death.page = found->page;
  out.death = std::move(death);
  return out;
}

}  // namespace warlog::replay
